import type { Inventory } from '../domain/inventory';

// The seam between Sentinel and a cloud provider. Activities use it; the API uses it only to learn the
// service's own account id. Temporary credentials never cross it: they stay inside the provider.

export interface RoleTarget {
  tenantId: string;
  awsAccountId: string;
  roleName: string;
  externalId: string;
}

/** Outcome of trying the cross-account role. A failure carries a reason a user can act on. */
export type AccessCheck =
  | { ok: true }
  | { ok: false; reason: string; code: 'role_missing' | 'trust_policy_wrong' | 'external_id_mismatch' | 'access_denied' };

export interface CollectOptions {
  /** Called between collection steps; the scan activity heartbeats from it. */
  onProgress?: (step: string) => void;
}

export interface CloudProvider {
  readonly kind: 'aws' | 'sandbox';
  /** The AWS account customer roles must trust. */
  sentinelAccountId(): Promise<string>;
  /** Assumes the customer's role with our ExternalId and checks it is set up as the snippet creates it. */
  checkAccess(target: RoleTarget): Promise<AccessCheck>;
  /**
   * Reads the account's inventory through the role. Parts that cannot be read are "not evaluated"; only a
   * role that cannot be assumed at all throws (RoleUnavailableError), as do transient errors (to be retried).
   */
  collectInventory(target: RoleTarget, options?: CollectOptions): Promise<Inventory>;
}

/** The role can no longer be assumed: the scan records the connectivity finding instead of an inventory. */
export class RoleUnavailableError extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'RoleUnavailableError';
  }
}
