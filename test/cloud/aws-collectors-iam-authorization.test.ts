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
  motoDifferences,
  motoGaps,
} from '../helpers/aws';
import { ok, useCollectorSuite } from '../helpers/collector-suite';

// The iamAuthorization part against moto: principals with inline, attached (customer and AWS managed) and group
// policies, a boundary, an instance profile; only the managed policies someone holds, by their default version; and
// the service control policies of the account's place in an organization. moto has no iam:SimulatePrincipalPolicy
// (neither the 5.2 the suite runs nor its main branch), so the evaluator is not compared with IAM's own simulator
// here: test/unit/policy-evaluation.test.ts holds it to the IAM User Guide's examples.

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
    // Outside any organization, no SCP applies.
    expect(iam.serviceControlPolicies).toEqual({ read: true, levels: [] });
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

  describe('service control policies', () => {
    /** The account manages an organization, moved into an OU with an SCP of its own. */
    async function inAnOrganization(customer: CustomerAccount) {
      const organizations = client(new OrganizationsClient(customerConfig(customer)));
      await organizations.send(new CreateOrganizationCommand({ FeatureSet: 'ALL' }));
      const root = (await organizations.send(new ListRootsCommand({}))).Roots?.[0]?.Id as string;
      const ou = (await organizations.send(new CreateOrganizationalUnitCommand({ ParentId: root, Name: 'production' })))
        .OrganizationalUnit?.Id as string;
      await organizations.send(
        new MoveAccountCommand({ AccountId: customer.accountId, SourceParentId: root, DestinationParentId: ou }),
      );
      const noUsers = (
        await organizations.send(
          new CreateOrganizationPolicyCommand({
            Name: 'no-iam-users',
            Description: 'People sign in through Identity Center',
            Type: 'SERVICE_CONTROL_POLICY',
            Content: text({ Effect: 'Deny', Action: 'iam:CreateUser', Resource: '*' }),
          }),
        )
      ).Policy?.PolicySummary?.Id as string;
      await organizations.send(new AttachPolicyCommand({ PolicyId: noUsers, TargetId: ou }));
      return { root, ou, noUsers };
    }

    it('none bounds the management account', async () => {
      const { customer, target } = await suite.connectedCustomer();
      await inAnOrganization(customer);
      await createSentinelRole({ customer, externalId: target.externalId });

      const inventory = await suite.provider.collectInventory(target, { parts: PARTS });

      expect(ok(inventory.iamAuthorization).serviceControlPolicies).toEqual({ read: true, levels: [] });
    });

    it('are read level by level, from the root down to a member account that may read them, and weighed', async () => {
      const { customer, target } = await suite.connectedCustomer();
      const { root, ou, noUsers } = await inAnOrganization(customer);
      await createSentinelRole({ customer, externalId: target.externalId });
      // Seen as a member account (one Organizations lets read its policies, a delegated administrator): moto knows
      // no delegated administrator of policies, so the organization's management account is named another.
      suite.front.rewrite = (request: AwsRequest, answer: CannedAnswer) => {
        if (request.operation !== 'DescribeOrganization' || answer.status !== 200)
          return motoDifferences(request, answer);
        const body = JSON.parse(answer.body) as { Organization: Record<string, unknown> };
        body.Organization.MasterAccountId = '999988887777';
        return { ...answer, body: JSON.stringify(body) };
      };

      const inventory = await suite.provider.collectInventory(target, { parts: PARTS });

      const full = {
        id: 'p-FullAWSAccess',
        name: 'FullAWSAccess',
        document: doc({ Effect: 'Allow', Action: '*', Resource: '*' }),
      };
      const iam = ok(inventory.iamAuthorization);
      expect(iam.serviceControlPolicies).toEqual({
        read: true,
        levels: [
          { target: root, policies: [full] },
          {
            target: ou,
            policies: [
              full,
              {
                id: noUsers,
                name: 'no-iam-users',
                document: doc({ Effect: 'Deny', Action: 'iam:CreateUser', Resource: '*' }),
              },
            ],
          },
          { target: customer.accountId, policies: [full] },
        ],
      });
      const oracle = permissionOracle({
        ...iam,
        users: [
          {
            name: 'admin',
            arn: `arn:aws:iam::${customer.accountId}:user/admin`,
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
      expect(oracle.evaluate(`arn:aws:iam::${customer.accountId}:user/admin`, 'iam:CreateUser', '*')).toMatchObject({
        decision: 'denied',
        deniedBy: [{ policy: `scp:${noUsers}`, index: 0 }],
      });
    });

    it('are unread, not weighed, when Organizations refuses them to a member account; the rest is read', async () => {
      const { customer, target } = await suite.connectedCustomer();
      await inAnOrganization(customer);
      await seedPrincipals(customer);
      await createSentinelRole({ customer, externalId: target.externalId });
      suite.front.rewrite = (request: AwsRequest, answer: CannedAnswer) => {
        if (request.operation !== 'DescribeOrganization' || answer.status !== 200)
          return motoDifferences(request, answer);
        const body = JSON.parse(answer.body) as { Organization: Record<string, unknown> };
        body.Organization.MasterAccountId = '999988887777';
        return { ...answer, body: JSON.stringify(body) };
      };
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
      expect(iam.users.map((u) => u.name)).toEqual(['dana']);
      expect(inventory.iamAuthorization).not.toHaveProperty('unread');
    });
  });
});
