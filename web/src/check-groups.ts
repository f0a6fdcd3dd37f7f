// The account's checks grouped by the AWS service whose resources they judge, as the account page lists them: each
// group with its coverage (checks evaluated out of its total) and how many of its checks failed. Groups with a failed
// check come first, the most failures first; the others follow by name.

export interface GroupedCheck {
  service: string;
  service_label: string;
  status: 'passed' | 'failed' | 'not_evaluated';
}

export interface CheckGroup<C extends GroupedCheck> {
  service: string;
  label: string;
  checks: C[];
  evaluated: number;
  total: number;
  failed: number;
}

export function groupByService<C extends GroupedCheck>(checks: readonly C[]): CheckGroup<C>[] {
  const groups = new Map<string, CheckGroup<C>>();
  for (const check of checks) {
    const group = groups.get(check.service) ?? {
      service: check.service,
      label: check.service_label,
      checks: [],
      evaluated: 0,
      total: 0,
      failed: 0,
    };
    group.checks.push(check);
    group.total += 1;
    if (check.status !== 'not_evaluated') group.evaluated += 1;
    if (check.status === 'failed') group.failed += 1;
    groups.set(check.service, group);
  }
  return [...groups.values()].sort(
    (a, b) => Number(b.failed > 0) - Number(a.failed > 0) || b.failed - a.failed || a.label.localeCompare(b.label),
  );
}
