import { permissionOracle } from '../../domain/attack-paths/effective-permissions';
import { findEscalationPaths } from '../../domain/attack-paths/escalation';
import { stepContext, type StepContext } from '../../domain/attack-paths/escalation-context';
import {
  ESCALATION_METHODS,
  type EscalationMethod,
  type PermissionTarget,
} from '../../domain/attack-paths/escalation-methods';
import { ADMINISTRATOR, HUB_PREFIX, stepsFrom } from '../../domain/attack-paths/escalation-steps';
import type { AttackPath } from '../../domain/attack-paths/types';
import type { IamAuthorization } from '../../domain/scans/iam-authorization';
import type { PartName } from '../../domain/scans/inventory';
import { createSentinelRole, REGION } from '../helpers/aws';
import { ok, useCollectorSuite } from '../helpers/collector-suite';
import {
  ADMINISTRATOR_ACCESS,
  arnsOf,
  document,
  type IamSeed,
  INLINE_POLICY,
  type PolicyDocument,
  seedIam,
} from '../helpers/iam-seed';
import { expectGrantedByRole } from '../helpers/role-grants';

// Every privilege-escalation method of the catalogue (domain/attack-paths/escalation-methods.ts) end to end: IAM
// principals seeded in a moto account, the iamAuthorization part collected through Sentinel's role, and the escalation
// search over what was collected. Each method gets an attacker holding exactly its permissions, each in a statement of
// its own on the resource the method needs, and the targets it needs, as test/unit/escalation-paths.test.ts builds
// them: an administrator role trusted by the method's service (in an instance profile for EC2) or by the account, an
// administrator user, a group holding AdministratorAccess, a group of its own, a customer managed policy it holds.
// Beside it, a second copy of the scenario whose attacker lacks one of the permissions must find no path at all.
//
// Every scenario lives in one account under names prefixed by the method's id, and the account is collected once: a
// collection costs seconds, an IAM call milliseconds. The scenarios cannot lend each other a path, since each
// attacker's permissions name its own targets' ARNs; methods on `*` that end at any role of a service (updating an
// existing function's code) reach every scenario's administrator role of that service, which only adds paths from
// attackers that already have one.

/** Methods moto cannot represent, with the reason. None today: no method needs a user's permissions boundary. */
const NOT_SEEDED: Readonly<Record<string, string>> = {};
const SEEDED = ESCALATION_METHODS.filter((m) => NOT_SEEDED[m.id] === undefined);

const PARTS: PartName[] = ['iamAuthorization'];

/** A Sid for the statement that grants one action, as the unit test names them. */
const sidOf = (action: string) => action.replace(/[^A-Za-z0-9]/g, '');

/** The targets whose resources a scenario makes one: a role passed to a service is the role the method acts on. */
const SAME_RESOURCE: Record<PermissionTarget, string> = {
  self: 'self',
  'own-group': 'own-group',
  'own-policy': 'own-policy',
  group: 'group',
  user: 'user',
  role: 'role',
  'role-policy': 'role-policy',
  'passed-role': 'role',
  any: 'any',
};

const attackerKind = (method: EscalationMethod) => (method.principals === 'roles' ? 'roles' : 'users');

/** What an attacker of `method`'s scenario holds (without `omit`): each action on the resource it is granted on. */
const heldBy = (method: EscalationMethod, omit?: string) =>
  new Set(method.permissions.filter((p) => p.action !== omit).map((p) => `${p.action}@${SAME_RESOURCE[p.on]}`));

/**
 * The catalogue's methods an attacker of `method`'s scenario can use, lacking `omit`: those whose every permission
 * it holds on the same resource (lambda-004's attacker can use lambda-003, which needs only one of its two).
 */
function usableIn(method: EscalationMethod, omit?: string): EscalationMethod[] {
  const held = heldBy(method, omit);
  return ESCALATION_METHODS.filter(
    (m) =>
      (m.principals === 'all' || m.principals === attackerKind(method)) &&
      [...heldBy(m)].every((permission) => held.has(permission)),
  );
}

/**
 * The permission the negative scenario's attacker lacks: the first whose absence leaves it no method of the
 * catalogue at all (lacking lambda-004's lambda:InvokeFunction would leave it lambda-003), so no path is expected.
 */
function permissionToDrop(method: EscalationMethod): string {
  const dropped = method.permissions.find((p) => usableIn(method, p.action).length === 0);
  if (!dropped) throw new Error(`${method.id}: every permission left out leaves another method usable`);
  return dropped.action;
}

interface Scenario {
  seed: IamSeed;
  attacker: string;
  /** Where the method's step from the attacker ends, as escalation-steps.ts draws it. */
  reached: string;
}

/**
 * One method's scenario under `prefix`, as test/unit/escalation-paths.test.ts's `scenario` builds it, with only the
 * principals the method needs: the attacker holds the method's permissions but `omit` (and, for a method on its own
 * group or policy, is in a group or holds a customer managed policy that grants nothing of note); what the method
 * reaches is an administrator, or, for a method that rewrites another principal, a principal that is not one.
 */
function scenario(accountId: string, method: EscalationMethod, prefix: string, omit?: string): Scenario {
  const arn = arnsOf(accountId);
  const name = (part: string) => `${prefix}-${part}`;
  const { yields } = method;
  const on = new Set(method.permissions.map((p) => p.on));
  const attackerIsRole = method.principals === 'roles';
  const attacker = attackerIsRole ? arn.role(name('attacker')) : arn.user(name('attacker'));
  const targetIsAdmin = yields.kind !== 'modify-other';
  const service = yields.kind === 'service-role' ? (yields.services[0] as string) : 'ec2.amazonaws.com';
  const assumedByAccount =
    yields.kind === 'assume-role' || (yields.kind === 'modify-other' && yields.access === 'sts:AssumeRole');
  const trustService = (s: string) =>
    document({ Effect: 'Allow', Principal: { Service: s }, Action: 'sts:AssumeRole' });
  const quiet = document({ Sid: 'Read', Effect: 'Allow', Action: 's3:ListAllMyBuckets', Resource: '*' });

  const needsRole =
    on.has('role') ||
    on.has('role-policy') ||
    on.has('passed-role') ||
    ['service-role', 'assume-role', 'rewrite-trust'].includes(yields.kind) ||
    (yields.kind === 'modify-other' && yields.principal === 'role');
  const needsUser =
    on.has('user') ||
    yields.kind === 'user-credentials' ||
    (yields.kind === 'modify-other' && yields.principal === 'user');

  const resourceOf: Record<PermissionTarget, string> = {
    self: attacker,
    'own-group': arn.group(name('team')),
    'own-policy': arn.policy(name('attacker-policy')),
    group: arn.group(name('admins')),
    user: arn.user(name('target')),
    role: arn.role(name('target')),
    'role-policy': arn.policy(name('target-policy')),
    'passed-role': arn.role(name('target')),
    any: '*',
  };
  const grants = method.permissions
    .filter((p) => p.action !== omit)
    .map((p) => ({ Sid: sidOf(p.action), Effect: 'Allow', Action: p.action, Resource: resourceOf[p.on] }));
  const inline: PolicyDocument | undefined = grants.length > 0 ? document(...grants) : undefined;
  const ownPolicy = on.has('own-policy') ? [resourceOf['own-policy']] : [];

  const seed: IamSeed = {
    policies: [
      ...(on.has('own-policy') ? [{ name: name('attacker-policy'), document: quiet }] : []),
      ...(needsRole && !targetIsAdmin ? [{ name: name('target-policy'), document: quiet }] : []),
    ],
    groups: [
      ...(on.has('own-group') ? [{ name: name('team') }] : []),
      ...(on.has('group') ? [{ name: name('admins'), attached: [ADMINISTRATOR_ACCESS] }] : []),
    ],
    roles: [
      ...(attackerIsRole
        ? [{ name: name('attacker'), trust: trustService('ec2.amazonaws.com'), inline, attached: ownPolicy }]
        : []),
      ...(needsRole
        ? [
            {
              name: name('target'),
              trust: assumedByAccount
                ? document({ Effect: 'Allow', Principal: { AWS: arn.root }, Action: 'sts:AssumeRole' })
                : trustService(service),
              attached: targetIsAdmin ? [ADMINISTRATOR_ACCESS] : [resourceOf['role-policy']],
              instanceProfile: yields.kind === 'service-role' && yields.instanceProfile,
            },
          ]
        : []),
    ],
    users: [
      ...(attackerIsRole
        ? []
        : [
            {
              name: name('attacker'),
              inline,
              attached: ownPolicy,
              groups: on.has('own-group') ? [name('team')] : [],
            },
          ]),
      ...(needsUser ? [{ name: name('target'), attached: targetIsAdmin ? [ADMINISTRATOR_ACCESS] : [] }] : []),
    ],
  };
  const reached =
    yields.kind === 'own-policies' || yields.kind === 'join-group' || yields.kind === 'modify-other'
      ? ADMINISTRATOR
      : yields.kind === 'user-credentials'
        ? arn.user(name('target'))
        : yields.kind === 'service-role' && !method.permissions.some((p) => p.on === 'passed-role')
          ? `${HUB_PREFIX}${method.id}`
          : arn.role(name('target'));
  return { seed, attacker, reached };
}

/** The negative scenario's prefix: its names never clash with the method's own scenario. */
const withoutPrefix = (method: EscalationMethod) => `${method.id}-without`;

describe('escalation methods against moto', () => {
  const suite = useCollectorSuite({ regions: [REGION] });

  it('seeds every method of the catalogue, or names why moto cannot', () => {
    for (const [id, reason] of Object.entries(NOT_SEEDED)) {
      expect(ESCALATION_METHODS.map((m) => m.id)).toContain(id);
      expect(reason).not.toBe('');
    }
    expect(SEEDED.length + Object.keys(NOT_SEEDED).length).toBe(ESCALATION_METHODS.length);
  });

  describe('in one account holding every scenario', () => {
    let collected:
      | {
          iam: IamAuthorization;
          paths: AttackPath[];
          context: StepContext;
          positive: Map<string, Scenario>;
          negative: Map<string, Scenario & { dropped: string }>;
        }
      | undefined;
    const account = () => {
      if (!collected) throw new Error('the account was not seeded and collected (see the beforeAll above)');
      return collected;
    };

    beforeAll(async () => {
      const { customer, target } = await suite.connectedCustomer();
      const positive = new Map(SEEDED.map((m) => [m.id, scenario(customer.accountId, m, m.id)]));
      const negative = new Map(
        SEEDED.map((m) => {
          const dropped = permissionToDrop(m);
          return [m.id, { ...scenario(customer.accountId, m, withoutPrefix(m), dropped), dropped }];
        }),
      );
      await seedIam(
        customer.iam,
        [...positive.values(), ...negative.values()].map((s) => s.seed),
      );
      await createSentinelRole({ customer, externalId: target.externalId });
      suite.front.requests.length = 0;

      const inventory = await suite.provider.collectInventory(target, { parts: PARTS });
      // The hooks check the role's grants after each test; this collection runs before them.
      await expectGrantedByRole(suite.front.requests);

      const iam = ok(inventory.iamAuthorization);
      const oracle = permissionOracle(iam, { accountId: customer.accountId });
      collected = {
        iam,
        paths: findEscalationPaths(iam, oracle),
        context: stepContext(iam, oracle),
        positive,
        negative,
      };
    });

    it('collects every seeded principal', () => {
      const { iam, positive, negative } = account();
      const seeds = [...positive.values(), ...negative.values()].map((s) => s.seed);
      const names = (items: { name: string }[]) => items.map((i) => i.name).sort();
      expect(names(iam.users)).toEqual(names(seeds.flatMap((s) => s.users ?? [])));
      expect(names(iam.roles)).toEqual(names(seeds.flatMap((s) => s.roles ?? [])));
      expect(names(iam.groups)).toEqual(names(seeds.flatMap((s) => s.groups ?? [])));
    });

    const stepOf = (attacker: string, method: EscalationMethod) => {
      const { context } = account();
      const principal = context.index.byArn.get(attacker);
      if (principal === undefined) throw new Error(`the collection holds no ${attacker}`);
      return stepsFrom(context, principal).find((s) => s.method.id === method.id);
    };

    it.each(SEEDED.map((m) => [m.id, m] as const))('%s: the attacker becomes an administrator', (id, method) => {
      const { attacker, reached } = account().positive.get(id) as Scenario;
      const step = stepOf(attacker, method);
      expect(step).toMatchObject({ from: attacker, to: reached });
      const certainty = method.unseen ? 'possible' : 'certain';
      expect(step?.certainty).toBe(certainty);
      // Each permission is shown by the attacker's statement that grants it, as moto kept it.
      const evidence = step?.edges.flatMap((e) => e.evidence) ?? [];
      for (const permission of method.permissions)
        expect(evidence).toContain(`inline:${attacker}/${INLINE_POLICY}#${sidOf(permission.action)}`);

      const path = account().paths.find((p) => p.source === attacker && p.target === ADMINISTRATOR);
      expect(path).toMatchObject({ kind: 'escalation', severity: 'HIGH', certainty });
      // The path's last step is the method's, or one of fewer permissions the attacker also holds.
      expect(usableIn(method).map((m) => m.id)).toContain(path?.rule);
      expect(path?.nodes.at(-1)).toEqual({ id: ADMINISTRATOR, kind: 'administrator', label: 'Administrator access' });
    });

    it.each(SEEDED.map((m) => [m.id, permissionToDrop(m), m] as const))(
      '%s without %s: no path from the attacker',
      (id, _dropped, method) => {
        const { attacker } = account().negative.get(id) as Scenario;
        expect(stepOf(attacker, method)).toBeUndefined();
        expect(account().paths.filter((p) => p.source === attacker)).toEqual([]);
      },
    );
  });
});
