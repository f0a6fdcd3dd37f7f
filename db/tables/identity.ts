import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';
import type { PlanId } from '../../domain/tenancy/plans';
import type { Role } from '../../domain/tenancy/roles';
import type { TenantStatus } from '../../domain/tenancy/tenants';

export type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
export type CreatedAt = ColumnType<Date, Date | string | undefined, never>;

export interface TenantsTable {
  id: string;
  name: string;
  plan: Generated<PlanId>;
  /** Bumped on every plan change: account workflows keep the newest plan they are told of. */
  plan_revision: Generated<number>;
  status: Generated<TenantStatus>;
  stripe_customer_id: string | null;
  /** The Checkout Session last opened for the tenant, until Stripe reports it completed or expired. */
  pending_checkout_session_id: string | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
}
export type TenantRow = Selectable<TenantsTable>;
export type NewTenant = Insertable<TenantsTable>;
export type TenantUpdate = Updateable<TenantsTable>;

export interface UsersTable {
  id: string;
  tenant_id: string;
  email: string;
  name: string;
  role: Role;
  password_hash: string | null;
  /** Id tokens issued before this are refused (set by a password reset); null: none are. */
  sessions_valid_after: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** When the user proved the address (verification link, accepted invitation, password reset); null: not yet. */
  email_verified_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  created_at: CreatedAt;
  updated_at: Timestamp;
}
export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;

/** One sign-in and everything refreshed from it; its id is the `sid` of its id tokens. */
export interface SessionsTable {
  id: string;
  user_id: string;
  created_at: CreatedAt;
  /** Logout, a refresh token presented twice, a password reset: its id tokens are refused from then on. */
  ended_at: Timestamp | null;
}

export interface RefreshTokensTable {
  id: string;
  user_id: string;
  /** Null for tokens issued before sessions existed: they start one at their next refresh. */
  session_id: string | null;
  token_hash: string;
  expires_at: Timestamp;
  revoked_at: Timestamp | null;
  created_at: CreatedAt;
}
export type RefreshTokenRow = Selectable<RefreshTokensTable>;

/** A client address's limit key (domain/tenancy/client-address.ts) the user signed in from, and when last. */
export interface SignInSourcesTable {
  user_id: string;
  source: string;
  last_signed_in_at: Timestamp;
}

export interface InvitationsTable {
  id: string;
  tenant_id: string;
  user_id: string;
  token_hash: string;
  expires_at: Timestamp;
  accepted_at: Timestamp | null;
  created_at: CreatedAt;
}

/** A single-use link mailed to a user: password resets and e-mail verifications have one shape. */
export interface UserLinksTable {
  id: string;
  user_id: string;
  token_hash: string;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  created_at: CreatedAt;
}
export type PasswordResetsTable = UserLinksTable;
export type EmailVerificationsTable = UserLinksTable;

export interface RateLimitsTable {
  key: string;
  window_start: Timestamp;
  count: number;
}
