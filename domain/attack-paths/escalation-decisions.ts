import { mayCover, namedResources, names, type Principal } from './escalation-principals';
import type { Decision, Evaluation, PermissionOracle, StatementRef } from './types';

// How the escalation search asks the oracle and weighs what it answers: each question asked once, questions the
// principal's own Allow statements cannot answer 'allowed' left unasked, and the decisions of a step's several
// permissions combined into one.

export const DENIED: Evaluation = { decision: 'denied', allowedBy: [], deniedBy: [], undecided: [] };
const ALLOWED: Evaluation = { decision: 'allowed', allowedBy: [], deniedBy: [], undecided: [] };

const RANK = { allowed: 0, possible: 1, denied: 2 } as const;

/** Whether `a` is a stronger decision than `b` (allowed over possible over denied). */
export const stronger = (a: Evaluation, b: Evaluation): boolean => RANK[a.decision] < RANK[b.decision];

/** Every one of the decisions together: denied if one is, possible if one is, with all their evidence. */
export function together(...evaluations: Evaluation[]): Evaluation {
  if (evaluations.length === 0) return ALLOWED;
  let decision: Decision = 'allowed';
  for (const e of evaluations) if (RANK[e.decision] > RANK[decision]) decision = e.decision;
  return {
    decision,
    allowedBy: evaluations.flatMap((e) => e.allowedBy),
    deniedBy: evaluations.flatMap((e) => e.deniedBy),
    undecided: evaluations.flatMap((e) => e.undecided),
  };
}

/** The decision at most possible, for a reason Sentinel cannot check. */
export const onlyPossible = (evaluation: Evaluation, reason: string): Evaluation =>
  evaluation.decision === 'denied'
    ? evaluation
    : { ...evaluation, decision: 'possible', undecided: [...evaluation.undecided, reason] };

export const certaintyOf = (evaluation: Evaluation): 'certain' | 'possible' =>
  evaluation.decision === 'allowed' ? 'certain' : 'possible';

/** A statement as evidence: `policy#sid`, or `policy#index` when it has no Sid. */
export const statementRef = (ref: StatementRef): string => `${ref.policy}#${ref.sid ?? ref.index}`;

/** What shows a decision: the statements that allow it, then what leaves it undecided. */
export const evidenceOf = (evaluation: Evaluation): string[] => [
  ...new Set([
    ...evaluation.allowedBy.map(statementRef),
    ...evaluation.undecided.map((reason) => `undecided: ${reason}`),
  ]),
];

/** The oracle's answers for one search, each asked once. */
export class Asker {
  private readonly answers = new Map<string, Evaluation>();

  constructor(private readonly oracle: PermissionOracle) {}

  /** The oracle's decision, whatever the principal's own policies name. */
  direct(principalArn: string, action: string, resource: string): Evaluation {
    const key = `${principalArn}\n${action}\n${resource}`;
    let answer = this.answers.get(key);
    if (answer === undefined) {
      answer = this.oracle.evaluate(principalArn, action, resource);
      this.answers.set(key, answer);
    }
    return answer;
  }

  /** The decision on one resource; denied unasked when no Allow of the principal names the action there. */
  on(principal: Principal, action: string, resource: string): Evaluation {
    return mayCover(principal, action, resource) ? this.direct(principal.arn, action, resource) : DENIED;
  }

  /**
   * The decision on a resource the attacker picks or the IAM data does not list: on `*`; failing that, on one of
   * the narrower resources the principal's Allow statements name, as possible (the resource it needs may not be
   * one of them).
   */
  anywhere(principal: Principal, action: string): Evaluation {
    if (!names(principal, action)) return DENIED;
    const everywhere = this.direct(principal.arn, action, '*');
    if (everywhere.decision !== 'denied' || everywhere.deniedBy.length > 0) return everywhere;
    for (const resource of namedResources(principal, action)) {
      const narrower = this.direct(principal.arn, action, resource);
      if (narrower.decision !== 'denied') return onlyPossible(narrower, `${action} allowed only on ${resource}`);
    }
    return everywhere;
  }
}
