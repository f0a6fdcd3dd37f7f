import { createHash } from 'node:crypto';
import type { Kysely, Selectable, Transaction } from 'kysely';
import { evaluateRule, type RuleMemory, type ScanFacts, type ScanFinding } from '../../domain/alerts';
import { newId } from '../../domain/ids';
import type { Database } from '../database';
import type { AlertRulesTable, AlertRuleStatesTable } from '../tables/alerts';
import { signalsWithCurrentAcceptance } from './signals';

type Conn = Kysely<Database>;

export interface ScheduledDelivery {
  deliveryId: string;
  kind: 'trigger' | 'resolve';
}

/**
 * Evaluates every enabled rule of the tenant against a finished scan of one account, in one transaction:
 * records alert events, their deliveries (one per channel, addressed as the rule says now) and the rules'
 * memory. Idempotent per scan: a retry after a commit changes nothing and returns the same deliveries.
 */
export async function evaluateAlertsForScan(
  { db, tenantId, accountId, scanId, now = new Date() }: { db: Conn; tenantId: string; accountId: string; scanId: string; now?: Date },
): Promise<ScheduledDelivery[]> {
  return db.transaction().execute(async (trx) => {
    // Serialises evaluations of one account (scans never overlap, but a retried activity might).
    const account = await trx.selectFrom('accounts').select(['id', 'current_srs']).where('id', '=', accountId).where('tenant_id', '=', tenantId)
      .forUpdate().executeTakeFirst();
    const scan = await trx.selectFrom('scans').select(['srs']).where('id', '=', scanId).where('account_id', '=', accountId).executeTakeFirst();
    // A scan that read too little records no score: the account's last one stands. Never scored: nothing to fire on.
    const srs = scan ? scan.srs ?? account?.current_srs ?? null : null;
    if (!account || srs === null) return [];

    const rules = await trx.selectFrom('alert_rules').select(['id', 'version', 'min_srs', 'scenarios', 'channels'])
      .where('tenant_id', '=', tenantId).where('enabled', '=', true).where('deleted_at', 'is', null).orderBy('id').execute();
    await resolveIncidentsOfRetiredRules(trx, { tenantId, accountId, scanId, now, activeRuleIds: rules.map((r) => r.id) });
    if (rules.length > 0) {
      const facts = await scanFacts(trx, { accountId, scanId, srs });
      const states = new Map((await trx.selectFrom('alert_rule_states').selectAll().where('account_id', '=', accountId)
        .where('rule_id', 'in', rules.map((r) => r.id)).execute()).map((s) => [s.rule_id, s]));
      for (const rule of rules) {
        const state = states.get(rule.id);
        if (state?.last_scan_id === scanId) continue; // already evaluated for this scan
        await evaluateOne(trx, { tenantId, accountId, scanId, now, facts, rule, state });
      }
    }
    return (await trx.selectFrom('alert_deliveries').select(['id', 'kind']).where('scan_id', '=', scanId).orderBy('id').execute())
      .map((d) => ({ deliveryId: d.id, kind: d.kind }));
  });
}

type RuleRow = Pick<Selectable<AlertRulesTable>, 'id' | 'version' | 'min_srs' | 'scenarios' | 'channels'>;
type StateRow = Selectable<AlertRuleStatesTable>;

async function evaluateOne(
  trx: Transaction<Database>,
  { tenantId, accountId, scanId, now, facts, rule, state }:
  { tenantId: string; accountId: string; scanId: string; now: Date; facts: ScanFacts; rule: RuleRow; state?: StateRow },
): Promise<void> {
  const lastAlert = await trx.selectFrom('alert_events').select(['id', 'acknowledged_at', 'findings_digest'])
    .where('rule_id', '=', rule.id).where('account_id', '=', accountId)
    .orderBy('fired_at', 'desc').orderBy('id', 'desc').limit(1).executeTakeFirst();
  const memory: RuleMemory | undefined = state && {
    ruleVersion: state.rule_version,
    belowThreshold: state.below_threshold,
    alertedFingerprints: state.alerted_fingerprints,
    incidentOpen: state.incident_open,
    findingsChangedSinceAlert: state.findings_changed_since_alert,
  };
  const decision = evaluateRule(
    { version: rule.version, minSrs: rule.min_srs, scenarios: rule.scenarios },
    memory,
    facts,
    lastAlert && { acknowledged: lastAlert.acknowledged_at !== null, findingsDigest: lastAlert.findings_digest },
  );

  let lastAlertId = state?.last_alert_id ?? null;
  if (decision.fire) {
    const alertId = newId('alert');
    await trx.insertInto('alert_events').values({
      id: alertId, tenant_id: tenantId, account_id: accountId, rule_id: rule.id, scan_id: scanId, srs_at_trigger: facts.srs,
      scenarios_triggered: decision.fire.scenariosTriggered, findings_digest: facts.findingsDigest, fired_at: now,
    }).execute();
    const channels = rule.channels;
    await trx.insertInto('alert_deliveries').values(channels.map((channel, index) => ({
      id: newId('delivery'), alert_id: alertId, tenant_id: tenantId, scan_id: scanId, kind: 'trigger' as const,
      channel_index: index, channel_type: channel.type, channel: JSON.stringify(channel), status: 'pending',
    }))).execute();
    lastAlertId = alertId;
  } else if (decision.resolve && lastAlertId) {
    await scheduleResolve(trx, { tenantId, scanId, alertId: lastAlertId });
  }

  const next = {
    rule_version: decision.memory.ruleVersion,
    below_threshold: decision.memory.belowThreshold,
    findings_digest: facts.findingsDigest,
    last_scan_id: scanId,
    alerted_fingerprints: [...decision.memory.alertedFingerprints],
    incident_open: decision.memory.incidentOpen,
    findings_changed_since_alert: decision.memory.findingsChangedSinceAlert,
    last_alert_id: lastAlertId,
    updated_at: now,
  };
  await trx.insertInto('alert_rule_states').values({ rule_id: rule.id, account_id: accountId, ...next })
    .onConflict((oc) => oc.columns(['rule_id', 'account_id']).doUpdateSet(next)).execute();
}

/** Resolves an incident where it was opened: on the paging channels of the alert that opened it. */
async function scheduleResolve(trx: Transaction<Database>, { tenantId, scanId, alertId }: { tenantId: string; scanId: string; alertId: string }) {
  const paging = await trx.selectFrom('alert_deliveries').select(['channel_index', 'channel'])
    .where('alert_id', '=', alertId).where('kind', '=', 'trigger').where('channel_type', '=', 'pagerduty').execute();
  if (paging.length === 0) return;
  await trx.insertInto('alert_deliveries').values(paging.map((p) => ({
    id: newId('delivery'), alert_id: alertId, tenant_id: tenantId, scan_id: scanId, kind: 'resolve' as const,
    channel_index: p.channel_index, channel_type: 'pagerduty', channel: JSON.stringify(p.channel), status: 'pending',
  }))).onConflict((oc) => oc.columns(['alert_id', 'channel_index', 'kind']).doNothing()).execute();
}

/** A rule disabled or deleted while its incident was open would leave it open for ever: resolve it now. */
async function resolveIncidentsOfRetiredRules(
  trx: Transaction<Database>,
  { tenantId, accountId, scanId, now, activeRuleIds }: { tenantId: string; accountId: string; scanId: string; now: Date; activeRuleIds: string[] },
): Promise<void> {
  let query = trx.selectFrom('alert_rule_states').select(['rule_id', 'last_alert_id'])
    .where('account_id', '=', accountId).where('incident_open', '=', true);
  if (activeRuleIds.length > 0) query = query.where('rule_id', 'not in', activeRuleIds);
  for (const state of await query.execute()) {
    if (state.last_alert_id) await scheduleResolve(trx, { tenantId, scanId, alertId: state.last_alert_id });
    await trx.updateTable('alert_rule_states').set({ incident_open: false, alerted_fingerprints: [], updated_at: now })
      .where('rule_id', '=', state.rule_id).where('account_id', '=', accountId).execute();
  }
}

/**
 * The findings rules fire on: the open signals without an acceptance in force when the scan was saved (the save
 * notes the first scan that finds an acceptance expired). A signal whose acceptance this scan found expired
 * counts as new, like one the scan opened: the tenant hears of it again.
 */
async function scanFacts(
  trx: Transaction<Database>, { accountId, scanId, srs }: { accountId: string; scanId: string; srs: number },
): Promise<ScanFacts> {
  const rows = await signalsWithCurrentAcceptance(trx)
    .select(['signals.fingerprint', 'signals.scenario', 'signals.first_scan_id', 'signal_acceptances.id as acceptance_id',
      'signal_acceptances.expiry_scan_id'])
    .where('signals.account_id', '=', accountId).where('signals.resolved_at', 'is', null).orderBy('signals.fingerprint').execute();
  const open = rows.filter((s) => s.acceptance_id === null || s.expiry_scan_id !== null);
  const toFinding = (s: (typeof open)[number]): ScanFinding => ({ fingerprint: s.fingerprint, scenario: s.scenario });
  return {
    srs,
    open: open.map(toFinding),
    opened: open.filter((s) => s.first_scan_id === scanId || s.expiry_scan_id === scanId).map(toFinding),
    findingsDigest: createHash('sha256').update(open.map((s) => s.fingerprint).join('\n')).digest('hex'),
  };
}
