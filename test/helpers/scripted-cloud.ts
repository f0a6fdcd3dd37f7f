import type { AccessCheck, CloudProvider, RoleTarget } from '../../cloud/types';

/**
 * A cloud whose answers the test sets per AWS account, for workflow tests that need the role to break and
 * recover on cue. (API tests use the real AWS provider against the moto server instead.)
 */
export class ScriptedCloud implements CloudProvider {
  readonly kind = 'sandbox' as const;
  private readonly answers = new Map<string, AccessCheck>();
  readonly checks: RoleTarget[] = [];

  async sentinelAccountId(): Promise<string> {
    return '000000000000';
  }

  async checkAccess(target: RoleTarget): Promise<AccessCheck> {
    this.checks.push(target);
    return this.answers.get(target.awsAccountId) ?? { ok: true };
  }

  deny(awsAccountId: string, reason = 'The role cannot be assumed'): void {
    this.answers.set(awsAccountId, { ok: false, code: 'access_denied', reason });
  }

  allow(awsAccountId: string): void {
    this.answers.delete(awsAccountId);
  }
}
