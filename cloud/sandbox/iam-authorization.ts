import { ESCALATION_PATHS } from '../../domain/checks/privilege-escalation';
import type {
  AuthorizationGroup,
  AuthorizationRole,
  AuthorizationUser,
  IamAuthorization,
  InlinePolicy,
  ManagedPolicyDocument,
  PolicyJson,
} from '../../domain/scans/iam-authorization';
import type { Collected, IamRole, Inventory, RiskyPolicy } from '../../domain/scans/inventory';

// The sandbox's iamAuthorization part: the principals of its iamPrincipals part (as the governance issues leave
// them) as the documents AWS would return for them, so that the attack-path analysis of a demo account agrees with
// its IAM checks:
// - AWS managed policies by their documents (ReadOnlyAccess and PowerUserAccess abridged to a few services);
// - administrators without the group's AdministratorAccess hold a customer managed policy that requires MFA, as the
//   governance issues describe them; roles with administrator access and no AdministratorAccess hold it inline;
// - each risky policy grants the actions of its escalation paths (domain/checks/privilege-escalation.ts), full
//   CloudTrail access or sts:AssumeRole on every role, as its flags say; a managed one is held by the user it is
//   named after;
// - trust policies follow each role's purpose, with the outside accounts and unbound services its trust names;
// - service and resource control policies: none applies to the management account or outside an organization; a
//   member account cannot read its own (the walk up its organization that reads both is refused).
// Deterministic, like the rest of the sandbox: everything follows from the inventory it is given.

const document = (...Statement: Record<string, unknown>[]): PolicyJson => ({ Version: '2012-10-17', Statement });
const everything = { Effect: 'Allow', Action: '*', Resource: '*' };
const awsPolicyArn = (name: string) => `arn:aws:iam::aws:policy/${name}`;

const AWS_MANAGED: Readonly<Record<string, PolicyJson>> = {
  AdministratorAccess: document(everything),
  PowerUserAccess: document(
    { Effect: 'Allow', NotAction: ['iam:*', 'organizations:*', 'account:*'], Resource: '*' },
    {
      Effect: 'Allow',
      Action: ['iam:CreateServiceLinkedRole', 'iam:DeleteServiceLinkedRole', 'iam:ListRoles'],
      Resource: '*',
    },
  ),
  ReadOnlyAccess: document({
    Effect: 'Allow',
    Action: ['ec2:Describe*', 's3:Get*', 's3:List*', 'iam:Get*', 'iam:List*', 'lambda:Get*', 'rds:Describe*'],
    Resource: '*',
  }),
  AWSSupportAccess: document({ Effect: 'Allow', Action: 'support:*', Resource: '*' }),
  AWSCloudShellFullAccess: document({ Effect: 'Allow', Action: 'cloudshell:*', Resource: '*' }),
};

/** The inline policies the sandbox's issues give users, by name. */
const USER_INLINE = (accountId: string): Readonly<Record<string, PolicyJson>> => ({
  's3-data-exports-write': document({
    Effect: 'Allow',
    Action: 's3:PutObject',
    Resource: `arn:aws:s3:::*-data-exports-${accountId}/*`,
  }),
});

/** What each role does its work with, inline. */
const ROLE_WORK = (accountId: string): Readonly<Record<string, PolicyJson>> => ({
  'app-instance-role': document({
    Effect: 'Allow',
    Action: 's3:GetObject',
    Resource: `arn:aws:s3:::*-app-assets-${accountId}/*`,
  }),
  'lambda-execution': document({
    Effect: 'Allow',
    Action: ['logs:CreateLogGroup', 'logs:CreateLogStream', 'logs:PutLogEvents'],
    Resource: '*',
  }),
  // The orders API's own role: its logs, and the database password it connects with
  // (cloud/sandbox/resource-policies.ts).
  'orders-api': document(
    {
      Effect: 'Allow',
      Action: ['logs:CreateLogGroup', 'logs:CreateLogStream', 'logs:PutLogEvents'],
      Resource: '*',
    },
    {
      Effect: 'Allow',
      Action: 'secretsmanager:GetSecretValue',
      Resource: `arn:aws:secretsmanager:*:${accountId}:secret:prod/db-password-*`,
    },
  ),
  'github-actions-deploy': document({
    Effect: 'Allow',
    Action: ['cloudformation:Describe*', 'cloudformation:CreateChangeSet', 'cloudformation:ExecuteChangeSet'],
    Resource: '*',
  }),
  'bedrock-agent-support': document({
    Effect: 'Allow',
    Action: ['bedrock:InvokeModel', 'bedrock:Retrieve'],
    Resource: '*',
  }),
});

/** Who each role is for, before the outside accounts and unbound services its trust names. */
function purposeTrust(role: IamRole, accountId: string): Record<string, unknown> {
  const unbound = role.trust?.servicesWithoutSourceCondition ?? [];
  const service = (name: string) => ({
    Effect: 'Allow',
    Principal: { Service: name },
    Action: 'sts:AssumeRole',
    ...(unbound.includes(name) ? {} : { Condition: { StringEquals: { 'aws:SourceAccount': accountId } } }),
  });
  if (role.name === 'app-instance-role') return service('ec2.amazonaws.com');
  if (role.name === 'lambda-execution' || role.name === 'orders-api') return service('lambda.amazonaws.com');
  if (role.name === 'bedrock-agent-support') return service('bedrock.amazonaws.com');
  if (role.name === 'github-actions-deploy')
    return {
      Effect: 'Allow',
      Principal: { Federated: `arn:aws:iam::${accountId}:oidc-provider/token.actions.githubusercontent.com` },
      Action: 'sts:AssumeRoleWithWebIdentity',
      Condition: {
        StringEquals: { 'token.actions.githubusercontent.com:aud': 'sts.amazonaws.com' },
        StringLike: { 'token.actions.githubusercontent.com:sub': 'repo:*:ref:refs/heads/main' },
      },
    };
  return { Effect: 'Allow', Principal: { AWS: `arn:aws:iam::${accountId}:root` }, Action: 'sts:AssumeRole' };
}

function trustOf(role: IamRole, accountId: string): PolicyJson {
  const purpose = purposeTrust(role, accountId);
  const named = JSON.stringify(purpose.Principal);
  const outside = (role.trust?.externalPrincipals ?? []).map((account) => ({
    Effect: 'Allow',
    Principal: { AWS: account === '*' ? '*' : `arn:aws:iam::${account}:root` },
    Action: 'sts:AssumeRole',
  }));
  const services = (role.trust?.servicesWithoutSourceCondition ?? [])
    .filter((service) => !named.includes(service))
    .map((service) => ({ Effect: 'Allow', Principal: { Service: service }, Action: 'sts:AssumeRole' }));
  return document(purpose, ...outside, ...services);
}

/** What a risky policy grants, as its findings describe it. */
function riskDocument(risk: RiskyPolicy): PolicyJson {
  const actions = new Set(risk.escalationPaths.flatMap((path) => ESCALATION_PATHS[path] ?? []));
  if (risk.cloudtrailFullAccess) actions.add('cloudtrail:*');
  if (risk.assumesAnyRole) actions.add('sts:AssumeRole');
  return document({ Effect: 'Allow', Action: [...actions].sort(), Resource: '*' });
}

function organizationPoliciesOf(
  organization: Inventory['organization'],
): Pick<IamAuthorization, 'serviceControlPolicies' | 'resourceControlPolicies'> {
  if (organization.status === 'ok' && organization.value.role === 'member') {
    const refused = "a member account cannot list its organization's policies (Organizations ListParents).";
    return {
      serviceControlPolicies: { read: false, reason: `The service control policies: ${refused}` },
      resourceControlPolicies: { read: false, reason: `The resource control policies: ${refused}` },
    };
  }
  return { serviceControlPolicies: { read: true, levels: [] }, resourceControlPolicies: { read: true, levels: [] } };
}

export function sandboxIamAuthorization({
  accountId,
  inventory,
  groupsOf,
}: {
  accountId: string;
  /** The assembled inventory, its governance issues applied. */
  inventory: Omit<Inventory, 'iamAuthorization'>;
  /** The groups a user belongs to, by name. */
  groupsOf: (userName: string) => string[];
}): Collected<IamAuthorization> {
  const principals = inventory.iamPrincipals;
  if (principals.status !== 'ok') return { status: 'not_evaluated', reason: principals.reason };
  const { users, groups, roles, riskyPolicies } = principals.value;
  const customer = new Map<string, ManagedPolicyDocument>();
  const customerPolicy = (name: string, policy: PolicyJson) => {
    const arn = `arn:aws:iam::${accountId}:policy/${name}`;
    customer.set(arn, { arn, name, document: policy });
    return arn;
  };
  const riskyInline = (owner: string): InlinePolicy[] =>
    riskyPolicies
      .filter((p) => p.kind === 'inline' && p.owner === owner)
      .map((p) => ({ name: p.name, document: riskDocument(p) }));
  const profiles = inventory.instanceProfiles.status === 'ok' ? inventory.instanceProfiles.value.profiles : [];

  const userInline = USER_INLINE(accountId);
  const authorizationUsers: AuthorizationUser[] = users.map((user) => {
    const held = riskyPolicies.filter((p) => p.kind === 'managed' && p.name.startsWith(`${user.name}-`));
    const inlineNames = user.directPolicies.filter((name) => !user.managedPolicies.includes(name));
    return {
      name: user.name,
      arn: user.arn,
      attached: [
        ...user.managedPolicies.map(awsPolicyArn),
        ...held.map((p) => customerPolicy(p.name, riskDocument(p))),
      ],
      inline: [...inlineNames.map((name) => ({ name, document: userInline[name] ?? null })), ...riskyInline(user.arn)],
      groups: groupsOf(user.name),
      boundary: null,
    };
  });

  const authorizationGroups: AuthorizationGroup[] = groups.map((group) => {
    const mfaAdministrators =
      group.name === 'Administrators' && !group.managedPolicies.includes('AdministratorAccess')
        ? [
            customerPolicy(
              'administrators-require-mfa',
              document({ ...everything, Condition: { Bool: { 'aws:MultiFactorAuthPresent': 'true' } } }),
            ),
          ]
        : [];
    return {
      name: group.name,
      arn: group.arn,
      attached: [...group.managedPolicies.map(awsPolicyArn), ...mfaAdministrators],
      inline: riskyInline(group.arn),
    };
  });

  const work = ROLE_WORK(accountId);
  const authorizationRoles: AuthorizationRole[] = roles.map((role) => {
    const inline: InlinePolicy[] = [];
    const task = work[role.name];
    if (task) inline.push({ name: `${role.name}-work`, document: task });
    if (role.adminAccess && !role.managedPolicies.includes('AdministratorAccess'))
      inline.push({ name: 'administrator', document: document(everything) });
    return {
      name: role.name,
      arn: role.arn,
      attached: role.managedPolicies.map(awsPolicyArn),
      inline: [...inline, ...riskyInline(role.arn)],
      boundary: null,
      trust: trustOf(role, accountId),
      instanceProfiles: profiles.filter((p) => p.roles.includes(role.name)).map((p) => p.arn),
    };
  });

  const awsHeld = [...new Set([...users, ...groups, ...roles].flatMap((p) => p.managedPolicies))].sort();
  const policies: ManagedPolicyDocument[] = [
    ...awsHeld.map((name) => ({ arn: awsPolicyArn(name), name, document: AWS_MANAGED[name] ?? null })),
    ...customer.values(),
  ];
  return {
    status: 'ok',
    value: {
      users: authorizationUsers,
      groups: authorizationGroups,
      roles: authorizationRoles,
      policies,
      ...organizationPoliciesOf(inventory.organization),
    },
  };
}
