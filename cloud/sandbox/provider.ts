import { type Inventory, onlyParts } from '../../domain/scans/inventory';
import type { RoleTarget } from '../../domain/onboarding/role';
import {
  type AccessCheck,
  type CloudProvider,
  type CollectOptions,
  type OrganizationDescription,
  RoleUnavailableError,
} from '../types';
import { sandboxInventory } from './inventory';
import { sandboxOrganization } from './organization';

// The demo provider `npm start` uses when no AWS credentials are configured: it reaches no cloud. Every
// account connects and yields a simulated inventory, except one documented account id that always fails, to
// show the failure path, and one that shows partial coverage (SANDBOX_PARTIAL_ACCOUNT_ID, in inventory.ts).

export const SANDBOX_ACCOUNT_ID = '000000000000';
export const SANDBOX_FAILING_ACCOUNT_ID = '999999999999';

function failingAccountReason(roleName: string): string {
  return (
    `Account ${SANDBOX_FAILING_ACCOUNT_ID} is the sandbox's demo of a failed connection: its role ${roleName} ` +
    'never exists. Connect any other 12-digit account id to see one succeed, or configure AWS credentials to use real accounts.'
  );
}

export function createSandboxProvider({
  sentinelAccountId = SANDBOX_ACCOUNT_ID,
  now = () => new Date(),
}: {
  sentinelAccountId?: string;
  now?: () => Date;
} = {}): CloudProvider {
  async function checkAccess({ awsAccountId, roleName }: RoleTarget): Promise<AccessCheck> {
    if (awsAccountId === SANDBOX_FAILING_ACCOUNT_ID)
      return { ok: false, code: 'role_missing', reason: failingAccountReason(roleName) };
    return { ok: true };
  }

  async function collectInventory(
    { awsAccountId, roleName }: RoleTarget,
    options?: CollectOptions,
  ): Promise<Inventory> {
    if (awsAccountId === SANDBOX_FAILING_ACCOUNT_ID) throw new RoleUnavailableError(failingAccountReason(roleName));
    options?.onProgress?.({ done: 1, total: 1, last: 'sandbox' });
    const inventory = sandboxInventory({ awsAccountId, at: now(), eventForwarder: options?.eventForwarder });
    return options?.parts ? onlyParts(inventory, options.parts) : inventory;
  }

  async function describeOrganization({ awsAccountId, roleName }: RoleTarget): Promise<OrganizationDescription> {
    if (awsAccountId === SANDBOX_FAILING_ACCOUNT_ID)
      return { ok: false, code: 'access_denied', reason: failingAccountReason(roleName) };
    return sandboxOrganization(awsAccountId);
  }

  return {
    kind: 'sandbox',
    sentinelAccountId: async () => sentinelAccountId,
    checkAccess,
    collectInventory,
    describeOrganization,
  };
}
