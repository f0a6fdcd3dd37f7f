// An AWS Organization connected to a tenant: its lifecycle, what each member account is to Sentinel, and the tags
// an organization gives the accounts it connects (docs/decisions.md, "Organizations").

export const ORGANIZATION_STATUSES = ['PENDING', 'ACTIVE', 'DISCONNECTED'] as const;
export type OrganizationStatus = (typeof ORGANIZATION_STATUSES)[number];

/** A member account as AWS Organizations reports it; REMOVED: no longer in the organization. */
export const MEMBER_AWS_STATUSES = ['ACTIVE', 'SUSPENDED', 'PENDING_CLOSURE', 'REMOVED'] as const;
export type MemberAwsStatus = (typeof MEMBER_AWS_STATUSES)[number];

/**
 * What Sentinel does with a member account. monitored: a connected account of the tenant, verified; awaiting_role:
 * connected, its role not there yet (the StackSet has not reached it); not_monitored_plan_limit: the plan has no room
 * left, so no account was connected; disconnected: closed, gone from the organization, or disconnected by a user;
 * management_account: the StackSet does not deploy there, so it is connected on its own or not at all.
 */
export const MEMBER_STATES = [
  'monitored',
  'awaiting_role',
  'not_monitored_plan_limit',
  'disconnected',
  'management_account',
] as const;
export type MemberState = (typeof MEMBER_STATES)[number];

/** Minutes between two syncs of an organization, unless ORGANIZATION_SYNC_MINUTES says otherwise. */
export const DEFAULT_ORGANIZATION_SYNC_MINUTES = 60;

/** Account tags are at most this long (core/schemas/accounts.ts). */
const TAG_MAX = 64;
const OU_TAG = 'ou:';
const NAME_TAG = 'name:';

/** The tags an organization keeps on the accounts it connected: where they sit in the organization, and their name. */
export function organizationTags({ ouPath, name }: { ouPath: string; name: string }): string[] {
  return [`${OU_TAG}${ouPath}`, `${NAME_TAG}${name}`]
    .map((tag) => tag.slice(0, TAG_MAX).trim())
    .filter((tag) => !tag.endsWith(':'));
}

/**
 * An account's tags after a sync: the ones the organization manages (`ou:`, `name:`) as the organization has them now,
 * every other tag as it was (a user's, or the organization's own `tags`).
 */
export function mergeTags({
  current,
  extra,
  ouPath,
  name,
}: {
  current: readonly string[];
  extra: readonly string[];
  ouPath: string;
  name: string;
}): string[] {
  const kept = current.filter((tag) => !tag.startsWith(OU_TAG) && !tag.startsWith(NAME_TAG));
  return [...new Set([...kept, ...extra, ...organizationTags({ ouPath, name })])];
}

export const sameTags = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((tag, i) => tag === b[i]);

/** Member accounts AWS no longer runs: what Sentinel connected there is disconnected. */
export const isGone = (status: MemberAwsStatus) => status !== 'ACTIVE';
