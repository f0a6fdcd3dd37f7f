import { IAMClient, ListOrganizationsFeaturesCommand } from '@aws-sdk/client-iam';
import {
  DescribeOrganizationCommand,
  DescribePolicyCommand,
  OrganizationsClient,
  paginateListDelegatedAdministrators,
  paginateListDelegatedServicesForAccount,
  paginateListPolicies,
} from '@aws-sdk/client-organizations';
import type { DelegatedAdministrator, OrganizationView } from '../../../domain/scans/inventory';
import { mapLimit, settleAll } from './concurrency';
import { unlessAbsent } from './failures';
import { foldPages, globalPart, type ReadContext } from './reader';
import { GLOBAL_REGION, type Session } from './session';

// The account's place in AWS Organizations (DescribeOrganization). Only the management account can read the rest:
// the delegated administrators and the services each administers, the service control policies with their
// documents (to tell whether one confines the organization to a list of regions), and whether IAM's centralized
// root access is on (iam:ListOrganizationsFeatures). In a member account, or one outside any organization, those
// are not applicable and left null. Organizations answers from us-east-1 only.

const PER_ITEM_CONCURRENCY = 4;

type Json = Record<string, unknown>;
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined ? [] : [v]);
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Whether a condition block tests aws:RequestedRegion with one of the operators. */
function testsRegion(condition: unknown, operators: RegExp): boolean {
  if (!isObject(condition)) return false;
  return Object.entries(condition).some(
    ([operator, tests]) =>
      operators.test(operator) &&
      isObject(tests) &&
      Object.keys(tests).some((key) => key.toLowerCase() === 'aws:requestedregion'),
  );
}

/**
 * Whether an SCP confines requests to a list of regions: a Deny unless aws:RequestedRegion is one of them
 * (StringNotEquals, StringNotLike), or an Allow only when it is (StringEquals, StringLike), as Prowler's
 * organizations_scp_check_deny_regions reads it.
 */
export function restrictsRegions(content: string | undefined): boolean {
  let document: unknown;
  try {
    document = JSON.parse(content ?? '');
  } catch {
    return false;
  }
  return list(isObject(document) ? document.Statement : undefined)
    .filter(isObject)
    .some(
      (s) =>
        (s.Effect === 'Deny' && testsRegion(s.Condition, /^StringNot(Equals|Like)(IgnoreCase)?$/)) ||
        (s.Effect === 'Allow' && testsRegion(s.Condition, /^String(Equals|Like)(IgnoreCase)?$/)),
    );
}

async function delegatedAdministrators(organizations: OrganizationsClient): Promise<DelegatedAdministrator[]> {
  const accounts = await foldPages(
    paginateListDelegatedAdministrators({ client: organizations }, {}),
    [] as { accountId: string; name: string }[],
    (into, page) => {
      for (const a of page.DelegatedAdministrators ?? [])
        if (a.Id) into.push({ accountId: a.Id, name: a.Name ?? a.Id });
      return into;
    },
  );
  return mapLimit({
    items: accounts,
    limit: PER_ITEM_CONCURRENCY,
    run: async (account) => ({
      ...account,
      services: await foldPages(
        paginateListDelegatedServicesForAccount({ client: organizations }, { AccountId: account.accountId }),
        [] as string[],
        (into, page) => [...into, ...(page.DelegatedServices ?? []).flatMap((s) => s.ServicePrincipal ?? [])],
      ),
    }),
  });
}

async function serviceControlPolicies(organizations: OrganizationsClient) {
  const policies = await foldPages(
    paginateListPolicies({ client: organizations }, { Filter: 'SERVICE_CONTROL_POLICY' }),
    [] as { id: string; name: string }[],
    (into, page) => {
      for (const p of page.Policies ?? []) if (p.Id) into.push({ id: p.Id, name: p.Name ?? p.Id });
      return into;
    },
  );
  return mapLimit({
    items: policies,
    limit: PER_ITEM_CONCURRENCY,
    run: async (policy) => {
      const { Policy } = await organizations.send(new DescribePolicyCommand({ PolicyId: policy.id }));
      return { ...policy, restrictsRegions: restrictsRegions(Policy?.Content) };
    },
  });
}

async function rootCredentialsManagement(session: Session): Promise<boolean> {
  const iam = session.client((config) => new IAMClient(config));
  const { EnabledFeatures = [] } = await iam.send(new ListOrganizationsFeaturesCommand({}));
  return EnabledFeatures.includes('RootCredentialsManagement');
}

/**
 * The account's organization (DescribeOrganization; undefined outside any), asked once per collection attempt for
 * the two parts that need it: this one, and the IAM documents' (the organization's policies over the account).
 */
export const describeOrganization = ({ session, shared }: ReadContext) =>
  shared('organizations:DescribeOrganization', async () => {
    const organizations = session.client((config) => new OrganizationsClient(config), GLOBAL_REGION);
    const described = await unlessAbsent(
      () => organizations.send(new DescribeOrganizationCommand({})),
      'AWSOrganizationsNotInUse',
    );
    return described?.Organization;
  });

export const organizationPart = globalPart({
  part: 'organization',
  async read(ctx: ReadContext) {
    const { session } = ctx;
    const organizations = session.client((config) => new OrganizationsClient(config), GLOBAL_REGION);
    const organization = await describeOrganization(ctx);
    const none = { delegatedAdministrators: null, serviceControlPolicies: null, rootCredentialsManagement: null };
    if (!organization) return { value: { role: 'none', id: null, ...none } satisfies OrganizationView };
    if (organization.MasterAccountId !== session.accountId)
      return { value: { role: 'member', id: organization.Id ?? null, ...none } satisfies OrganizationView };
    const [admins, scps, rootManagement] = await settleAll([
      delegatedAdministrators(organizations),
      serviceControlPolicies(organizations),
      rootCredentialsManagement(session),
    ]);
    const value: OrganizationView = {
      role: 'management',
      id: organization.Id ?? null,
      delegatedAdministrators: admins,
      serviceControlPolicies: scps,
      rootCredentialsManagement: rootManagement,
    };
    return { value };
  },
});
