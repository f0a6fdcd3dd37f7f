import type { Db } from '../../db/client';
import { escalationPathsOf, upsertAttackPaths } from '../../db/repositories/attack-paths';
import { principalOf } from '../../domain/attack-paths/analyze';
import { escalationSeenActing } from '../../domain/attack-paths/toxic-combinations';
import type { AttackPath } from '../../domain/attack-paths/types';
import { betterPath, pathFailure } from '../../domain/checks/attack-paths';
import { checkById } from '../../domain/checks/catalog';
import { toFinding } from '../../domain/checks/evaluate';
import { newId } from '../../domain/ids';
import { attackPathRow } from '../attack-paths/path-rows';
import type { EventSignal } from './open-event-signals';

// Live detections join the graph. When an event detection sees a principal act and the account's last attack-path
// analysis stored an escalation path from that principal, the toxic combination `escalation_seen_acting` is found
// the moment the event comes, not at the next full scan: its path is stored beside the analysis' (with the event
// batch as what found it) and its signal opens with the event's, so alert rules hear of it in the same dispatch.
// The signal is the scan check's own (same fingerprint): the next full scan finds it again while the event is
// within its day, and resolves it after, as it would one it had opened itself.

const CHECK_ID = 'attack_path.escalation_seen_acting';
/** As long as the scan's analysis looks back for the principals event detections saw act. */
const LOOK_BACK_MS = 86_400_000;

/** The most pressing stored escalation path of each principal. */
function escalationsByPrincipal(paths: readonly AttackPath[]): Map<string, AttackPath> {
  const best = new Map<string, AttackPath>();
  for (const path of paths) {
    const known = best.get(path.source);
    if (!known || betterPath(path, known)) best.set(path.source, path);
  }
  return best;
}

/**
 * The signals of the combinations the batch's event signals complete (one per principal), their paths stored. Reads
 * nothing unless a signal names who acted.
 */
export async function escalationsSeenNow(
  db: Db,
  account: { id: string; tenant_id: string },
  batchId: string,
  signals: readonly EventSignal[],
  at: Date,
): Promise<EventSignal[]> {
  const actors = signals.filter(
    (s): s is EventSignal & { principal: string } =>
      !!s.principal && at.getTime() - s.occurred_at.getTime() < LOOK_BACK_MS,
  );
  if (actors.length === 0) return [];
  const escalations = escalationsByPrincipal(await escalationPathsOf({ db, accountId: account.id }));
  if (escalations.size === 0) return [];
  // A role session acts as its role, as the analysis maps it (role names are unique in an account).
  const roleArnsByName = new Map(
    [...escalations.keys()]
      .filter((arn) => arn.includes(':role/'))
      .map((arn) => [arn.slice(arn.lastIndexOf('/') + 1), arn]),
  );
  const found = new Map<string, AttackPath>();
  for (const signal of actors) {
    const principal = principalOf(signal.principal, roleArnsByName);
    const escalation = escalations.get(principal);
    if (!escalation || found.has(principal)) continue;
    found.set(
      principal,
      escalationSeenActing({ principal, detection: signal.check_id, at: signal.occurred_at.toISOString() }, escalation),
    );
  }
  if (found.size === 0) return [];
  const paths = [...found.values()];
  await upsertAttackPaths({
    db,
    paths: paths.map((p) =>
      attackPathRow(p, { accountId: account.id, tenantId: account.tenant_id, scanId: batchId, foundAt: at }),
    ),
  });
  const check = checkById(CHECK_ID);
  if (!check) throw new Error(`${CHECK_ID} is not in the catalog`);
  return paths.map((path) => {
    const finding = toFinding(check, pathFailure(path));
    return {
      id: newId('signal', at.getTime()),
      tenant_id: account.tenant_id,
      account_id: account.id,
      check_id: finding.checkId,
      fingerprint: finding.fingerprint,
      scenario: finding.scenario,
      severity: finding.severity,
      title: finding.title,
      description: finding.description,
      resource: finding.resource,
      region: finding.region,
      owner: finding.owner,
      first_scan_id: null,
      event_batch_id: batchId,
      controls: null,
      detected_at: at,
      // Not an actor of its own: the scan's analysis reads who acted from the detections' signals.
      principal: null,
      occurred_at: at,
    };
  });
}
