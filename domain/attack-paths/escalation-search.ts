import { assumingPrincipals, type StepContext } from './escalation-context';
import { ESCALATION_METHODS, type EscalationMethod } from './escalation-methods';
import type { Principal } from './escalation-principals';
import {
  ADMINISTRATOR,
  administratorSteps,
  type EscalationStep,
  endsAtHub,
  HUB_PREFIX,
  hubOf,
  stepTo,
  stepToHub,
} from './escalation-steps';
import type { Evaluation } from './types';

// The shortest escalation paths to one target (administrator access, or a sensitive permission), searched backward
// from it: a breadth-first search whose steps count 1 and whose links that only complete a step (a hub's role,
// holding the target) count 0. The graph is never built whole: when a principal is reached, the search asks only
// about the principals that could step to it and are not already as close, so a dense account (hundreds of users
// allowed sts:AssumeRole and iam:PassRole on `*`, thousands of roles) costs questions per principal, not per pair.

/** One link of a path: a step, a hub's role (from the hub), or holding the target (from its holder). */
export interface Link {
  from: string;
  to: string;
  weight: 0 | 1;
  certain: boolean;
  step?: EscalationStep;
  /** For a link that is not a step: the decision it stands on (the service's trust, the holding). */
  evaluation?: Evaluation;
}

export interface SearchInput {
  context: StepContext;
  /** The administrators, with what makes them: paths end at them and start at none. */
  administrators: ReadonlyMap<string, Evaluation>;
  /** For each sensitive action, who else holds it. */
  holders: ReadonlyMap<string, ReadonlyMap<string, Evaluation>>;
}

const ASSUME = ESCALATION_METHODS.find((m) => m.yields.kind === 'assume-role') as EscalationMethod;
const TO_ROLES = ESCALATION_METHODS.filter(
  (m) => m.yields.kind === 'rewrite-trust' || (m.yields.kind === 'service-role' && !endsAtHub(m)),
);
const TO_USERS = ESCALATION_METHODS.filter((m) => m.yields.kind === 'user-credentials');
const HUBS = new Map(ESCALATION_METHODS.filter(endsAtHub).map((m) => [hubOf(m), m]));

export class EscalationSearch {
  private readonly toAdministrator = new Map<string, EscalationStep[]>();

  constructor(private readonly input: SearchInput) {}

  private isSource = (principal: Principal) => !this.input.administrators.has(principal.arn);

  private administratorStepsOf(principal: Principal): EscalationStep[] {
    let steps = this.toAdministrator.get(principal.arn);
    if (steps === undefined) {
      steps = administratorSteps(this.input.context, principal);
      this.toAdministrator.set(principal.arn, steps);
    }
    return steps;
  }

  /** For every principal (and hub) that reaches the target, its first link on a shortest way there. */
  towards(target: string, certainOnly: boolean): Map<string, Link> {
    const { context, administrators, holders } = this.input;
    const sources = [...context.index.users, ...context.index.roles].filter(this.isSource);
    const distance = new Map([[target, 0]]);
    const next = new Map<string, Link>();
    let level = [target];
    let following: string[] = [];
    let d = 0;
    /** Offers a link into the node being expanded; `make` is only called when it could shorten the way. */
    const offer = (
      from: string,
      to: string,
      weight: 0 | 1,
      make: () => Omit<Link, 'from' | 'to' | 'weight'> | null,
    ) => {
      const reached = d + weight;
      const known = distance.get(from);
      if (known !== undefined && known <= reached) return;
      const link = make();
      if (link === null || (certainOnly && !link.certain)) return;
      distance.set(from, reached);
      next.set(from, { ...link, from, to, weight });
      (weight === 0 ? level : following).push(from);
    };
    const ofStep = (step: EscalationStep | null) => (step ? { step, certain: step.certainty === 'certain' } : null);
    const holding = (evaluation: Evaluation) => ({ evaluation, certain: evaluation.decision === 'allowed' });

    const expand = (node: string) => {
      if (node === ADMINISTRATOR) {
        for (const [arn, evaluation] of administrators) offer(arn, node, 0, () => holding(evaluation));
        for (const source of sources)
          offer(source.arn, node, 1, () => {
            const steps = this.administratorStepsOf(source);
            return ofStep(steps.find((s) => s.certainty === 'certain') ?? steps[0] ?? null);
          });
        return;
      }
      const held = holders.get(node);
      if (held) {
        for (const [arn, evaluation] of held) offer(arn, node, 0, () => holding(evaluation));
        return;
      }
      const hub = HUBS.get(node);
      if (hub) {
        for (const source of context.capable(hub))
          if (this.isSource(source)) offer(source.arn, node, 1, () => ofStep(stepToHub(context, source, hub)));
        return;
      }
      const principal = context.index.byArn.get(node);
      if (principal?.kind === 'user')
        for (const method of TO_USERS)
          for (const source of context.capable(method))
            if (this.isSource(source))
              offer(source.arn, node, 1, () => ofStep(stepTo(context, source, method, principal)));
      if (principal?.kind !== 'role') return;
      for (const [id, method] of HUBS) {
        const serviceRole = context.serviceRole(method, node);
        if (serviceRole) offer(id, node, 0, () => holding(serviceRole.trust));
      }
      for (const source of assumingPrincipals(context, principal))
        if (this.isSource(source)) offer(source.arn, node, 1, () => ofStep(stepTo(context, source, ASSUME, principal)));
      for (const method of TO_ROLES) {
        if (method.yields.kind === 'service-role' && !context.serviceRole(method, node)) continue;
        for (const source of context.capable(method))
          if (this.isSource(source))
            offer(source.arn, node, 1, () => ofStep(stepTo(context, source, method, principal)));
      }
    };

    while (level.length > 0) {
      for (let i = 0; i < level.length; i++) {
        const node = level[i] as string;
        if (distance.get(node) === d) expand(node);
      }
      level = following;
      following = [];
      d++;
    }
    return next;
  }
}

/** The links from a source to the target, following the search's answer; null when it does not get there by a step. */
export function chain(next: ReadonlyMap<string, Link>, source: string, target: string): Link[] | null {
  const links: Link[] = [];
  for (let node = source; node !== target; ) {
    const link = next.get(node);
    if (link === undefined) return null;
    links.push(link);
    node = link.to;
  }
  return links.some((l) => l.step !== undefined) ? links : null;
}

export const isHub = (node: string) => node.startsWith(HUB_PREFIX);
