import { assumableRoles, assumeDecision, askOn, type StepContext } from './escalation-context';
import { certaintyOf, DENIED, evidenceOf, onlyPossible, stronger, together } from './escalation-decisions';
import { ESCALATION_METHODS, type EscalationMethod } from './escalation-methods';
import type { Principal } from './escalation-principals';
import type { Evaluation, PathEdge } from './types';

// An escalation step: one method of the catalogue taking one principal to another principal, or to administrator
// access itself, as the oracle decides each of its permissions. A step is 'possible' when one of its permissions
// is, when the method needs something the IAM data does not show (`unseen`), or when the principal whose policies
// it rewrites has a permissions boundary (which caps what the new policy grants).
//
// A method whose permissions do not depend on the role it ends at (changing an existing function's code, sending a
// command to an instance) leads to a hub, `any-role:<method>`, which stands for every role the service could run
// as: the search joins the hub to those roles, so that P principals and R roles make P + R edges, not P × R.

export const ADMINISTRATOR = 'administrator';
export const HUB_PREFIX = 'any-role:';

export interface EscalationStep {
  method: EscalationMethod;
  from: string;
  /** The principal it becomes, ADMINISTRATOR when it grants that itself, or a hub (HUB_PREFIX) for any service role. */
  to: string;
  /** The policy or group a self-escalation rewrites. */
  on?: string;
  /** The principal it rewrites or the group it joins on its way to administrator access. */
  through?: string;
  /** How it is drawn: one edge, or two through `through`. */
  edges: PathEdge[];
  certainty: 'certain' | 'possible';
}

export const hubOf = (method: EscalationMethod) => `${HUB_PREFIX}${method.id}`;

/** Whether the method ends at a hub: it passes no role, so any role its service runs as could be the one. */
export const endsAtHub = (method: EscalationMethod) =>
  method.yields.kind === 'service-role' && !method.permissions.some((p) => p.on === 'passed-role');

const withUnseen = (method: EscalationMethod, evaluation: Evaluation): Evaluation =>
  method.unseen === undefined ? evaluation : onlyPossible(evaluation, method.unseen);

const withBoundary = (principal: Principal, evaluation: Evaluation): Evaluation =>
  principal.boundary === null
    ? evaluation
    : onlyPossible(evaluation, `permissions boundary ${principal.boundary} caps what a new policy grants`);

const edge = (from: string, to: string, label: string, evaluation: Evaluation): PathEdge => ({
  from,
  to,
  label,
  evidence: evidenceOf(evaluation),
  certainty: certaintyOf(evaluation),
});

const oneEdge = (method: EscalationMethod, from: string, to: string, evaluation: Evaluation): EscalationStep => ({
  method,
  from,
  to,
  edges: [edge(from, to, method.name, evaluation)],
  certainty: certaintyOf(evaluation),
});

/** The strongest of a method's candidate steps toward administrator access (one is enough), the first certain one. */
function strongest<T>(
  targets: readonly T[],
  decide: (target: T) => { step: EscalationStep; decision: Evaluation } | null,
): EscalationStep[] {
  let best: { step: EscalationStep; decision: Evaluation } | null = null;
  for (const target of targets) {
    const candidate = decide(target);
    if (candidate === null || (best !== null && !stronger(candidate.decision, best.decision))) continue;
    best = candidate;
    if (best.decision.decision === 'allowed') break;
  }
  return best === null ? [] : [best.step];
}

function ownPoliciesStep(context: StepContext, principal: Principal, method: EscalationMethod, general: Evaluation) {
  const target = method.permissions.find((p) => p.on !== 'any')?.on ?? 'self';
  const resources =
    target === 'self'
      ? [principal.arn]
      : target === 'own-group'
        ? principal.groups.map((g) => g.arn)
        : principal.customerPolicies;
  return strongest(resources, (resource) => {
    const asked = askOn(context, principal, method.permissions, [target], resource);
    const decision = withBoundary(principal, withUnseen(method, together(general, asked)));
    if (decision.decision === 'denied') return null;
    return { step: { ...oneEdge(method, principal.arn, ADMINISTRATOR, decision), on: resource }, decision };
  });
}

function joinGroupStep(context: StepContext, principal: Principal, method: EscalationMethod, general: Evaluation) {
  const member = new Set(principal.groups.map((g) => g.arn));
  const groups = context.index.groups.filter((g) => !member.has(g.arn));
  return strongest(groups, (group) => {
    const join = withUnseen(
      method,
      together(general, askOn(context, principal, method.permissions, ['group'], group.arn)),
    );
    if (join.decision === 'denied') return null;
    const administrator = context.administratorAfterJoining(principal, group);
    if (administrator.decision === 'denied') return null;
    const decision = together(join, administrator);
    const edges = [
      edge(principal.arn, group.arn, method.name, join),
      edge(group.arn, ADMINISTRATOR, 'administrator access', administrator),
    ];
    const step = { method, from: principal.arn, to: ADMINISTRATOR, through: group.arn, edges };
    return { step: { ...step, certainty: certaintyOf(decision) }, decision };
  });
}

function modifyOtherStep(context: StepContext, principal: Principal, method: EscalationMethod) {
  if (method.yields.kind !== 'modify-other') return [];
  const { access } = method.yields;
  const changes = method.permissions.filter((p) => p.action !== access);
  const targets =
    method.yields.principal === 'user'
      ? context.index.users
      : access === 'sts:AssumeRole'
        ? assumableRoles(context, principal)
        : context.index.roles;
  return strongest(targets, (target) => {
    if (target.arn === principal.arn) return null;
    const onTarget = askOn(context, principal, changes, ['user', 'role'], target.arn);
    const onPolicy = changes.some((p) => p.on === 'role-policy')
      ? target.customerPolicies
          .map((arn) => askOn(context, principal, changes, ['role-policy'], arn))
          .reduce((best, e) => (stronger(e, best) ? e : best), DENIED)
      : together();
    const change = withBoundary(target, withUnseen(method, together(onTarget, onPolicy)));
    if (change.decision === 'denied') return null;
    const entry =
      access === 'sts:AssumeRole'
        ? assumeDecision(context, principal, target.arn)
        : context.asker.on(principal, access, target.arn);
    if (entry.decision === 'denied') return null;
    const decision = together(entry, change);
    const edges = [
      edge(principal.arn, target.arn, access, entry),
      edge(target.arn, ADMINISTRATOR, changes.map((p) => p.action).join(' + '), change),
    ];
    const step = { method, from: principal.arn, to: ADMINISTRATOR, through: target.arn, edges };
    return { step: { ...step, certainty: certaintyOf(decision) }, decision };
  });
}

/**
 * The principal's steps straight to administrator access: rewriting its own policies, joining a group, rewriting
 * another principal's and acting as it. The strongest of each method.
 */
export function administratorSteps(context: StepContext, principal: Principal): EscalationStep[] {
  const steps: EscalationStep[] = [];
  for (const method of ESCALATION_METHODS) {
    const kind = method.yields.kind;
    if (kind !== 'own-policies' && kind !== 'join-group' && kind !== 'modify-other') continue;
    const general = context.general(principal, method);
    if (general.decision === 'denied') continue;
    if (kind === 'own-policies') steps.push(...ownPoliciesStep(context, principal, method, general));
    else if (kind === 'join-group') steps.push(...joinGroupStep(context, principal, method, general));
    else steps.push(...modifyOtherStep(context, principal, method));
  }
  return steps;
}

/** The method's step from the principal to another principal (a role it runs as, a user it signs in as), or null. */
export function stepTo(
  context: StepContext,
  principal: Principal,
  method: EscalationMethod,
  target: Principal,
): EscalationStep | null {
  if (target.arn === principal.arn) return null;
  const general = context.general(principal, method);
  if (general.decision === 'denied') return null;
  let decision: Evaluation;
  const kind = method.yields.kind;
  if (kind === 'assume-role' && target.kind === 'role') decision = assumeDecision(context, principal, target.arn);
  else if (kind === 'rewrite-trust' && target.kind === 'role')
    decision = askOn(context, principal, method.permissions, ['role'], target.arn);
  else if (kind === 'user-credentials' && target.kind === 'user')
    decision = askOn(context, principal, method.permissions, ['user'], target.arn);
  else if (kind === 'service-role' && !endsAtHub(method)) {
    const serviceRole = context.serviceRole(method, target.arn);
    if (serviceRole === undefined) return null;
    decision = together(askOn(context, principal, method.permissions, ['passed-role'], target.arn), serviceRole.trust);
  } else return null;
  decision = withUnseen(method, together(general, decision));
  return decision.decision === 'denied' ? null : oneEdge(method, principal.arn, target.arn, decision);
}

/** The step of a method that ends at its hub (any role the service runs as), or null. */
export function stepToHub(context: StepContext, principal: Principal, method: EscalationMethod): EscalationStep | null {
  if (!endsAtHub(method)) return null;
  const decision = withUnseen(method, context.general(principal, method));
  return decision.decision === 'denied' ? null : oneEdge(method, principal.arn, hubOf(method), decision);
}

/** Every escalation step out of one principal, method by method in the catalogue's order. */
export function stepsFrom(context: StepContext, principal: Principal): EscalationStep[] {
  const steps = administratorSteps(context, principal);
  for (const method of ESCALATION_METHODS) {
    if (context.general(principal, method).decision === 'denied') continue;
    const targets =
      method.yields.kind === 'assume-role'
        ? assumableRoles(context, principal)
        : method.yields.kind === 'rewrite-trust'
          ? context.index.roles
          : method.yields.kind === 'user-credentials'
            ? context.index.users
            : method.yields.kind === 'service-role'
              ? context.serviceRoles(method).map((s) => s.role)
              : [];
    if (endsAtHub(method)) {
      const step = stepToHub(context, principal, method);
      if (step) steps.push(step);
    } else
      for (const target of targets) {
        const step = stepTo(context, principal, method, target);
        if (step) steps.push(step);
      }
  }
  return steps;
}
