// A tenant's standing, which billing moves: past_due while a payment is owed, canceled once the subscription ends.

export const TENANT_STATUSES = ['active', 'past_due', 'canceled', 'suspended'] as const;
export type TenantStatus = (typeof TENANT_STATUSES)[number];
