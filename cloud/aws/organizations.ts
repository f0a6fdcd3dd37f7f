import {
  type Account,
  DescribeOrganizationCommand,
  paginateListAccountsForParent,
  paginateListOrganizationalUnitsForParent,
  paginateListRoots,
  OrganizationsClient,
} from '@aws-sdk/client-organizations';
import type { OrganizationMember, OrganizationDescription } from '../types';
import type { TemporaryCredentials } from './credentials';
import { mapLimit } from './collectors/concurrency';
import { hasCode } from './errors';

// Reads an organization through its management role. The OU tree is walked from the root, each parent's accounts
// and child OUs listed page by page: two paged calls per OU give every account with its path, where ListAccounts
// plus ListParents would take one call per account (a large organization has far more accounts than OUs).

/** Organizations answers a few requests per second per account: a handful of parents at a time, the SDK retrying throttles. */
const PARENTS_AT_ONCE = 4;

interface Parent {
  id: string;
  path: string;
}

export async function readOrganization({
  credentials,
  endpointUrl,
  maxAttempts,
}: {
  credentials: TemporaryCredentials;
  endpointUrl?: string;
  maxAttempts: number;
}): Promise<OrganizationDescription> {
  // One global endpoint, in us-east-1.
  const client = new OrganizationsClient({
    region: 'us-east-1',
    credentials,
    maxAttempts,
    retryMode: 'adaptive',
    ...(endpointUrl ? { endpoint: endpointUrl } : {}),
  });
  try {
    const { Organization: org } = await client.send(new DescribeOrganizationCommand({}));
    if (!org?.Id || !org.MasterAccountId)
      throw new Error('Organizations DescribeOrganization returned no organization');
    const accounts: OrganizationMember[] = [];
    let level: Parent[] = [];
    for await (const page of paginateListRoots({ client }, {})) {
      level.push(...(page.Roots ?? []).flatMap((r) => (r.Id ? [{ id: r.Id, path: r.Name ?? 'Root' }] : [])));
    }
    while (level.length > 0) {
      const children = await mapLimit({
        items: level,
        limit: PARENTS_AT_ONCE,
        run: async (parent) => {
          for await (const page of paginateListAccountsForParent({ client }, { ParentId: parent.id })) {
            accounts.push(...(page.Accounts ?? []).flatMap((a) => member(a, parent.path)));
          }
          const units: Parent[] = [];
          for await (const page of paginateListOrganizationalUnitsForParent({ client }, { ParentId: parent.id })) {
            units.push(
              ...(page.OrganizationalUnits ?? []).flatMap((ou) =>
                ou.Id ? [{ id: ou.Id, path: `${parent.path}/${ou.Name ?? ou.Id}` }] : [],
              ),
            );
          }
          return units;
        },
      });
      level = children.flat();
    }
    return { ok: true, organization: { id: org.Id, managementAccountId: org.MasterAccountId }, accounts };
  } catch (err) {
    if (hasCode(err, 'AWSOrganizationsNotInUse')) {
      return {
        ok: false,
        code: 'not_in_organization',
        reason:
          "The account is not in an AWS Organization (AWS answered AWSOrganizationsNotInUseException). Connect the organization's management account.",
      };
    }
    if (hasCode(err, 'AccessDenied')) {
      return {
        ok: false,
        code: 'organizations_access_denied',
        reason:
          'The role was assumed but may not read the organization (AWS answered AccessDeniedException): it needs organizations:DescribeOrganization, ' +
          'organizations:ListRoots, organizations:ListOrganizationalUnitsForParent and organizations:ListAccountsForParent, and it must be in the ' +
          'management account (or a delegated administrator). The CloudFormation template from the connect response grants them.',
      };
    }
    throw err;
  } finally {
    client.destroy();
  }
}

function member(account: Account, ouPath: string): OrganizationMember[] {
  if (!account.Id) return [];
  return [{ awsAccountId: account.Id, name: account.Name ?? account.Id, status: memberStatus(account), ouPath }];
}

/** `State` is the newer field (CLOSED, PENDING_ACTIVATION); `Status` the one every organization still answers. */
function memberStatus({ Status, State }: Account): OrganizationMember['status'] {
  if (State === 'CLOSED' || State === 'SUSPENDED' || Status === 'SUSPENDED') return 'SUSPENDED';
  if (State === 'PENDING_CLOSURE' || Status === 'PENDING_CLOSURE') return 'PENDING_CLOSURE';
  // ACTIVE, and PENDING_ACTIVATION (an account being created: its role will come with the StackSet).
  return 'ACTIVE';
}
