// The states of a connected account and of its scans, as the database stores them and the API shows them.

export const ACCOUNT_STATUSES = ['PENDING', 'ACTIVE', 'DISCONNECTED'] as const;
export type AccountStatus = (typeof ACCOUNT_STATUSES)[number];

/** Why a scan ran: the one verification starts, the plan's schedule, or a request. */
/** `event`: a targeted rescan the account's own events asked for (domain/events/). */
export const SCAN_TRIGGERS = ['initial', 'scheduled', 'manual', 'event'] as const;
export type ScanTrigger = (typeof SCAN_TRIGGERS)[number];

/** `failed`: the role could not be assumed, too little was read to score, or the collection gave up. */
export const SCAN_STATUSES = ['running', 'succeeded', 'failed'] as const;
export type ScanStatus = (typeof SCAN_STATUSES)[number];
