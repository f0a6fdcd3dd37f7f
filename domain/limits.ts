// Rate limits. Values the spec leaves open; documented in docs/decisions.md.

/** Failed logins allowed per e-mail address within the window before 429. */
export const LOGIN_FAILURES_PER_EMAIL = 5;
/** Failed logins allowed per client address within the window before 429 (covers e-mail spraying). */
export const LOGIN_FAILURES_PER_CLIENT = 20;
export const LOGIN_FAILURE_WINDOW_SECONDS = 15 * 60;

/** Manual scans are counted per account in windows of this length; the plan sets how many fit in one. */
export const MANUAL_SCAN_WINDOW_SECONDS = 60 * 60;
