import {
  type AccessCheck,
  type CloudProvider,
  type CollectOptions,
  type OrganizationDescription,
  type OrganizationMember,
  RoleUnavailableError,
} from '../../cloud/types';
import { type Inventory, onlyParts, type PartName } from '../../domain/scans/inventory';
import type { RoleTarget } from '../../domain/onboarding/role';
import { cleanInventory } from './inventory';

/**
 * A cloud whose answers the test sets per AWS account, for workflow tests that need the role to break and
 * recover, or the account to change, on cue. (API tests use the real AWS provider against moto instead.)
 */
export class ScriptedCloud implements CloudProvider {
  readonly kind = 'sandbox' as const;
  private readonly denied = new Map<string, string>();
  private readonly inventories = new Map<string, (at: Date) => Inventory>();
  private readonly organizations = new Map<string, OrganizationMember[]>();
  /**
   * Every collection asked for, in order, with the parts a targeted rescan read (undefined: all of them) and the
   * ingestion URL of the event forwarder it expected (only when it expected one).
   */
  readonly collections: { awsAccountId: string; parts?: PartName[]; eventForwarder?: string }[] = [];
  /** How many times each management account's organization was described (a sync or a verification each). */
  readonly describes = new Map<string, number>();
  /** The time a scan observes the account at; the harness points it at the test server's (skipped) clock. */
  private clock: () => Promise<Date> = async () => new Date();

  async sentinelAccountId(): Promise<string> {
    return '000000000000';
  }

  async checkAccess(target: RoleTarget): Promise<AccessCheck> {
    const reason = this.denied.get(target.awsAccountId);
    return reason ? { ok: false, code: 'access_denied', reason } : { ok: true };
  }

  async collectInventory(target: RoleTarget, options: CollectOptions = {}): Promise<Inventory> {
    this.collections.push({
      awsAccountId: target.awsAccountId,
      parts: options.parts && [...options.parts],
      ...(options.eventForwarder ? { eventForwarder: options.eventForwarder.endpoint } : {}),
    });
    const reason = this.denied.get(target.awsAccountId);
    if (reason) throw new RoleUnavailableError(reason);
    const at = await this.clock();
    const scripted = this.inventories.get(target.awsAccountId);
    const inventory = scripted ? scripted(at) : cleanInventory(at.toISOString());
    return options.parts ? onlyParts(inventory, options.parts) : inventory;
  }

  async describeOrganization(target: RoleTarget): Promise<OrganizationDescription> {
    this.describes.set(target.awsAccountId, (this.describes.get(target.awsAccountId) ?? 0) + 1);
    const reason = this.denied.get(target.awsAccountId);
    if (reason) return { ok: false, code: 'access_denied', reason };
    const accounts = this.organizations.get(target.awsAccountId) ?? [];
    return {
      ok: true,
      organization: { id: `o-${target.awsAccountId}`, managementAccountId: target.awsAccountId },
      accounts,
    };
  }

  /** The member accounts the organization managed from `managementAccountId` reports from now on. */
  setOrganization(managementAccountId: string, accounts: OrganizationMember[]): void {
    this.organizations.set(managementAccountId, accounts);
  }

  deny(awsAccountId: string, reason = 'The role cannot be assumed'): void {
    this.denied.set(awsAccountId, reason);
  }

  allow(awsAccountId: string): void {
    this.denied.delete(awsAccountId);
  }

  /** Scans observe the account at this clock's time from now on. */
  useClock(clock: () => Promise<Date>): void {
    this.clock = clock;
  }

  /** What the account looks like from now on (by default: a clean account). */
  setInventory(awsAccountId: string, inventory: (at: Date) => Inventory): void {
    this.inventories.set(awsAccountId, inventory);
  }
}
