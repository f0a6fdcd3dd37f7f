import { type AccessCheck, type CloudProvider, type RoleTarget, RoleUnavailableError } from '../../cloud/types';
import type { Inventory } from '../../domain/inventory';
import { cleanInventory } from './inventory';

/**
 * A cloud whose answers the test sets per AWS account, for workflow tests that need the role to break and
 * recover, or the account to change, on cue. (API tests use the real AWS provider against moto instead.)
 */
export class ScriptedCloud implements CloudProvider {
  readonly kind = 'sandbox' as const;
  private readonly denied = new Map<string, string>();
  private readonly inventories = new Map<string, (at: Date) => Inventory>();
  /** The time a scan observes the account at; the harness points it at the test server's (skipped) clock. */
  private clock: () => Promise<Date> = async () => new Date();

  async sentinelAccountId(): Promise<string> {
    return '000000000000';
  }

  async checkAccess(target: RoleTarget): Promise<AccessCheck> {
    const reason = this.denied.get(target.awsAccountId);
    return reason ? { ok: false, code: 'access_denied', reason } : { ok: true };
  }

  async collectInventory(target: RoleTarget): Promise<Inventory> {
    const reason = this.denied.get(target.awsAccountId);
    if (reason) throw new RoleUnavailableError(reason);
    const at = await this.clock();
    const scripted = this.inventories.get(target.awsAccountId);
    return scripted ? scripted(at) : cleanInventory(at.toISOString());
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
