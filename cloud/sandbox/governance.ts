import type {
  Bucket,
  CloudTrailActivity,
  Collected,
  GuardDutyRegion,
  IamRole,
  Inventory,
  MultiRegionAccessPoint,
  OrganizationView,
  RiskyPolicy,
  S3AccessPoint,
  Unread,
} from '../../domain/scans/inventory';
import {
  ENUMERATION_ACTIONS,
  LLM_JACKING_ACTIONS,
  PRIVILEGE_ESCALATION_ACTIONS,
} from '../../domain/checks/cloudtrail-threat';

// The sandbox's share of the scan's governance parts: S3 access grants and access points, IAM trust and risky
// policies, GuardDuty's protection plans, the organization and CloudTrail's recent activity. A clean account has
// none of their issues; each issue below is picked for an account by its own seeded draw, so some demo accounts
// fail each check and most pass it. Deterministic: seeded from the account id only.

/** What a sandbox bucket's ACL and policy grant beyond its owner: nothing, in a clean account. */
export const PRIVATE_BUCKET: Pick<Bucket, 'publicAclPermissions' | 'publicWriteStatements' | 'crossAccountPrincipals'> =
  { publicAclPermissions: [], publicWriteStatements: [], crossAccountPrincipals: [] };

/** A role's trust in a clean account: nobody outside it, and services only for this account. */
export const OWN_TRUST: IamRole['trust'] = { externalPrincipals: [], servicesWithoutSourceCondition: [] };

const PLANS = ['S3_DATA_EVENTS', 'EKS_AUDIT_LOGS', 'EBS_MALWARE_PROTECTION', 'RDS_LOGIN_EVENTS', 'LAMBDA_NETWORK_LOGS'];
/** Every protection plan on, as a well-run delegated administrator enables them. */
export const ALL_PLANS: GuardDutyRegion['features'] = Object.fromEntries(PLANS.map((p) => [p, 'ENABLED']));

/** A partner's account the sandbox's issues name. */
const PARTNER_ACCOUNT = '210987654321';
/** The organization's security tooling account. */
const SECURITY_ACCOUNT = '310987654321';

function seeded(...keys: string[]): () => number {
  let h = 2166136261;
  for (const c of keys.join(':')) h = Math.imul(h ^ c.charCodeAt(0), 16777619);
  let a = h >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ok = <T>(value: T, unread: Unread[] = []): Collected<T> =>
  unread.length > 0 ? { status: 'ok', value, unread } : { status: 'ok', value };

const fullBlock = {
  blockPublicAcls: true,
  ignorePublicAcls: true,
  blockPublicPolicy: true,
  restrictPublicBuckets: true,
};

/** The parts this file adds. */
type GovernancePart = 's3AccessPoints' | 's3MultiRegionAccessPoints' | 'organization' | 'cloudtrailActivity';

interface Regional {
  /** The enabled regions the scan could read. */
  readable: string[];
  /** The regions it could not, for a regional part's `unread`. */
  unread: (service: string) => Unread[];
}

/** The inventory with the governance parts added and, for the accounts an issue picks, that issue applied. */
export function withGovernance(
  inventory: Omit<Inventory, GovernancePart>,
  accountId: string,
  /** The multiplier on each issue's odds (cloud/sandbox/upkeep.ts): how neglected the account is. */
  neglect: number,
  { readable, unread }: Regional,
): Inventory {
  /** What the account has (or, inside an issue already drawn, how far it goes), for the share of accounts given. */
  const has = (part: string, share: number) => seeded(accountId, 'governance-parts', part)() < share;
  /** A misconfiguration, for the share given of neglected accounts. */
  const issue = (name: string, share: number) => has(name, share * neglect);
  const iamArn = (path: string) => `arn:aws:iam::${accountId}:${path}`;
  const home = readable.includes('us-east-1') ? 'us-east-1' : (readable[0] ?? 'us-east-1');

  if (inventory.s3Buckets.status === 'ok') {
    const { buckets } = inventory.s3Buckets.value;
    const [first] = buckets;
    // A data export shared with a partner's account through the bucket policy.
    if (first && issue('cross-account-bucket', 0.3)) first.crossAccountPrincipals = [PARTNER_ACCOUNT];
    // Where the account's Block Public Access is off (a public website), older buckets show what it let through.
    const accountBlock = inventory.s3AccountBlockPublicAccess;
    if (accountBlock.status === 'ok' && accountBlock.value.settings === null) {
      const website = buckets.find((b) => b.name.endsWith('-website'));
      if (website && issue('listable-website', 0.7)) website.publicAclPermissions = ['READ'];
      if (website && issue('upload-form', 0.8)) {
        website.publicAclPermissions = [...website.publicAclPermissions, 'WRITE'];
        website.publicWriteStatements = ['Statement PublicUploads allows s3:PutObject'];
      }
      // The trail's bucket made readable "to let the SIEM in", with its own block removed.
      const trail = inventory.cloudtrail.status === 'ok' ? inventory.cloudtrail.value.trails[0] : undefined;
      const logs = buckets.find((b) => b.name === trail?.bucket);
      if (logs && issue('public-trail-bucket', 0.6)) {
        logs.blockPublicAccess = null;
        logs.publicViaAcl = true;
        logs.publicAclPermissions = ['READ'];
      }
    }
  }
  if (inventory.iamPrincipals.status === 'ok') {
    const principals = inventory.iamPrincipals.value;
    const risky: RiskyPolicy[] = [];
    if (issue('escalation-policy', 0.3))
      risky.push({
        name: 'ci-deploy-permissions',
        arn: iamArn('policy/ci-deploy-permissions'),
        kind: 'managed',
        owner: null,
        escalationPaths: ['PassRole+EC2', 'iam:CreatePolicyVersion'],
        cloudtrailFullAccess: false,
        assumesAnyRole: has('assume-any-role', 0.5),
      });
    if (issue('inline-cloudtrail', 0.25))
      risky.push({
        name: 'ops-logging',
        arn: `${iamArn('group/Developers')}/ops-logging`,
        kind: 'inline',
        owner: iamArn('group/Developers'),
        escalationPaths: has('inline-escalation', 0.5) ? ['iam:PutUserPolicy'] : [],
        cloudtrailFullAccess: true,
        assumesAnyRole: false,
      });
    principals.riskyPolicies = risky;
    // Most accounts grant their administrators through a customer managed policy requiring MFA, not the group's
    // AdministratorAccess.
    const admins = principals.groups.find((g) => g.name === 'Administrators');
    if (admins && !issue('admin-group', 0.4))
      admins.managedPolicies = admins.managedPolicies.filter((p) => p !== 'AdministratorAccess');
    for (const role of principals.roles) {
      if (role.name === 'lambda-execution' && issue('confused-deputy', 0.3))
        role.trust = { externalPrincipals: [], servicesWithoutSourceCondition: ['lambda.amazonaws.com'] };
      if (role.name === 'OrganizationAccountAccessRole' && issue('auditor-role', 0.25)) {
        role.managedPolicies = [...role.managedPolicies, 'ReadOnlyAccess'];
        role.trust = { externalPrincipals: [PARTNER_ACCOUNT], servicesWithoutSourceCondition: [] };
      }
    }
  }
  if (
    inventory.rootVirtualMfa.status === 'ok' &&
    inventory.credentialReport.status === 'ok' &&
    issue('virtual-mfa', 0.4)
  )
    inventory.rootVirtualMfa.value.userArns = inventory.credentialReport.value.users
      .filter((u) => u.mfaActive)
      .map((u) => u.arn);
  if (inventory.guardduty.status === 'ok' && issue('plans-off', 0.35)) {
    // Enabled before the newer plans existed, and never revisited in the home region.
    const region = inventory.guardduty.value.regions.find((r) => r.region === home);
    const off = PLANS.filter((plan) => has(`plan-off-${plan}`, 0.5));
    if (region) region.features = { ...region.features, ...Object.fromEntries(off.map((p) => [p, 'DISABLED'])) };
  }

  const accessPoints: S3AccessPoint[] = [];
  const firstBucket = inventory.s3Buckets.status === 'ok' ? inventory.s3Buckets.value.buckets[0] : undefined;
  if (firstBucket && readable.includes(firstBucket.region) && has('access-point', 0.5))
    accessPoints.push({
      name: 'analytics',
      region: firstBucket.region,
      bucket: firstBucket.name,
      // Created from the CLI before the console's defaults: its blocks off.
      blockPublicAccess: issue('open-access-point', 0.4) ? null : fullBlock,
    });
  const multiRegion: MultiRegionAccessPoint[] =
    firstBucket && has('multi-region-point', 0.2)
      ? [
          {
            name: 'global-assets',
            buckets: [firstBucket.name],
            blockPublicAccess: issue('open-multi-region-point', 0.5)
              ? { ...fullBlock, blockPublicPolicy: false }
              : fullBlock,
          },
        ]
      : [];

  const management = has('management-account', 0.3);
  const organization: OrganizationView = management
    ? {
        role: 'management',
        id: `o-${accountId.slice(0, 10)}`,
        delegatedAdministrators: has('delegated-admin', 0.6)
          ? [
              {
                accountId: SECURITY_ACCOUNT,
                name: 'security-tooling',
                services: ['guardduty.amazonaws.com', 'securityhub.amazonaws.com'],
              },
              // IAM Identity Center handed to a workload account, which then controls every account's access.
              ...(issue('identity-center-delegated', 0.4)
                ? [{ accountId: PARTNER_ACCOUNT, name: 'prod-api', services: ['sso.amazonaws.com'] }]
                : []),
            ]
          : [],
        serviceControlPolicies: [
          { id: 'p-FullAWSAccess', name: 'FullAWSAccess', restrictsRegions: false },
          ...(has('region-scp', 0.5)
            ? [{ id: `p-${accountId.slice(0, 8)}`, name: 'deny-other-regions', restrictsRegions: true }]
            : []),
        ],
        rootCredentialsManagement: !issue('root-management-off', 0.5),
      }
    : {
        role: 'member',
        id: `o-${accountId.slice(0, 10)}`,
        delegatedAdministrators: null,
        serviceControlPolicies: null,
        rootCredentialsManagement: null,
      };

  // A leaked CI key: sweeping the account's inventory, then escalating; or a stolen role session running models.
  const ci = iamArn('user/ci-deploy');
  const sweep = issue('enumeration', 0.15);
  const escalation = sweep && has('escalation', 0.5);
  const jacking = issue('llm-jacking', 0.1);
  const activity: CloudTrailActivity[] = readable.map((region) => ({
    region,
    identities:
      region !== home
        ? []
        : [
            ...(sweep
              ? [
                  {
                    arn: ci,
                    type: 'IAMUser',
                    eventNames: [
                      ...ENUMERATION_ACTIONS.slice(0, 40),
                      ...(escalation ? PRIVILEGE_ESCALATION_ACTIONS.slice(0, 14) : []),
                    ],
                  },
                ]
              : []),
            ...(jacking
              ? [
                  {
                    arn: `arn:aws:sts::${accountId}:assumed-role/lambda-execution/i-0model`,
                    type: 'AssumedRole',
                    eventNames: LLM_JACKING_ACTIONS.slice(0, 8),
                  },
                ]
              : []),
          ],
    truncated: [],
  }));

  return {
    ...inventory,
    s3AccessPoints: ok({ accessPoints }, unread('S3 Control ListAccessPoints')),
    s3MultiRegionAccessPoints: ok({ accessPoints: multiRegion }),
    organization: ok(organization),
    cloudtrailActivity: ok({ regions: activity }, unread('CloudTrail LookupEvents')),
  };
}
