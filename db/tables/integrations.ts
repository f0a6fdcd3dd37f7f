import type { ExportStatus } from '../../domain/records/exports';
import type { PlanId } from '../../domain/tenancy/plans';
import type { CreatedAt, Timestamp } from './identity';

export interface ExportsTable {
  id: string;
  tenant_id: string;
  account_id: string;
  requested_by: string | null;
  status: ExportStatus;
  storage_key: string | null;
  created_at: CreatedAt;
  completed_at: Timestamp | null;
}

export interface SlackInstallationsTable {
  id: string;
  tenant_id: string;
  team_id: string;
  team_name: string | null;
  bot_user_id: string | null;
  bot_token_encrypted: string;
  installed_by: string | null;
  created_at: CreatedAt;
}

export interface OauthStatesTable {
  state_hash: string;
  provider: 'slack';
  tenant_id: string;
  user_id: string;
  expires_at: Timestamp;
  used_at: Timestamp | null;
}

export interface StripeSubscriptionsTable {
  id: string;
  tenant_id: string;
  plan: PlanId;
  /** Stripe's own subscription status, stored as Stripe sends it (see core/billing/stripe-events.ts). */
  status: string;
  current_period_end: Timestamp | null;
  /** Creation time of the last Stripe event applied to the row (events arrive out of order). */
  last_event_at: Timestamp;
  updated_at: Timestamp;
}

export interface StripeEventsTable {
  id: string;
  type: string;
  received_at: CreatedAt;
}
