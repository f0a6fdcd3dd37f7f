// Who an alert e-mail may go to. A tenant mails nobody who has not asked for it: until its owner has proved
// their address nobody gets alert e-mail, the owner included (anyone can sign up with another person's address,
// and write the alert's subject through a rule's name); afterwards the tenant's verified users do, and any other
// address after confirming once (a confirmation e-mail, and nothing else until it is used; a new one only once its
// link has expired). Anybody can unsubscribe.

/** How long a confirmation link works; an address still unconfirmed after it may be asked again. */
export const CONFIRMATION_LINK_DAYS = 7;

export const HOLD_REASONS = [
  'owner_unverified',
  'awaiting_confirmation',
  'unsubscribed',
  'tenant_hourly_limit',
] as const;
export type HoldReason = (typeof HOLD_REASONS)[number];

export interface HeldRecipient {
  address: string;
  reason: HoldReason;
}

export interface RecipientState {
  confirmed: boolean;
  unsubscribed: boolean;
  /** A confirmation e-mail whose link still works went out already. */
  confirmationSent: boolean;
}

export interface RecipientFacts {
  ownerVerified: boolean;
  /** Addresses of the tenant's users who have proved them. */
  verifiedUsers: ReadonlySet<string>;
  /** What is known of each other address (absent: never seen). */
  recipients: ReadonlyMap<string, RecipientState>;
}

export interface RecipientPlan {
  send: string[];
  /** Addresses to send their one confirmation e-mail now (each is also held). */
  confirm: string[];
  held: HeldRecipient[];
}

export function planRecipients(addresses: readonly string[], facts: RecipientFacts): RecipientPlan {
  const plan: RecipientPlan = { send: [], confirm: [], held: [] };
  for (const address of new Set(addresses.map((a) => a.toLowerCase()))) {
    const known = facts.recipients.get(address);
    if (known?.unsubscribed) plan.held.push({ address, reason: 'unsubscribed' });
    else if (!facts.ownerVerified) plan.held.push({ address, reason: 'owner_unverified' });
    else if (facts.verifiedUsers.has(address) || known?.confirmed) plan.send.push(address);
    else {
      plan.held.push({ address, reason: 'awaiting_confirmation' });
      if (!known?.confirmationSent) plan.confirm.push(address);
    }
  }
  return plan;
}

/** Past the tenant's hourly e-mail allowance: nothing is sent, every address is held for that reason. */
export function overHourlyLimit(plan: RecipientPlan): RecipientPlan {
  const limited = [...plan.send, ...plan.confirm.filter((a) => !plan.send.includes(a))];
  return {
    send: [],
    confirm: [],
    held: [
      ...plan.held.filter((h) => !limited.includes(h.address)),
      ...limited.map((address) => ({ address, reason: 'tenant_hourly_limit' as const })),
    ],
  };
}
