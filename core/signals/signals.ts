import { addBaselineRegion, lockAccount } from '../../db/repositories/accounts';
import { UNUSED_REGION_CHECK_IDS } from '../../domain/checks/region-baseline';
import { scoreHistory } from '../../db/repositories/score-history';
import {
  findSignal,
  insertAcceptance,
  insertAcceptances,
  listOpenSignalsAmong,
  listSignalPage,
  listTenantSignalPage,
  type MitreByCheck,
  openSignals,
  revokeAcceptance,
  revokeAcceptancesGivenBy,
  type SignalJson,
  type SignalWithAcceptance,
} from '../../db/repositories/signals';
import { newId } from '../../domain/ids';
import { DETECTION_CATALOG, mitreOf } from '../../domain/events/catalog';
import { describeMitre } from '../../domain/events/mitre';
import { recoveryChecklist } from '../../domain/signals/recovery';
import { acceptanceInForce } from '../../domain/signals/lifecycle';
import { type AcceptanceScope, scopeAccepts, scopeProblem } from '../../domain/signals/acceptance-scopes';
import type { AppDeps, Caller } from '../deps';
import { afterCursor, keysetPage } from '../pagination/cursor';
import { AppError, notFound } from '../errors';
import { readPageThrough } from '../../db/read-cache';
import type { AcceptSignalInput, ListSignalsQuery, SearchSignalsQuery } from '../schemas/signals';
import { requireAccount } from '../accounts/require-account';
import { audit } from '../audit-log';
import { rescoreAccount } from './rescore';

type Deps = Pick<AppDeps, 'db' | 'readCache'>;

/** Each event detection's MITRE ATT&CK ids as a signal shows them, for the pages PostgreSQL writes. */
const MITRE_BY_CHECK: MitreByCheck = Object.fromEntries(
  DETECTION_CATALOG.filter((d) => d.mitre.length > 0).map((d) => [d.id, JSON.stringify(describeMitre(d.mitre))]),
);

/** The body of a signal. Its acceptance shows while in force: once expired it counts again, and reads as none. */
export function signalBody(s: SignalWithAcceptance, now = new Date()) {
  const accepted = s.acceptance && acceptanceInForce({ expiresAt: s.acceptance.expires_at }, now) ? s.acceptance : null;
  return {
    signal_id: s.id,
    scenario: s.scenario,
    severity: s.severity,
    title: s.title,
    description: s.description,
    detected_at: s.detected_at.toISOString(),
    resolved_at: s.resolved_at ? s.resolved_at.toISOString() : null,
    check_id: s.check_id,
    resource: s.resource,
    region: s.region,
    occurrences: s.occurrences,
    mitre: describeMitre(mitreOf(s.check_id)),
    accepted: accepted && {
      by_user_id: accepted.accepted_by,
      by_email: accepted.accepted_by_email,
      reason: accepted.reason,
      accepted_at: accepted.accepted_at.toISOString(),
      expires_at: accepted.expires_at ? accepted.expires_at.toISOString() : null,
      scope: accepted.scope,
      principal: accepted.scope_principal,
      scope_signal_id: accepted.scope_signal_id,
    },
  };
}

/** The filters an account's signal list and the tenant-wide search share, and one row more than the page to learn if another follows. */
function pageFilter(query: ListSignalsQuery) {
  return {
    severity: query.severity,
    scenario: query.scenario,
    checkId: query.check_id,
    since: query.since ? new Date(query.since) : undefined,
    status: query.status,
    after: afterCursor(query.next_token),
    limit: query.limit + 1,
  };
}

/**
 * A page of an account's signals: from this process's cache when it holds that page (db/read-cache.ts forgets the
 * tenant's pages as soon as PostgreSQL announces a signal or acceptance written, and a page showing an acceptance when
 * the acceptance expires), else in one query.
 */
export async function listAccountSignals(
  { db, readCache }: Deps,
  caller: Caller,
  awsAccountId: string,
  query: ListSignalsQuery,
) {
  if (!/^[0-9]{12}$/.test(awsAccountId)) throw notFound('Account');
  // The account and the parsed query, whose keys come in the schema's order: the same page, the same name.
  const page = { kind: 'signals' as const, tenantId: caller.tenantId, query: JSON.stringify([awsAccountId, query]) };
  return readPageThrough(
    readCache,
    page,
    () => readSignalsPage(db, caller, awsAccountId, query),
    (read) => firstExpiry(read.signals),
  );
}

/** When the first acceptance the page shows expires (ms), and the page with it. */
function firstExpiry(signals: readonly SignalJson[]): number | undefined {
  const expiries = signals.flatMap((s) => (s.accepted?.expires_at ? [Date.parse(s.accepted.expires_at)] : []));
  return expiries.length > 0 ? Math.min(...expiries) : undefined;
}

/**
 * One query for a page of signals: the account is looked up inside it, and PostgreSQL writes each signal's JSON.
 * Only an empty page asks whether the account exists at all (404) or has no such signals.
 */
async function readSignalsPage(db: Deps['db'], caller: Caller, awsAccountId: string, query: ListSignalsQuery) {
  const rows = await listSignalPage({
    db,
    now: new Date(),
    mitre: MITRE_BY_CHECK,
    filter: { ...pageFilter(query), tenantId: caller.tenantId, awsAccountId },
  });
  if (rows.length === 0) await requireAccount(db, caller, awsAccountId);
  const { page, nextToken } = keysetPage(rows, query.limit, (row) => new Date(row.at));
  return { signals: page.map((row) => row.signal), count: page.length, next_token: nextToken };
}

/**
 * A page of the signals of all the tenant's accounts (GET /signals), or of one account or the accounts with a tag,
 * newest first. An account or tag that matches nothing is an empty page, as any filter is: the caller learns nothing
 * of other tenants' accounts. Kept by this process's cache like an account's pages (a tag filter's accounts change
 * with their tags, which the cache hears of as an account change).
 */
export async function searchTenantSignals({ db, readCache }: Deps, caller: Caller, query: SearchSignalsQuery) {
  if (query.aws_account_id && query.cloud_account_id && query.aws_account_id !== query.cloud_account_id) {
    const problem = { field: 'cloud_account_id', message: 'must equal aws_account_id when both are given' };
    throw new AppError('validation_failed', `Invalid query: ${problem.field}: ${problem.message}`, {
      details: [problem],
    });
  }
  // Named apart from an account's pages, whose first element is a 12-digit account id.
  const page = { kind: 'signals' as const, tenantId: caller.tenantId, query: JSON.stringify(['tenant', query]) };
  return readPageThrough(
    readCache,
    page,
    () => readTenantSignalsPage(db, caller, query),
    (read) => firstExpiry(read.signals),
  );
}

async function readTenantSignalsPage(db: Deps['db'], caller: Caller, query: SearchSignalsQuery) {
  const rows = await listTenantSignalPage({
    db,
    now: new Date(),
    mitre: MITRE_BY_CHECK,
    filter: {
      ...pageFilter(query),
      tenantId: caller.tenantId,
      awsAccountId: query.aws_account_id ?? query.cloud_account_id,
      tag: query.tag,
    },
  });
  const { page, nextToken } = keysetPage(rows, query.limit, (row) => new Date(row.at));
  return { signals: page.map((row) => row.signal), count: page.length, next_token: nextToken };
}

interface NextAcceptance {
  reason: string;
  expiresAt: Date | null;
  scope: AcceptanceScope;
}

/**
 * Changes a signal's acceptance in one transaction: ends the one in force (if any), starts `next` (if given), and
 * re-scores the account at once, so the score a tenant sees follows. Alert rules see the change at the next scan.
 * Ending a scoped acceptance on the signal it was made on ends the acceptances it gave later occurrences too; a scope
 * that replaces it takes over those it also covers (docs/decisions.md, "Accepted risk").
 */
async function changeAcceptance(
  { db, log }: Pick<AppDeps, 'db' | 'log'>,
  caller: Caller,
  awsAccountId: string,
  signalId: string,
  next?: NextAcceptance,
) {
  const account = await requireAccount(db, caller, awsAccountId);
  const now = new Date();
  const signal = await db.transaction().execute(async (trx) => {
    // The account row first, as a scan saving its results does: one writer of its signals and score at a time.
    await lockAccount({ db: trx, tenantId: caller.tenantId, accountId: account.id });
    const found = await findSignal({
      db: trx,
      tenantId: caller.tenantId,
      accountId: account.id,
      signalId,
      forUpdate: true,
    });
    if (!found) throw notFound('Signal');
    if (next && found.resolved_at) {
      throw new AppError('invalid_state', 'The signal is resolved: there is no open risk left to accept');
    }
    const problem =
      next &&
      (scopeProblem(next.scope, { checkId: found.check_id, principal: found.principal }) ??
        (next.scope !== 'signal' && next.expiresAt === null ? 'a scope needs expires_at' : null));
    if (problem) {
      throw new AppError('validation_failed', `Invalid request body: scope: ${problem}`, {
        details: [{ field: 'scope', message: problem }],
      });
    }
    const current = found.acceptance;
    const ended = await revokeAcceptance({ db: trx, signalId, revokedBy: caller.userId, at: now });
    // A scope made on this signal ends with its acceptance here, and so do the acceptances it gave.
    const given =
      ended > 0 && current && current.scope !== 'signal' && current.scope_acceptance_id === null
        ? await revokeAcceptancesGivenBy({
            db: trx,
            scopeAcceptanceId: current.acceptance_id,
            revokedBy: caller.userId,
            at: now,
          })
        : [];
    if (next) {
      const acceptance = {
        id: newId('acceptance', now.getTime()),
        tenant_id: caller.tenantId,
        account_id: account.id,
        accepted_by: caller.userId,
        accepted_by_email: caller.email,
        reason: next.reason,
        accepted_at: now,
        expires_at: next.expiresAt,
        scope: next.scope,
        scope_principal: next.scope === 'principal' ? found.principal : null,
        scope_signal_id: next.scope === 'signal' ? null : signalId,
      };
      await insertAcceptance({ db: trx, acceptance: { ...acceptance, signal_id: signalId } });
      // A scope replacing a scope keeps what the old one accepted and the new one covers still accepted.
      if (next.scope !== 'signal' && given.length > 0) {
        const record = { scope: next.scope, checkId: found.check_id, principal: found.principal };
        const covered = (await listOpenSignalsAmong({ db: trx, accountId: account.id, signalIds: given })).filter((s) =>
          scopeAccepts(record, { checkId: s.check_id, principal: s.principal }),
        );
        await insertAcceptances({
          db: trx,
          acceptances: covered.map((s) => ({
            ...acceptance,
            id: newId('acceptance', now.getTime()),
            signal_id: s.id,
            scope_acceptance_id: acceptance.id,
          })),
        });
      }
    }
    if (next) {
      await audit(trx, caller, 'signal.risk_accepted', `signal:${signalId}`, {
        aws_account_id: awsAccountId,
        check_id: found.check_id,
        reason: next.reason,
        expires_at: next.expiresAt?.toISOString() ?? null,
        scope: next.scope,
        principal: next.scope === 'principal' ? found.principal : null,
        ...(given.length > 0 ? { scope_acceptances_ended: given.length } : {}),
      });
    } else if (ended > 0) {
      await audit(trx, caller, 'signal.risk_acceptance_undone', `signal:${signalId}`, {
        aws_account_id: awsAccountId,
        check_id: found.check_id,
        scope: current?.scope ?? 'signal',
        ...(given.length > 0 ? { scope_acceptances_ended: given.length } : {}),
      });
    }
    // An instance outside the account's regions, accepted for good: its region is one the account uses from now on
    // (docs/decisions.md, "No clock-based all-clear"). An acceptance with an expiry silences the signal until then
    // and changes no region: when it ends, the instance is flagged again.
    if (
      next &&
      next.expiresAt === null &&
      UNUSED_REGION_CHECK_IDS.includes(found.check_id) &&
      (await addBaselineRegion({ db: trx, accountId: account.id, region: found.region }))
    ) {
      await audit(trx, caller, 'account.region_baseline_extended', `account:${awsAccountId}`, {
        region: found.region,
        signal_id: signalId,
        check_id: found.check_id,
      });
    }
    if (next || ended > 0) await rescoreAccount({ db: trx, account, at: now });
    return (await findSignal({ db: trx, tenantId: caller.tenantId, accountId: account.id, signalId })) ?? found;
  });
  log.info(
    { tenantId: caller.tenantId, accountId: account.id, signalId, userId: caller.userId, scope: next?.scope },
    next ? 'signal accepted' : 'signal acceptance undone',
  );
  return signalBody(signal, now);
}

/**
 * Accepts a signal's risk (member): it stays listed, counts in no score and fires no alert until it expires. A scope
 * (an occurrence detection's signal only) also accepts the detection's later occurrences, by the signal's principal or
 * by anyone, until it expires.
 */
export function acceptSignal(
  deps: Pick<AppDeps, 'db' | 'log'>,
  caller: Caller,
  awsAccountId: string,
  signalId: string,
  input: AcceptSignalInput,
) {
  return changeAcceptance(deps, caller, awsAccountId, signalId, {
    reason: input.reason,
    expiresAt: input.expires_at ? new Date(input.expires_at) : null,
    scope: input.scope ?? 'signal',
  });
}

/**
 * Undoes the acceptance in force (member); idempotent: a signal without one is answered as it is. On the signal a
 * scoped acceptance was made on, it ends the scope and what it accepted; on another, that signal's acceptance alone.
 */
export function undoSignalAcceptance(
  deps: Pick<AppDeps, 'db' | 'log'>,
  caller: Caller,
  awsAccountId: string,
  signalId: string,
) {
  return changeAcceptance(deps, caller, awsAccountId, signalId);
}

export async function accountScoreHistory({ db }: Deps, caller: Caller, awsAccountId: string, days: number) {
  const account = await requireAccount(db, caller, awsAccountId);
  const rows = await scoreHistory({ db, accountId: account.id, days });
  return { history: rows.map((r) => ({ date: r.day, srs: r.srs, complete: r.complete })) };
}

export async function accountRecoveryChecklist({ db }: Deps, caller: Caller, awsAccountId: string) {
  const account = await requireAccount(db, caller, awsAccountId);
  const open = await openSignals({ db, tenantId: caller.tenantId, accountId: account.id });
  return { checklist: recoveryChecklist(open.map((s) => ({ checkId: s.check_id, severity: s.severity }))) };
}
