import {
  DescribeOrganizationCommand,
  DescribePolicyCommand,
  OrganizationsClient,
  paginateListParents,
  paginateListPoliciesForTarget,
} from '@aws-sdk/client-organizations';
import type { PolicyJson, ServiceControlPolicies } from '../../../domain/scans/iam-authorization';
import { parsePolicyDocument } from '../trust-policy';
import { mapLimit } from './concurrency';
import { failureOf, unlessAbsent } from './failures';
import { foldPages } from './reader';
import { GLOBAL_REGION, type Session } from './session';

// The service control policies that bound the account's principals, level by level from the organization's root
// down to the account (for the iamAuthorization part). As the organization part reads it (DescribeOrganization):
// - outside any organization, none applies;
// - in the management account, none applies either: AWS documents that SCPs do not affect its users and roles;
// - in a member account, the account's parents are walked up to the root (ListParents) and each level's SCPs read
//   (ListPoliciesForTarget, DescribePolicy). Organizations answers that only in the management account or a delegated
//   administrator of its policies: a member's refusal leaves them unread (`read: false`), not weighed.
// A failure here never costs the IAM documents the part reads with them: whatever it is, the SCPs are unread.

const PER_POLICY_CONCURRENCY = 4;

/** The targets from the root down to the account: the root, each OU, the account. */
async function lineage(organizations: OrganizationsClient, accountId: string): Promise<string[]> {
  const targets = [accountId];
  let child = accountId;
  // An organization nests OUs five deep at most: the bound only guards against an answer that loops.
  for (let depth = 0; depth < 8; depth++) {
    const parents = await foldPages(
      paginateListParents({ client: organizations }, { ChildId: child }),
      [] as { id: string; type: string }[],
      (into, page) => [
        ...into,
        ...(page.Parents ?? []).flatMap((p) => (p.Id ? [{ id: p.Id, type: p.Type ?? '' }] : [])),
      ],
    );
    const parent = parents[0];
    if (!parent) break;
    targets.unshift(parent.id);
    if (parent.type === 'ROOT') break;
    child = parent.id;
  }
  return targets;
}

async function level(organizations: OrganizationsClient, target: string) {
  const attached = await foldPages(
    paginateListPoliciesForTarget({ client: organizations }, { TargetId: target, Filter: 'SERVICE_CONTROL_POLICY' }),
    [] as { id: string; name: string }[],
    (into, page) => [
      ...into,
      ...(page.Policies ?? []).flatMap((p) => (p.Id ? [{ id: p.Id, name: p.Name ?? p.Id }] : [])),
    ],
  );
  const policies = await mapLimit({
    items: attached,
    limit: PER_POLICY_CONCURRENCY,
    run: async ({ id, name }) => {
      const { Policy } = await organizations.send(new DescribePolicyCommand({ PolicyId: id }));
      const document: PolicyJson | null = parsePolicyDocument(Policy?.Content ?? '') ?? null;
      return { id, name, document };
    },
  });
  return { target, policies };
}

export async function serviceControlPolicies(session: Session): Promise<ServiceControlPolicies> {
  const organizations = session.client((config) => new OrganizationsClient(config), GLOBAL_REGION);
  try {
    const described = await unlessAbsent(
      () => organizations.send(new DescribeOrganizationCommand({})),
      'AWSOrganizationsNotInUse',
    );
    const organization = described?.Organization;
    if (!organization || organization.MasterAccountId === session.accountId) return { read: true, levels: [] };
    const targets = await lineage(organizations, session.accountId);
    const levels = [];
    for (const target of targets) levels.push(await level(organizations, target));
    return { read: true, levels };
  } catch (err) {
    return { read: false, reason: `The service control policies: ${failureOf(err).reason}` };
  }
}
