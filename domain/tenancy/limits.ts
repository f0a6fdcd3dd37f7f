// Rate limits. Values the spec leaves open; documented in the README's table and docs/decisions.md. Limits on
// an account are keyed by the tenant and the AWS account id, never by the account row, so no way of
// connecting an account again can make a new allowance.

// Every limit counted per client address counts by the address's limit key (domain/tenancy/client-address.ts): an
// IPv4 address, or an IPv6 /64.

/** Failed logins allowed per e-mail address from one client address within the window before 429. */
export const LOGIN_FAILURES_PER_EMAIL_AND_CLIENT = 5;
/** Failed logins allowed per client address within the window before 429 (covers e-mail spraying). */
export const LOGIN_FAILURES_PER_CLIENT = 20;
/**
 * Failed logins per account (per e-mail address, whatever the client addresses) past which sign-ins from sources that
 * never signed in to it are refused: 10 in the window, then 30 in a day, so a guesser spread over any number of
 * addresses waits 15 minutes, then a day. A source that signed in to the account before is never refused by them.
 */
export const LOGIN_FAILURES_PER_ACCOUNT = 10;
export const LOGIN_FAILURES_PER_ACCOUNT_PER_DAY = 30;
export const LOGIN_FAILURE_WINDOW_SECONDS = 15 * 60;
export const LOGIN_FAILURE_DAY_WINDOW_SECONDS = 24 * 60 * 60;
/** How long a source that signed in to an account stays known to it (each sign-in from it starts this again). */
export const KNOWN_SIGN_IN_SOURCE_DAYS = 90;

/** Sign-ups are counted per client address in windows of this length (SIGNUPS_PER_CLIENT_PER_HOUR fit in one). */
export const SIGNUP_WINDOW_SECONDS = 60 * 60;

/**
 * Manual scans are counted in hourly windows: per account, as many as the plan's `manual_scans_per_hour`; per
 * tenant, that many times the plan's account limit (so churning account ids buys nothing).
 */
export const MANUAL_SCAN_WINDOW_SECONDS = 60 * 60;

/** Panic exports per account per hour; each reads the account's whole history. */
export const PANIC_EXPORTS_PER_ACCOUNT = 10;
/** Panic exports per tenant per hour, whatever the accounts. */
export const PANIC_EXPORTS_PER_TENANT = 20;
export const PANIC_EXPORT_WINDOW_SECONDS = 60 * 60;

/**
 * Account rows a tenant may hold, disconnected ones included: twice its plan's account limit, and at least 5.
 * Each row keeps its history for good; connecting a disconnected account again reuses its row.
 */
export const accountRowLimit = (accountLimit: number): number => Math.max(5, accountLimit * 2);

/**
 * Verify attempts per account per hour: each one is an sts:AssumeRole by the service and an event in the workflow. An
 * organization's sync verifying a member account still waiting for its role counts here too.
 */
export const VERIFIES_PER_ACCOUNT = 10;
export const VERIFY_WINDOW_SECONDS = 60 * 60;

/**
 * Syncs asked for (POST /organizations/{org_id}/sync) per organization and per tenant per hour. Each one reads the
 * whole organization and verifies every member still waiting for its role; the scheduled syncs are not counted.
 * Keyed by the management account, like an account's limits, so connecting it again makes no new allowance.
 */
export const SYNCS_PER_ORGANIZATION = 10;
export const SYNCS_PER_TENANT = 20;
export const SYNC_WINDOW_SECONDS = 60 * 60;

/**
 * Live alert rules per tenant. With 10 channels a rule and 20 e-mail recipients a rule (core/schemas/alerts.ts),
 * one scan can notify at most 500 addresses, not the thousands uncapped rules allowed.
 */
export const ALERT_RULES_PER_TENANT = 25;

/**
 * Trusted principals in force per tenant (docs/decisions.md, "Trusted principals"). Ingestion reads them all for an
 * event that set off a detection: the cap bounds that read, and a tenant trusting more than this is no longer naming
 * its automation.
 */
export const TRUSTED_PRINCIPALS_PER_TENANT = 50;

/** Invitation e-mails (invites and resends together) per tenant per hour, and to one address per day. */
export const INVITATION_EMAILS_PER_TENANT = 50;
export const INVITATION_EMAIL_TENANT_WINDOW_SECONDS = 60 * 60;
export const INVITATION_EMAILS_PER_ADDRESS = 3;
export const INVITATION_EMAIL_ADDRESS_WINDOW_SECONDS = 24 * 60 * 60;

/** Password reset requests per client address and per address per hour; a link lives this many minutes. */
export const PASSWORD_RESETS_PER_CLIENT = 10;
export const PASSWORD_RESETS_PER_ADDRESS = 3;
export const PASSWORD_RESET_WINDOW_SECONDS = 60 * 60;
export const PASSWORD_RESET_TTL_MINUTES = 60;
/** Password reset confirmations per client address within LOGIN_FAILURE_WINDOW_SECONDS (a successful one taken back). */
export const PASSWORD_RESET_CONFIRMS_PER_CLIENT = 20;

/** The key of a limit on one AWS account of a tenant (see above: never the row). */
export const accountLimitKey = (kind: string, tenantId: string, awsAccountId: string) =>
  `${kind}:${tenantId}:${awsAccountId}`;

/**
 * E-mails (alerts and recipient confirmations, one per address) a tenant may send per hour: 200, or 4 per account
 * its plan allows when that is more (every account of an enterprise estate alerting two addresses at once).
 */
export const emailsPerTenantPerHour = (accountLimit: number): number => Math.max(200, accountLimit * 4);
export const TENANT_EMAIL_WINDOW_SECONDS = 60 * 60;

/** Verification links: a link lives this many hours; a user may ask for a new one this many times an hour. */
export const EMAIL_VERIFICATION_TTL_HOURS = 72;
export const EMAIL_VERIFICATION_RESENDS_PER_HOUR = 3;

/** Events one account's forwarder may deliver a minute (POST /ingest/aws/events): past it, 429 and EventBridge retries. */
export const EVENTS_PER_ACCOUNT_PER_MINUTE = 600;
/**
 * And what they may weigh: the request bodies of one account's key, in KiB a minute (4 MiB: 600 CloudTrail events of
 * 7 KB, several times what a busy account sends). The count alone let one key store a 1 MB event a request, 40 MB in
 * seconds; past either, 429 and EventBridge retries.
 */
export const EVENT_KIB_PER_ACCOUNT_PER_MINUTE = 4 * 1024;
/** Events in one ingestion request (EventBridge sends one; a batch is for replays and tests). */
export const EVENT_BATCH_LIMIT = 100;
/** How long a rotated-out event key keeps working, so the customer can update the connection in every region. */
export const EVENT_KEY_GRACE_HOURS = 24;

/**
 * A tenant's own detections (Sigma rules). Every event its accounts forward runs through the enabled ones, within
 * one budget per event whatever their number (domain/events/sigma/rule.ts, SIGMA_EVENT_FUEL); the cap bounds what
 * is compiled and held per tenant.
 */
export const SIGMA_DETECTIONS_PER_TENANT = 100;
