import { policyExposure } from '../policies/resource-policy';
import type { PolicyJson } from '../scans/iam-authorization';
import type { EventSourceMapping, Inventory, Unread } from '../scans/inventory';
import { evaluateRequest } from './policy-evaluation';
import type { PolicyInput } from './policy-statements';
import { gapsOf } from './reachability';
import type { Evaluation } from './types';

// The queues anyone may send to, and the functions they trigger. A queue has no role of its own, but Lambda polls
// it and invokes a function with its messages (an event source mapping): whoever may send controls the function's
// input, and a flaw in its code hands them what its role may do.
//
// - Anyone may send: the queue's policy lets an anonymous caller (`"*"`, the same as any AWS account) make
//   sqs:SendMessage. The Allows counted are those the public-queue check counts (domain/policies/resource-policy.ts:
//   a condition that pins the caller's account, organization, network or source closes a statement); the request
//   is then weighed by policy-evaluation.ts, so the statement must cover the queue, an unconditioned Deny of
//   everyone closes it, and a condition left on an Allow or a Deny makes it 'possible'. The account's resource
//   control policies, when read, are weighed with it: one denying SendMessage to everyone closes the queue too.
// - It triggers: a mapping whose source is the queue, Enabled (certain) or in a state between Enabled and Disabled
//   (possible). A Disabled mapping does not poll.
// - Unread: what could hide a path to a function whose role `matters` (for the analysis, one that reads secrets):
//   such a function whose mappings were not read; a queue its mappings name whose policy was not read (the queue,
//   its region or the whole part), or that belongs to another account (its policy is that account's); and the
//   Lambda regions not read, whose functions are not known. A function whose role does not matter is not named:
//   whatever triggers it, no path runs through it.

export interface QueueTrigger {
  queue: { arn: string; name: string; region: string };
  /** Whether anyone may send to the queue ('allowed' or 'possible'), by the statements of its policy that allow it. */
  send: Evaluation;
  mapping: EventSourceMapping;
  /** 'possible': the mapping is between Enabled and Disabled. */
  certainty: 'certain' | 'possible';
  fn: { arn: string; name: string; region: string; roleArn: string };
}

const SEND = 'sqs:SendMessage';
/** The caller a public queue answers: no account, no identity policies, only the queue's policy can let it in. */
const ANONYMOUS = 'anonymous';
const SQS_ARN = /^arn:[^:]+:sqs:/;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The policy with only the Allows the public-queue check calls public, and every Deny. The others are left as
 * null, so that the statements keep their places (the evidence cites them by index).
 */
function publicStatements(document: PolicyJson, account: string): PolicyJson {
  const statements = Array.isArray(document.Statement) ? document.Statement : [document.Statement];
  return {
    ...document,
    Statement: statements.map((s) =>
      isObject(s) && s.Effect === 'Allow' && !policyExposure({ Statement: [s] }, account)?.public.length ? null : s,
    ),
  };
}

/**
 * Whether anyone may send messages to a queue, by its policy as read (none: only its own account may) and, when
 * they were read, the resource control policies of its account (an RCP may deny it to everyone outside the
 * organization).
 */
export function anyoneMaySend(
  queueArn: string,
  document: PolicyJson | undefined,
  resourceControlPolicies: readonly (readonly PolicyInput[])[] | null = null,
): Evaluation {
  if (!document) return { decision: 'denied', allowedBy: [], deniedBy: [], undecided: [] };
  return evaluateRequest({
    principal: ANONYMOUS,
    action: SEND,
    resource: queueArn,
    identity: [],
    resourcePolicy: {
      policy: `resource:${queueArn}`,
      document: publicStatements(document, queueArn.split(':')[4] ?? ''),
    },
    // No identity side: the request is the queue's policy's alone to grant, as AWS weighs an anonymous one.
    resourceAccount: null,
    resourceControlPolicies,
  });
}

/** Whether a mapping in this state polls its source; null: it does not (Disabled). */
function pollingCertainty(state: string | null): 'certain' | 'possible' | null {
  if (state === 'Enabled') return 'certain';
  return state === 'Disabled' ? null : 'possible';
}

/**
 * Each public queue's mapping to a function with a role, and what could not be read that might hide one to a
 * function whose role `matters`.
 */
export function publicQueueTriggers(
  inventory: Inventory,
  matters: (roleArn: string) => boolean,
  resourceControlPolicies: readonly (readonly PolicyInput[])[] | null = null,
): { triggers: QueueTrigger[]; unread: Unread[] } {
  const unread: Unread[] = gapsOf('Lambda functions', inventory.lambdaFunctions);
  const functions = inventory.lambdaFunctions.status === 'ok' ? inventory.lambdaFunctions.value.functions : [];
  const queuePart = inventory.sqsQueues;
  const queues = new Map(queuePart.status === 'ok' ? queuePart.value.queues.map((q) => [q.arn, q]) : []);

  /** Why a queue's policy is not known; null when it is known, or when the queue no longer exists. */
  const unknownPolicy = (arn: string, account: string): string | null => {
    const queue = queues.get(arn);
    if (queue) return queue.policy.read ? null : queue.policy.reason;
    const [, , , region, owner] = arn.split(':');
    if (owner !== account) return `It belongs to account ${owner}: its policy is read by that account's scan.`;
    if (queuePart.status !== 'ok') return queuePart.reason;
    const gap = (queuePart.unread ?? []).find((u) => u.scope === arn || (u.kind === 'region' && u.scope === region));
    return gap?.reason ?? null;
  };

  const triggers: QueueTrigger[] = [];
  for (const fn of functions) {
    if (!fn.roleArn) continue;
    const roleArn = fn.roleArn;
    if (!fn.eventSources.read) {
      if (matters(roleArn))
        unread.push({
          kind: 'resource',
          scope: fn.arn,
          reason: `What triggers it could not be read: ${fn.eventSources.reason}`,
        });
      continue;
    }
    for (const mapping of fn.eventSources.mappings) {
      const certainty = pollingCertainty(mapping.state);
      if (!certainty || !SQS_ARN.test(mapping.sourceArn)) continue;
      const queue = queues.get(mapping.sourceArn);
      if (!queue?.policy.read) {
        const reason = matters(roleArn) ? unknownPolicy(mapping.sourceArn, fn.arn.split(':')[4] ?? '') : null;
        if (reason)
          unread.push({
            kind: 'resource',
            scope: mapping.sourceArn,
            reason: `Whether anyone may send to this queue, which triggers ${fn.name}, is unknown: ${reason}`,
          });
        continue;
      }
      const send = anyoneMaySend(queue.arn, queue.policy.document, resourceControlPolicies);
      if (send.decision === 'denied') continue;
      triggers.push({
        queue: { arn: queue.arn, name: queue.name, region: queue.region },
        send,
        mapping,
        certainty,
        fn: { arn: fn.arn, name: fn.name, region: fn.region, roleArn },
      });
    }
  }
  return { triggers, unread };
}
