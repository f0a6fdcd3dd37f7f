import type { IamAuthorization } from '../scans/iam-authorization';
import { administratorAfterJoining } from './escalation-admin';
import { Asker, DENIED, together } from './escalation-decisions';
import {
  ESCALATION_ACTIONS,
  type EscalationMethod,
  type MethodPermission,
  type PermissionTarget,
} from './escalation-methods';
import { names, type Principal, type PrincipalIndex, principalIndex } from './escalation-principals';
import { type RoleTrust, readTrust, trustAdmitsService, trustedPrincipals } from './escalation-trust';
import type { Evaluation, PermissionOracle } from './types';

// What one escalation search knows of the account, read once: its principals and what their documents name, the
// roles' trust policies indexed by whom they name, the roles each service could run as, and the oracle's answers.

/** A role a service could run as, and the trust statements that let the service in. */
export interface ServiceRole {
  role: Principal;
  trust: Evaluation;
}

export interface StepContext {
  index: PrincipalIndex;
  asker: Asker;
  trusts: Map<string, RoleTrust>;
  /** The roles whose trust names a principal, by key (escalation-trust.ts's principalKey). */
  trustsNaming: Map<string, RoleTrust[]>;
  /** The roles whose trust admits everyone. */
  trustsOfEveryone: RoleTrust[];
  /** The principals whose own policies allow sts:AssumeRole somewhere: those a trust naming the account admits. */
  assumers: Principal[];
  /** The roles a service-role method could end at. */
  serviceRoles(method: EscalationMethod): ServiceRole[];
  serviceRole(method: EscalationMethod, roleArn: string): ServiceRole | undefined;
  /** The method's permissions on `*` (resources the attacker picks or the data does not list), decided once. */
  general(principal: Principal, method: EscalationMethod): Evaluation;
  /** The users and roles that could use the method: they name its actions and hold those asked on `*`. */
  capable(method: EscalationMethod): Principal[];
  /** Whether the user would be an administrator once in the group. */
  administratorAfterJoining(user: Principal, group: Principal): Evaluation;
}

const usableBy = (method: EscalationMethod, principal: Principal): boolean =>
  method.principals === 'all' ? principal.kind !== 'group' : method.principals === `${principal.kind}s`;

/** The value kept under the key, computed on first use. */
function remembered<T>(known: Map<string, T>, key: string, compute: () => T): T {
  let value = known.get(key);
  if (value === undefined) {
    value = compute();
    known.set(key, value);
  }
  return value;
}

/** The method's permissions asked on `*`, once the principal's documents name every one of its actions. */
function generalDecision(asker: Asker, principal: Principal, method: EscalationMethod): Evaluation {
  if (!usableBy(method, principal)) return DENIED;
  // A trust that names the principal lets it assume the role without an Allow of its own.
  if (!method.permissions.every((p) => p.action === 'sts:AssumeRole' || names(principal, p.action))) return DENIED;
  const onAny = method.permissions.filter((p) => p.on === 'any');
  return together(...onAny.map((p) => asker.anywhere(principal, p.action)));
}

/** The roles a service-role method could end at, by ARN. */
function rolesOfService(index: PrincipalIndex, trusts: Map<string, RoleTrust>, method: EscalationMethod) {
  const found = new Map<string, ServiceRole>();
  if (method.yields.kind !== 'service-role') return found;
  const { services, instanceProfile } = method.yields;
  for (const role of index.roles) {
    const trust = trusts.get(role.arn);
    if (trust === undefined || (instanceProfile && trust.role.instanceProfiles.length === 0)) continue;
    const admitted = trustAdmitsService(trust, services);
    if (admitted !== null) found.set(role.arn, { role, trust: admitted });
  }
  return found;
}

export function stepContext(
  iam: IamAuthorization,
  oracle: PermissionOracle,
  extraActions: readonly string[] = [],
): StepContext {
  const index = principalIndex(iam, [...ESCALATION_ACTIONS, ...extraActions]);
  const asker = new Asker(oracle);
  const trusts = new Map<string, RoleTrust>();
  const trustsNaming = new Map<string, RoleTrust[]>();
  const trustsOfEveryone: RoleTrust[] = [];
  for (const role of [...iam.roles].sort((a, b) => (a.arn < b.arn ? -1 : 1))) {
    const trust = readTrust(role);
    trusts.set(role.arn, trust);
    const named = trustedPrincipals(trust);
    if (named.everyone) trustsOfEveryone.push(trust);
    for (const key of named.keys) {
      const roles = trustsNaming.get(key) ?? [];
      roles.push(trust);
      trustsNaming.set(key, roles);
    }
  }
  const principals = [...index.users, ...index.roles];
  const serviceRoles = new Map<string, Map<string, ServiceRole>>();
  const generals = new Map<string, Evaluation>();
  const capable = new Map<string, Principal[]>();
  const joined = new Map<string, Evaluation>();
  const general = (principal: Principal, method: EscalationMethod) =>
    remembered(generals, `${principal.arn}\n${method.id}`, () => generalDecision(asker, principal, method));
  const rolesOf = (method: EscalationMethod) =>
    remembered(serviceRoles, method.id, () => rolesOfService(index, trusts, method));

  return {
    index,
    asker,
    trusts,
    trustsNaming,
    trustsOfEveryone,
    assumers: principals.filter((p) => names(p, 'sts:AssumeRole')),
    serviceRoles: (method) => [...rolesOf(method).values()],
    serviceRole: (method, roleArn) => rolesOf(method).get(roleArn),
    general,
    capable: (method) =>
      remembered(capable, method.id, () => principals.filter((p) => general(p, method).decision !== 'denied')),
    administratorAfterJoining: (user, group) =>
      remembered(joined, `${user.arn}\n${group.arn}`, () => administratorAfterJoining(iam, user, group)),
  };
}

/** The decision of the method's permissions asked on one resource (those aimed at the given targets). */
export function askOn(
  context: StepContext,
  principal: Principal,
  permissions: readonly MethodPermission[],
  targets: readonly PermissionTarget[],
  resource: string,
): Evaluation {
  const asked = permissions.filter((p) => targets.includes(p.on));
  return together(...asked.map((p) => context.asker.on(principal, p.action, resource)));
}

/**
 * Whether the principal can assume the role, as the oracle weighs the role's trust policy with the principal's own:
 * asked whatever the principal's policies name, since a trust that names it needs no Allow of its own.
 */
export const assumeDecision = (context: StepContext, principal: Principal, roleArn: string): Evaluation =>
  context.asker.direct(principal.arn, 'sts:AssumeRole', roleArn);

/** The roles whose trust may let the principal in (through its account's root only with an Allow of its own). */
export function assumableRoles(context: StepContext, principal: Principal): Principal[] {
  const keys = [principal.arn];
  if (names(principal, 'sts:AssumeRole')) keys.push(`account:${principal.account}`);
  if (principal.kind === 'role') keys.push(`session:${principal.account}/${principal.name}`);
  const trusts = new Set([...keys.flatMap((key) => context.trustsNaming.get(key) ?? []), ...context.trustsOfEveryone]);
  return [...trusts]
    .flatMap((t) => context.index.byArn.get(t.role.arn) ?? [])
    .filter((role) => role.arn !== principal.arn)
    .sort((a, b) => (a.arn < b.arn ? -1 : 1));
}

/** The users and roles the role's trust may let in: the reverse of assumableRoles. */
export function assumingPrincipals(context: StepContext, role: Principal): Principal[] {
  const trust = context.trusts.get(role.arn);
  if (trust === undefined) return [];
  const named = trustedPrincipals(trust);
  if (named.everyone) return [...context.index.users, ...context.index.roles].filter((p) => p.arn !== role.arn);
  const found = new Set<Principal>();
  for (const key of named.keys) {
    if (key.startsWith('account:')) {
      const account = key.slice('account:'.length);
      for (const p of context.assumers) if (p.account === account) found.add(p);
    } else if (key.startsWith('session:')) {
      const sessionOf = context.index.roles.find((r) => `session:${r.account}/${r.name}` === key);
      if (sessionOf) found.add(sessionOf);
    } else {
      const principal = context.index.byArn.get(key);
      if (principal && principal.kind !== 'group') found.add(principal);
    }
  }
  return [...found].filter((p) => p.arn !== role.arn).sort((a, b) => (a.arn < b.arn ? -1 : 1));
}
