import type { PolicyJson } from '../scans/iam-authorization';
import type { Collected, Inventory, PolicyReading, Unread } from '../scans/inventory';

// The resource policies the scan read, by the resource's ARN, for the effective permissions
// (effective-permissions.ts): a bucket's, a key's, a function's, a queue's, a topic's, a secret's, a repository's.
// Within the account they add to what identity policies allow (a secret's policy may let a role read it that its
// own policies do not), and a KMS key's must allow its users itself. A resource whose policy was not read is left
// out: the evaluation then treats its policy as unread, never as absent.

const value = <T>(part: Collected<T>): T | null => (part.status === 'ok' ? part.value : null);

const documentOf = (policy: PolicyReading): PolicyJson | undefined => (policy.read ? policy.document : undefined);

export function resourcePoliciesOf(inventory: Inventory): Map<string, PolicyJson> {
  const documents = new Map<string, PolicyJson>();
  const add = (arn: string, document: PolicyJson | undefined) => {
    if (document) documents.set(arn, document);
  };
  for (const b of value(inventory.s3Buckets)?.buckets ?? []) add(`arn:aws:s3:::${b.name}`, b.policyDocument);
  for (const k of value(inventory.kmsKeyPolicies)?.keys ?? []) add(k.arn, documentOf(k.policy));
  for (const q of value(inventory.sqsQueues)?.queues ?? []) add(q.arn, documentOf(q.policy));
  for (const t of value(inventory.snsTopics)?.topics ?? []) add(t.arn, documentOf(t.policy));
  for (const s of value(inventory.secrets)?.secrets ?? []) add(s.arn, documentOf(s.policy));
  for (const r of value(inventory.ecrRepositories)?.repositories ?? []) add(r.arn, documentOf(r.policy));
  for (const f of value(inventory.lambdaFunctions)?.functions ?? [])
    add(f.arn, f.policy.read ? f.policy.document : undefined);
  return documents;
}

/**
 * The secrets the scan listed, by ARN (what a role may read through their own policies is asked of each), and what
 * of them was not read: the part, or a secret's policy, which might let a role in.
 */
export function secretsOf(inventory: Inventory): { arns: string[]; unread: Unread[] } {
  const part = inventory.secrets;
  if (part.status !== 'ok')
    return { arns: [], unread: [{ kind: 'resource', scope: 'Secrets Manager secrets', reason: part.reason }] };
  const unread: Unread[] = [...(part.unread ?? [])];
  for (const s of part.value.secrets)
    if (!s.policy.read)
      unread.push({ kind: 'resource', scope: s.arn, reason: `Its resource policy: ${s.policy.reason}` });
  return { arns: part.value.secrets.map((s) => s.arn), unread };
}
