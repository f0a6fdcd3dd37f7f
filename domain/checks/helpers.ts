import type { Collected, Inventory, PartName, PartValue, Unread } from '../scans/inventory';
import type { CheckResult, EvaluationContext, FailingResource } from './types';

// Building blocks shared by the check files: every check reads one or more collected parts and turns the
// resources that break its rule into a result.

const DAY_MS = 86_400_000;

/**
 * Adds what could not be read to a result: a pass or a fail then covers only the rest. A region or resource that
 * two of the check's parts could not read is named once, with the first reason.
 */
export function withUnread(result: CheckResult, unread: readonly Unread[] | undefined): CheckResult {
  if (!unread || unread.length === 0) return result;
  const merged = new Map<string, Unread>();
  for (const u of [...(result.unread ?? []), ...unread]) {
    const key = `${u.kind}\u0000${u.scope}`;
    if (!merged.has(key)) merged.set(key, u);
  }
  return { ...result, unread: [...merged.values()] };
}

/**
 * Evaluates a rule on a collected part. A part that could not be read at all makes the check "not evaluated",
 * never a pass or a fail: an unknown state must neither resolve nor open a signal. A part read in part carries
 * its unread regions and resources into the result.
 */
export function withPart<T>(part: Collected<T>, rule: (value: T) => CheckResult): CheckResult {
  if (part.status !== 'ok') return { status: 'not_evaluated', reason: part.reason, unread: part.unread };
  return withUnread(rule(part.value), part.unread);
}

/** A check's evaluate function for a rule on one part. */
export function onPart<K extends PartName>(
  name: K,
  rule: (value: PartValue<K>, ctx: EvaluationContext) => CheckResult,
): (inventory: Inventory, ctx: EvaluationContext) => CheckResult {
  return (inventory, ctx) => withPart(inventory[name] as Collected<PartValue<K>>, (value) => rule(value, ctx));
}

/** A check's evaluate function for a rule that needs two parts: not evaluated unless both were read. */
export function onParts<A extends PartName, B extends PartName>(
  [a, b]: [A, B],
  rule: (first: PartValue<A>, second: PartValue<B>, ctx: EvaluationContext) => CheckResult,
): (inventory: Inventory, ctx: EvaluationContext) => CheckResult {
  return (inventory, ctx) =>
    withPart(inventory[a] as Collected<PartValue<A>>, (first) =>
      withPart(inventory[b] as Collected<PartValue<B>>, (second) => rule(first, second, ctx)),
    );
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

/**
 * The result of a check that judges what it can without a second part AWS refused (`refused`: that part's reason):
 * the resources that fail on what was read fail; with none, the resources only that part could decide (`unread`)
 * leave the check not evaluated, never passed.
 */
export function judgedWithout(
  resources: FailingResource[],
  unread: Unread[],
  refused: string | undefined,
): CheckResult {
  if (resources.length === 0 && unread.length > 0 && refused !== undefined)
    return { status: 'not_evaluated', reason: refused, unread };
  return withUnread(failing(resources), unread);
}
