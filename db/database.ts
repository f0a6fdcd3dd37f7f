import type {
  AccountsTable,
  CostExplorerReadsTable,
  ScanCheckpointsTable,
  ScansTable,
  ScoreHistoryTable,
  SignalAcceptancesTable,
  SignalsTable,
} from './tables/accounts';
import type {
  AlertDeliveriesTable,
  AlertEventsTable,
  AlertRecipientsTable,
  AlertRuleStatesTable,
  AlertRulesTable,
  DeliveryAttemptsTable,
  EmailOutboxTable,
} from './tables/alerts';
import type { AttackPathAnalysesTable, AttackPathsTable } from './tables/attack-paths';
import type { AuditEventsTable } from './tables/audit';
import type {
  EmailVerificationsTable,
  InvitationsTable,
  PasswordResetsTable,
  RateLimitsTable,
  RefreshTokensTable,
  SessionsTable,
  SignInSourcesTable,
  TenantsTable,
  UsersTable,
} from './tables/identity';
import type {
  AccountEventKeysTable,
  AccountEventsTable,
  DetectionWindowsTable,
  EventBatchesTable,
  EventForwardingRegionsTable,
  TrustedPrincipalsTable,
  PrincipalApiUsesTable,
} from './tables/events';
import type { OrganizationAccountsTable, OrganizationsTable } from './tables/organizations';
import type { TenantDetectionsTable } from './tables/detections';
import type {
  ExportsTable,
  OauthStatesTable,
  SlackInstallationsTable,
  StripeEventsTable,
  StripeSubscriptionsTable,
} from './tables/integrations';

export interface Database {
  tenants: TenantsTable;
  users: UsersTable;
  refresh_tokens: RefreshTokensTable;
  sessions: SessionsTable;
  sign_in_sources: SignInSourcesTable;
  invitations: InvitationsTable;
  password_resets: PasswordResetsTable;
  email_verifications: EmailVerificationsTable;
  rate_limits: RateLimitsTable;
  audit_events: AuditEventsTable;
  accounts: AccountsTable;
  scans: ScansTable;
  signals: SignalsTable;
  score_history: ScoreHistoryTable;
  signal_acceptances: SignalAcceptancesTable;
  scan_checkpoints: ScanCheckpointsTable;
  cost_explorer_reads: CostExplorerReadsTable;
  alert_rules: AlertRulesTable;
  alert_rule_states: AlertRuleStatesTable;
  alert_events: AlertEventsTable;
  alert_deliveries: AlertDeliveriesTable;
  delivery_attempts: DeliveryAttemptsTable;
  alert_recipients: AlertRecipientsTable;
  email_outbox: EmailOutboxTable;
  exports: ExportsTable;
  slack_installations: SlackInstallationsTable;
  oauth_states: OauthStatesTable;
  stripe_subscriptions: StripeSubscriptionsTable;
  stripe_events: StripeEventsTable;
  organizations: OrganizationsTable;
  organization_accounts: OrganizationAccountsTable;
  account_event_keys: AccountEventKeysTable;
  account_events: AccountEventsTable;
  event_batches: EventBatchesTable;
  event_forwarding_regions: EventForwardingRegionsTable;
  trusted_principals: TrustedPrincipalsTable;
  detection_windows: DetectionWindowsTable;
  principal_api_uses: PrincipalApiUsesTable;
  tenant_detections: TenantDetectionsTable;
  attack_paths: AttackPathsTable;
  attack_path_analyses: AttackPathAnalysesTable;
}
