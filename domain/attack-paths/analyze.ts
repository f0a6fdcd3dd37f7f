import type { EvaluationContext } from '../checks/types';
import type { Inventory, Unread } from '../scans/inventory';
import { isAdministrator, permissionOracle } from './effective-permissions';
import { findEscalationPaths } from './escalation';
import { externalTrustsWithoutExternalId } from './external-trust';
import { comparePaths } from './order';
import { publicQueueTriggers } from './queue-triggers';
import { resourcePoliciesOf, secretsOf } from './resource-policies';
import { internetExposures } from './reachability';
import { type Privilege, toxicCombinations } from './toxic-combinations';
import type { AttackPath, Evaluation, InternetExposure } from './types';

// The attack-path analysis of one scan's inventory: effective permissions, escalation paths, internet exposure and
// the toxic combinations built on them. The scan stores its paths (GET /accounts/{id}/attack-paths) and the checks
// of domain/checks/attack-paths.ts turn them into findings. It runs once per inventory: the checks share it.

export interface AttackPathAnalysis {
  /**
   * complete: every part it needs was read whole. partial: it ran, but some of what it needs was not read (see
   * `unread`): a path through what was not read is missing, never concluded absent. not_evaluated: the IAM
   * documents were not read, so nothing can be said (`reason`).
   */
  status: 'complete' | 'partial' | 'not_evaluated';
  reason?: string;
  paths: AttackPath[];
  /** Everything it could not read. */
  unread: Unread[];
  /**
   * The same by what it feeds: the IAM documents (every path), the network (exposures), the users' keys and MFA (the
   * leaked-key combination), the secrets and their policies (who reads them), the functions' triggers and their
   * queues' policies (the public-queue combination). A finding names only what its own paths depend on.
   */
  unreadBy: Record<UnreadSource, Unread[]>;
}

export type UnreadSource = 'iam' | 'network' | 'users' | 'secrets' | 'queues';

/** The secrets a role may read: any of these allowed on every resource of its kind. */
const SECRET_READS = [
  ['secretsmanager:GetSecretValue', '*'],
  ['ssm:GetParameter', '*'],
] as const;

/** The account's id, from its principals' ARNs (an inventory does not carry it). */
function accountIdOf(arns: readonly string[]): string {
  for (const arn of arns) {
    const id = /^arn:aws[a-z-]*:iam::(\d{12}):/.exec(arn)?.[1];
    if (id) return id;
  }
  return '';
}

/** A role session's ARN (`arn:aws:sts::<id>:assumed-role/<name>/<session>`) as its role's; others as they are. */
export function principalOf(actor: string, roleArnsByName: ReadonlyMap<string, string>): string {
  const role = /^arn:aws[a-z-]*:sts::\d{12}:assumed-role\/([^/]+)\//.exec(actor)?.[1];
  return role ? (roleArnsByName.get(role) ?? actor) : actor;
}

/** Each gap once: the Lambda regions not read are named for the exposures and for the queues' triggers alike. */
function distinct(unread: readonly Unread[]): Unread[] {
  const seen = new Set<string>();
  return unread.filter((u) => {
    const key = `${u.kind}\u0000${u.scope}\u0000${u.reason}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function exposurePath(exposure: InternetExposure): AttackPath {
  return {
    fingerprint: `exposure:${exposure.resource}`,
    kind: 'exposure',
    rule: `internet_reachable_${exposure.kind}`,
    severity: 'MEDIUM',
    title: `Reachable from the internet: ${exposure.label}`,
    summary: `${exposure.label} answers the internet on ${exposure.ports.join(', ')}.`,
    source: 'internet',
    target: exposure.resource,
    region: exposure.region,
    nodes: exposure.nodes,
    edges: exposure.edges,
    certainty: exposure.certainty,
  };
}

function analyze(inventory: Inventory, context: Pick<EvaluationContext, 'recentActors'>): AttackPathAnalysis {
  const iamPart = inventory.iamAuthorization;
  if (iamPart.status !== 'ok')
    return {
      status: 'not_evaluated',
      reason: iamPart.reason,
      paths: [],
      unread: iamPart.unread ?? [],
      unreadBy: { iam: iamPart.unread ?? [], network: [], users: [], secrets: [], queues: [] },
    };
  const iam = iamPart.value;
  const unreadBy: Record<UnreadSource, Unread[]> = {
    iam: [...(iamPart.unread ?? [])],
    network: [],
    users: [],
    secrets: [],
    queues: [],
  };
  const accountId = accountIdOf([...iam.roles, ...iam.users].map((p) => p.arn));
  const oracle = permissionOracle(iam, { accountId, resourcePolicies: resourcePoliciesOf(inventory) });
  const escalations = findEscalationPaths(iam, oracle);

  // A principal is privileged when it is an administrator (shown as such, even when only possibly) or when an
  // escalation path starts at it (the shortest one found).
  const shortest = new Map<string, AttackPath>();
  for (const path of escalations) {
    const known = shortest.get(path.source);
    if (!known || path.edges.length < known.edges.length) shortest.set(path.source, path);
  }
  const admins = new Map<string, Evaluation>();
  const privilegeOf = (arn: string): Privilege | null => {
    const evaluation = admins.get(arn) ?? isAdministrator(oracle, arn);
    admins.set(arn, evaluation);
    if (evaluation.decision !== 'denied') return { kind: 'administrator', evaluation };
    const path = shortest.get(arn);
    return path ? { kind: 'escalation', path } : null;
  };
  // Every secret (its own identity policies), then each secret the scan listed: its resource policy may let the
  // role in where the role's policies do not.
  const secrets = secretsOf(inventory);
  unreadBy.secrets.push(...secrets.unread);
  const secretReaders = new Map<string, Evaluation | null>();
  const readsSecrets = (roleArn: string): Evaluation | null => {
    for (const [action, resource] of SECRET_READS) {
      const evaluation = oracle.evaluate(roleArn, action, resource);
      if (evaluation.decision !== 'denied') return evaluation;
    }
    for (const arn of secrets.arns) {
      const evaluation = oracle.evaluate(roleArn, 'secretsmanager:GetSecretValue', arn);
      if (evaluation.decision !== 'denied') return evaluation;
    }
    return null;
  };
  const secretsReadBy = (roleArn: string): Evaluation | null => {
    if (!secretReaders.has(roleArn)) secretReaders.set(roleArn, readsSecrets(roleArn));
    return secretReaders.get(roleArn) ?? null;
  };

  const reach = internetExposures(inventory);
  unreadBy.network.push(...reach.unread);
  // Queues anyone may send to, and the functions they trigger: what was not read matters only where the function's
  // role reads secrets.
  const rcps = iam.resourceControlPolicies;
  const queues = publicQueueTriggers(
    inventory,
    (roleArn) => secretsReadBy(roleArn) !== null,
    rcps.read ? rcps.levels.map((l) => l.policies.map((p) => ({ policy: `rcp:${p.id}`, document: p.document }))) : null,
  );
  unreadBy.queues.push(...queues.unread);

  const principals = inventory.iamPrincipals;
  const report = inventory.credentialReport;
  const mfaOf = new Map(report.status === 'ok' ? report.value.users.map((u) => [u.arn, u.mfaActive]) : []);
  if (principals.status !== 'ok')
    unreadBy.users.push({ kind: 'resource', scope: 'IAM users', reason: principals.reason });
  else unreadBy.users.push(...(principals.unread ?? []));
  if (report.status !== 'ok')
    unreadBy.users.push({ kind: 'resource', scope: 'credential report', reason: report.reason });
  const users =
    principals.status === 'ok'
      ? principals.value.users.map((u) => ({
          arn: u.arn,
          name: u.name,
          activeKeys: u.accessKeys.filter((k) => k.status === 'Active').map((k) => k.id),
          mfa: mfaOf.get(u.arn) ?? null,
        }))
      : [];

  const roleArnsByName = new Map(iam.roles.map((r) => [r.name, r.arn]));
  const toxic = toxicCombinations({
    exposures: reach.exposures,
    privilegeOf,
    secretsReadBy,
    queueTriggers: queues.triggers,
    users,
    externalTrusts: iam.roles.map((r) => ({
      roleArn: r.arn,
      roleName: r.name,
      trusts: externalTrustsWithoutExternalId(r.trust, accountId),
    })),
    recentActors: (context.recentActors ?? []).map((a) => ({
      ...a,
      principal: principalOf(a.principal, roleArnsByName),
    })),
  });

  const paths = [...toxic, ...escalations, ...reach.exposures.map(exposurePath)].sort(comparePaths);
  const unread = distinct([
    ...unreadBy.iam,
    ...unreadBy.network,
    ...unreadBy.users,
    ...unreadBy.secrets,
    ...unreadBy.queues,
  ]);
  return { status: unread.length > 0 ? 'partial' : 'complete', paths, unread, unreadBy };
}

const analyses = new WeakMap<Inventory, { context: EvaluationContext['recentActors']; analysis: AttackPathAnalysis }>();

/** The analysis of an inventory, computed once for the scan's checks and its save alike. */
export function analyzeAttackPaths(
  inventory: Inventory,
  context: Pick<EvaluationContext, 'recentActors'> = {},
): AttackPathAnalysis {
  const known = analyses.get(inventory);
  if (known && known.context === context.recentActors) return known.analysis;
  const analysis = analyze(inventory, context);
  analyses.set(inventory, { context: context.recentActors, analysis });
  return analysis;
}
