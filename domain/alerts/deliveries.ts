// An alert's delivery to one channel, and each attempt at it.

/** `trigger` carries the alert; `resolve` closes the paging incident it opened. */
export const DELIVERY_KINDS = ['trigger', 'resolve'] as const;
export type DeliveryKind = (typeof DELIVERY_KINDS)[number];

/** `held`: an e-mail delivery that sent nothing, every address being held back (see domain/alerts/recipients.ts). */
export const DELIVERY_STATUSES = ['pending', 'sending', 'delivered', 'failed', 'held'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export const ATTEMPT_OUTCOMES = ['delivered', 'retryable', 'permanent'] as const;
export type AttemptOutcome = (typeof ATTEMPT_OUTCOMES)[number];
