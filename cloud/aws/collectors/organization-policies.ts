import {
  DescribePolicyCommand,
  OrganizationsClient,
  paginateListParents,
  paginateListPoliciesForTarget,
  type PolicyType,
} from '@aws-sdk/client-organizations';
import type {
  OrganizationPolicyLevel,
  PolicyJson,
  ResourceControlPolicies,
  ServiceControlPolicies,
} from '../../../domain/scans/iam-authorization';
import { parsePolicyDocument } from '../trust-policy';
import { mapLimit } from './concurrency';
import { failureOf, isAbsent } from './failures';
import { describeOrganization } from './organization';
import { foldPages, type ReadContext } from './reader';
import { GLOBAL_REGION } from './session';

// The organization's authorization policies that apply to the account, level by level from the organization's root
// down to the account (for the iamAuthorization part): the service control policies (SCPs), which bound the
// account's principals, and the resource control policies (RCPs), which bound what anyone may do to its resources.
// As the organization part reads it (DescribeOrganization, asked once for both parts):
// - outside any organization, none applies;
// - in the management account, none applies either: AWS documents that SCPs do not affect its users and roles, and
//   that RCPs do not affect its resources;
// - in a member account, the account's parents are walked up to the root once (ListParents), and each level's SCPs
//   and RCPs read (ListPoliciesForTarget by type, DescribePolicy). Organizations answers that only in the management
//   account or a delegated administrator of its policies: a member's refusal leaves them unread (`read: false`),
//   not weighed.
// - a policy type the organization has not enabled applies to nobody. AWS attaches a policy of an enabled type to the
//   root (FullAWSAccess, RCPFullAWSAccess) and keeps one there (RCPFullAWSAccess cannot be detached, nor can an
//   entity's last SCP), and detaches them all when the type is disabled: a root that lists none has the type off.
//   ListPoliciesForTarget documents no error for it; should it answer PolicyTypeNotEnabledException, that says the
//   same.
// A failure here never costs the IAM documents the part reads with them: whatever it is, the policies are unread.

const PER_POLICY_CONCURRENCY = 4;

export interface OrganizationPolicies {
  serviceControlPolicies: ServiceControlPolicies;
  resourceControlPolicies: ResourceControlPolicies;
}

const none = (): { read: true; levels: [] } => ({ read: true, levels: [] });

const NAMES: Readonly<Record<'SERVICE_CONTROL_POLICY' | 'RESOURCE_CONTROL_POLICY', string>> = {
  SERVICE_CONTROL_POLICY: 'The service control policies',
  RESOURCE_CONTROL_POLICY: 'The resource control policies',
};

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

async function level(
  organizations: OrganizationsClient,
  target: string,
  type: PolicyType,
): Promise<OrganizationPolicyLevel> {
  const attached = await foldPages(
    paginateListPoliciesForTarget({ client: organizations }, { TargetId: target, Filter: type }),
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

/** The policies of one type at each level, from the root down; none when the type is not enabled. */
async function levelsOf(
  organizations: OrganizationsClient,
  targets: string[],
  type: keyof typeof NAMES,
): Promise<ServiceControlPolicies | ResourceControlPolicies> {
  try {
    const levels: OrganizationPolicyLevel[] = [];
    for (const target of targets) {
      const found = await level(organizations, target, type);
      // The root comes first: without a policy of the type there, the type is not enabled (see above).
      if (levels.length === 0 && found.policies.length === 0) return none();
      levels.push(found);
    }
    return { read: true, levels };
  } catch (err) {
    if (isAbsent(err, 'PolicyTypeNotEnabled')) return none();
    return { read: false, reason: `${NAMES[type]}: ${failureOf(err).reason}` };
  }
}

export async function organizationPolicies(ctx: ReadContext): Promise<OrganizationPolicies> {
  const { session } = ctx;
  const organizations = session.client((config) => new OrganizationsClient(config), GLOBAL_REGION);
  let targets: string[];
  try {
    const organization = await describeOrganization(ctx);
    if (!organization || organization.MasterAccountId === session.accountId)
      return { serviceControlPolicies: none(), resourceControlPolicies: none() };
    targets = await lineage(organizations, session.accountId);
  } catch (err) {
    const { reason } = failureOf(err);
    return {
      serviceControlPolicies: { read: false, reason: `${NAMES.SERVICE_CONTROL_POLICY}: ${reason}` },
      resourceControlPolicies: { read: false, reason: `${NAMES.RESOURCE_CONTROL_POLICY}: ${reason}` },
    };
  }
  return {
    serviceControlPolicies: await levelsOf(organizations, targets, 'SERVICE_CONTROL_POLICY'),
    resourceControlPolicies: await levelsOf(organizations, targets, 'RESOURCE_CONTROL_POLICY'),
  };
}
