// How long history is kept (docs/decisions.md, "Data retention"). A daily run deletes what is older.

/** Audit events: who did what, from where. */
export { AUDIT_RETENTION_DAYS } from '../tenancy/audit';
/** Scans (their alert events, deliveries and checkpoints go with them); an account's latest compliance scan stays. */
export const SCAN_RETENTION_DAYS = 400;
/** The account's events (the timeline, GET /accounts/{account_id}/events), counted from their arrival. */
export const EVENT_RETENTION_DAYS = 30;
/** Event batches: like scans, what alert events fired on (their alert events go with them). */
export const EVENT_BATCH_RETENTION_DAYS = SCAN_RETENTION_DAYS;
/** Resolved signals, counted from their resolution; open ones are kept however old. */
export const RESOLVED_SIGNAL_RETENTION_DAYS = 400;
/** Score history: the API shows at most a year of it. */
export const SCORE_HISTORY_RETENTION_DAYS = 365;
/** Settled alert deliveries and their attempts (pending ones are kept until they settle). */
export const DELIVERY_RETENTION_DAYS = 90;
/** Longer than the longest rate-limit window (a day): an older window counts nothing. */
export const RATE_LIMIT_WINDOW_RETENTION_SECONDS = 2 * 24 * 60 * 60;
/** Rows deleted per statement: each batch holds its locks briefly. */
export const RETENTION_BATCH = 5_000;
