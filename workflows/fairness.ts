import type { Priority } from '@temporalio/common';

// Task-queue fairness (Temporal matching): tasks with a fairness key are dispatched round-robin across keys in
// proportion to their weights, first-in first-out within a key. Keyed by tenant, a tenant with ten thousand
// scans waiting takes its share of the workers, not all of them: another tenant's scan is dispatched within a
// few of its tasks. The weight is the tenant's plan's (`fairness_weight`). The server must have fairness enabled
// (docs/operations.md, "Fairness"); without it the key is ignored and the queue is first-in first-out.

/** The priority of an account's scan activities: its tenant's fairness key and weight. */
export function scanPriority({
  tenantId,
  fairnessWeight,
  enabled,
}: {
  tenantId: string;
  fairnessWeight: number;
  enabled: boolean;
}): Priority | undefined {
  return enabled ? { fairnessKey: tenantId, fairnessWeight } : undefined;
}
