import type { Unread } from '../scans/inventory';
import { failing, withUnread } from './helpers';
import type { CheckResult } from './types';

// The rule most resource checks follow: each resource either breaks a setting (it fails), keeps it (it passes), or
// AWS did not report the setting, and then the resource is named unread, never taken as passing.

export interface SettingRule<T> {
  resource: (item: T) => string;
  /** true: the resource fails; false: it passes; null: what decides it was not reported (unread). */
  fails: (item: T) => boolean | null;
  detail: (item: T) => string;
  /** Why a resource is unread, when `fails` can answer null. */
  unreadReason?: string;
}

export function bySetting<T extends { region: string }>(items: readonly T[], rule: SettingRule<T>): CheckResult {
  const unread: Unread[] = [];
  const resources = items.flatMap((item) => {
    const verdict = rule.fails(item);
    if (verdict === null) {
      unread.push({
        kind: 'resource',
        scope: rule.resource(item),
        reason: rule.unreadReason ?? 'AWS did not report the setting.',
      });
      return [];
    }
    return verdict ? [{ resource: rule.resource(item), region: item.region, detail: rule.detail(item) }] : [];
  });
  return withUnread(failing(resources), unread);
}
