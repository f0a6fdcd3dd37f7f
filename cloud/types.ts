import type { CostExplorerPart, Inventory, PartName } from '../domain/scans/inventory';
import type { RoleTarget } from '../domain/onboarding/role';
import type { MemberAwsStatus } from '../domain/accounts/organizations';
import type { Checkpoint, ReadOutcome } from '../domain/scans/scan-progress';

// The seam between Sentinel and a cloud provider. Activities use it; the API uses it only to learn the
// service's own account id. Temporary credentials never cross it: they stay inside the provider.

/** Outcome of trying the cross-account role. A failure carries a reason a user can act on. */
export type AccessCheck =
  | { ok: true }
  | {
      ok: false;
      reason: string;
      code: 'role_missing' | 'trust_policy_wrong' | 'external_id_mismatch' | 'access_denied';
    };

/** A member account as the organization reports it; `ouPath` runs from the root: `Root/Workloads/Prod`. */
export interface OrganizationMember {
  awsAccountId: string;
  name: string;
  status: Exclude<MemberAwsStatus, 'REMOVED'>;
  ouPath: string;
}

/**
 * What the organization's management role reads: the organization and every member account, or a reason a user can
 * act on (the role refused, the account not in an organization, the role not allowed to list it).
 */
export type OrganizationDescription =
  | { ok: true; organization: { id: string; managementAccountId: string }; accounts: OrganizationMember[] }
  | {
      ok: false;
      reason: string;
      code: Exclude<AccessCheck, { ok: true }>['code'] | 'not_in_organization' | 'organizations_access_denied';
    };

export interface CollectionProgress {
  done: number;
  total: number;
  /** The read that settled last. */
  last: string;
}

/** The event forwarder Sentinel expects in an account: the ingestion URL its API destinations must post to. */
export interface ExpectedForwarder {
  /** The service's public base URL and EVENT_INGEST_PATH. */
  endpoint: string;
}

export interface CollectOptions {
  /** Reads settled by an earlier attempt of this scan: not read again. */
  checkpoint?: Checkpoint;
  /** Parts to take as they are instead of reading them (Cost Explorer bills each request to the customer). */
  reuse?: Partial<Pick<Inventory, CostExplorerPart>>;
  /** Called as each read settles for good: the caller keeps them for a retry. */
  onRead?: (key: string, outcome: ReadOutcome) => void;
  onProgress?: (progress: CollectionProgress) => void;
  /** The scan's last attempt: reads that fail now are left unread instead of failing the collection. */
  finalAttempt?: boolean;
  /**
   * The event forwarder the account should have: given when the account has an event key. Absent: it was connected
   * without event forwarding, and the forwarder is not read (its checks have nothing to judge).
   */
  eventForwarder?: ExpectedForwarder;
  /** A targeted rescan: only these parts are read; the others are `OUTSIDE_TARGETED_SCAN` (domain/scans/inventory.ts). */
  parts?: readonly PartName[];
  /**
   * Aborted when the attempt is given up (its activity cancelled or timed out): no new call starts, reads cut
   * short are not reported through onRead (a later attempt reads them), and the collection rejects.
   */
  signal?: AbortSignal;
}

export interface CloudProvider {
  readonly kind: 'aws' | 'sandbox';
  /** The AWS account customer roles must trust. */
  sentinelAccountId(): Promise<string>;
  /** Assumes the customer's role with our ExternalId and checks it is set up as the snippet creates it. */
  checkAccess(target: RoleTarget): Promise<AccessCheck>;
  /**
   * Reads the account's inventory through the role. What cannot be read is "not evaluated" or unread; only a
   * role that cannot be assumed at all throws (RoleUnavailableError), and reads that may succeed on a later
   * attempt throw IncompleteCollectionError (unless `finalAttempt`).
   */
  collectInventory(target: RoleTarget, options?: CollectOptions): Promise<Inventory>;
  /**
   * Assumes the organization's management role (`target.awsAccountId` is the management account) with the
   * organization's ExternalId and lists the organization. Faults that may pass (throttling, 5xx) throw.
   */
  describeOrganization(target: RoleTarget): Promise<OrganizationDescription>;
}

/** The role can no longer be assumed: the scan records the connectivity finding instead of an inventory. */
export class RoleUnavailableError extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'RoleUnavailableError';
  }
}

/** Some reads failed in a way a later attempt may not: the scan's activity is retried, and reads only those. */
export class IncompleteCollectionError extends Error {
  constructor(readonly failed: { key: string; reason: string }[]) {
    super(
      `${failed.length} read(s) of the account failed and will be retried: ${failed.map((f) => `${f.key} (${f.reason})`).join('; ')}`,
    );
    this.name = 'IncompleteCollectionError';
  }
}
