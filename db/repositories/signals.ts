import { insertChunks } from '../statement-limits';
import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { MitreBody } from '../../domain/events/mitre';
import type { AlertSource } from '../../domain/alerts/rules';
import type { Scenario, Severity } from '../../domain/checks/types';
import type { ControlRefs } from '../../domain/compliance/types';
import type { Database } from '../database';
import { isoTimestamp } from '../json-sql';
import type { NewSignal, NewSignalAcceptance, SignalAcceptanceRow, SignalRow } from '../tables/accounts';

type Conn = Kysely<Database>;

export interface SignalFilter {
  tenantId: string;
  /** The account by its 12-digit AWS id, looked up in the same query (one round trip). */
  awsAccountId: string;
  severity?: Severity;
  scenario?: Scenario;
  checkId?: string;
  since?: Date;
  status: 'open' | 'resolved' | 'all';
  /** Keyset: rows strictly after this (detected_at, id) in newest-first order. */
  after?: { at: Date; id: string };
  limit: number;
}

/** The acceptance not undone or replaced (it may have expired since), as a signal body shows it. */
export type CurrentAcceptance = Pick<
  SignalAcceptanceRow,
  | 'accepted_by'
  | 'accepted_by_email'
  | 'reason'
  | 'accepted_at'
  | 'expires_at'
  | 'scope'
  | 'scope_principal'
  | 'scope_signal_id'
  | 'scope_acceptance_id'
> & { acceptance_id: string };
export type SignalWithAcceptance = SignalRow & { acceptance: CurrentAcceptance | null };

const ACCEPTANCE_COLUMNS = [
  'signal_acceptances.id as acceptance_id',
  'signal_acceptances.accepted_by',
  'signal_acceptances.accepted_by_email',
  'signal_acceptances.reason',
  'signal_acceptances.accepted_at',
  'signal_acceptances.expires_at',
  'signal_acceptances.scope',
  'signal_acceptances.scope_principal',
  'signal_acceptances.scope_signal_id',
  'signal_acceptances.scope_acceptance_id',
] as const;

function withAcceptance<R extends SignalRow & { [K in keyof CurrentAcceptance]: CurrentAcceptance[K] | null }>(
  row: R,
): SignalWithAcceptance {
  const {
    acceptance_id,
    accepted_by,
    accepted_by_email,
    reason,
    accepted_at,
    expires_at,
    scope,
    scope_principal,
    scope_signal_id,
    scope_acceptance_id,
    ...signal
  } = row;
  const acceptance =
    accepted_at === null || acceptance_id === null
      ? null
      : {
          acceptance_id,
          accepted_by,
          accepted_by_email: accepted_by_email ?? '',
          reason: reason ?? '',
          accepted_at,
          expires_at,
          scope: scope ?? 'signal',
          scope_principal,
          scope_signal_id,
          scope_acceptance_id,
        };
  return { ...(signal as unknown as SignalRow), acceptance };
}

/** Signals, each beside its acceptance not undone or replaced (columns null when there is none). */
function signalsWithCurrentAcceptance(db: Conn) {
  return db
    .selectFrom('signals')
    .leftJoin('signal_acceptances', (join) =>
      join.onRef('signal_acceptances.signal_id', '=', 'signals.id').on('signal_acceptances.revoked_at', 'is', null),
    );
}

/** A signal as the signals endpoints show it (core/schemas/signals.ts `signal`). */
export interface SignalJson {
  signal_id: string;
  scenario: Scenario;
  severity: Severity;
  title: string;
  description: string;
  detected_at: string;
  resolved_at: string | null;
  check_id: string;
  resource: string;
  region: string;
  occurrences: number;
  mitre: MitreBody[];
  accepted: {
    by_user_id: string | null;
    by_email: string;
    reason: string;
    accepted_at: string;
    expires_at: string | null;
    scope: SignalAcceptanceRow['scope'];
    principal: string | null;
    scope_signal_id: string | null;
  } | null;
}

/** One row of a signals page: the signal as JSON, and its keyset (detected_at as toISOString() writes it, and id). */
export interface SignalPageRow<J = SignalJson> {
  signal: J;
  at: string;
  id: string;
}

const ISO = (column: string) => isoTimestamp(sql.ref(column));

/** Each event detection's MITRE ATT&CK ids as the API shows them, as JSON text, by check id (core/signals). */
export type MitreByCheck = Readonly<Record<string, string>>;

const mitreCases = new WeakMap<MitreByCheck, RawBuilder<unknown>>();

/**
 * The signal's `mitre`: one CASE on its check id, built once per table (the catalogue's, not input), so the database
 * writes them into the page like the rest of the signal. A check the table does not name has none.
 */
function mitreCase(byCheck: MitreByCheck): RawBuilder<unknown> {
  let built = mitreCases.get(byCheck);
  if (!built) {
    const quote = (text: string) => `'${text.replaceAll("'", "''")}'`;
    const branches = Object.entries(byCheck).map(([id, json]) => `when ${quote(id)} then ${quote(json)}::json`);
    built = sql.raw(
      branches.length > 0 ? `case signals.check_id ${branches.join(' ')} else '[]'::json end` : `'[]'::json`,
    );
    mitreCases.set(byCheck, built);
  }
  return built;
}

/**
 * The pairs of json_build_object that write a signal as the signals endpoints show it; an acceptance shows while in
 * force at `now`, as domain/signals/lifecycle.ts `acceptanceInForce` decides.
 */
function signalJsonPairs(now: Date, mitre: MitreByCheck) {
  const inForce = sql`signal_acceptances.accepted_at is not null
    and (signal_acceptances.expires_at is null or signal_acceptances.expires_at > ${now})`;
  return sql`'signal_id', signals.id, 'scenario', signals.scenario, 'severity', signals.severity, 'title', signals.title,
    'description', signals.description, 'detected_at', ${ISO('signals.detected_at')},
    'resolved_at', ${ISO('signals.resolved_at')}, 'check_id', signals.check_id, 'resource', signals.resource,
    'region', signals.region, 'occurrences', signals.occurrences, 'mitre', ${mitreCase(mitre)},
    'accepted', case when ${inForce} then json_build_object(
      'by_user_id', signal_acceptances.accepted_by, 'by_email', coalesce(signal_acceptances.accepted_by_email, ''),
      'reason', coalesce(signal_acceptances.reason, ''), 'accepted_at', ${ISO('signal_acceptances.accepted_at')},
      'expires_at', ${ISO('signal_acceptances.expires_at')}, 'scope', signal_acceptances.scope,
      'principal', signal_acceptances.scope_principal, 'scope_signal_id', signal_acceptances.scope_signal_id) end`;
}

/** The conditions every signals page applies: severity, scenario, check, since, status, and the keyset. */
function pageConditions(filter: Omit<SignalFilter, 'tenantId' | 'awsAccountId' | 'limit'>) {
  const conditions = [];
  if (filter.severity) conditions.push(sql<boolean>`signals.severity = ${filter.severity}`);
  if (filter.scenario) conditions.push(sql<boolean>`signals.scenario = ${filter.scenario}`);
  if (filter.checkId) conditions.push(sql<boolean>`signals.check_id = ${filter.checkId}`);
  if (filter.since) conditions.push(sql<boolean>`signals.detected_at > ${filter.since}`);
  if (filter.status === 'open') conditions.push(sql<boolean>`signals.resolved_at is null`);
  if (filter.status === 'resolved') conditions.push(sql<boolean>`signals.resolved_at is not null`);
  if (filter.after)
    conditions.push(sql<boolean>`(signals.detected_at, signals.id) < (${filter.after.at}, ${filter.after.id})`);
  return conditions;
}

/**
 * A page of an account's signals, newest first by (detected_at, id), the account looked up by its AWS id in the same
 * query; keyset pagination, so page 100 costs what page 1 costs. PostgreSQL builds each signal's JSON: the API
 * neither decodes rows and timestamps nor maps them.
 */
export async function listSignalPage({
  db,
  filter,
  now,
  mitre,
}: {
  db: Conn;
  filter: SignalFilter;
  now: Date;
  mitre: MitreByCheck;
}): Promise<SignalPageRow[]> {
  let query = signalsWithCurrentAcceptance(db)
    .select([
      sql<SignalJson>`json_build_object(${signalJsonPairs(now, mitre)})`.as('signal'),
      ISO('signals.detected_at').as('at'),
      'signals.id',
    ])
    .where('signals.tenant_id', '=', filter.tenantId)
    .where('signals.account_id', '=', (eb) =>
      eb
        .selectFrom('accounts')
        .select('accounts.id')
        .where('accounts.tenant_id', '=', filter.tenantId)
        .where('accounts.aws_account_id', '=', filter.awsAccountId),
    );
  for (const condition of pageConditions(filter)) query = query.where(condition);
  const rows = await query
    .orderBy('signals.detected_at', 'desc')
    .orderBy('signals.id', 'desc')
    .limit(filter.limit)
    .execute();
  return rows as SignalPageRow[];
}

/** The signals of a tenant's accounts: all of them, one (by its AWS id), or those with a tag. */
export interface TenantSignalFilter extends Omit<SignalFilter, 'awsAccountId'> {
  awsAccountId?: string;
  tag?: string;
}

/** A signal of GET /signals: the signal as the per-account list shows it, and its account. */
export type AccountSignalJson = SignalJson & {
  aws_account_id: string;
  cloud_account_id: string;
  display_name: string | null;
};

/**
 * A page of the signals of a tenant's accounts, newest first by (detected_at, id) like an account's, each beside its
 * account's ids and name. One account is read through its own index (signals_account_detected_idx); the whole tenant,
 * or the accounts with a tag, through signals_tenant_detected_idx.
 */
export async function listTenantSignalPage({
  db,
  filter,
  now,
  mitre,
}: {
  db: Conn;
  filter: TenantSignalFilter;
  now: Date;
  mitre: MitreByCheck;
}) {
  let query = signalsWithCurrentAcceptance(db)
    .innerJoin('accounts', 'accounts.id', 'signals.account_id')
    .select([
      sql<AccountSignalJson>`json_build_object(${signalJsonPairs(now, mitre)}, 'aws_account_id', accounts.aws_account_id,
        'cloud_account_id', accounts.aws_account_id, 'display_name', accounts.display_name)`.as('signal'),
      ISO('signals.detected_at').as('at'),
      'signals.id',
    ])
    .where('signals.tenant_id', '=', filter.tenantId)
    .where('accounts.tenant_id', '=', filter.tenantId);
  const { awsAccountId, tag } = filter;
  if (awsAccountId !== undefined) {
    query = query.where('signals.account_id', '=', (eb) =>
      eb
        .selectFrom('accounts as one')
        .select('one.id')
        .where('one.tenant_id', '=', filter.tenantId)
        .where('one.aws_account_id', '=', awsAccountId),
    );
  }
  if (tag !== undefined) query = query.where(sql<boolean>`${tag} = any(accounts.tags)`);
  for (const condition of pageConditions(filter)) query = query.where(condition);
  const rows = await query
    .orderBy('signals.detected_at', 'desc')
    .orderBy('signals.id', 'desc')
    .limit(filter.limit)
    .execute();
  return rows as SignalPageRow<AccountSignalJson>[];
}

/** One signal of an account, with its current acceptance; `forUpdate` locks the signal's row. */
export async function findSignal({
  db,
  tenantId,
  accountId,
  signalId,
  forUpdate = false,
}: {
  db: Conn;
  tenantId: string;
  accountId: string;
  signalId: string;
  forUpdate?: boolean;
}): Promise<SignalWithAcceptance | undefined> {
  let query = signalsWithCurrentAcceptance(db)
    .selectAll('signals')
    .select(ACCEPTANCE_COLUMNS)
    .where('signals.tenant_id', '=', tenantId)
    .where('signals.account_id', '=', accountId)
    .where('signals.id', '=', signalId);
  if (forUpdate) query = query.forUpdate('signals');
  const row = await query.executeTakeFirst();
  return row && withAcceptance(row);
}

/** Ends the acceptance in force (undone or replaced): the record stays. Returns how many were ended (0 or 1). */
export async function revokeAcceptance({
  db,
  signalId,
  revokedBy,
  at,
}: {
  db: Conn;
  signalId: string;
  revokedBy: string;
  at: Date;
}): Promise<number> {
  const result = await db
    .updateTable('signal_acceptances')
    .set({ revoked_at: at, revoked_by: revokedBy })
    .where('signal_id', '=', signalId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function insertAcceptance({
  db,
  acceptance,
}: {
  db: Conn;
  acceptance: NewSignalAcceptance;
}): Promise<void> {
  await db.insertInto('signal_acceptances').values(acceptance).execute();
}

/** Acceptances a scope gives to signals (later occurrences, or those carried over to the scope that replaced it). */
export async function insertAcceptances({
  db,
  acceptances,
}: {
  db: Conn;
  acceptances: readonly NewSignalAcceptance[];
}): Promise<void> {
  if (acceptances.length === 0) return;
  await db
    .insertInto('signal_acceptances')
    .values([...acceptances])
    .execute();
}

/** Ends the acceptances in force that a scoped acceptance gave; answers their signals. */
export async function revokeAcceptancesGivenBy({
  db,
  scopeAcceptanceId,
  revokedBy,
  at,
}: {
  db: Conn;
  scopeAcceptanceId: string;
  revokedBy: string;
  at: Date;
}): Promise<string[]> {
  const rows = await db
    .updateTable('signal_acceptances')
    .set({ revoked_at: at, revoked_by: revokedBy })
    .where('scope_acceptance_id', '=', scopeAcceptanceId)
    .where('revoked_at', 'is', null)
    .returning('signal_id')
    .execute();
  return rows.map((r) => r.signal_id);
}

/** Which of these signals of an account are open, with their detection and principal. */
export async function listOpenSignalsAmong({
  db,
  accountId,
  signalIds,
}: {
  db: Conn;
  accountId: string;
  signalIds: readonly string[];
}) {
  if (signalIds.length === 0) return [];
  return db
    .selectFrom('signals')
    .select(['id', 'check_id', 'principal'])
    .where('account_id', '=', accountId)
    .where(sql<boolean>`id = any(${sql.val([...signalIds])}::text[])`)
    .where('resolved_at', 'is', null)
    .execute();
}

/**
 * The account's open signals of these detections that count occurrences (those with an occurrence time) between
 * `from` and `to`, each with its acceptance not undone or replaced (expires_at says whether it is still in force).
 */
export async function listOpenOccurrences({
  db,
  accountId,
  checkIds,
  from,
  to,
}: {
  db: Conn;
  accountId: string;
  checkIds: readonly string[];
  from: Date;
  to: Date;
}) {
  if (checkIds.length === 0) return [];
  const rows = await signalsWithCurrentAcceptance(db)
    .select([
      'signals.id',
      'signals.check_id',
      'signals.principal',
      'signals.occurred_at',
      'signal_acceptances.id as acceptance_id',
      'signal_acceptances.expires_at',
      'signal_acceptances.scope',
      'signal_acceptances.scope_acceptance_id',
    ])
    .where('signals.account_id', '=', accountId)
    .where('signals.resolved_at', 'is', null)
    .where('signals.check_id', 'in', [...checkIds])
    .where('signals.occurred_at', '>', from)
    .where('signals.occurred_at', '<', to)
    .execute();
  return rows.flatMap((r) =>
    r.occurred_at === null
      ? []
      : [
          {
            id: r.id,
            checkId: r.check_id,
            principal: r.principal,
            occurredAt: r.occurred_at,
            acceptance:
              r.acceptance_id === null
                ? null
                : {
                    id: r.acceptance_id,
                    expiresAt: r.expires_at,
                    scope: r.scope ?? 'signal',
                    scopeAcceptanceId: r.scope_acceptance_id,
                  },
          },
        ],
  );
}

/**
 * How many signals of each of these checks or detections the account holds open, and the newest of them (by detection
 * time): what the bound on a detection's open signals reads (signals_open_check_idx).
 */
export async function countOpenSignalsOfChecks({
  db,
  accountId,
  checkIds,
}: {
  db: Conn;
  accountId: string;
  checkIds: readonly string[];
}): Promise<{ checkId: string; open: number; newest: string }[]> {
  if (checkIds.length === 0) return [];
  const { rows } = await sql<{ check_id: string; open: string; newest: string }>`
    select c.check_id, c.open, n.id as newest
    from (select check_id, count(*) as open from signals
          where account_id = ${accountId} and resolved_at is null and check_id = any(${sql.val([...checkIds])}::text[])
          group by check_id) c
    cross join lateral (select id from signals
          where account_id = ${accountId} and resolved_at is null and check_id = c.check_id
          order by detected_at desc, id desc limit 1) n`.execute(db);
  return rows.map((r) => ({ checkId: r.check_id, open: Number(r.open), newest: r.newest }));
}

/** Which of these fingerprints the account holds an open signal of. */
export async function listOpenFingerprints({
  db,
  accountId,
  fingerprints,
}: {
  db: Conn;
  accountId: string;
  fingerprints: readonly string[];
}): Promise<string[]> {
  if (fingerprints.length === 0) return [];
  const rows = await db
    .selectFrom('signals')
    .select('fingerprint')
    .where('account_id', '=', accountId)
    .where(sql<boolean>`fingerprint = any(${sql.val([...fingerprints])}::text[])`)
    .where('resolved_at', 'is', null)
    .execute();
  return rows.map((r) => r.fingerprint);
}

/** Counts occurrences on the signals they were counted on: `count` more on each. */
export async function addOccurrences({
  db,
  counts,
}: {
  db: Conn;
  counts: readonly { signalId: string; count: number }[];
}): Promise<void> {
  if (counts.length === 0) return;
  const values = counts.map((c) => sql`(${c.signalId}, ${c.count}::int)`);
  await sql`update signals set occurrences = signals.occurrences + v.count
    from (values ${sql.join(values)}) as v(id, count) where signals.id = v.id`.execute(db);
}

/**
 * The scoped acceptances of the account in force at `at` whose signal is of one of these detections: what later
 * occurrences of them are accepted by.
 */
export async function listScopesInForce({
  db,
  accountId,
  checkIds,
  at,
}: {
  db: Conn;
  accountId: string;
  checkIds: readonly string[];
  at: Date;
}) {
  if (checkIds.length === 0) return [];
  return db
    .selectFrom('signal_acceptances')
    .innerJoin('signals', 'signals.id', 'signal_acceptances.signal_id')
    .select([
      'signal_acceptances.id',
      'signals.check_id',
      'signal_acceptances.scope',
      'signal_acceptances.scope_principal',
      'signal_acceptances.scope_signal_id',
      'signal_acceptances.accepted_by',
      'signal_acceptances.accepted_by_email',
      'signal_acceptances.reason',
      'signal_acceptances.expires_at',
    ])
    .where('signal_acceptances.account_id', '=', accountId)
    .where('signal_acceptances.scope', '<>', 'signal')
    .where('signal_acceptances.scope_acceptance_id', 'is', null)
    .where('signal_acceptances.revoked_at', 'is', null)
    .where('signal_acceptances.expires_at', '>', at)
    .where('signals.check_id', 'in', [...checkIds])
    .orderBy('signal_acceptances.accepted_at')
    .execute();
}

/** An open signal as the signal lifecycle and alert rules read it, with its acceptance not undone or replaced. */
export interface OpenSignalRecord {
  id: string;
  fingerprint: string;
  checkId: string;
  scenario: Scenario;
  severity: Severity;
  region: string;
  resource: string;
  owner: string | null;
  /** Null once the scan that opened it is past its retention, and for a signal an event opened. */
  firstScanId: string | null;
  /** The event batch that opened it (an event signal). */
  eventBatchId: string | null;
  detectedAt: Date;
  /** `expiryScanId`: the first scan that found the acceptance expired, if one has. */
  acceptance: { expiresAt: Date | null; expiryScanId: string | null } | null;
  /** An alert that fired for it (on the scan or event batch that opened it) has been acknowledged: it was reviewed. */
  alertAcknowledged: boolean;
}

/** The account's open signals, by fingerprint: what a scan resolves or keeps, what scores the account, what rules fire on. */
export async function listOpenSignalsWithAcceptance({
  db,
  accountId,
}: {
  db: Conn;
  accountId: string;
}): Promise<OpenSignalRecord[]> {
  const rows = await signalsWithCurrentAcceptance(db)
    .select([
      'signals.id',
      'signals.fingerprint',
      'signals.check_id',
      'signals.scenario',
      'signals.severity',
      'signals.region',
      'signals.resource',
      'signals.owner',
      'signals.first_scan_id',
      'signals.event_batch_id',
      'signals.detected_at',
      'signal_acceptances.id as acceptance_id',
      'signal_acceptances.expires_at',
      'signal_acceptances.expiry_scan_id',
      // An acknowledged alert was about this signal when it fired on the scan or event batch that opened it, for its
      // scenario (domain/alerts/rules.ts: the scenarios of the findings behind the alert).
      (eb) =>
        eb
          .exists(
            eb
              .selectFrom('alert_events')
              .select(sql`1`.as('one'))
              .whereRef('alert_events.account_id', '=', 'signals.account_id')
              .where('alert_events.acknowledged_at', 'is not', null)
              .where(sql<boolean>`signals.scenario = any(alert_events.scenarios_triggered)`)
              .where((inner) =>
                inner.or([
                  inner('alert_events.scan_id', '=', inner.ref('signals.first_scan_id')),
                  inner('alert_events.event_batch_id', '=', inner.ref('signals.event_batch_id')),
                ]),
              ),
          )
          .as('alert_acknowledged'),
    ])
    .where('signals.account_id', '=', accountId)
    .where('signals.resolved_at', 'is', null)
    .orderBy('signals.fingerprint')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    fingerprint: r.fingerprint,
    checkId: r.check_id,
    scenario: r.scenario,
    severity: r.severity,
    region: r.region,
    resource: r.resource,
    owner: r.owner,
    firstScanId: r.first_scan_id,
    eventBatchId: r.event_batch_id,
    detectedAt: r.detected_at,
    acceptance: r.acceptance_id === null ? null : { expiresAt: r.expires_at, expiryScanId: r.expiry_scan_id },
    alertAcknowledged: r.alert_acknowledged === true,
  }));
}

/** The signals events opened that a scan resolved: from then on its own findings stand for their state. */
export async function listEventSignalsResolvedBy({
  db,
  accountId,
  scanId,
}: {
  db: Conn;
  accountId: string;
  scanId: string;
}): Promise<{ fingerprint: string; checkId: string; resource: string }[]> {
  const rows = await db
    .selectFrom('signals')
    .select(['fingerprint', 'check_id', 'resource'])
    .where('resolved_scan_id', '=', scanId)
    .where('account_id', '=', accountId)
    .where('check_id', 'like', 'event.%')
    .execute();
  return rows.map((r) => ({ fingerprint: r.fingerprint, checkId: r.check_id, resource: r.resource }));
}

export async function insertSignals({ db, signals }: { db: Conn; signals: readonly NewSignal[] }): Promise<void> {
  for (const chunk of insertChunks(signals)) await db.insertInto('signals').values(chunk).execute();
}

/**
 * Inserts the signals not open already: a finding already open (an event seen again) leaves its signal as it is.
 * Answers the check ids of those it opened.
 */
export async function insertSignalsNotOpen({
  db,
  signals,
}: {
  db: Conn;
  signals: readonly NewSignal[];
}): Promise<string[]> {
  const opened: string[] = [];
  for (const chunk of insertChunks(signals)) {
    const rows = await db
      .insertInto('signals')
      .values(chunk)
      .onConflict((oc) => oc.columns(['account_id', 'fingerprint']).where('resolved_at', 'is', null).doNothing())
      .returning('check_id')
      .execute();
    opened.push(...rows.map((r) => r.check_id));
  }
  return opened;
}

/** The account's signals of these checks detected since `since`, open or not, but for those its first scan opened. */
export async function signalsDetectedSince({
  db,
  accountId,
  since,
  checkIds,
}: {
  db: Conn;
  accountId: string;
  since: Date;
  checkIds: readonly string[];
}) {
  return (
    db
      .selectFrom('signals as s')
      .leftJoin('scans as opener', 'opener.id', 's.first_scan_id')
      .select(['s.check_id', 's.resource', 's.region', 's.title', 's.detected_at'])
      .where('s.account_id', '=', accountId)
      .where('s.detected_at', '>=', since)
      .where('s.check_id', 'in', [...checkIds])
      // What the account's first scan found was there before Sentinel looked: not news of the last day.
      .where((eb) => eb.or([eb('opener.trigger', 'is', null), eb('opener.trigger', '!=', 'initial')]))
      .execute()
  );
}

export async function resolveSignals({
  db,
  signalIds,
  scanId,
  at,
}: {
  db: Conn;
  signalIds: readonly string[];
  scanId: string;
  at: Date;
}): Promise<void> {
  if (signalIds.length === 0) return;
  await db
    .updateTable('signals')
    .set({ resolved_at: at, resolved_scan_id: scanId })
    .where(sql<boolean>`id = any(${sql.val([...signalIds])}::text[])`)
    .execute();
}

/** Fingerprints of the signals a scan opened or resolved (what a save did, read back by a retried save). */
export async function fingerprintsChangedBy({
  db,
  scanId,
  change,
}: {
  db: Conn;
  scanId: string;
  change: 'opened' | 'resolved';
}) {
  const rows = await db
    .selectFrom('signals')
    .select('fingerprint')
    .where(change === 'opened' ? 'first_scan_id' : 'resolved_scan_id', '=', scanId)
    .execute();
  return rows.map((r) => r.fingerprint);
}

/** Notes the first scan that finds an acceptance expired (alert rules count its signal as new again). */
export async function noteExpiredAcceptances({
  db,
  accountId,
  scanId,
  at,
}: {
  db: Conn;
  accountId: string;
  scanId: string;
  at: Date;
}) {
  await db
    .updateTable('signal_acceptances')
    .set({ expiry_scan_id: scanId })
    .where('account_id', '=', accountId)
    .where('revoked_at', 'is', null)
    .where('expiry_scan_id', 'is', null)
    .where('expires_at', '<=', at)
    .execute();
}

/** The findings a scan or an event batch opened in the given scenarios (an alert's "what changed"). */
export async function signalsOpenedBy({
  db,
  accountId,
  source,
  scenarios,
}: {
  db: Conn;
  accountId: string;
  source: AlertSource;
  scenarios: readonly Scenario[];
}) {
  if (scenarios.length === 0) return [];
  return db
    .selectFrom('signals')
    .select(['id', 'title', 'severity', 'scenario', 'resource', 'region'])
    .where('account_id', '=', accountId)
    .where(source.kind === 'scan' ? 'first_scan_id' : 'event_batch_id', '=', source.id)
    .where('scenario', 'in', [...scenarios])
    .execute();
}

/** One signal of a group of compliance evidence, with its group's counts (`groupOpenEvidence`). */
export interface EvidenceRow {
  accountId: string;
  /** The group, numbered within its account. */
  group: number;
  /** How many open signals the group holds, and how many of them no acceptance in force covers. */
  open: number;
  unaccepted: number;
  id: string;
  checkId: string;
  resource: string;
  region: string;
  controls: ControlRefs | null;
  accepted: boolean;
}

/**
 * Compliance's evidence, grouped by PostgreSQL: the open signals of some of a tenant's accounts, of these checks and
 * detections, in groups that stand for the same controls (domain/compliance/evaluate.ts `EvidenceGroup`): one check,
 * one value of the signal's own `controls`, and for the checks in `byResource` one resource, for the resources in
 * `named` the controls the scan recorded for them (keyed `resource|region`). Answers each group's first `samples`
 * signals (by region, resource) with its counts: what comes back is bounded by the number of groups, never by the
 * number of open signals. An acceptance is in force at `at` (domain/signals/lifecycle.ts `acceptanceInForce`).
 */
export async function groupOpenEvidence({
  db,
  tenantId,
  accountIds,
  checkIds,
  byResource,
  named,
  samples,
  at,
}: {
  db: Conn;
  tenantId: string;
  accountIds: readonly string[];
  checkIds: readonly string[];
  byResource: readonly string[];
  named: readonly { accountId: string; checkId: string; key: string; controls: ControlRefs }[];
  samples: number;
  at: Date;
}): Promise<EvidenceRow[]> {
  if (accountIds.length === 0 || checkIds.length === 0) return [];
  const namedRows = JSON.stringify(
    named.map((n) => ({ account_id: n.accountId, check_id: n.checkId, key: n.key, controls: n.controls })),
  );
  const { rows } = await sql<{
    account_id: string;
    grp: string;
    open_count: string;
    unaccepted_count: string;
    id: string;
    check_id: string;
    resource: string;
    region: string;
    controls: ControlRefs | null;
    accepted: boolean;
  }>`
    with open as (
      select s.id, s.account_id, s.check_id, s.resource, s.region, s.controls,
        coalesce(a.accepted_at is not null and (a.expires_at is null or a.expires_at > ${at}), false) as accepted,
        case when s.check_id = any(${sql.val([...byResource])}::text[]) then to_jsonb(s.resource) else n.controls end
          as part
      from signals s
      left join signal_acceptances a on a.signal_id = s.id and a.revoked_at is null
      left join jsonb_to_recordset(${namedRows}::jsonb) as n(account_id text, check_id text, key text, controls jsonb)
        on n.account_id = s.account_id and n.check_id = s.check_id and n.key = s.resource || '|' || s.region
      where s.tenant_id = ${tenantId} and s.account_id = any(${sql.val([...accountIds])}::text[])
        and s.resolved_at is null and s.check_id = any(${sql.val([...checkIds])}::text[])
    ), grouped as (
      select open.*,
        dense_rank() over (partition by account_id order by check_id, controls, part) as grp,
        row_number() over (partition by account_id, check_id, controls, part order by region, resource, id) as rank,
        count(*) over (partition by account_id, check_id, controls, part) as open_count,
        count(*) filter (where not accepted) over (partition by account_id, check_id, controls, part)
          as unaccepted_count
      from open
    )
    select account_id, grp, open_count, unaccepted_count, id, check_id, resource, region, controls, accepted
    from grouped where rank <= ${samples}
    order by account_id, grp, rank`.execute(db);
  return rows.map((r) => ({
    accountId: r.account_id,
    group: Number(r.grp),
    open: Number(r.open_count),
    unaccepted: Number(r.unaccepted_count),
    id: r.id,
    checkId: r.check_id,
    resource: r.resource,
    region: r.region,
    controls: r.controls,
    accepted: r.accepted,
  }));
}

/** How many signals are open, per severity and scenario. */
export async function countOpenSignals({ db, accountId }: { db: Conn; accountId: string }) {
  const rows = await db
    .selectFrom('signals')
    .select((eb) => ['severity', 'scenario', eb.fn.countAll<string>().as('n')])
    .where('account_id', '=', accountId)
    .where('resolved_at', 'is', null)
    .groupBy(['severity', 'scenario'])
    .execute();
  return rows.map((r) => ({ severity: r.severity, scenario: r.scenario, count: Number(r.n) }));
}

export async function openSignals({ db, tenantId, accountId }: { db: Conn; tenantId: string; accountId: string }) {
  return db
    .selectFrom('signals')
    .select(['check_id', 'severity'])
    .where('tenant_id', '=', tenantId)
    .where('account_id', '=', accountId)
    .where('resolved_at', 'is', null)
    .execute();
}

/** The account's open signals of one check (the forwarding watch's), with the region each stands for. */
export async function listOpenSignalsOfCheck({
  db,
  accountId,
  checkId,
}: {
  db: Conn;
  accountId: string;
  checkId: string;
}): Promise<{ id: string; region: string }[]> {
  return db
    .selectFrom('signals')
    .select(['id', 'region'])
    .where('account_id', '=', accountId)
    .where('check_id', '=', checkId)
    .where('resolved_at', 'is', null)
    .orderBy('id')
    .execute();
}

/** Resolves signals outside a scan (no scan resolved them); those resolved already keep their time. */
export async function resolveSignalsWithoutScan({
  db,
  signalIds,
  at,
}: {
  db: Conn;
  signalIds: readonly string[];
  at: Date;
}): Promise<number> {
  if (signalIds.length === 0) return 0;
  const rows = await db
    .updateTable('signals')
    .set({ resolved_at: at })
    .where(sql<boolean>`id = any(${sql.val([...signalIds])}::text[])`)
    .where('resolved_at', 'is', null)
    .returning('id')
    .execute();
  return rows.length;
}

/**
 * The principals the account's event signals name, for events since `since` (at most 500, newest first): who an
 * event detection saw act, for the attack-path analysis (an escalation path of one of them may be in use).
 */
export async function recentEventActors({ db, accountId, since }: { db: Conn; accountId: string; since: Date }) {
  return db
    .selectFrom('signals')
    .select(['principal', 'check_id', 'occurred_at'])
    .where('account_id', '=', accountId)
    .where('principal', 'is not', null)
    .where('occurred_at', '>=', since)
    .orderBy('occurred_at', 'desc')
    .limit(500)
    .execute();
}
