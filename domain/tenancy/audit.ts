// The security-relevant actions the audit log records (GET /audit-log; docs/decisions.md, "Audit log").

export const AUDIT_ACTIONS = [
  'auth.login_succeeded',
  'auth.login_failed',
  'auth.logout',
  'auth.refresh_token_reused',
  'auth.password_reset',
  'auth.email_verified',
  'user.invited',
  'user.invitation_accepted',
  'user.name_changed',
  'user.role_changed',
  'user.removed',
  'account.connected',
  'account.verified',
  'account.scan_requested',
  'account.disconnected',
  'account.event_key_rotated',
  'account.region_baseline_extended',
  'organization.connected',
  'organization.verified',
  'organization.disconnected',
  'alert_rule.created',
  'alert_rule.updated',
  'alert_rule.deleted',
  'alert_rule.secrets_revealed',
  'alert.acknowledged',
  'signal.risk_accepted',
  'signal.risk_acceptance_undone',
  'export.panic_created',
  'export.panic_downloaded',
  'export.csv_downloaded',
  'export.compliance_report_downloaded',
  'billing.plan_changed',
  'detection.created',
  'detection.updated',
  'detection.deleted',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** How long audit events are kept, at least. */
export const AUDIT_RETENTION_DAYS = 400;
