import type { Generated, Insertable, Selectable } from 'kysely';
import type { ChannelConfig, ChannelType } from '../../domain/alerts/channels';
import type { Scenario } from '../../domain/checks/types';
import type { AttemptOutcome, DeliveryKind, DeliveryStatus } from '../../domain/alerts/deliveries';
import type { HeldRecipient } from '../../domain/alerts/recipients';
import type { Json } from './accounts';
import type { CreatedAt, Timestamp } from './identity';

export interface AlertRulesTable {
  id: string;
  tenant_id: string;
  name: string;
  min_srs: Generated<number>;
  scenarios: Generated<Scenario[]>;
  channels: Json<ChannelConfig[]>;
  enabled: Generated<boolean>;
  version: Generated<number>;
  deleted_at: Timestamp | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
}
export type AlertRuleRow = Selectable<AlertRulesTable>;

export interface AlertRuleStatesTable {
  rule_id: string;
  account_id: string;
  rule_version: number;
  below_threshold: boolean;
  findings_digest: string;
  /** The scan or event batch the rule was last evaluated against (null only in a row the previous release wrote). */
  last_source_id: string | null;
  /** The same, as the previous release reads it: written until a later release drops it. */
  last_scan_id: string;
  alerted_fingerprints: Generated<string[]>;
  incident_open: Generated<boolean>;
  last_alert_id: string | null;
  findings_changed_since_alert: Generated<boolean>;
  updated_at: Timestamp;
}
export type AlertRuleStateRow = Selectable<AlertRuleStatesTable>;
export type NewAlertRuleState = Insertable<AlertRuleStatesTable>;

export interface AlertEventsTable {
  id: string;
  tenant_id: string;
  account_id: string;
  rule_id: string;
  /** The scan the alert fired on, or (for an alert on events) null and the event batch instead. */
  scan_id: string | null;
  event_batch_id: Generated<string | null>;
  srs_at_trigger: number;
  /** Whether that score read every core source of the account; null for alerts fired before this was kept. */
  srs_complete: boolean | null;
  scenarios_triggered: Generated<Scenario[]>;
  findings_digest: string;
  fired_at: Timestamp;
  acknowledged_at: Timestamp | null;
  acknowledged_by: string | null;
}
export type NewAlertEvent = Insertable<AlertEventsTable>;

export interface AlertDeliveriesTable {
  id: string;
  alert_id: string;
  tenant_id: string | null;
  scan_id: string | null;
  event_batch_id: Generated<string | null>;
  kind: Generated<DeliveryKind>;
  channel_index: number;
  channel_type: ChannelType;
  /** The channel config as it was when the alert fired. */
  channel: Json<ChannelConfig>;
  claimed_at: Timestamp | null;
  status: DeliveryStatus;
  attempts: Generated<number>;
  last_error: string | null;
  delivered_at: Timestamp | null;
  /** E-mail only: the addresses held back, and why (the rest were sent to). */
  held_recipients: Json<HeldRecipient[]> | null;
  created_at: CreatedAt;
}
export type NewAlertDelivery = Insertable<AlertDeliveriesTable>;

export interface DeliveryAttemptsTable {
  id: string;
  delivery_id: string;
  attempted_at: Timestamp;
  outcome: AttemptOutcome;
  http_status: number | null;
  error: string | null;
}
export type NewDeliveryAttempt = Insertable<DeliveryAttemptsTable>;

export interface EmailOutboxTable {
  id: string;
  idempotency_key: string;
  to_addresses: string[];
  subject: string;
  text_body: string;
  html_body: string | null;
  headers: Json<Record<string, string>> | null;
  created_at: CreatedAt;
}

/** An alert e-mail address of a tenant that is not (or was not) a verified user of it. */
export interface AlertRecipientsTable {
  tenant_id: string;
  address: string;
  confirmation_sent_at: Timestamp | null;
  confirmed_at: Timestamp | null;
  unsubscribed_at: Timestamp | null;
  created_at: CreatedAt;
}
