import type { OrganizationDescription, OrganizationMember } from '../types';

// The sandbox's demo organization: whatever management account id is connected, the same small organization
// comes back for it, so `npm start` shows the organization pages and member accounts being connected and scanned.
// Members sit in two OUs; their ids are derived from the management account's, so two demo organizations never
// share a member.

const MEMBERS: readonly { name: string; ouPath: string; offset: number }[] = [
  { name: 'prod-api', ouPath: 'Root/Production', offset: 1 },
  { name: 'prod-data', ouPath: 'Root/Production', offset: 2 },
  { name: 'staging', ouPath: 'Root/Development', offset: 3 },
  { name: 'sandbox-alice', ouPath: 'Root/Development', offset: 4 },
];

const ACCOUNT_IDS = 10n ** 12n;

/** A member id: the management id plus a fixed step per member, on twelve digits. */
function memberId(managementAccountId: string, offset: number): string {
  return ((BigInt(managementAccountId) + BigInt(offset) * 104_729n) % ACCOUNT_IDS).toString().padStart(12, '0');
}

export function sandboxOrganization(managementAccountId: string): OrganizationDescription {
  const accounts: OrganizationMember[] = [
    { awsAccountId: managementAccountId, name: 'management', status: 'ACTIVE', ouPath: 'Root' },
    ...MEMBERS.map(({ name, ouPath, offset }) => ({
      awsAccountId: memberId(managementAccountId, offset),
      name,
      status: 'ACTIVE' as const,
      ouPath,
    })),
  ];
  return { ok: true, organization: { id: `o-${managementAccountId.slice(0, 10)}`, managementAccountId }, accounts };
}
