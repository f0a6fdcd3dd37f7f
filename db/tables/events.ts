import type { Generated } from 'kysely';
import type { Json } from './accounts';
import type { CreatedAt, Timestamp } from './identity';

/** The keys an account's event forwarder authenticates with, hashed (db/migrations/20261128T000100_account_events.ts). */
export interface AccountEventKeysTable {
  key_hash: string;
  tenant_id: string;
  account_id: string;
  created_at: CreatedAt;
  /** Null while the key is the account's current one; set when it is rotated out (24 hours later). */
  expires_at: Timestamp | null;
}

export interface AccountEventsTable {
  account_id: string;
  event_id: string;
  tenant_id: string;
  source: string;
  detail_type: string;
  event_name: string | null;
  region: string;
  event_time: Timestamp;
  actor: string | null;
  source_ip: string | null;
  /** The ids of the detections the event set off. */
  detections: Generated<string[]>;
  detail: Json<Record<string, unknown>>;
  received_at: Generated<Timestamp>;
  /** The detections trusted principals suppressed, and by which; null when none was. */
  suppressed: Json<SuppressedDetection[]> | null;
}

/** A detection the event set off that a trusted principal suppressed: it opened no signal. */
export interface SuppressedDetection {
  detection: string;
  trusted_principal_id: string;
}

/** The tenant's trusted principals (db/migrations/20261215T000300_trusted_principals.ts). */
export interface TrustedPrincipalsTable {
  id: string;
  tenant_id: string;
  /** Null: every account of the tenant. */
  account_id: string | null;
  principal: string;
  /** Null: every detection. */
  detections: string[] | null;
  reason: string;
  expires_at: Timestamp;
  created_by: string | null;
  created_by_email: string;
  created_at: CreatedAt;
  revoked_at: Timestamp | null;
  revoked_by: string | null;
}

export interface EventBatchesTable {
  id: string;
  tenant_id: string;
  account_id: string;
  /** The service groups a rescan should read (domain/events/types.ts SERVICE_GROUPS). */
  groups: string[];
  signals_opened: number;
  received_at: Timestamp;
  /** When the batch was acted on (its alerts and rescan: core/events/dispatch-batches.ts); null until then. */
  dispatched_at: Timestamp | null;
  /** When the alert rules were evaluated against this batch (once: a retry finds it set). */
  alerts_evaluated_at: Timestamp | null;
}

/** Each region of an account's event forwarder (db/migrations/20261130T000100_event_forwarding.ts). */
export interface EventForwardingRegionsTable {
  account_id: string;
  region: string;
  tenant_id: string;
  /** The region's first heartbeat; null while it sent none (then it is not watched). */
  first_heartbeat_at: Timestamp | null;
  /** The region's newest heartbeat, by the event's time bounded by its arrival (domain/events/forwarding-health.ts). */
  last_heartbeat_at: Timestamp | null;
  /** When the region last delivered an event other than a heartbeat. */
  last_event_at: Timestamp | null;
}

/** A window of a detection with memory (db/migrations/20261215T000200_detection_windows.ts). */
export interface DetectionWindowsTable {
  account_id: string;
  detection_id: string;
  key: string;
  window_start: Timestamp;
  tenant_id: string;
  count: number;
  distinct_values: Generated<string[]>;
  signalled: Generated<boolean>;
  updated_at: Timestamp;
}

/** When a principal last made a sensitive call (db/migrations/20261215T000200_detection_windows.ts). */
export interface PrincipalApiUsesTable {
  account_id: string;
  principal: string;
  api: string;
  tenant_id: string;
  last_used_at: Timestamp;
}
