import { CloudTrailClient, CreateTrailCommand } from '@aws-sdk/client-cloudtrail';
import { CreateDetectorCommand, GuardDutyClient } from '@aws-sdk/client-guardduty';
import {
  AddUserToGroupCommand,
  AttachGroupPolicyCommand,
  AttachRolePolicyCommand,
  AttachUserPolicyCommand,
  CreateGroupCommand,
  CreatePolicyCommand,
  CreateRoleCommand,
  CreateUserCommand,
  PutRolePolicyCommand,
  PutUserPolicyCommand,
} from '@aws-sdk/client-iam';
import {
  AttachPolicyCommand,
  CreateAccountCommand,
  CreateOrganizationCommand,
  CreatePolicyCommand as CreateOrganizationPolicyCommand,
  ListRootsCommand,
  OrganizationsClient,
  RegisterDelegatedAdministratorCommand,
} from '@aws-sdk/client-organizations';
import { CreateBucketCommand, PutBucketAclCommand, PutBucketPolicyCommand, S3Client } from '@aws-sdk/client-s3';
import {
  CreateAccessPointCommand,
  CreateMultiRegionAccessPointCommand,
  S3ControlClient,
} from '@aws-sdk/client-s3-control';
import { checkById } from '../../domain/checks/catalog';
import { ENUMERATION_ACTIONS, PRIVILEGE_ESCALATION_ACTIONS } from '../../domain/checks/cloudtrail-threat';
import type { Inventory } from '../../domain/scans/inventory';
import {
  accessDenied,
  type AwsRequest,
  createSentinelRole,
  type CustomerAccount,
  customerConfig,
  motoEndpoint,
  motoGaps,
  REGION,
} from '../helpers/aws';
import { ok, uniqueName, useCollectorSuite } from '../helpers/collector-suite';

// The parts behind the checks of S3 access, IAM escalation, the organization, GuardDuty's protection plans and
// CloudTrail's recent activity, against moto through the front (test/helpers/aws.ts). moto has no CloudTrail
// LookupEvents and no IAM ListOrganizationsFeatures: the front answers them (motoGaps, or the test's own answer) in
// the shape AWS documents.

const OTHER_REGION = 'eu-west-1';
const PARTNER = '999988887777';
const FULL_BLOCK = {
  BlockPublicAcls: true,
  IgnorePublicAcls: true,
  BlockPublicPolicy: true,
  RestrictPublicBuckets: true,
};
const NO_BLOCK = {
  BlockPublicAcls: false,
  IgnorePublicAcls: false,
  BlockPublicPolicy: false,
  RestrictPublicBuckets: false,
};
const PLANS = [
  'S3_DATA_EVENTS',
  'EKS_AUDIT_LOGS',
  'EBS_MALWARE_PROTECTION',
  'RDS_LOGIN_EVENTS',
  'LAMBDA_NETWORK_LOGS',
] as const;

/** Each check's outcome: 'pass', 'not_evaluated', or its failing resources as `resource@region`. */
function outcomes(inventory: Inventory, ids: string[]): Record<string, string | string[]> {
  return Object.fromEntries(
    ids.map((id) => {
      const result = checkById(id)!.evaluate(inventory, { now: inventory.collectedAt });
      return [
        id,
        result.status === 'fail'
          ? result.resources.map((r) => `${r.resource}@${r.region ?? 'global'}`).sort()
          : result.status,
      ];
    }),
  );
}

const policy = (...statements: unknown[]) => JSON.stringify({ Version: '2012-10-17', Statement: statements });

const S3_CHECKS = [
  'exposure.s3_bucket_public_write_acl',
  'exposure.s3_bucket_public_list_acl',
  'exposure.s3_bucket_public_write_policy',
  'exposure.s3_bucket_cross_account_policy',
  'exposure.s3_access_point_public_access_block_off',
  'exposure.s3_multi_region_access_point_public_access_block_off',
  'detection.trail_bucket_public',
];
const IAM_CHECKS = [
  'iam.group_admin_access',
  'iam.admin_without_mfa',
  'iam.policy_privilege_escalation',
  'iam.inline_policy_privilege_escalation',
  'iam.inline_policy_cloudtrail_full_access',
  'iam.policy_assumes_any_role',
  'iam.role_cross_account_readonly',
  'iam.role_confused_deputy',
];
const ORGANIZATION_CHECKS = [
  'iam.organization_delegated_admin',
  'iam.organization_no_region_restriction',
  'iam.root_credentials_management_off',
  'detection.guardduty_no_delegated_admin',
  'detection.security_hub_no_delegated_admin',
];
const PLAN_CHECKS = [
  'detection.guardduty_s3_protection_off',
  'detection.guardduty_eks_audit_logs_off',
  'detection.guardduty_ec2_malware_protection_off',
  'detection.guardduty_lambda_protection_off',
  'detection.guardduty_rds_protection_off',
];
const THREAT_CHECKS = [
  'threat.cloudtrail_privilege_escalation',
  'threat.cloudtrail_enumeration',
  'threat.cloudtrail_llm_jacking',
];

describe('AWS collection of S3 access, IAM escalation, the organization and recent activity against moto', () => {
  const suite = useCollectorSuite();
  const { client } = suite;

  const s3 = (customer: CustomerAccount) => client(new S3Client({ ...customerConfig(customer), forcePathStyle: true }));
  // S3 Control puts the account id in the host name, which moto's address cannot take.
  const s3control = (customer: CustomerAccount) =>
    client(
      new S3ControlClient({ ...customerConfig(customer), endpointProvider: () => ({ url: new URL(motoEndpoint()) }) }),
    );

  const accessPoint = (customer: CustomerAccount, name: string, bucket: string, block: typeof FULL_BLOCK) =>
    s3control(customer).send(
      new CreateAccessPointCommand({
        AccountId: customer.accountId,
        Name: name,
        Bucket: bucket,
        PublicAccessBlockConfiguration: block,
      }),
    );

  it('finds buckets anyone can write and list, a partner let in, open access points and a public trail bucket', async () => {
    const { customer, target } = await suite.connectedCustomer();
    const [open, closed] = [uniqueName('open'), uniqueName('closed')];
    await s3(customer).send(new CreateBucketCommand({ Bucket: open }));
    await s3(customer).send(new CreateBucketCommand({ Bucket: closed }));
    await s3(customer).send(
      new PutBucketAclCommand({
        Bucket: open,
        GrantRead: 'uri="http://acs.amazonaws.com/groups/global/AllUsers"',
        GrantWrite: 'uri="http://acs.amazonaws.com/groups/global/AuthenticatedUsers"',
      }),
    );
    await s3(customer).send(
      new PutBucketPolicyCommand({
        Bucket: open,
        Policy: policy(
          {
            Sid: 'Uploads',
            Effect: 'Allow',
            Principal: '*',
            Action: 's3:PutObject',
            Resource: `arn:aws:s3:::${open}/*`,
          },
          {
            Sid: 'Partner',
            Effect: 'Allow',
            Principal: { AWS: `arn:aws:iam::${PARTNER}:root` },
            Action: 's3:GetObject',
            Resource: `arn:aws:s3:::${open}/*`,
          },
        ),
      }),
    );
    // Read by the account's own principals only: neither public nor shared.
    await s3(customer).send(
      new PutBucketPolicyCommand({
        Bucket: closed,
        Policy: policy({
          Effect: 'Allow',
          Principal: { AWS: `arn:aws:iam::${customer.accountId}:root` },
          Action: 's3:*',
          Resource: `arn:aws:s3:::${closed}/*`,
        }),
      }),
    );
    await client(new CloudTrailClient(customerConfig(customer))).send(
      new CreateTrailCommand({ Name: 'management', S3BucketName: open, IsMultiRegionTrail: true }),
    );
    await accessPoint(customer, 'open-point', closed, NO_BLOCK);
    await accessPoint(customer, 'closed-point', closed, FULL_BLOCK);
    for (const [name, block] of [
      ['global-open', { ...FULL_BLOCK, BlockPublicPolicy: false }],
      ['global-closed', FULL_BLOCK],
    ] as const) {
      await s3control(customer).send(
        new CreateMultiRegionAccessPointCommand({
          AccountId: customer.accountId,
          ClientToken: uniqueName(name),
          Details: { Name: name, PublicAccessBlock: block, Regions: [{ Bucket: closed }] },
        }),
      );
    }
    await createSentinelRole({ customer, externalId: target.externalId });

    const inventory = await suite.provider.collectInventory(target);

    const byName = new Map(ok(inventory.s3Buckets).buckets.map((b) => [b.name, b]));
    expect(byName.get(open)).toMatchObject({
      publicAclPermissions: ['READ', 'WRITE'],
      publicWriteStatements: ['Statement Uploads allows s3:PutObject'],
      crossAccountPrincipals: [PARTNER],
    });
    expect(byName.get(closed)).toMatchObject({
      publicAclPermissions: [],
      publicWriteStatements: [],
      crossAccountPrincipals: [],
    });
    expect(ok(inventory.s3AccessPoints).accessPoints.sort((a, b) => a.name.localeCompare(b.name))).toEqual([
      {
        name: 'closed-point',
        region: REGION,
        bucket: closed,
        blockPublicAccess: expect.objectContaining({ blockPublicAcls: true }),
      },
      {
        name: 'open-point',
        region: REGION,
        bucket: closed,
        blockPublicAccess: expect.objectContaining({ blockPublicAcls: false }),
      },
    ]);
    expect(outcomes(inventory, S3_CHECKS)).toEqual({
      'exposure.s3_bucket_public_write_acl': [`${open}@${REGION}`],
      'exposure.s3_bucket_public_list_acl': [`${open}@${REGION}`],
      'exposure.s3_bucket_public_write_policy': [`${open}@${REGION}`],
      'exposure.s3_bucket_cross_account_policy': [`${open}@${REGION}`],
      'exposure.s3_access_point_public_access_block_off': [`open-point@${REGION}`],
      'exposure.s3_multi_region_access_point_public_access_block_off': ['global-open@global'],
      'detection.trail_bucket_public': [`${open}@${REGION}`],
    });
    // Multi-Region Access Points are listed once, from the one region that serves them.
    const listings = suite.front.requests.filter(
      (r) => r.service === 's3' && r.method === 'GET' && r.path.endsWith('/mrap/instances'),
    );
    expect(listings.map((r) => r.region)).toEqual(['us-west-2']);
  });

  it('passes private buckets and blocked access points, and reads every page of access points', async () => {
    const { customer, target } = await suite.connectedCustomer();
    const bucket = uniqueName('private');
    await s3(customer).send(new CreateBucketCommand({ Bucket: bucket }));
    // More than a page of 100.
    for (let i = 0; i < 103; i++) await accessPoint(customer, `point-${i}`, bucket, FULL_BLOCK);
    await createSentinelRole({ customer, externalId: target.externalId });

    const inventory = await suite.provider.collectInventory(target);

    expect(ok(inventory.s3AccessPoints).accessPoints).toHaveLength(103);
    expect(Object.values(outcomes(inventory, S3_CHECKS))).toEqual(S3_CHECKS.map(() => 'pass'));
    const pages = suite.front.requests.filter(
      (r) => r.service === 's3' && r.region === REGION && r.method === 'GET' && r.path.endsWith('/accesspoint'),
    );
    expect(pages).toHaveLength(2);
  });

  it('finds escalation-prone policies and trusts, an administrators group without MFA, the organization and GuardDuty plans', async () => {
    const { customer, target } = await suite.connectedCustomer();
    const { iam, accountId } = customer;
    const arn = (path: string) => `arn:aws:iam::${accountId}:${path}`;
    await iam.send(new CreateUserCommand({ UserName: 'deployer' }));
    const { Policy: launcher } = await iam.send(
      new CreatePolicyCommand({
        PolicyName: 'launcher',
        PolicyDocument: policy({ Effect: 'Allow', Action: ['iam:PassRole', 'ec2:RunInstances'], Resource: '*' }),
      }),
    );
    await iam.send(new AttachUserPolicyCommand({ UserName: 'deployer', PolicyArn: launcher?.Arn }));
    // Attached to nobody: it grants nothing yet.
    await iam.send(
      new CreatePolicyCommand({
        PolicyName: 'unused',
        PolicyDocument: policy({ Effect: 'Allow', Action: 'iam:CreatePolicyVersion', Resource: '*' }),
      }),
    );
    await iam.send(
      new PutUserPolicyCommand({
        UserName: 'deployer',
        PolicyName: 'self-service',
        PolicyDocument: policy({ Effect: 'Allow', Action: ['iam:PutUserPolicy', 'sts:AssumeRole'], Resource: '*' }),
      }),
    );
    await iam.send(new CreateGroupCommand({ GroupName: 'admins' }));
    await iam.send(
      new AttachGroupPolicyCommand({
        GroupName: 'admins',
        PolicyArn: 'arn:aws:iam::aws:policy/AdministratorAccess',
      }),
    );
    await iam.send(new AddUserToGroupCommand({ GroupName: 'admins', UserName: 'deployer' }));
    const role = (name: string, trust: unknown) =>
      iam.send(new CreateRoleCommand({ RoleName: name, AssumeRolePolicyDocument: JSON.stringify(trust) }));
    await role('log-admin', {
      Statement: [
        {
          Effect: 'Allow',
          Principal: { Service: 'lambda.amazonaws.com' },
          Action: 'sts:AssumeRole',
          Condition: { StringEquals: { 'aws:SourceAccount': accountId } },
        },
      ],
    });
    await iam.send(
      new PutRolePolicyCommand({
        RoleName: 'log-admin',
        PolicyName: 'trail-admin',
        PolicyDocument: policy({ Effect: 'Allow', Action: 'cloudtrail:*', Resource: '*' }),
      }),
    );
    await role('auditor', {
      Statement: [{ Effect: 'Allow', Principal: { AWS: `arn:aws:iam::${PARTNER}:root` }, Action: 'sts:AssumeRole' }],
    });
    await iam.send(
      new AttachRolePolicyCommand({ RoleName: 'auditor', PolicyArn: 'arn:aws:iam::aws:policy/ReadOnlyAccess' }),
    );
    await role('events-delivery', {
      Statement: [{ Effect: 'Allow', Principal: { Service: 'events.amazonaws.com' }, Action: 'sts:AssumeRole' }],
    });

    // The account manages an organization: a member given Systems Manager and GuardDuty, a region SCP.
    const organizations = client(new OrganizationsClient(customerConfig(customer)));
    const { Organization } = await organizations.send(new CreateOrganizationCommand({ FeatureSet: 'ALL' }));
    const { CreateAccountStatus } = await organizations.send(
      new CreateAccountCommand({ AccountName: 'workloads', Email: 'workloads@example.com' }),
    );
    const member = CreateAccountStatus?.AccountId as string;
    for (const principal of ['ssm.amazonaws.com', 'guardduty.amazonaws.com'])
      await organizations.send(
        new RegisterDelegatedAdministratorCommand({ AccountId: member, ServicePrincipal: principal }),
      );
    const { Policy: regions } = await organizations.send(
      new CreateOrganizationPolicyCommand({
        Name: 'deny-other-regions',
        Description: 'Regions in use',
        Type: 'SERVICE_CONTROL_POLICY',
        Content: policy({
          Effect: 'Deny',
          NotAction: ['iam:*', 'organizations:*', 'sts:*'],
          Resource: '*',
          Condition: { StringNotEquals: { 'aws:RequestedRegion': ['us-east-1', 'eu-west-1'] } },
        }),
      }),
    );
    const { Roots = [] } = await organizations.send(new ListRootsCommand({}));
    await organizations.send(new AttachPolicyCommand({ PolicyId: regions?.PolicySummary?.Id, TargetId: Roots[0]?.Id }));

    // GuardDuty with every plan in one region, none reported in another.
    await client(new GuardDutyClient(customerConfig(customer))).send(
      new CreateDetectorCommand({ Enable: true, Features: PLANS.map((Name) => ({ Name, Status: 'ENABLED' })) }),
    );
    await client(new GuardDutyClient(customerConfig(customer, OTHER_REGION))).send(
      new CreateDetectorCommand({ Enable: true }),
    );
    await createSentinelRole({ customer, externalId: target.externalId });

    const inventory = await suite.provider.collectInventory(target);

    expect(ok(inventory.iamPrincipals).riskyPolicies.sort((a, b) => a.arn.localeCompare(b.arn))).toEqual([
      {
        name: 'launcher',
        arn: launcher?.Arn,
        kind: 'managed',
        owner: null,
        escalationPaths: ['PassRole+EC2'],
        cloudtrailFullAccess: false,
        assumesAnyRole: false,
      },
      {
        name: 'trail-admin',
        arn: `${arn('role/log-admin')}/trail-admin`,
        kind: 'inline',
        owner: arn('role/log-admin'),
        escalationPaths: [],
        cloudtrailFullAccess: true,
        assumesAnyRole: false,
      },
      {
        name: 'self-service',
        arn: `${arn('user/deployer')}/self-service`,
        kind: 'inline',
        owner: arn('user/deployer'),
        escalationPaths: ['iam:PutUserPolicy'],
        cloudtrailFullAccess: false,
        assumesAnyRole: true,
      },
    ]);
    expect(ok(inventory.organization)).toEqual({
      role: 'management',
      id: Organization?.Id,
      delegatedAdministrators: [
        { accountId: member, name: 'workloads', services: ['ssm.amazonaws.com', 'guardduty.amazonaws.com'] },
      ],
      serviceControlPolicies: expect.arrayContaining([
        { id: regions?.PolicySummary?.Id, name: 'deny-other-regions', restrictsRegions: true },
      ]),
      rootCredentialsManagement: false,
    });
    expect(outcomes(inventory, [...IAM_CHECKS, ...ORGANIZATION_CHECKS, ...PLAN_CHECKS])).toEqual({
      'iam.group_admin_access': [`${arn('group/admins')}@global`],
      'iam.admin_without_mfa': [`${arn('user/deployer')}@global`],
      'iam.policy_privilege_escalation': [`${launcher?.Arn}@global`],
      'iam.inline_policy_privilege_escalation': [`${arn('user/deployer')}/self-service@global`],
      'iam.inline_policy_cloudtrail_full_access': [`${arn('role/log-admin')}/trail-admin@global`],
      'iam.policy_assumes_any_role': [`${arn('user/deployer')}/self-service@global`],
      'iam.role_cross_account_readonly': [`${arn('role/auditor')}@global`],
      'iam.role_confused_deputy': [`${arn('role/events-delivery')}@global`],
      'iam.organization_delegated_admin': [`${member}@global`],
      'iam.organization_no_region_restriction': 'pass',
      'iam.root_credentials_management_off': [`${Organization?.Id}@global`],
      'detection.guardduty_no_delegated_admin': 'pass',
      'detection.security_hub_no_delegated_admin': [`${Organization?.Id}@global`],
      ...Object.fromEntries(PLAN_CHECKS.map((id) => [id, [`guardduty-${OTHER_REGION}@${OTHER_REGION}`]])),
    });
    // IAM's centralized root access is asked of the management account only.
    expect(suite.front.requests.filter((r) => r.operation === 'ListOrganizationsFeatures')).toHaveLength(1);
  });

  it('passes an account outside any organization as not applicable, and its IAM without escalation', async () => {
    const { customer, target } = await suite.connectedCustomer();
    await customer.iam.send(new CreateUserCommand({ UserName: 'reader' }));
    await customer.iam.send(
      new AttachUserPolicyCommand({ UserName: 'reader', PolicyArn: 'arn:aws:iam::aws:policy/ReadOnlyAccess' }),
    );
    await createSentinelRole({ customer, externalId: target.externalId });

    const inventory = await suite.provider.collectInventory(target);

    expect(ok(inventory.organization)).toEqual({
      role: 'none',
      id: null,
      delegatedAdministrators: null,
      serviceControlPolicies: null,
      rootCredentialsManagement: null,
    });
    expect(outcomes(inventory, IAM_CHECKS)).toEqual(Object.fromEntries(IAM_CHECKS.map((id) => [id, 'pass'])));
    expect(outcomes(inventory, ORGANIZATION_CHECKS)).toEqual(
      Object.fromEntries(ORGANIZATION_CHECKS.map((id) => [id, 'not_evaluated'])),
    );
    const result = checkById('iam.organization_delegated_admin')!.evaluate(inventory, { now: inventory.collectedAt });
    expect(result).toMatchObject({ absent: true, reason: expect.stringContaining('not in an AWS Organization') });
  });

  it("counts each identity's recent calls across regions, leaving out its own role and AWS services", async () => {
    const { customer, target } = await suite.connectedCustomer();
    await createSentinelRole({ customer, externalId: target.externalId });
    const intruder = `arn:aws:iam::${customer.accountId}:user/leaked`;
    const sentinel = `arn:aws:sts::${customer.accountId}:assumed-role/${target.roleName}/scan`;
    /** The events of each name, in each region, as LookupEvents returns them (CloudTrailEvent is a JSON string). */
    const events = (region: string, name: string) => {
      const who: { arn?: string; type: string }[] = [];
      // Escalation in us-east-1, enumeration split across two regions.
      if (region === REGION && PRIVILEGE_ESCALATION_ACTIONS.slice(0, 12).includes(name))
        who.push({ arn: intruder, type: 'IAMUser' });
      if (ENUMERATION_ACTIONS.slice(0, 15).includes(name) && region === REGION)
        who.push({ arn: intruder, type: 'IAMUser' });
      if (ENUMERATION_ACTIONS.slice(15, 30).includes(name) && region === OTHER_REGION)
        who.push({ arn: intruder, type: 'IAMUser' });
      // Sentinel's own scan, and a service acting for the account.
      if (ENUMERATION_ACTIONS.includes(name)) who.push({ arn: sentinel, type: 'AssumedRole' });
      if (name === 'AssumeRole') who.push({ type: 'AWSService' });
      return who.map((identity, i) => ({
        EventId: `${region}-${name}-${i}`,
        EventName: name,
        CloudTrailEvent: JSON.stringify({ eventName: name, userIdentity: identity }),
      }));
    };
    suite.front.answer = (request: AwsRequest) => {
      if (request.service === 'cloudtrail' && request.operation === 'LookupEvents') {
        const name = JSON.parse(request.body).LookupAttributes[0].AttributeValue as string;
        // One page of 50 is all a name is read for: more left is noted, not read.
        const more = name === 'ListUsers' ? { NextToken: 'more' } : {};
        return {
          status: 200,
          contentType: 'application/x-amz-json-1.1',
          body: JSON.stringify({ Events: events(request.region, name), ...more }),
        };
      }
      return motoGaps(request);
    };

    const inventory = await suite.provider.collectInventory(target);

    const east = ok(inventory.cloudtrailActivity).regions.find((r) => r.region === REGION);
    expect(east?.identities.map((i) => i.arn)).toEqual([intruder]);
    expect(east?.truncated).toEqual(['ListUsers']);
    expect(outcomes(inventory, THREAT_CHECKS)).toEqual({
      'threat.cloudtrail_privilege_escalation': [`${intruder}@global`],
      'threat.cloudtrail_enumeration': [`${intruder}@global`],
      'threat.cloudtrail_llm_jacking': 'pass',
    });
    // One call per name and region, each over the last 24 hours, one page of 50.
    const lookups = suite.front.requests.filter((r) => r.operation === 'LookupEvents' && r.region === REGION);
    expect(lookups).toHaveLength(150);
    const first = JSON.parse(lookups[0]!.body) as { StartTime: number; EndTime: number; MaxResults: number };
    expect([first.EndTime - first.StartTime, first.MaxResults]).toEqual([24 * 3600, 50]);
  });

  it('leaves unread what AWS refuses: a region of events, an access point, the organization', async () => {
    const { customer, target } = await suite.connectedCustomer();
    const bucket = uniqueName('shared');
    await s3(customer).send(new CreateBucketCommand({ Bucket: bucket }));
    await accessPoint(customer, 'hidden-point', bucket, NO_BLOCK);
    await accessPoint(customer, 'open-point', bucket, NO_BLOCK);
    await createSentinelRole({ customer, externalId: target.externalId });
    suite.front.answer = (request: AwsRequest) => {
      if (request.service === 'cloudtrail' && request.operation === 'LookupEvents' && request.region === OTHER_REGION)
        return accessDenied(request);
      if (request.service === 's3' && request.path.endsWith('/accesspoint/hidden-point')) return accessDenied(request);
      if (request.service === 'organizations') return accessDenied(request);
      return motoGaps(request);
    };

    const inventory = await suite.provider.collectInventory(target);

    expect(inventory.cloudtrailActivity.unread?.map((u) => `${u.kind}:${u.scope}`)).toEqual([`region:${OTHER_REGION}`]);
    expect(inventory.s3AccessPoints.unread?.map((u) => `${u.kind}:${u.scope}`)).toEqual(['resource:hidden-point']);
    expect(inventory.organization.status).toBe('not_evaluated');
    expect(outcomes(inventory, ['exposure.s3_access_point_public_access_block_off', ...ORGANIZATION_CHECKS])).toEqual({
      'exposure.s3_access_point_public_access_block_off': [`open-point@${REGION}`],
      ...Object.fromEntries(ORGANIZATION_CHECKS.map((id) => [id, 'not_evaluated'])),
    });
    const threat = checkById('threat.cloudtrail_enumeration')!.evaluate(inventory, { now: inventory.collectedAt });
    expect(threat.status).toBe('pass');
    expect(threat.unread?.map((u) => u.scope)).toEqual([OTHER_REGION]);
  });
});
