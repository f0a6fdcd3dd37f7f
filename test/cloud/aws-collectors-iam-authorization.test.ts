import {
  AddRoleToInstanceProfileCommand,
  AddUserToGroupCommand,
  AttachGroupPolicyCommand,
  AttachRolePolicyCommand,
  AttachUserPolicyCommand,
  CreateGroupCommand,
  CreateInstanceProfileCommand,
  CreatePolicyCommand,
  CreateRoleCommand,
  CreateServiceLinkedRoleCommand,
  CreateUserCommand,
  PutGroupPolicyCommand,
  PutRolePolicyCommand,
  PutUserPolicyCommand,
} from '@aws-sdk/client-iam';
import {
  AttachPolicyCommand,
  CreateOrganizationalUnitCommand,
  CreateOrganizationCommand,
  CreatePolicyCommand as CreateOrganizationPolicyCommand,
  EnablePolicyTypeCommand,
  ListRootsCommand,
  MoveAccountCommand,
  OrganizationsClient,
} from '@aws-sdk/client-organizations';
import { isAdministrator, permissionOracle } from '../../domain/attack-paths/effective-permissions';
import type { PartName } from '../../domain/scans/inventory';
import {
  accessDenied,
  type AwsRequest,
  type CannedAnswer,
  createSentinelRole,
  type CustomerAccount,
  customerConfig,
  jsonError,
  motoDifferences,
  motoGaps,
} from '../helpers/aws';
import { ok, useCollectorSuite } from '../helpers/collector-suite';

// The iamAuthorization part against moto: principals with inline, attached (customer and AWS managed) and group
// policies, a boundary, an instance profile; only the managed policies someone holds, by their default version; and
// the service and resource control policies of the account's place in an organization. moto has no
// iam:SimulatePrincipalPolicy (neither the 5.2 the suite runs nor its main branch), so the evaluator is not compared
// with IAM's own simulator here: test/unit/policy-evaluation.test.ts holds it to the IAM User Guide's examples.

const PARTS: PartName[] = ['iamAuthorization'];
const doc = (...Statement: Record<string, unknown>[]) => ({ Version: '2012-10-17', Statement });
const text = (...Statement: Record<string, unknown>[]) => JSON.stringify(doc(...Statement));
const AWS_POLICY = (name: string) => `arn:aws:iam::aws:policy/${name}`;

describe('the IAM documents against moto', () => {
  const suite = useCollectorSuite();
  const { client } = suite;

  /** A user in a group, a bounded role held by an instance profile, and the managed policies they hold. */
  async function seedPrincipals(customer: CustomerAccount) {
    const { iam, accountId } = customer;
    const arn = (path: string) => `arn:aws:iam::${accountId}:${path}`;
    const create = async (name: string, document: string) =>
      (await iam.send(new CreatePolicyCommand({ PolicyName: name, PolicyDocument: document }))).Policy?.Arn as string;
    const developers = await create('developers', text({ Effect: 'Allow', Action: ['s3:*', 'iam:*'], Resource: '*' }));
    const boundary = await create('app-boundary', text({ Effect: 'Allow', Action: ['s3:*', 'sqs:*'], Resource: '*' }));
    // Held by nobody: left out.
    await create('unused', text({ Effect: 'Allow', Action: '*', Resource: '*' }));

    await iam.send(new CreateGroupCommand({ GroupName: 'developers' }));
    await iam.send(new AttachGroupPolicyCommand({ GroupName: 'developers', PolicyArn: developers }));
    await iam.send(
      new PutGroupPolicyCommand({
        GroupName: 'developers',
        PolicyName: 'read-logs',
        PolicyDocument: text({ Effect: 'Allow', Action: 'logs:Get*', Resource: '*' }),
      }),
    );
    await iam.send(new CreateUserCommand({ UserName: 'dana' }));
    await iam.send(new AddUserToGroupCommand({ UserName: 'dana', GroupName: 'developers' }));
    await iam.send(new AttachUserPolicyCommand({ UserName: 'dana', PolicyArn: AWS_POLICY('ReadOnlyAccess') }));
    await iam.send(
      new PutUserPolicyCommand({
        UserName: 'dana',
        PolicyName: 'own-folder',
        PolicyDocument: text({
          Effect: 'Allow',
          Action: 's3:PutObject',
          Resource: 'arn:aws:s3:::home/${aws:username}/*',
        }),
      }),
    );

    const ec2Trust = doc({ Effect: 'Allow', Principal: { Service: 'ec2.amazonaws.com' }, Action: 'sts:AssumeRole' });
    await iam.send(
      new CreateRoleCommand({
        RoleName: 'app',
        AssumeRolePolicyDocument: JSON.stringify(ec2Trust),
        PermissionsBoundary: boundary,
      }),
    );
    await iam.send(new AttachRolePolicyCommand({ RoleName: 'app', PolicyArn: AWS_POLICY('AmazonS3ReadOnlyAccess') }));
    await iam.send(
      new PutRolePolicyCommand({
        RoleName: 'app',
        PolicyName: 'queue',
        PolicyDocument: text({ Effect: 'Allow', Action: 'sqs:SendMessage', Resource: '*' }),
      }),
    );
    await iam.send(new CreateInstanceProfileCommand({ InstanceProfileName: 'app' }));
    await iam.send(new AddRoleToInstanceProfileCommand({ InstanceProfileName: 'app', RoleName: 'app' }));
    // AWS's own: left out, like Sentinel's role.
    await iam.send(new CreateServiceLinkedRoleCommand({ AWSServiceName: 'elasticbeanstalk.amazonaws.com' }));
    return { arn, developers, boundary, ec2Trust };
  }

  it("reads every principal's policies as documents, and only the managed policies someone holds", async () => {
    const { customer, target } = await suite.connectedCustomer();
    const { arn, developers, boundary, ec2Trust } = await seedPrincipals(customer);
    await createSentinelRole({ customer, externalId: target.externalId });

    const inventory = await suite.provider.collectInventory(target, { parts: PARTS });

    const iam = ok(inventory.iamAuthorization);
    expect(iam.users).toEqual([
      {
        name: 'dana',
        arn: arn('user/dana'),
        attached: [AWS_POLICY('ReadOnlyAccess')],
        inline: [
          {
            name: 'own-folder',
            document: doc({ Effect: 'Allow', Action: 's3:PutObject', Resource: 'arn:aws:s3:::home/${aws:username}/*' }),
          },
        ],
        groups: ['developers'],
        boundary: null,
      },
    ]);
    expect(iam.groups).toEqual([
      {
        name: 'developers',
        arn: arn('group/developers'),
        attached: [developers],
        inline: [{ name: 'read-logs', document: doc({ Effect: 'Allow', Action: 'logs:Get*', Resource: '*' }) }],
      },
    ]);
    expect(iam.roles).toEqual([
      {
        name: 'app',
        arn: arn('role/app'),
        attached: [AWS_POLICY('AmazonS3ReadOnlyAccess')],
        inline: [{ name: 'queue', document: doc({ Effect: 'Allow', Action: 'sqs:SendMessage', Resource: '*' }) }],
        boundary,
        trust: ec2Trust,
        instanceProfiles: [arn('instance-profile/app')],
      },
    ]);
    // The held ones, each by its default version; the boundary too. moto answers every AWS managed policy it knows:
    // those nobody here holds (Sentinel's own SecurityAudit among them) are left out, with the unheld customer one.
    expect(iam.policies.map((p) => p.arn)).toEqual(
      [AWS_POLICY('AmazonS3ReadOnlyAccess'), AWS_POLICY('ReadOnlyAccess'), boundary, developers].sort(),
    );
    expect(iam.policies.find((p) => p.arn === boundary)).toEqual({
      arn: boundary,
      name: 'app-boundary',
      document: doc({ Effect: 'Allow', Action: ['s3:*', 'sqs:*'], Resource: '*' }),
    });
    expect(iam.policies.find((p) => p.arn === AWS_POLICY('ReadOnlyAccess'))?.document).toMatchObject({
      Statement: expect.arrayContaining([expect.objectContaining({ Effect: 'Allow' })]),
    });
    // Outside any organization, no SCP nor RCP applies.
    expect(iam.serviceControlPolicies).toEqual({ read: true, levels: [] });
    expect(iam.resourceControlPolicies).toEqual({ read: true, levels: [] });
    // Every held policy came with the pages or with the attached AWS managed policies' read: none was asked alone.
    expect(suite.front.requests.filter((r) => r.operation === 'GetPolicy')).toEqual([]);

    // What the oracle makes of it: dana's group grants iam:*; the role's boundary cuts its S3 read to S3 and SQS.
    const oracle = permissionOracle(iam, { accountId: customer.accountId });
    expect(oracle.evaluate(arn('user/dana'), 'iam:CreateUser', '*').decision).toBe('allowed');
    expect(oracle.evaluate(arn('user/dana'), 's3:PutObject', 'arn:aws:s3:::home/dana/notes').decision).toBe('allowed');
    expect(isAdministrator(oracle, arn('user/dana')).decision).toBe('allowed');
    expect(oracle.evaluate(arn('role/app'), 'sqs:SendMessage', '*').decision).toBe('allowed');
    expect(oracle.evaluate(arn('role/app'), 's3:GetObject', 'arn:aws:s3:::data/x').decision).toBe('allowed');
    expect(oracle.evaluate(arn('role/app'), 'ec2:DescribeInstances', '*').decision).toBe('denied');
    expect(isAdministrator(oracle, arn('role/app')).decision).toBe('denied');
  });

  it('reads a held policy the pages did not carry by its default version', async () => {
    const { customer, target } = await suite.connectedCustomer();
    const { boundary } = await seedPrincipals(customer);
    await createSentinelRole({ customer, externalId: target.externalId });
    // The pages leave the boundary's policy out, as a policy created between two pages would be.
    suite.front.rewrite = (request: AwsRequest, answer: CannedAnswer) =>
      request.operation === 'GetAccountAuthorizationDetails'
        ? { ...answer, body: answer.body.replace(`<Arn>${boundary}</Arn>`, `<Arn>${boundary}-elsewhere</Arn>`) }
        : motoDifferences(request, answer);

    const inventory = await suite.provider.collectInventory(target, { parts: PARTS });

    expect(ok(inventory.iamAuthorization).policies.find((p) => p.arn === boundary)?.document).toEqual(
      doc({ Effect: 'Allow', Action: ['s3:*', 'sqs:*'], Resource: '*' }),
    );
    expect(suite.front.requests.filter((r) => r.operation === 'GetPolicy')).toHaveLength(1);
    // The attached AWS managed policies' versions come from the read the awsManagedPolicies part shares; of the
    // account's own policies, only the one the pages did not carry is asked for.
    const versions = suite.front.requests.filter((r) => r.operation === 'GetPolicyVersion');
    expect(versions.filter((r) => !decodeURIComponent(r.body).includes('arn:aws:iam::aws:policy/'))).toHaveLength(1);
  });

  describe('service and resource control policies', () => {
    const FULL_SCP = {
      id: 'p-FullAWSAccess',
      name: 'FullAWSAccess',
      document: doc({ Effect: 'Allow', Action: '*', Resource: '*' }),
    };
    const FULL_RCP = {
      id: 'p-RCPFullAWSAccess',
      name: 'RCPFullAWSAccess',
      document: doc({ Effect: 'Allow', Principal: '*', Action: '*', Resource: '*' }),
    };
    const KEEP_SECRETS = doc({ Effect: 'Deny', Principal: '*', Action: 'secretsmanager:DeleteSecret', Resource: '*' });

    /**
     * The account manages an organization, moved into an OU with an SCP of its own; with `rcps`, the organization
     * enables RCPs and the OU has one of its own too.
     */
    async function inAnOrganization(customer: CustomerAccount, { rcps = false } = {}) {
      const organizations = client(new OrganizationsClient(customerConfig(customer)));
      await organizations.send(new CreateOrganizationCommand({ FeatureSet: 'ALL' }));
      const root = (await organizations.send(new ListRootsCommand({}))).Roots?.[0]?.Id as string;
      const ou = (await organizations.send(new CreateOrganizationalUnitCommand({ ParentId: root, Name: 'production' })))
        .OrganizationalUnit?.Id as string;
      await organizations.send(
        new MoveAccountCommand({ AccountId: customer.accountId, SourceParentId: root, DestinationParentId: ou }),
      );
      const attach = async (
        Name: string,
        Type: 'SERVICE_CONTROL_POLICY' | 'RESOURCE_CONTROL_POLICY',
        Content: string,
      ) => {
        const { Policy } = await organizations.send(
          new CreateOrganizationPolicyCommand({ Name, Description: Name, Type, Content }),
        );
        const id = Policy?.PolicySummary?.Id as string;
        await organizations.send(new AttachPolicyCommand({ PolicyId: id, TargetId: ou }));
        return id;
      };
      const noUsers = await attach(
        'no-iam-users',
        'SERVICE_CONTROL_POLICY',
        text({ Effect: 'Deny', Action: 'iam:CreateUser', Resource: '*' }),
      );
      if (!rcps) return { root, ou, noUsers, keepSecrets: null };
      await organizations.send(new EnablePolicyTypeCommand({ RootId: root, PolicyType: 'RESOURCE_CONTROL_POLICY' }));
      const keepSecrets = await attach('keep-secrets', 'RESOURCE_CONTROL_POLICY', JSON.stringify(KEEP_SECRETS));
      return { root, ou, noUsers, keepSecrets };
    }

    /**
     * Seen as a member account (one Organizations lets read its policies, a delegated administrator): moto knows no
     * delegated administrator of policies, so the organization's management account is named another. `answer`
     * changes what moto answers besides.
     */
    function seenAsMember(
      answer: (request: AwsRequest, answer: CannedAnswer) => CannedAnswer | undefined = () => undefined,
    ) {
      suite.front.rewrite = (request: AwsRequest, given: CannedAnswer) => {
        if (request.operation === 'DescribeOrganization' && given.status === 200) {
          const body = JSON.parse(given.body) as { Organization: Record<string, unknown> };
          body.Organization.MasterAccountId = '999988887777';
          return { ...given, body: JSON.stringify(body) };
        }
        return answer(request, given) ?? motoDifferences(request, given);
      };
    }

    const listing = (request: AwsRequest, type: string) =>
      request.operation === 'ListPoliciesForTarget' && (JSON.parse(request.body) as { Filter: string }).Filter === type;

    it('none bounds the management account', async () => {
      const { customer, target } = await suite.connectedCustomer();
      await inAnOrganization(customer, { rcps: true });
      await createSentinelRole({ customer, externalId: target.externalId });

      const inventory = await suite.provider.collectInventory(target, { parts: PARTS });

      // AWS documents that SCPs do not affect the management account's principals, nor RCPs its resources.
      expect(ok(inventory.iamAuthorization).serviceControlPolicies).toEqual({ read: true, levels: [] });
      expect(ok(inventory.iamAuthorization).resourceControlPolicies).toEqual({ read: true, levels: [] });
      expect(suite.front.requests.filter((r) => r.operation === 'ListPoliciesForTarget')).toEqual([]);
    });

    it('are read level by level in one walk, from the root down to a member account that may read them, and weighed', async () => {
      const { customer, target } = await suite.connectedCustomer();
      const { root, ou, noUsers, keepSecrets } = await inAnOrganization(customer, { rcps: true });
      await createSentinelRole({ customer, externalId: target.externalId });
      seenAsMember();

      const inventory = await suite.provider.collectInventory(target, { parts: [...PARTS, 'organization'] });

      const iam = ok(inventory.iamAuthorization);
      // The organization is asked about once for the two parts that need it.
      expect(ok(inventory.organization).role).toBe('member');
      expect(suite.front.requests.filter((r) => r.operation === 'DescribeOrganization')).toHaveLength(1);
      expect(iam.serviceControlPolicies).toEqual({
        read: true,
        levels: [
          { target: root, policies: [FULL_SCP] },
          {
            target: ou,
            policies: [
              FULL_SCP,
              {
                id: noUsers,
                name: 'no-iam-users',
                document: doc({ Effect: 'Deny', Action: 'iam:CreateUser', Resource: '*' }),
              },
            ],
          },
          { target: customer.accountId, policies: [FULL_SCP] },
        ],
      });
      expect(iam.resourceControlPolicies).toEqual({
        read: true,
        levels: [
          { target: root, policies: [FULL_RCP] },
          { target: ou, policies: [FULL_RCP, { id: keepSecrets, name: 'keep-secrets', document: KEEP_SECRETS }] },
          { target: customer.accountId, policies: [FULL_RCP] },
        ],
      });
      // The account's parents are asked once for both kinds.
      expect(suite.front.requests.filter((r) => r.operation === 'ListParents')).toHaveLength(2);

      const admin = `arn:aws:iam::${customer.accountId}:user/admin`;
      const secret = `arn:aws:secretsmanager:us-east-1:${customer.accountId}:secret:prod/db-AbCdEf`;
      const oracle = permissionOracle({
        ...iam,
        users: [
          {
            name: 'admin',
            arn: admin,
            attached: [AWS_POLICY('AdministratorAccess')],
            inline: [],
            groups: [],
            boundary: null,
          },
        ],
        policies: [
          {
            arn: AWS_POLICY('AdministratorAccess'),
            name: 'AdministratorAccess',
            document: doc({ Effect: 'Allow', Action: '*', Resource: '*' }),
          },
        ],
      });
      expect(oracle.evaluate(admin, 'iam:CreateUser', '*')).toMatchObject({
        decision: 'denied',
        deniedBy: [{ policy: `scp:${noUsers}`, index: 0 }],
      });
      expect(oracle.evaluate(admin, 'secretsmanager:DeleteSecret', secret)).toMatchObject({
        decision: 'denied',
        deniedBy: [{ policy: `rcp:${keepSecrets}`, index: 0 }],
      });
      expect(oracle.evaluate(admin, 'secretsmanager:GetSecretValue', secret).decision).toBe('allowed');
    });

    it('a policy type the organization has not enabled applies to nobody', async () => {
      const { customer, target } = await suite.connectedCustomer();
      await inAnOrganization(customer);
      await createSentinelRole({ customer, externalId: target.externalId });
      // moto lists RCPFullAWSAccess on every root, OU and account whether RCPs are enabled or not. AWS attaches it
      // when they are enabled, never lets it go while they are, and detaches every RCP when they are disabled: a root
      // without one is what AWS answers for an organization that has not enabled them.
      const disabled = (type: string) => (request: AwsRequest, given: CannedAnswer) =>
        listing(request, type) ? { ...given, body: JSON.stringify({ Policies: [] }) } : undefined;
      seenAsMember(disabled('RESOURCE_CONTROL_POLICY'));

      const withoutRcps = ok((await suite.provider.collectInventory(target, { parts: PARTS })).iamAuthorization);

      expect(withoutRcps.resourceControlPolicies).toEqual({ read: true, levels: [] });
      expect(withoutRcps.serviceControlPolicies).toMatchObject({ read: true, levels: [{}, {}, {}] });
      // The root says it all: the levels below it are not asked.
      const rcpListings = suite.front.requests.filter((r) => listing(r, 'RESOURCE_CONTROL_POLICY'));
      expect(rcpListings).toHaveLength(1);

      // SCPs alike: an organization that has not enabled them bounds nobody with them.
      seenAsMember(disabled('SERVICE_CONTROL_POLICY'));
      const withoutScps = ok((await suite.provider.collectInventory(target, { parts: PARTS })).iamAuthorization);
      expect(withoutScps.serviceControlPolicies).toEqual({ read: true, levels: [] });

      // AWS documents no PolicyTypeNotEnabledException for ListPoliciesForTarget; were it to answer one, it would say
      // the same.
      seenAsMember();
      suite.front.answer = (request: AwsRequest) =>
        listing(request, 'RESOURCE_CONTROL_POLICY')
          ? jsonError(
              400,
              'PolicyTypeNotEnabledException',
              'This operation can be performed only for enabled policy types.',
            )
          : motoGaps(request);
      const notEnabled = ok((await suite.provider.collectInventory(target, { parts: PARTS })).iamAuthorization);
      expect(notEnabled.resourceControlPolicies).toEqual({ read: true, levels: [] });
    });

    it('are unread, not weighed, when Organizations refuses them to a member account; the rest is read', async () => {
      const { customer, target } = await suite.connectedCustomer();
      await inAnOrganization(customer, { rcps: true });
      await seedPrincipals(customer);
      await createSentinelRole({ customer, externalId: target.externalId });
      seenAsMember();
      // What a member account that administers none of the organization's policies is answered.
      suite.front.answer = (request: AwsRequest) =>
        request.operation === 'ListParents' ? accessDenied(request) : motoGaps(request);

      const inventory = await suite.provider.collectInventory(target, { parts: PARTS });

      const iam = ok(inventory.iamAuthorization);
      expect(iam.serviceControlPolicies).toEqual({
        read: false,
        reason: expect.stringMatching(
          /^The service control policies: AWS denied Sentinel's role Organizations ListParents \(AccessDenied\)/,
        ),
      });
      expect(iam.resourceControlPolicies).toEqual({
        read: false,
        reason: expect.stringMatching(
          /^The resource control policies: AWS denied Sentinel's role Organizations ListParents \(AccessDenied\)/,
        ),
      });
      expect(iam.users.map((u) => u.name)).toEqual(['dana']);
      expect(inventory.iamAuthorization).not.toHaveProperty('unread');

      // Refused the RCPs alone, the SCPs are read still.
      suite.front.answer = (request: AwsRequest) =>
        listing(request, 'RESOURCE_CONTROL_POLICY') ? accessDenied(request) : motoGaps(request);
      const rcpsRefused = ok((await suite.provider.collectInventory(target, { parts: PARTS })).iamAuthorization);
      expect(rcpsRefused.serviceControlPolicies).toMatchObject({ read: true, levels: [{}, {}, {}] });
      expect(rcpsRefused.resourceControlPolicies).toEqual({
        read: false,
        reason: expect.stringMatching(
          /^The resource control policies: AWS denied Sentinel's role Organizations ListPoliciesForTarget \(AccessDenied\)/,
        ),
      });
    });
  });
});
