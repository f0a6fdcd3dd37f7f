import { permissionOracle } from '../../domain/attack-paths/effective-permissions';
import { findEscalationPaths } from '../../domain/attack-paths/escalation';
import {
  ESCALATION_METHODS,
  type EscalationMethod,
  type PermissionTarget,
} from '../../domain/attack-paths/escalation-methods';
import { stepContext } from '../../domain/attack-paths/escalation-context';
import { ADMINISTRATOR, HUB_PREFIX, stepsFrom } from '../../domain/attack-paths/escalation-steps';
import type { AttackPath } from '../../domain/attack-paths/types';
import type {
  AuthorizationGroup,
  AuthorizationRole,
  AuthorizationUser,
  IamAuthorization,
  ManagedPolicyDocument,
} from '../../domain/scans/iam-authorization';

// The escalation search end to end: IAM documents, the account's real policy evaluation (permissionOracle), the
// steps of each catalogued method and the paths they make.

const ACCOUNT = '111122223333';
const userArn = (name: string) => `arn:aws:iam::${ACCOUNT}:user/${name}`;
const roleArn = (name: string) => `arn:aws:iam::${ACCOUNT}:role/${name}`;
const groupArn = (name: string) => `arn:aws:iam::${ACCOUNT}:group/${name}`;
const policyArn = (name: string) => `arn:aws:iam::${ACCOUNT}:policy/${name}`;
const ROOT = `arn:aws:iam::${ACCOUNT}:root`;
const ADMIN_POLICY = 'arn:aws:iam::aws:policy/AdministratorAccess';

type Statement = Record<string, unknown>;
const doc = (...Statement: Statement[]) => ({ Version: '2012-10-17', Statement });
const allow = (Sid: string, Action: string | string[], Resource: string | string[] = '*', extra: Statement = {}) => ({
  Sid,
  Effect: 'Allow',
  Action,
  Resource,
  ...extra,
});
const deny = (Sid: string, Action: string | string[], Resource: string | string[] = '*') => ({
  Sid,
  Effect: 'Deny',
  Action,
  Resource,
});
const trustAccount = () => doc({ Effect: 'Allow', Principal: { AWS: ROOT }, Action: 'sts:AssumeRole' });
const trustService = (service: string) =>
  doc({ Effect: 'Allow', Principal: { Service: service }, Action: 'sts:AssumeRole' });

function user(name: string, parts: Partial<AuthorizationUser> & { grants?: Statement[] } = {}): AuthorizationUser {
  const { grants, ...rest } = parts;
  return {
    name,
    arn: userArn(name),
    attached: [],
    inline: grants ? [{ name: 'grants', document: doc(...grants) }] : [],
    groups: [],
    boundary: null,
    ...rest,
  };
}

function role(name: string, parts: Partial<AuthorizationRole> & { grants?: Statement[] } = {}): AuthorizationRole {
  const { grants, ...rest } = parts;
  return {
    name,
    arn: roleArn(name),
    attached: [],
    inline: grants ? [{ name: 'grants', document: doc(...grants) }] : [],
    boundary: null,
    trust: trustService('ec2.amazonaws.com'),
    instanceProfiles: [],
    ...rest,
  };
}

const group = (name: string, parts: Partial<AuthorizationGroup> = {}): AuthorizationGroup => ({
  name,
  arn: groupArn(name),
  attached: [],
  inline: [],
  ...parts,
});

function account(parts: Partial<IamAuthorization>): IamAuthorization {
  const policies: ManagedPolicyDocument[] = [
    { arn: ADMIN_POLICY, name: 'AdministratorAccess', document: doc({ Effect: 'Allow', Action: '*', Resource: '*' }) },
    ...(parts.policies ?? []),
  ];
  return {
    users: [],
    groups: [],
    roles: [],
    serviceControlPolicies: { read: true, levels: [] },
    resourceControlPolicies: { read: true, levels: [] },
    ...parts,
    policies,
  };
}

const search = (iam: IamAuthorization, sensitive?: string[]) =>
  findEscalationPaths(iam, permissionOracle(iam), sensitive ? { sensitive } : {});

function stepsOf(iam: IamAuthorization, principalArn: string) {
  const context = stepContext(iam, permissionOracle(iam));
  const principal = context.index.byArn.get(principalArn);
  if (principal === undefined) throw new Error(`no principal ${principalArn}`);
  return stepsFrom(context, principal);
}

const pathOf = (paths: AttackPath[], source: string, target = ADMINISTRATOR) =>
  paths.find((p) => p.source === source && p.target === target);

/** A Sid for the statement that grants one action. */
const sidOf = (action: string) => action.replace(/[^A-Za-z0-9]/g, '');

/**
 * An account where an attacker holds exactly the method's permissions (but `omit`), each by a statement of its
 * own, on the resource the method needs, and where what the method reaches leads to administrator access.
 */
function scenario(method: EscalationMethod, omit?: string) {
  const attackerIsRole = method.principals === 'roles';
  const attacker = attackerIsRole ? roleArn('attacker') : userArn('attacker');
  const yields = method.yields;
  const targetIsAdmin = yields.kind !== 'modify-other';
  const service = yields.kind === 'service-role' ? (yields.services[0] as string) : null;
  const assumedByAccount =
    yields.kind === 'assume-role' || (yields.kind === 'modify-other' && yields.access === 'sts:AssumeRole');
  const targetRole = role('target', {
    attached: targetIsAdmin ? [ADMIN_POLICY] : [policyArn('target-policy')],
    trust: assumedByAccount ? trustAccount() : trustService(service ?? 'ec2.amazonaws.com'),
    instanceProfiles: yields.kind === 'service-role' && yields.instanceProfile ? [`${roleArn('target')}-profile`] : [],
  });
  const targetUser = user('target', { attached: targetIsAdmin ? [ADMIN_POLICY] : [] });
  const resourceOf: Record<PermissionTarget, string> = {
    self: attacker,
    'own-group': groupArn('team'),
    'own-policy': policyArn('attacker-policy'),
    group: groupArn('admins'),
    user: targetUser.arn,
    role: targetRole.arn,
    'role-policy': policyArn('target-policy'),
    'passed-role': targetRole.arn,
    any: '*',
  };
  const grants = method.permissions
    .filter((p) => p.action !== omit)
    .map((p) => allow(sidOf(p.action), p.action, resourceOf[p.on]));
  const quiet = doc(allow('Read', 's3:ListAllMyBuckets'));
  const policies = [
    { arn: policyArn('attacker-policy'), name: 'attacker-policy', document: quiet },
    { arn: policyArn('target-policy'), name: 'target-policy', document: quiet },
  ];
  const attackerParts = { grants, attached: [policyArn('attacker-policy')] };
  const iam = account({
    users: [...(attackerIsRole ? [] : [user('attacker', { ...attackerParts, groups: ['team'] })]), targetUser],
    roles: [...(attackerIsRole ? [role('attacker', attackerParts)] : []), targetRole],
    groups: [group('team'), group('admins', { attached: [ADMIN_POLICY] })],
    policies,
  });
  const reached =
    yields.kind === 'own-policies' || yields.kind === 'join-group' || yields.kind === 'modify-other'
      ? ADMINISTRATOR
      : yields.kind === 'user-credentials'
        ? targetUser.arn
        : yields.kind === 'service-role' && !method.permissions.some((p) => p.on === 'passed-role')
          ? `${HUB_PREFIX}${method.id}`
          : targetRole.arn;
  return { iam, attacker, reached };
}

describe('escalation methods, each on an account that has it', () => {
  it.each(ESCALATION_METHODS.map((m) => [m.id, m] as const))('%s', (_id, method) => {
    const { iam, attacker, reached } = scenario(method);
    const step = stepsOf(iam, attacker).find((s) => s.method.id === method.id);
    expect(step).toMatchObject({ from: attacker, to: reached });
    expect(step?.certainty).toBe(method.unseen ? 'possible' : 'certain');
    // Each permission is shown by the attacker's statement that grants it.
    const evidence = step?.edges.flatMap((e) => e.evidence) ?? [];
    for (const permission of method.permissions)
      expect(evidence).toContain(`inline:${attacker}/grants#${sidOf(permission.action)}`);
    if (method.unseen) expect(evidence).toContain(`undecided: ${method.unseen}`);

    const path = pathOf(search(iam), attacker);
    expect(path).toMatchObject({ kind: 'escalation', severity: 'HIGH', target: ADMINISTRATOR });
    expect(path?.certainty).toBe(method.unseen ? 'possible' : 'certain');
    expect(path?.nodes.at(-1)).toEqual({ id: ADMINISTRATOR, kind: 'administrator', label: 'Administrator access' });
  });
});

describe('escalation methods, each on an account that lacks one of its permissions', () => {
  const cases = ESCALATION_METHODS.flatMap((m) => m.permissions.map((p) => [m.id, p.action, m] as const));
  it.each(cases)('%s without %s', (_id, action, method) => {
    const { iam, attacker } = scenario(method, action);
    expect(stepsOf(iam, attacker).map((s) => s.method.id)).not.toContain(method.id);
  });
});

describe('escalation paths', () => {
  const B = role('admin-b', {
    attached: [ADMIN_POLICY],
    trust: trustService('ec2.amazonaws.com'),
    instanceProfiles: [`arn:aws:iam::${ACCOUNT}:instance-profile/admin-b`],
  });
  const alice = (grants: Statement[] = [allow('Assume', 'sts:AssumeRole', roleArn('deployer'))]) =>
    user('alice', { grants });
  const deployer = (grants: Statement[] = [allow('Launch', ['iam:PassRole', 'ec2:RunInstances'])]) =>
    role('deployer', { trust: trustAccount(), grants });

  it('follows a two-hop chain: assume a role, then pass an administrator role to a new instance', () => {
    const paths = search(account({ users: [alice()], roles: [deployer(), B] }));
    const path = pathOf(paths, userArn('alice'));
    expect(path).toEqual({
      fingerprint: `escalation:ec2-001:${userArn('alice')}:administrator`,
      kind: 'escalation',
      rule: 'ec2-001',
      severity: 'HIGH',
      title: 'User alice can become an administrator',
      summary:
        'User alice can become an administrator: it assumes role deployer, then runs code as role admin-b ' +
        '(iam:PassRole + ec2:RunInstances); role admin-b is an administrator.',
      source: userArn('alice'),
      target: ADMINISTRATOR,
      nodes: [
        { id: userArn('alice'), kind: 'user', label: 'alice' },
        { id: roleArn('deployer'), kind: 'role', label: 'deployer' },
        { id: B.arn, kind: 'role', label: 'admin-b' },
        { id: ADMINISTRATOR, kind: 'administrator', label: 'Administrator access' },
      ],
      edges: [
        {
          from: userArn('alice'),
          to: roleArn('deployer'),
          label: 'sts:AssumeRole',
          evidence: [`resource:${roleArn('deployer')}#0`, `inline:${userArn('alice')}/grants#Assume`],
          certainty: 'certain',
        },
        {
          from: roleArn('deployer'),
          to: B.arn,
          label: 'iam:PassRole + ec2:RunInstances',
          evidence: [`inline:${roleArn('deployer')}/grants#Launch`, `resource:${B.arn}#0`],
          certainty: 'certain',
        },
        {
          from: B.arn,
          to: ADMINISTRATOR,
          label: 'administrator access',
          evidence: [`${ADMIN_POLICY}#0`],
          certainty: 'certain',
        },
      ],
      certainty: 'certain',
    });
    // The role in the middle has its own, shorter path; the administrator none.
    expect(pathOf(paths, roleArn('deployer'))?.edges).toHaveLength(2);
    expect(paths.map((p) => p.source)).not.toContain(B.arn);
  });

  it('is blocked by a Deny on a step', () => {
    const passDenied = deployer([
      allow('Launch', ['iam:PassRole', 'ec2:RunInstances']),
      deny('NoAdminPass', 'iam:PassRole', B.arn),
    ]);
    expect(search(account({ users: [alice()], roles: [passDenied, B] }))).toEqual([]);

    const assumeDenied = alice([
      allow('Assume', 'sts:AssumeRole', roleArn('deployer')),
      deny('NoAssume', 'sts:AssumeRole'),
    ]);
    const paths = search(account({ users: [assumeDenied], roles: [deployer(), B] }));
    expect(pathOf(paths, userArn('alice'))).toBeUndefined();
    expect(pathOf(paths, roleArn('deployer'))).toBeDefined();
  });

  it('shows a step under a condition Sentinel cannot decide as possible', () => {
    const conditional = deployer([
      allow('Launch', 'ec2:RunInstances'),
      allow('Pass', 'iam:PassRole', '*', {
        Condition: { StringEquals: { 'iam:PassedToService': 'ec2.amazonaws.com' } },
      }),
    ]);
    const path = pathOf(search(account({ users: [alice()], roles: [conditional, B] })), userArn('alice'));
    expect(path?.certainty).toBe('possible');
    expect(path?.edges.map((e) => e.certainty)).toEqual(['certain', 'possible', 'certain']);
    expect(path?.edges[1]?.evidence).toContain('undecided: iam:PassedToService');
  });

  it('shows a permission allowed only on narrower resources than the attacker may need as possible', () => {
    const scoped = alice([
      allow('Pass', 'iam:PassRole', roleArn('lambda-admin')),
      allow('Create', ['lambda:CreateFunction', 'lambda:InvokeFunction'], `arn:aws:lambda:*:${ACCOUNT}:function:app-*`),
    ]);
    const lambdaAdmin = role('lambda-admin', { attached: [ADMIN_POLICY], trust: trustService('lambda.amazonaws.com') });
    const path = pathOf(search(account({ users: [scoped], roles: [lambdaAdmin] })), userArn('alice'));
    expect(path).toMatchObject({ rule: 'lambda-001', certainty: 'possible' });
    expect(path?.edges[0]?.evidence).toContain(
      `undecided: lambda:CreateFunction allowed only on arn:aws:lambda:*:${ACCOUNT}:function:app-*`,
    );
  });

  it('prefers a longer certain path to a shorter possible one', () => {
    const direct = alice([
      allow('Assume', 'sts:AssumeRole', roleArn('deployer')),
      allow('Update', 'lambda:UpdateFunctionCode'),
    ]);
    const lambdaAdmin = role('lambda-admin', { attached: [ADMIN_POLICY], trust: trustService('lambda.amazonaws.com') });
    const paths = search(account({ users: [direct], roles: [deployer(), B, lambdaAdmin] }));
    expect(pathOf(paths, userArn('alice'))).toMatchObject({ rule: 'ec2-001', certainty: 'certain' });

    const onlyPossible = search(
      account({ users: [alice([allow('Update', 'lambda:UpdateFunctionCode')])], roles: [lambdaAdmin] }),
    );
    const path = pathOf(onlyPossible, userArn('alice'));
    expect(path).toMatchObject({ rule: 'lambda-003', certainty: 'possible' });
    expect(path?.edges[0]).toMatchObject({ to: lambdaAdmin.arn, label: 'lambda:UpdateFunctionCode' });
    expect(path?.edges[0]?.evidence).toContain('undecided: a function runs as the role and is invoked');
  });

  it('reports no path from an administrator, even one that could also escalate', () => {
    const admin = user('root-like', { attached: [ADMIN_POLICY] });
    const adminRole = role('ops', { attached: [ADMIN_POLICY], trust: trustAccount() });
    const paths = search(
      account({ users: [admin, alice([allow('Assume', 'sts:AssumeRole', adminRole.arn)])], roles: [adminRole, B] }),
    );
    expect(paths.map((p) => p.source)).toEqual([userArn('alice')]);
    expect(pathOf(paths, userArn('alice'))).toMatchObject({ rule: 'sts-001', certainty: 'certain' });
  });

  it('reads the trust policy: a named principal needs no Allow, the account root does, a condition is possible', () => {
    const admin = (trust: Record<string, unknown>) => role('admin', { attached: [ADMIN_POLICY], trust });
    const named = doc({ Effect: 'Allow', Principal: { AWS: userArn('alice') }, Action: 'sts:AssumeRole' });
    expect(pathOf(search(account({ users: [alice([])], roles: [admin(named)] })), userArn('alice'))).toMatchObject({
      rule: 'sts-001',
      certainty: 'certain',
    });
    expect(search(account({ users: [alice([])], roles: [admin(trustAccount())] }))).toEqual([]);
    const withExternalId = doc({
      Effect: 'Allow',
      Principal: { AWS: userArn('alice') },
      Action: 'sts:AssumeRole',
      Condition: { StringEquals: { 'sts:ExternalId': 'secret' } },
    });
    const path = pathOf(search(account({ users: [alice([])], roles: [admin(withExternalId)] })), userArn('alice'));
    expect(path?.certainty).toBe('possible');
    expect(path?.edges[0]?.evidence).toContain('undecided: sts:ExternalId');
  });

  it('draws a change to another principal through it, and a joined group through the group', () => {
    const target = role('app', { trust: trustAccount() });
    const attacker = alice([
      allow('Attach', 'iam:AttachRolePolicy', target.arn),
      allow('Assume', 'sts:AssumeRole', target.arn),
    ]);
    const path = pathOf(search(account({ users: [attacker], roles: [target] })), userArn('alice'));
    expect(path?.rule).toBe('iam-014');
    expect(path?.nodes.map((n) => n.id)).toEqual([userArn('alice'), target.arn, ADMINISTRATOR]);
    expect(path?.edges.map((e) => e.label)).toEqual(['sts:AssumeRole', 'iam:AttachRolePolicy']);

    const joiner = alice([allow('Join', 'iam:AddUserToGroup', groupArn('admins'))]);
    const admins = group('admins', { attached: [ADMIN_POLICY] });
    const joined = pathOf(search(account({ users: [joiner], groups: [admins] })), userArn('alice'));
    expect(joined?.rule).toBe('iam-013');
    expect(joined?.nodes.map((n) => n.kind)).toEqual(['user', 'group', 'administrator']);
    expect(joined?.edges[1]).toMatchObject({ label: 'administrator access', evidence: [`${ADMIN_POLICY}#0`] });
  });

  it('shows a self-escalation bounded by a permissions boundary as possible', () => {
    const bounded = user('alice', {
      grants: [allow('Self', 'iam:PutUserPolicy', userArn('alice'))],
      boundary: policyArn('boundary'),
    });
    const boundary = { arn: policyArn('boundary'), name: 'boundary', document: doc(allow('All', '*')) };
    const path = pathOf(search(account({ users: [bounded], policies: [boundary] })), userArn('alice'));
    expect(path).toMatchObject({ rule: 'iam-007', certainty: 'possible' });
  });

  it('ends at a principal holding a sensitive permission, unless the source reaches an administrator', () => {
    const reader = role('reader', { trust: trustAccount(), grants: [allow('Read', 'secretsmanager:GetSecretValue')] });
    const paths = search(
      account({
        users: [
          alice([allow('Assume', 'sts:AssumeRole', reader.arn)]),
          user('bob', { grants: [allow('A', 'sts:AssumeRole')] }),
        ],
        roles: [reader, role('boss', { attached: [ADMIN_POLICY], trust: trustAccount() })],
      }),
      ['secretsmanager:GetSecretValue'],
    );
    const path = pathOf(paths, userArn('alice'), 'secretsmanager:GetSecretValue');
    expect(path).toMatchObject({
      title: 'User alice can gain secretsmanager:GetSecretValue',
      fingerprint: `escalation:sts-001:${userArn('alice')}:secretsmanager:GetSecretValue`,
    });
    expect(path?.nodes.at(-1)).toEqual({
      id: 'secretsmanager:GetSecretValue',
      kind: 'permission',
      label: 'secretsmanager:GetSecretValue',
    });
    expect(path?.edges.at(-1)).toMatchObject({ from: reader.arn, evidence: [`inline:${reader.arn}/grants#Read`] });
    expect(pathOf(paths, userArn('bob'))).toBeDefined();
    expect(pathOf(paths, userArn('bob'), 'secretsmanager:GetSecretValue')).toBeUndefined();
    expect(pathOf(paths, reader.arn, 'secretsmanager:GetSecretValue')).toBeUndefined();
  });

  it('searches a large account (500 users, 5,000 roles) to the end', () => {
    const roles: AuthorizationRole[] = [];
    for (let i = 0; i < 5000; i++) {
      const kind = i % 4;
      roles.push(
        role(`app-${i}`, {
          trust:
            kind === 0
              ? trustService('lambda.amazonaws.com')
              : kind === 1
                ? trustService('ec2.amazonaws.com')
                : kind === 2
                  ? trustAccount()
                  : trustService('ecs-tasks.amazonaws.com'),
          instanceProfiles: kind === 1 ? [`arn:aws:iam::${ACCOUNT}:instance-profile/app-${i}`] : [],
          attached: i % 1000 === 4 || i % 1000 === 6 ? [ADMIN_POLICY] : [policyArn(`app-policy-${i % 50}`)],
          grants: [allow('Data', ['s3:GetObject', 'dynamodb:Query'], `arn:aws:s3:::bucket-${i}/*`)],
        }),
      );
    }
    const policies = Array.from({ length: 50 }, (_, i) => ({
      arn: policyArn(`app-policy-${i}`),
      name: `app-policy-${i}`,
      document: doc(allow('Logs', ['logs:PutLogEvents', 'sqs:SendMessage'], `arn:aws:logs:*:${ACCOUNT}:*`)),
    }));
    const users: AuthorizationUser[] = [];
    for (let j = 0; j < 500; j++) {
      const grants =
        j % 10 === 0
          ? [allow('Assume', 'sts:AssumeRole', roleArn('app-*'))]
          : j % 10 === 1
            ? [allow('Deploy', ['iam:PassRole', 'lambda:CreateFunction', 'lambda:InvokeFunction'], '*')]
            : j % 10 === 2
              ? [allow('Patch', 'lambda:UpdateFunctionCode')]
              : [allow('Read', ['s3:GetObject', 'dynamodb:Query'], `arn:aws:s3:::bucket-${j}/*`)];
      users.push(user(`dev-${j}`, { grants, groups: j % 2 === 0 ? ['developers'] : [] }));
    }
    const developers = group('developers', {
      inline: [{ name: 'read', document: doc(allow('Describe', 'ec2:Describe*')) }],
    });
    const paths = search(account({ users, roles, groups: [developers], policies }));
    expect(pathOf(paths, userArn('dev-0'))).toMatchObject({ rule: 'sts-001', certainty: 'certain' });
    expect(pathOf(paths, userArn('dev-1'))).toMatchObject({ certainty: 'certain' });
    expect(pathOf(paths, userArn('dev-2'))).toMatchObject({ rule: 'lambda-003', certainty: 'possible' });
    expect(pathOf(paths, userArn('dev-3'))).toBeUndefined();
  });
});
