import { createHash } from 'node:crypto';
import type { Logger } from '../../config/logger';
import type { Db } from '../../db/client';
import { lockAccount } from '../../db/repositories/accounts';
import { insertDeliveries, listDeliveriesOf, listPagingTriggers } from '../../db/repositories/alert-deliveries';
import {
  alertsEvaluated,
  findLastAlert,
  insertAlertEvent,
  noteAlertsEvaluated,
} from '../../db/repositories/alert-events';
import {
  closeIncident,
  listOpenIncidentsOfOtherRules,
  listRuleStates,
  saveRuleState,
} from '../../db/repositories/alert-rule-states';
import { listEnabledRules } from '../../db/repositories/alert-rules';
import { findScanState } from '../../db/repositories/scans';
import { alertEventsFired } from '../../observability/metrics';
import {
  listEventSignalsResolvedBy,
  listOpenSignalsWithAcceptance,
  type OpenSignalRecord,
} from '../../db/repositories/signals';
import type { AlertRuleStateRow } from '../../db/tables/alerts';
import {
  type AlertSource,
  carryEventAlerts,
  eventConfirmations,
  evaluateRule,
  type RuleMemory,
  type ScanFacts,
  type ScanFinding,
} from '../../domain/alerts/rules';
import { isEventSignal } from '../../domain/events/catalog';
import { asOpenSignals, scoreOf } from '../../domain/signals/lifecycle';
import { newId } from '../../domain/ids';
import type { DeliveryKind } from '../../domain/alerts/deliveries';

export interface ScheduledDelivery {
  deliveryId: string;
  kind: DeliveryKind;
}

type Rule = Awaited<ReturnType<typeof listEnabledRules>>[number];
interface Firing {
  db: Db;
  tenantId: string;
  accountId: string;
  source: AlertSource;
  now: Date;
  /** Alert events inserted so far, counted in the metrics once the transaction commits. */
  fired: number;
  /** The scan's findings that confirm an event's signal, by its fingerprint (domain/alerts/rules.ts `eventConfirmations`). */
  confirmations: ReadonlyMap<string, readonly string[]>;
  /** The score rules compare with read every core source of the account (domain/scoring/completeness.ts). */
  srsComplete: boolean;
}

/** The columns naming where an alert or delivery comes from: its scan, or its event batch. */
const sourceColumns = (source: AlertSource) =>
  source.kind === 'scan' ? { scan_id: source.id, event_batch_id: null } : { scan_id: null, event_batch_id: source.id };

/**
 * Evaluates every enabled rule of the tenant against a finished scan of one account, or against a batch of its events
 * that opened signals (domain/alerts/rules.ts decides), in one transaction: records alert events, their deliveries (one per
 * channel, addressed as the rule says now) and the rules' memory. Idempotent per scan or batch: a retry after a commit
 * changes nothing and returns the same deliveries. With a logger, says how many deliveries it scheduled.
 */
export async function fireAlertRules({
  db,
  log,
  tenantId,
  accountId,
  source,
  now = new Date(),
}: {
  db: Db;
  log?: Logger;
  tenantId: string;
  accountId: string;
  source: AlertSource;
  now?: Date;
}): Promise<ScheduledDelivery[]> {
  let fired = 0;
  const deliveries = await db.transaction().execute(async (trx) => {
    // Serialises evaluations of one account (scans never overlap, but a retried activity or an event batch might).
    const account = await lockAccount({ db: trx, tenantId, accountId });
    // A disconnected account alerts nobody, whatever scan was still running when it went.
    if (!account || account.status === 'DISCONNECTED') return [];
    // Evaluated before (a retry after the commit): the same deliveries, however many scans or batches came since.
    if (await alertsEvaluated({ db: trx, source }))
      return (await listDeliveriesOf({ db: trx, source })).map((d) => ({ deliveryId: d.id, kind: d.kind }));
    const signals = await listOpenSignalsWithAcceptance({ db: trx, accountId });
    const srs = await scoreToFireOn(trx, account, source, signals, now);
    if (srs === null) return [];
    // Whether that score read every core source: the account's, which its latest full scan set (a targeted rescan or
    // an event batch scores over that scan's coverage; a scan that read too little to score set it false). An account
    // no scan has read yet (an event before the first scan) has no complete score.
    const srsComplete = account.score_complete === true;

    const rules = await listEnabledRules({ db: trx, tenantId });
    const confirmations =
      rules.length > 0 && source.kind === 'scan'
        ? await confirmationsIn(trx, accountId, source.id, signals)
        : new Map();
    const firing: Firing = { db: trx, tenantId, accountId, source, now, fired: 0, confirmations, srsComplete };
    await resolveIncidentsOfRetiredRules(
      firing,
      rules.map((r) => r.id),
    );
    if (rules.length > 0) {
      const facts = alertFacts(signals, source, srs);
      const states = new Map(
        (await listRuleStates({ db: trx, accountId, ruleIds: rules.map((r) => r.id) })).map((s) => [s.rule_id, s]),
      );
      for (const rule of rules) {
        const state = states.get(rule.id);
        // Evaluated for this source by code that kept the mark in the rule's memory only (before alerts_evaluated_at).
        if ((state?.last_source_id ?? state?.last_scan_id) === source.id) continue;
        await evaluateOne(firing, facts, rule, state);
      }
    }
    await noteAlertsEvaluated({ db: trx, source, at: now });
    fired = firing.fired;
    return (await listDeliveriesOf({ db: trx, source })).map((d) => ({ deliveryId: d.id, kind: d.kind }));
  });
  if (fired > 0) alertEventsFired.inc(fired);
  if (log && deliveries.length > 0)
    log.info({ tenantId, accountId, source, deliveries: deliveries.length }, 'alerts fired');
  return deliveries;
}

/** The event signals (open, or settled by this scan) that findings this scan opened confirm. */
async function confirmationsIn(db: Db, accountId: string, scanId: string, signals: readonly OpenSignalRecord[]) {
  const opened = signals.filter((s) => s.firstScanId === scanId);
  if (opened.length === 0) return new Map<string, string[]>();
  const settled = await listEventSignalsResolvedBy({ db, accountId, scanId });
  return eventConfirmations([...signals.filter((s) => isEventSignal(s.checkId)), ...settled], opened);
}

/**
 * The score rules compare with. A scan's own (one that read too little records none: the account's last one stands;
 * never scored: nothing to fire on). For events, the account's score as the batch left it, or, before any scan has
 * scored the account, the score of its open signals: an event must reach the tenant even then.
 */
async function scoreToFireOn(
  db: Db,
  account: { id: string; current_srs: number | null },
  source: AlertSource,
  signals: readonly OpenSignalRecord[],
  now: Date,
) {
  const current = account.current_srs;
  if (source.kind === 'events') return current ?? scoreOf(asOpenSignals(signals, now));
  const scan = await findScanState({ db, accountId: account.id, scanId: source.id });
  return scan ? (scan.srs ?? current) : null;
}

async function evaluateOne(
  firing: Firing,
  facts: ScanFacts,
  rule: Rule,
  state: AlertRuleStateRow | undefined,
): Promise<void> {
  const { db, tenantId, accountId, source, now } = firing;
  const lastAlert = await findLastAlert({ db, ruleId: rule.id, accountId });
  const memory: RuleMemory | undefined = state && {
    ruleVersion: state.rule_version,
    belowThreshold: state.below_threshold,
    alertedFingerprints: state.alerted_fingerprints,
    incidentOpen: state.incident_open,
    findingsChangedSinceAlert: state.findings_changed_since_alert,
  };
  const carried = carryEventAlerts(memory, facts, firing.confirmations);
  const decision = evaluateRule(
    { version: rule.version, minSrs: rule.min_srs, scenarios: rule.scenarios },
    carried.memory,
    carried.facts,
    lastAlert && { acknowledged: lastAlert.acknowledged_at !== null, findingsDigest: lastAlert.findings_digest },
  );

  let lastAlertId = state?.last_alert_id ?? null;
  if (decision.fire) {
    const alertId = newId('alert');
    await insertAlertEvent({
      db,
      event: {
        id: alertId,
        tenant_id: tenantId,
        account_id: accountId,
        rule_id: rule.id,
        ...sourceColumns(source),
        srs_at_trigger: facts.srs,
        srs_complete: firing.srsComplete,
        scenarios_triggered: decision.fire.scenariosTriggered,
        findings_digest: facts.findingsDigest,
        fired_at: now,
      },
    });
    firing.fired += 1;
    await insertDeliveries({
      db,
      deliveries: rule.channels.map((channel, index) => ({
        id: newId('delivery'),
        alert_id: alertId,
        tenant_id: tenantId,
        ...sourceColumns(source),
        kind: 'trigger',
        channel_index: index,
        channel_type: channel.type,
        channel: JSON.stringify(channel),
        status: 'pending',
      })),
    });
    lastAlertId = alertId;
  } else if (decision.resolve && lastAlertId) {
    await scheduleResolve(firing, lastAlertId);
  }

  await saveRuleState({
    db,
    state: {
      rule_id: rule.id,
      account_id: accountId,
      rule_version: decision.memory.ruleVersion,
      below_threshold: decision.memory.belowThreshold,
      findings_digest: facts.findingsDigest,
      last_source_id: source.id,
      last_scan_id: source.id,
      alerted_fingerprints: [...decision.memory.alertedFingerprints],
      incident_open: decision.memory.incidentOpen,
      findings_changed_since_alert: decision.memory.findingsChangedSinceAlert,
      last_alert_id: lastAlertId,
      updated_at: now,
    },
  });
}

/** Resolves an incident where it was opened: on the paging channels of the alert that opened it. */
async function scheduleResolve({ db, tenantId, source }: Firing, alertId: string): Promise<void> {
  const paging = await listPagingTriggers({ db, alertId });
  await insertDeliveries({
    db,
    deliveries: paging.map((p) => ({
      id: newId('delivery'),
      alert_id: alertId,
      tenant_id: tenantId,
      ...sourceColumns(source),
      kind: 'resolve',
      channel_index: p.channel_index,
      channel_type: 'pagerduty',
      channel: JSON.stringify(p.channel),
      status: 'pending',
    })),
  });
}

/** A rule disabled or deleted while its incident was open would leave it open for ever: resolve it now. */
async function resolveIncidentsOfRetiredRules(firing: Firing, activeRuleIds: string[]): Promise<void> {
  const { db, accountId, now } = firing;
  for (const state of await listOpenIncidentsOfOtherRules({ db, accountId, ruleIds: activeRuleIds })) {
    if (state.last_alert_id) await scheduleResolve(firing, state.last_alert_id);
    await closeIncident({ db, ruleId: state.rule_id, accountId, at: now });
  }
}

/**
 * The findings rules fire on: the open signals without an acceptance in force when the scan was saved (the save
 * notes the first scan that finds an acceptance expired). A signal whose acceptance this scan found expired
 * counts as new, like one the scan opened: the tenant hears of it again. For an event batch, the new findings are
 * the signals it opened.
 */
function alertFacts(signals: readonly OpenSignalRecord[], source: AlertSource, srs: number): ScanFacts {
  const open = signals.filter((s) => s.acceptance === null || s.acceptance.expiryScanId !== null);
  const toFinding = (s: OpenSignalRecord): ScanFinding => ({ fingerprint: s.fingerprint, scenario: s.scenario });
  const opened =
    source.kind === 'scan'
      ? (s: OpenSignalRecord) => s.firstScanId === source.id || s.acceptance?.expiryScanId === source.id
      : (s: OpenSignalRecord) => s.eventBatchId === source.id;
  return {
    srs,
    open: open.map(toFinding),
    opened: open.filter(opened).map(toFinding),
    findingsDigest: createHash('sha256')
      .update(open.map((s) => s.fingerprint).join('\n'))
      .digest('hex'),
  };
}
