import type { IamAuthorization } from '../scans/iam-authorization';
import { administratorOf } from './escalation-admin';
import { type StepContext, stepContext } from './escalation-context';
import { certaintyOf, evidenceOf } from './escalation-decisions';
import type { Principal } from './escalation-principals';
import { chain, EscalationSearch, isHub, type Link } from './escalation-search';
import { ADMINISTRATOR, type EscalationStep } from './escalation-steps';
import type { AttackPath, Evaluation, PathEdge, PathNode, PermissionOracle } from './types';

// Privilege escalation: who can become an administrator, or gain a permission named sensitive, through the steps
// of escalation-methods.ts. The graph's nodes are the account's users and roles; its edges, the steps the oracle
// says are allowed or possible (escalation-steps.ts), searched backward from each target (escalation-search.ts).
// An administrator (escalation-admin.ts) ends a path and starts none. For each principal and each target it returns
// one path: the shortest whose every step is certain, or, when there is none, the shortest of all (its certainty
// then 'possible'). A principal that can become an administrator is not also reported for the sensitive
// permissions, which an administrator holds; nor is one that holds the permission itself.

export interface EscalationOptions {
  /** Actions whose holders are targets too (`secretsmanager:GetSecretValue`, `kms:Decrypt`), on any resource. */
  sensitive?: string[];
}

const KIND_WORD = { user: 'User', role: 'Role', group: 'Group' } as const;

function phrase(step: EscalationStep, to: string, name: (arn: string) => string): string {
  const how = step.method.name;
  switch (step.method.yields.kind) {
    case 'own-policies':
      if (step.on === undefined || step.on === step.from) return `uses ${how} on itself`;
      return `uses ${how} on ${step.on.includes(':group/') ? 'its group' : 'its policy'} ${name(step.on)}`;
    case 'join-group':
      return `joins group ${name(step.through ?? '')} (${how})`;
    case 'user-credentials':
      return `takes over user ${name(to)} (${how})`;
    case 'assume-role':
      return `assumes role ${name(to)}`;
    case 'rewrite-trust':
      return `rewrites the trust policy of role ${name(to)} and assumes it (${how})`;
    case 'service-role':
      return `runs code as role ${name(to)} (${how})`;
    case 'modify-other':
      return `rewrites the policies of ${step.method.yields.principal} ${name(step.through ?? '')} and acts as it (${how})`;
  }
}

/** Draws one chain of links as an attack path. */
function drawPath(context: StepContext, source: Principal, target: string, links: Link[]): AttackPath {
  const nodes = new Map<string, PathNode>();
  const principalNode = (arn: string) => {
    const principal = context.index.byArn.get(arn);
    if (principal === undefined) return;
    nodes.set(arn, { id: arn, kind: principal.kind, label: principal.name });
  };
  const name = (arn: string) => context.index.byArn.get(arn)?.name ?? /[^/:]+$/.exec(arn)?.[0] ?? arn;
  principalNode(source.arn);
  const edges: PathEdge[] = [];
  const phrases: string[] = [];
  let pending: EscalationStep | null = null;
  for (const link of links) {
    if (link.step !== undefined) {
      const step = link.step;
      if (step.through !== undefined) principalNode(step.through);
      edges.push(...step.edges);
      if (isHub(step.to)) pending = step;
      else {
        if (step.to !== ADMINISTRATOR) principalNode(step.to);
        phrases.push(phrase(step, step.to, name));
      }
    } else if (pending !== null && link.evaluation !== undefined) {
      // A hub's role: the step ends there, and the service's admission is part of its evidence.
      const last = edges.pop() as PathEdge;
      const certainty = last.certainty === 'certain' && link.certain ? 'certain' : 'possible';
      edges.push({ ...last, to: link.to, evidence: [...last.evidence, ...evidenceOf(link.evaluation)], certainty });
      principalNode(link.to);
      phrases.push(phrase(pending, link.to, name));
      pending = null;
    } else if (link.evaluation !== undefined) {
      const label = link.to === ADMINISTRATOR ? 'administrator access' : link.to;
      edges.push({
        from: link.from,
        to: link.to,
        label,
        evidence: evidenceOf(link.evaluation),
        certainty: certaintyOf(link.evaluation),
      });
    }
  }
  nodes.set(
    target,
    target === ADMINISTRATOR
      ? { id: ADMINISTRATOR, kind: 'administrator', label: 'Administrator access' }
      : { id: target, kind: 'permission', label: target },
  );
  const certainty = edges.every((e) => e.certainty === 'certain') ? 'certain' : 'possible';
  const holder = links.at(-1)?.step === undefined ? links.at(-1)?.from : undefined;
  const goal = target === ADMINISTRATOR ? 'become an administrator' : `gain ${target}`;
  const holderKind = holder === undefined ? undefined : context.index.byArn.get(holder)?.kind;
  const ending =
    holder === undefined
      ? ''
      : `; ${holderKind ?? 'principal'} ${name(holder)} ${target === ADMINISTRATOR ? 'is an administrator' : `holds ${target}`}`;
  const who = `${KIND_WORD[source.kind]} ${source.name}`;
  // The method of the step that reaches the target: the ones before it only lead to the principal that uses it.
  const rule = [...links].reverse().find((l) => l.step !== undefined)?.step?.method.id ?? 'escalation';
  return {
    fingerprint: `escalation:${rule}:${source.arn}:${target}`,
    kind: 'escalation',
    rule,
    severity: 'HIGH',
    title: `${who} can ${goal}`,
    summary: `${who} can ${goal}: it ${phrases.join(', then ')}${ending}.`,
    source: source.arn,
    target,
    nodes: [...nodes.values()],
    edges,
    certainty,
  };
}

/**
 * The privilege-escalation paths of an account: for each user and role that is not an administrator, the shortest
 * way to administrator access and, unless it has one, to each sensitive permission it does not hold itself.
 */
export function findEscalationPaths(
  iam: IamAuthorization,
  oracle: PermissionOracle,
  options: EscalationOptions = {},
): AttackPath[] {
  const sensitive = [...new Set(options.sensitive ?? [])];
  const context = stepContext(iam, oracle, sensitive);
  const administrators = new Map<string, Evaluation>();
  const sources: Principal[] = [];
  for (const principal of [...context.index.users, ...context.index.roles]) {
    const administrator = administratorOf(oracle, principal);
    if (administrator.decision === 'denied') sources.push(principal);
    else administrators.set(principal.arn, administrator);
  }
  const holders = new Map<string, Map<string, Evaluation>>();
  for (const action of sensitive) {
    const held = new Map<string, Evaluation>();
    for (const source of sources) {
      const holds = context.asker.anywhere(source, action);
      if (holds.decision !== 'denied') held.set(source.arn, holds);
    }
    holders.set(action, held);
  }

  const search = new EscalationSearch({ context, administrators, holders });
  const paths: AttackPath[] = [];
  const toAdministrator = new Set<string>();
  for (const target of [ADMINISTRATOR, ...sensitive]) {
    const certain = search.towards(target, true);
    let any: Map<string, Link> | undefined;
    for (const source of sources) {
      if (target !== ADMINISTRATOR && (toAdministrator.has(source.arn) || holders.get(target)?.has(source.arn)))
        continue;
      let links = chain(certain, source.arn, target);
      if (links === null) {
        any ??= search.towards(target, false);
        links = chain(any, source.arn, target);
      }
      if (links === null) continue;
      if (target === ADMINISTRATOR) toAdministrator.add(source.arn);
      paths.push(drawPath(context, source, target, links));
    }
  }
  return paths;
}
