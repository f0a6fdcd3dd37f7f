// Rate limits. Values the spec leaves open; documented in docs/decisions.md.

/** Failed logins allowed per e-mail address from one client address within the window before 429. */
export const LOGIN_FAILURES_PER_EMAIL_AND_CLIENT = 5;
/** Failed logins allowed per client address within the window before 429 (covers e-mail spraying). */
export const LOGIN_FAILURES_PER_CLIENT = 20;
/**
 * Failed logins per e-mail address from all client addresses (a guess spread over many addresses) past which
 * the clients that have failed on it are refused; a client that has not failed on it is never refused by it.
 */
export const LOGIN_FAILURES_PER_EMAIL = 50;
export const LOGIN_FAILURE_WINDOW_SECONDS = 15 * 60;

/** Manual scans are counted per account in windows of this length; the plan sets how many fit in one. */
export const MANUAL_SCAN_WINDOW_SECONDS = 60 * 60;
