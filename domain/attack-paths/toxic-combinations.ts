import { INTERNET_NODE } from './entry-point';
import type { ExternalTrust } from './external-trust';
import type { QueueTrigger } from './queue-triggers';
import type { AttackPath, Evaluation, InternetExposure, PathEdge, PathNode, StatementRef } from './types';

// Toxic combinations: problems that each look like one failing check, but together hand an attacker the account.
// Each is a CRITICAL path, ranked above every single misconfiguration, with its whole chain: how the attacker gets
// in (the internet, a leaked key, a trusted outside account, a queue anyone may send to, a principal already acting)
// and how that reaches an administrator or the secrets.

export const TOXIC_RULES = {
  exposed_admin_workload: 'An internet-reachable workload runs as an administrator',
  exposed_imdsv1_admin_workload: 'An internet-reachable instance with IMDSv1 runs as an administrator',
  user_key_without_mfa_admin: 'A user with an active access key and no MFA is an administrator',
  external_trust_admin: 'An outside account can assume an administrator role without an ExternalId',
  public_function_reads_secrets: 'A public function runs with a role that reads secrets',
  public_queue_function_reads_secrets: 'A public queue triggers a function whose role reads secrets',
  escalation_seen_acting: 'A principal that can escalate to administrator acted in the last day',
} as const;
export type ToxicRule = keyof typeof TOXIC_RULES;

/** How a principal is, or becomes, an administrator. */
export type Privilege = { kind: 'administrator'; evaluation: Evaluation } | { kind: 'escalation'; path: AttackPath };

export interface ToxicInput {
  exposures: readonly InternetExposure[];
  /** Whether a principal (by ARN) is an administrator or can escalate to one; null: neither. */
  privilegeOf: (principalArn: string) => Privilege | null;
  /** Whether a role may read secrets (Secrets Manager, SSM parameters); null: it may not. */
  secretsReadBy: (roleArn: string) => Evaluation | null;
  /** The functions that queues anyone may send to trigger (queue-triggers.ts). */
  queueTriggers: readonly QueueTrigger[];
  users: readonly { arn: string; name: string; activeKeys: string[]; mfa: boolean | null }[];
  externalTrusts: readonly { roleArn: string; roleName: string; trusts: ExternalTrust[] }[];
  /** Principals an event detection saw act in the last day (role sessions already mapped to their role). */
  recentActors: readonly RecentActor[];
}

/** A principal an event detection saw act: which detection, and when the event happened. */
export interface RecentActor {
  principal: string;
  detection: string;
  at: string;
}

export const evidenceOf = (refs: readonly StatementRef[]): string[] =>
  refs.map((r) => `${r.policy}#${r.sid ?? r.index}`);

const nameOf = (arn: string): string => arn.slice(arn.lastIndexOf('/') + 1) || arn;
const principalKind = (arn: string): PathNode['kind'] => (arn.includes(':user/') ? 'user' : 'role');
const ADMIN: PathNode = { id: 'administrator', kind: 'administrator', label: 'Administrator of the account' };
const SECRETS: PathNode = { id: 'secrets', kind: 'secret', label: "The account's secrets" };

/** The nodes and edges from a principal to the administrator node, and whether every step is certain. */
function privilegeChain(principalArn: string, privilege: Privilege) {
  if (privilege.kind === 'escalation') {
    const { nodes, edges, certainty } = privilege.path;
    return { nodes, edges, certain: certainty === 'certain', summary: privilege.path.summary };
  }
  const { evaluation } = privilege;
  const nodes: PathNode[] = [
    { id: principalArn, kind: principalKind(principalArn), label: nameOf(principalArn) },
    ADMIN,
  ];
  const edges: PathEdge[] = [
    {
      from: principalArn,
      to: ADMIN.id,
      label: 'holds administrator access',
      evidence: evidenceOf(evaluation.allowedBy),
      certainty: evaluation.decision === 'allowed' ? 'certain' : 'possible',
    },
  ];
  return {
    nodes,
    edges,
    certain: evaluation.decision === 'allowed',
    summary: `${nameOf(principalArn)} holds administrator access.`,
  };
}

/** Joins node lists, keeping the first of each id. */
function joinNodes(...lists: PathNode[][]): PathNode[] {
  const seen = new Map<string, PathNode>();
  for (const node of lists.flat()) if (!seen.has(node.id)) seen.set(node.id, node);
  return [...seen.values()];
}

function toxicPath(
  rule: ToxicRule,
  subject: string,
  parts: {
    summary: string;
    source: string;
    target: string;
    region?: string;
    nodes: PathNode[];
    edges: PathEdge[];
    certain: boolean;
  },
): AttackPath {
  return {
    fingerprint: `toxic:${rule}:${subject}`,
    kind: 'toxic_combination',
    rule,
    severity: 'CRITICAL',
    title: TOXIC_RULES[rule],
    summary: parts.summary,
    source: parts.source,
    target: parts.target,
    ...(parts.region ? { region: parts.region } : {}),
    nodes: parts.nodes,
    edges: parts.edges,
    certainty: parts.certain ? 'certain' : 'possible',
  };
}

/** An internet-reachable workload whose role is an administrator or escalates to one (with IMDSv1: its own rule). */
function exposedAdminWorkloads(input: ToxicInput): AttackPath[] {
  return input.exposures.flatMap((exposure) => {
    if (!exposure.roleArn) return [];
    const privilege = input.privilegeOf(exposure.roleArn);
    if (!privilege) return [];
    const chain = privilegeChain(exposure.roleArn, privilege);
    const imds = exposure.imdsV1 === true;
    const runsAs: PathEdge = {
      from: exposure.resource,
      to: exposure.roleArn,
      label: imds ? 'IMDSv1 hands out the role’s keys' : 'runs as',
      evidence: [exposure.roleArn],
      certainty: 'certain',
    };
    return [
      toxicPath(imds ? 'exposed_imdsv1_admin_workload' : 'exposed_admin_workload', exposure.resource, {
        summary: `${exposure.label} is reachable from the internet on ${exposure.ports.join(', ')} and runs as ${nameOf(exposure.roleArn)}${imds ? ' with IMDSv1 answering unauthenticated requests' : ''}: ${chain.summary}`,
        source: 'internet',
        target: ADMIN.id,
        region: exposure.region,
        nodes: joinNodes(exposure.nodes, chain.nodes),
        edges: [...exposure.edges, runsAs, ...chain.edges],
        certain: exposure.certainty === 'certain' && chain.certain,
      }),
    ];
  });
}

/** A user with an active access key and no MFA who is, or can become, an administrator. */
function keyWithoutMfaAdmins(input: ToxicInput): AttackPath[] {
  return input.users.flatMap((user) => {
    if (user.activeKeys.length === 0 || user.mfa === true) return [];
    const privilege = input.privilegeOf(user.arn);
    if (!privilege) return [];
    const chain = privilegeChain(user.arn, privilege);
    const key: PathNode = { id: `key:${user.arn}`, kind: 'access_key', label: 'A leaked access key' };
    return [
      toxicPath('user_key_without_mfa_admin', user.arn, {
        summary: `${user.name} has ${user.activeKeys.length === 1 ? 'an active access key' : `${user.activeKeys.length} active access keys`} and ${user.mfa === null ? 'MFA Sentinel could not read' : 'no MFA'}: whoever holds a key acts as it. ${chain.summary}`,
        source: key.id,
        target: ADMIN.id,
        nodes: joinNodes([key], chain.nodes),
        edges: [
          {
            from: key.id,
            to: user.arn,
            label: user.mfa === null ? 'access key (MFA unread)' : 'access key, no MFA',
            evidence: user.activeKeys,
            certainty: user.mfa === null ? 'possible' : 'certain',
          },
          ...chain.edges,
        ],
        certain: user.mfa === false && chain.certain,
      }),
    ];
  });
}

/** A role an outside account (or everyone) may assume without an ExternalId, that is or becomes an administrator. */
function externalTrustAdmins(input: ToxicInput): AttackPath[] {
  return input.externalTrusts.flatMap(({ roleArn, roleName, trusts }) => {
    if (trusts.length === 0) return [];
    const privilege = input.privilegeOf(roleArn);
    if (!privilege) return [];
    const chain = privilegeChain(roleArn, privilege);
    const outsiders: PathNode[] = trusts.map((t) => ({
      id: `account:${t.principal}`,
      kind: 'external_account',
      label: t.principal === '*' ? 'Any AWS account' : `Account ${t.principal}`,
    }));
    return [
      toxicPath('external_trust_admin', roleArn, {
        summary: `${roleName} trusts ${trusts.map((t) => (t.principal === '*' ? 'every AWS account' : t.principal)).join(', ')} without an ExternalId: ${chain.summary}`,
        source: outsiders[0]?.id ?? roleArn,
        target: ADMIN.id,
        nodes: joinNodes(outsiders, chain.nodes),
        edges: [
          ...trusts.map((t, i) => ({
            from: outsiders[i]?.id ?? roleArn,
            to: roleArn,
            label: 'can assume (no ExternalId)',
            evidence: [`trust:${roleArn}#${t.statement}`],
            certainty: 'certain' as const,
          })),
          ...chain.edges,
        ],
        certain: chain.certain,
      }),
    ];
  });
}

/** A function or API the internet invokes whose role reads secrets. */
function publicFunctionsReadingSecrets(input: ToxicInput): AttackPath[] {
  return input.exposures.flatMap((exposure) => {
    if ((exposure.kind !== 'function' && exposure.kind !== 'api') || !exposure.roleArn) return [];
    const reads = input.secretsReadBy(exposure.roleArn);
    if (!reads) return [];
    return [
      toxicPath('public_function_reads_secrets', exposure.resource, {
        summary: `${exposure.label} is invoked from the internet and runs as ${nameOf(exposure.roleArn)}, which can read secrets: a flaw in its code hands them out.`,
        source: 'internet',
        target: SECRETS.id,
        region: exposure.region,
        nodes: joinNodes(exposure.nodes, [
          { id: exposure.roleArn, kind: 'role', label: nameOf(exposure.roleArn) },
          SECRETS,
        ]),
        edges: [
          ...exposure.edges,
          {
            from: exposure.resource,
            to: exposure.roleArn,
            label: 'runs as',
            evidence: [exposure.roleArn],
            certainty: 'certain',
          },
          {
            from: exposure.roleArn,
            to: SECRETS.id,
            label: 'reads secrets',
            evidence: evidenceOf(reads.allowedBy),
            certainty: reads.decision === 'allowed' ? 'certain' : 'possible',
          },
        ],
        certain: exposure.certainty === 'certain' && reads.decision === 'allowed',
      }),
    ];
  });
}

/**
 * A function that queues anyone may send to trigger, whose role reads secrets: the sender writes its input. One path
 * per function, with each such queue as a way in.
 */
function publicQueuesTriggeringSecretReaders(input: ToxicInput): AttackPath[] {
  const byFunction = new Map<string, QueueTrigger[]>();
  for (const trigger of input.queueTriggers)
    byFunction.set(trigger.fn.arn, [...(byFunction.get(trigger.fn.arn) ?? []), trigger]);
  return [...byFunction.values()].flatMap((triggers) => {
    const { fn } = triggers[0] as QueueTrigger;
    const reads = input.secretsReadBy(fn.roleArn);
    if (!reads) return [];
    const certainEntry = (t: QueueTrigger) => t.send.decision === 'allowed' && t.certainty === 'certain';
    const names = triggers.map((t) => t.queue.name);
    const queues =
      names.length === 1 ? `the queue ${names[0]}, which triggers` : `the queues ${names.join(', ')}, which trigger`;
    return [
      toxicPath('public_queue_function_reads_secrets', fn.arn, {
        summary: `Anyone may send messages to ${queues} ${fn.name}; it runs as ${nameOf(fn.roleArn)}, which can read secrets: a message crafted for a flaw in its code hands them out.`,
        source: INTERNET_NODE.id,
        target: SECRETS.id,
        region: fn.region,
        nodes: joinNodes(
          [INTERNET_NODE],
          triggers.map((t) => ({ id: t.queue.arn, kind: 'queue', label: t.queue.name, region: t.queue.region })),
          [
            { id: fn.arn, kind: 'function', label: fn.name, region: fn.region },
            { id: fn.roleArn, kind: 'role', label: nameOf(fn.roleArn) },
            SECRETS,
          ],
        ),
        edges: [
          ...triggers.flatMap((t): PathEdge[] => [
            {
              from: INTERNET_NODE.id,
              to: t.queue.arn,
              label: 'sqs:SendMessage, open to anyone',
              evidence: evidenceOf(t.send.allowedBy),
              certainty: t.send.decision === 'allowed' ? 'certain' : 'possible',
            },
            {
              from: t.queue.arn,
              to: fn.arn,
              label: 'triggers (event source mapping)',
              evidence: [`event source mapping ${t.mapping.uuid} (${t.mapping.state ?? 'state not reported'})`],
              certainty: t.certainty,
            },
          ]),
          { from: fn.arn, to: fn.roleArn, label: 'runs as', evidence: [fn.roleArn], certainty: 'certain' },
          {
            from: fn.roleArn,
            to: SECRETS.id,
            label: 'reads secrets',
            evidence: evidenceOf(reads.allowedBy),
            certainty: reads.decision === 'allowed' ? 'certain' : 'possible',
          },
        ],
        certain: triggers.some(certainEntry) && reads.decision === 'allowed',
      }),
    ];
  });
}

/**
 * The combination of a principal an event detection saw act and its escalation path: the path may be in use. Found
 * by the scan's analysis, and by ingestion from the last analysis' stored path the moment the event comes
 * (core/events/live-attack-paths.ts).
 */
export function escalationSeenActing(actor: RecentActor, escalation: AttackPath): AttackPath {
  const chain = privilegeChain(actor.principal, { kind: 'escalation', path: escalation });
  const event: PathNode = { id: `event:${actor.detection}`, kind: 'event', label: `Detection ${actor.detection}` };
  return toxicPath('escalation_seen_acting', actor.principal, {
    summary: `${nameOf(actor.principal)} set off ${actor.detection} at ${actor.at} and can escalate to administrator: ${chain.summary}`,
    source: event.id,
    target: ADMIN.id,
    nodes: joinNodes([event], chain.nodes),
    edges: [
      { from: event.id, to: actor.principal, label: 'seen acting', evidence: [actor.detection], certainty: 'certain' },
      ...chain.edges,
    ],
    certain: chain.certain,
  });
}

/** Each principal with an escalation path that an event detection saw act in the last day, once. */
function escalationsSeenActing(input: ToxicInput): AttackPath[] {
  const byPrincipal = new Map<string, RecentActor>();
  for (const actor of input.recentActors)
    if (!byPrincipal.has(actor.principal)) byPrincipal.set(actor.principal, actor);
  return [...byPrincipal.values()].flatMap((actor) => {
    const privilege = input.privilegeOf(actor.principal);
    return privilege?.kind === 'escalation' ? [escalationSeenActing(actor, privilege.path)] : [];
  });
}

/** Every toxic combination of the account. */
export function toxicCombinations(input: ToxicInput): AttackPath[] {
  return [
    ...exposedAdminWorkloads(input),
    ...keyWithoutMfaAdmins(input),
    ...externalTrustAdmins(input),
    ...publicFunctionsReadingSecrets(input),
    ...publicQueuesTriggeringSecretReaders(input),
    ...escalationsSeenActing(input),
  ];
}
