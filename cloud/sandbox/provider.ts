import type { AccessCheck, CloudProvider, RoleTarget } from '../types';

// The demo provider `npm start` uses when no AWS credentials are configured: it reaches no cloud. Every
// account connects, except one documented account id that always fails, to show the failure path.

export const SANDBOX_ACCOUNT_ID = '000000000000';
export const SANDBOX_FAILING_ACCOUNT_ID = '999999999999';

export function createSandboxProvider({ sentinelAccountId = SANDBOX_ACCOUNT_ID }: { sentinelAccountId?: string } = {}): CloudProvider {
  async function checkAccess({ awsAccountId, roleName }: RoleTarget): Promise<AccessCheck> {
    if (awsAccountId === SANDBOX_FAILING_ACCOUNT_ID) {
      return {
        ok: false,
        code: 'role_missing',
        reason: `Account ${SANDBOX_FAILING_ACCOUNT_ID} is the sandbox's demo of a failed connection: its role ${roleName} `
          + 'never exists. Connect any other 12-digit account id to see one succeed, or configure AWS credentials to use real accounts.',
      };
    }
    return { ok: true };
  }

  return { kind: 'sandbox', sentinelAccountId: async () => sentinelAccountId, checkAccess };
}
