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

export interface CloudProvider {
  readonly kind: 'aws' | 'sandbox';
  /** The AWS account customer roles must trust. */
  sentinelAccountId(): Promise<string>;
  /** Assumes the customer's role with our ExternalId and checks it is set up as the snippet creates it. */
  checkAccess(target: RoleTarget): Promise<AccessCheck>;
}
