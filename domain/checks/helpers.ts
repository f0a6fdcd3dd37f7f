import type { Collected, Inventory } from '../inventory';
import type { CheckResult, EvaluationContext, FailingResource } from './types';

// Building blocks shared by the check files: every check reads one or more collected parts and turns the
// resources that break its rule into a result.

const DAY_MS = 86_400_000;

/**
 * Evaluates a rule on a collected part. A part that could not be read makes the check "not evaluated", never a
 * pass or a fail: an unknown state must neither resolve nor open a signal.
 */
export function withPart<T>(part: Collected<T>, rule: (value: T) => CheckResult): CheckResult {
  return part.status === 'ok' ? rule(part.value) : { status: 'not_evaluated', reason: part.reason };
}

/** The inventory parts that are collected (and so may be not evaluated), and what each holds when read. */
type Parts = { [K in keyof Inventory as Inventory[K] extends Collected<unknown> ? K : never]: Inventory[K] };
export type PartName = keyof Parts;
type PartValue<K extends PartName> = Parts[K] extends Collected<infer T> ? T : never;

/** A check's evaluate function for a rule on one part. */
export function onPart<K extends PartName>(
  name: K,
  rule: (value: PartValue<K>, ctx: EvaluationContext) => CheckResult,
): (inventory: Inventory, ctx: EvaluationContext) => CheckResult {
  return (inventory, ctx) => withPart(inventory[name] as Collected<PartValue<K>>, (value) => rule(value, ctx));
}

/** Fails with the given resources, or passes when there are none. */
export function failing(resources: FailingResource[]): CheckResult {
  return resources.length > 0 ? { status: 'fail', resources } : { status: 'pass' };
}

/** Fails on one resource when the condition holds: for account-level settings. */
export function failWhen(condition: boolean, resource: FailingResource): CheckResult {
  return failing(condition ? [resource] : []);
}

/** Days from `then` to `now` (fractional; negative when `then` is later than `now`). */
export function daysSince(then: string, now: string): number {
  return (Date.parse(now) - Date.parse(then)) / DAY_MS;
}

/** Whole-day arithmetic on calendar dates (YYYY-MM-DD, UTC). */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}
