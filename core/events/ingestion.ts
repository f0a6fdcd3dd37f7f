import type { WindowState } from '../../db/repositories/rate-limits';
import {
  countAndStoreEvents,
  type EventStoreRequest,
  type EventStoreResult,
  findAccountsByEventKeys,
  insertEventBatch,
  type NewAccountEvent,
  noteBatchSignals,
} from '../../db/repositories/account-events';
import { lockAccount, regionBaselineOf } from '../../db/repositories/accounts';
import { detectionRegions } from '../../domain/checks/region-baseline';
import type { Db } from '../../db/client';
import { indicatorKind, PROBABLE_COMPROMISE, probableCompromise } from '../../domain/events/compound';
import { detectEvent, rescansOf } from '../../domain/events/detections';
import { isHeartbeat } from '../../domain/events/forwarding-rules';
import { type RegionTouch, regionTouches } from '../../domain/events/forwarding-health';
import { eventFingerprint, signalPrincipal } from '../../domain/events/occurrences';
import { bySentinel, callPrincipal, suppressingPrincipal } from '../../domain/events/trusted-principals';
import { trustedPrincipalsInForce } from '../../db/repositories/trusted-principals';
import { arrivedEventTime, parseEnvelope, toAccountEvent } from '../../domain/events/normalize';
import type { AccountEvent, DetectionContext, DetectionDescription, EventFinding } from '../../domain/events/types';
import { newId } from '../../domain/ids';
import { awsEventsReceived, eventSignalsOpened } from '../../observability/metrics';
import {
  EVENT_BATCH_LIMIT,
  EVENT_KEY_GRACE_HOURS,
  EVENT_KIB_PER_ACCOUNT_PER_MINUTE,
  EVENTS_PER_ACCOUNT_PER_MINUTE,
} from '../../domain/tenancy/limits';
import { sha256 } from '../../security/crypto';
import type { AppDeps } from '../deps';
import { AppError } from '../errors';
import { rememberEvents, remembering } from './detection-memory';
import { batchedReadOf } from '../batched-reads';
import { dispatchAfterAnswer } from './dispatch-after-answer';
import { EVENT_WINDOW_SECONDS, storeInGroup } from './group-commit';
import { escalationsSeenNow } from './live-attack-paths';
import { indicatorsOfLastDay } from './probable-compromise';
import { type EventSignal, openEventSignals } from './open-event-signals';
import { rescoreAccount } from '../signals/rescore';
import { detectSigma, type TenantSigmaDetection } from '../../domain/events/sigma/detection';
import { isSigmaDetection } from '../../domain/events/sigma/ids';
import { tenantSigmaRules } from '../detections/tenant-rules';

// POST /ingest/aws/events (docs/decisions.md, "Events"): the customer's EventBridge API destination delivers the
// account's events here, authenticated by the account's key alone. Each request is applied in one transaction (the
// events, the signals their detections open, the batch that records what is left to do; a request that sets off
// nothing shares its transaction with others of the moment: core/events/group-commit.ts) and answered; then the alert
// rules fire on the new signals, their deliveries start, and the account workflow is told what to rescan
// (core/events/dispatch-after-answer.ts). Which findings open signals, and which are counted on open ones, is
// domain/events/occurrences.ts's rule (core/events/open-event-signals.ts). A finding of a call by one of the tenant's
// trusted principals, for a detection it names (docs/decisions.md, "Trusted principals"), opens nothing: the event
// keeps it under `suppressed`, with the trusted principal.
//
// Heartbeats (the forwarder's scheduled rule, docs/event-forwarding.md "Heartbeat") are not stored as events nor run
// through the detections: one per region every few minutes would bury the account's event list. Each request records,
// per region, its newest heartbeat and that it delivered other events (the region's row of event_forwarding_regions),
// in the transaction that counts the request against the account's rate limit. Heartbeats count against that limit like
// any event: the limit bounds what a key can make the database do, and the forwarder's beats are a few a minute out
// of 600. A request refused for the limit records nothing, heartbeats included; EventBridge redelivers them with
// their own time, so a region held back that long reads as late, which it is.
//
// What a key costs the service is bounded before it costs anything: the key is looked up before the body is read
// (api/operations/events.ts), the body is read within its size and depth budget (api/middleware/body.ts), and the
// request's bytes count against the account's minute beside its events, in the same transaction. An event is taken to
// have happened no later than it arrived (domain/events/normalize.ts `arrivedEventTime`).
//
// The tenant's own detections (Sigma rules, core/detections/tenant-rules.ts) run on each event beside the built-in
// ones, and what they find is named and opens signals the same way; which are enabled is read with the key's account,
// and they spend at most a fixed budget per event (domain/events/sigma/rule.ts,
// SIGMA_EVENT_FUEL).

type Account = Awaited<ReturnType<typeof findAccountsByEventKeys>>[number];

export interface IngestAnswer {
  accepted: number;
  duplicates: number;
  signals_opened: number;
}

/** The events of a request body: one EventBridge event or an array of them, each with a reason when it is not one. */
function parseBody(body: unknown, account: Account, at: Date): AccountEvent[] {
  const items = Array.isArray(body) ? body : [body];
  if (items.length === 0) throw new AppError('validation_failed', 'The body holds no event');
  if (items.length > EVENT_BATCH_LIMIT) {
    throw new AppError(
      'batch_too_large',
      `At most ${EVENT_BATCH_LIMIT} events per request; this one has ${items.length}`,
    );
  }
  return items.map((item, index) => {
    const where = Array.isArray(body) ? `events[${index}]` : 'event';
    const parsed = parseEnvelope(item);
    if (!parsed.ok) throw new AppError('validation_failed', `${where} is not an EventBridge event: ${parsed.reason}`);
    if (parsed.envelope.account !== account.aws_account_id) {
      throw new AppError(
        'forbidden',
        `${where} is from AWS account ${parsed.envelope.account}; this key is for ${account.aws_account_id}`,
      );
    }
    const event = toAccountEvent(parsed.envelope);
    return { ...event, time: arrivedEventTime(event.time, at) };
  });
}

interface Detected {
  event: AccountEvent;
  detection: DetectionDescription;
  finding: EventFinding;
}

function signalOf(account: Account, batchId: string, at: Date, { event, detection, finding }: Detected): EventSignal {
  const region = finding.region ?? 'global';
  const who = [event.actor && `by ${event.actor}`, event.sourceIp && `from ${event.sourceIp}`]
    .filter(Boolean)
    .join(' ');
  return {
    id: newId('signal', at.getTime()),
    tenant_id: account.tenant_id,
    account_id: account.id,
    check_id: detection.id,
    // A state detection's: detection + resource + region; an occurrence detection's adds the event.
    fingerprint: eventFingerprint(detection.id, finding, event.eventId),
    scenario: detection.scenario,
    severity: detection.severity,
    title: detection.title,
    description:
      `${detection.description} ${finding.detail} ${event.eventName ?? event.detailType}${who ? ` ${who}` : ''} at ${event.time} ` +
      `(event ${event.eventId}).`,
    resource: finding.resource,
    region,
    owner: null,
    first_scan_id: null,
    event_batch_id: batchId,
    controls: finding.controls ? JSON.stringify(finding.controls) : null,
    detected_at: at,
    principal: signalPrincipal(detection.id, event.actor),
    occurred_at: new Date(event.time),
  };
}

interface Applied {
  /** The account's rate-limit windows, this request counted. */
  windows: Windows;
  /** Events stored now (the others were stored before, or a window is over its limit and nothing was). */
  stored: number;
  /**
   * Findings the detections made in the events, and rescans they asked for (new ones, or redelivered ones that made
   * them when they first came).
   */
  detecting: number;
  /** The detections (check ids) of the signals opened (accepted at once by a scope or not). */
  opened: string[];
  /** A batch was recorded: there is something to act on after the commit. */
  batched: boolean;
}

interface Windows {
  count: WindowState;
  bytes: WindowState;
}

/** What to answer when the request went past a limit: the first it went past, and when every one it did resets. */
function limitPassed({ count, bytes }: Windows): { message: string; retryAfterSeconds: number } | undefined {
  const passed = [
    count.count > EVENTS_PER_ACCOUNT_PER_MINUTE && {
      message: `At most ${EVENTS_PER_ACCOUNT_PER_MINUTE} events a minute per account`,
      window: count,
    },
    bytes.count > EVENT_KIB_PER_ACCOUNT_PER_MINUTE && {
      message: `At most ${EVENT_KIB_PER_ACCOUNT_PER_MINUTE / 1024} MiB of events a minute per account`,
      window: bytes,
    },
  ].filter((limit) => limit !== false);
  const [first] = passed;
  if (!first) return undefined;
  return { message: first.message, retryAfterSeconds: Math.max(...passed.map((p) => p.window.resetsInSeconds)) };
}

/**
 * Counts the events against the account's minute and, within it, stores the new ones, opens their detections'
 * signals and records the batch. Events nothing was detected in (nearly all) are counted and stored with the other
 * such requests of the moment, in one transaction (core/events/group-commit.ts); the others in a transaction of their
 * own.
 */
async function apply(
  db: Db,
  account: Account,
  events: readonly AccountEvent[],
  counted: { hits: number; kib: number; touches: readonly RegionTouch[]; sigma: readonly TenantSigmaDetection[] },
  at: Date,
): Promise<Applied> {
  const context: DetectionContext = {
    // The learned region baseline: a launch elsewhere stays a launch in an unused region until a member accepts it.
    usedRegions: detectionRegions(regionBaselineOf(account)),
    roleName: account.role_name,
    eventKeyRotating: account.event_key_rotating,
  };
  // The tenant's Sigma rules, like the built-ins, never fire on the calls of Sentinel's own roles.
  const found: Detected[] = events.flatMap((event) =>
    [...detectEvent(event, context), ...(bySentinel(event, context) ? [] : detectSigma(event, counted.sigma))].map(
      (d) => ({ event, ...d }),
    ),
  );
  const { detected, suppressed } = await withoutTrusted(db, account, found);
  // Calls that open no signal but ask the account's next targeted rescan to look (domain/events/detections.ts).
  const rescanning = events.flatMap((event) => rescansOf(event).map((group) => ({ event, group })));
  const toStore: EventStoreRequest = {
    tenantId: account.tenant_id,
    accountId: account.id,
    count: { key: `events:${account.id}`, limit: EVENTS_PER_ACCOUNT_PER_MINUTE, hits: counted.hits },
    bytes: { key: `event-kib:${account.id}`, limit: EVENT_KIB_PER_ACCOUNT_PER_MINUTE, hits: counted.kib },
    touches: counted.touches,
    events: events.map(
      (e): NewAccountEvent => ({
        account_id: account.id,
        event_id: e.eventId,
        tenant_id: account.tenant_id,
        source: e.source,
        detail_type: e.detailType,
        event_name: e.eventName,
        region: e.region,
        event_time: e.time,
        actor: e.actor,
        source_ip: e.sourceIp,
        detections: [...new Set(detected.filter((d) => d.event === e).map((d) => d.detection.id))],
        detail: JSON.stringify(e.detail),
        suppressed: suppressionsOf(suppressed, e),
      }),
    ),
  };
  // The detections with memory (core/events/detection-memory.ts): their state changes with the events, in their
  // transaction, so a request with an event they count takes the transaction path.
  const memory = remembering(events, context, at);
  const nothing = { detecting: found.length + rescanning.length, opened: [], batched: false };
  if (nothing.detecting === 0 && !memory.any) {
    const { stored, ...windows } = await storeInGroup(db, toStore);
    return { windows, stored: stored.size, ...nothing };
  }
  return db.transaction().execute(async (trx): Promise<Applied> => {
    const [{ stored, ...windows }] = (await countAndStoreEvents({
      db: trx,
      windowSeconds: EVENT_WINDOW_SECONDS,
      requests: [toStore],
    })) as [EventStoreResult];
    if (limitPassed(windows)) return { windows, stored: 0, ...nothing };
    // A redelivered event was applied when it first came: its detections are not run again.
    // A window's principal may be trusted automation too (a CI role listing everything): its findings pass the same
    // trust, and the window still counts.
    const remembered = memory.any ? await rememberEvents(trx, account, memory, stored, at) : [];
    const fresh = [
      ...detected.filter((d) => stored.has(d.event.eventId)),
      ...(await withoutTrusted(trx, account, remembered)).detected,
    ];
    const batchId = newId('eventBatch', at.getTime());
    const signals = fresh.map((d) => signalOf(account, batchId, at, d));
    // The newest event that brought an indicator stands for the compound finding's actor and time.
    const indicating = fresh.filter((d) => indicatorKind(d.detection.id) !== null).at(-1);
    if (indicating) {
      const compound = probableCompromise(await indicatorsOfLastDay(trx, account.id, at), at.toISOString());
      if (compound)
        signals.push(
          signalOf(account, batchId, at, {
            event: indicating.event,
            detection: PROBABLE_COMPROMISE,
            finding: compound.finding,
          }),
        );
    }
    // A principal with a stored escalation path seen acting: that toxic combination now, not at the next scan.
    signals.push(...(await escalationsSeenNow(trx, account, batchId, signals, at)));
    // A trusted principal's change opens no signal, but the rescan still reads what it changed: the trust accepts who
    // acted, not what the account looks like after (the scan checks judge that).
    const groups = [
      ...new Set([
        ...[...fresh, ...suppressed.filter((d) => stored.has(d.event.eventId))].flatMap((d) =>
          d.detection.group ? [d.detection.group] : [],
        ),
        ...rescanning.filter((r) => stored.has(r.event.eventId)).map((r) => r.group),
      ]),
    ];
    let opened: string[] = [];
    if (signals.length > 0 || groups.length > 0) {
      await insertEventBatch({
        db: trx,
        batch: {
          id: batchId,
          tenant_id: account.tenant_id,
          account_id: account.id,
          groups,
          signals_opened: 0,
          received_at: at,
        },
      });
      if (signals.length > 0) {
        // The account's row first, as a scan saving or an acceptance does: one writer of its signals at a time, so
        // the open signals and acceptance scopes occurrences are counted against stay as read until the commit.
        const locked = await lockAccount({ db: trx, tenantId: account.tenant_id, accountId: account.id });
        opened = (await openEventSignals(trx, account, signals, at)).map((o) => o.checkId);
        if (opened.length > 0) {
          await noteBatchSignals({ db: trx, batchId, opened: opened.length });
          // Event signals count at once, where the account has a score.
          if (locked) await rescoreAccount({ db: trx, account: locked, at });
        }
      }
    }
    return {
      windows,
      stored: stored.size,
      detecting: nothing.detecting,
      opened,
      batched: signals.length > 0 || groups.length > 0,
    };
  });
}

type Suppressed<T = Detected> = T & { by: string };

/**
 * The findings whose detection a trusted principal in force suppresses for the call's principal (none for nearly
 * every request: the tenant's entries are read only when an event set off a detection, in one query), and the others.
 */
async function withoutTrusted<T extends { event: AccountEvent; detection: { id: string } }>(
  db: Db,
  account: Account,
  found: readonly T[],
): Promise<{ detected: T[]; suppressed: Suppressed<T>[] }> {
  if (found.length === 0) return { detected: [], suppressed: [] };
  const trusted = await trustedPrincipalsInForce({ db, tenantId: account.tenant_id, accountId: account.id });
  if (trusted.length === 0) return { detected: [...found], suppressed: [] };
  const detected: T[] = [];
  const suppressed: Suppressed<T>[] = [];
  for (const d of found) {
    const by = suppressingPrincipal(callPrincipal(d.event), d.detection.id, trusted);
    if (by) suppressed.push({ ...d, by: by.id });
    else detected.push(d);
  }
  return { detected, suppressed };
}

/** What the event keeps of its suppressed detections: each once, with the trusted principal; null when none. */
function suppressionsOf(suppressed: readonly Suppressed[], event: AccountEvent): string | null {
  const own = suppressed.filter((d) => d.event === event);
  if (own.length === 0) return null;
  const byDetection = new Map(own.map((d) => [d.detection.id, d.by]));
  return JSON.stringify(
    [...byDetection].map(([detection, trustedPrincipalId]) => ({
      detection,
      trusted_principal_id: trustedPrincipalId,
    })),
  );
}

/** Event keys are 32 random bytes in base64url (core/accounts/account-events.ts): anything else is none of ours. */
const EVENT_KEY = /^[A-Za-z0-9_-]{43}$/;

/**
 * The accounts of keys, by their hashes: one indexed read for the requests of the moment (core/batched-reads.ts). A
 * connection updated within a day of a new key (rotated, or issued on connecting again) is that key's rollout.
 */
const accountOfKey = batchedReadOf(async (db: Db, keyHashes: string[]) => {
  const rotatedSince = new Date(Date.now() - EVENT_KEY_GRACE_HOURS * 3_600_000);
  const rows = await findAccountsByEventKeys({ db, keyHashes, rotatedSince });
  return new Map(rows.map((row) => [row.key_hash, row]));
});

/**
 * The account whose forwarder holds this key: an indexed read by the key's hash, before anything of the request's
 * body is read. A missing or malformed key costs not even that.
 */
export async function authenticateEventKey({ db }: Pick<AppDeps, 'db'>, key: string | undefined): Promise<Account> {
  if (!key) throw new AppError('unauthorized', 'The event key header is missing');
  if (!EVENT_KEY.test(key)) throw new AppError('unauthorized', 'The event key is not valid');
  const account = await accountOfKey(db, sha256(key));
  if (!account || account.status === 'DISCONNECTED') throw new AppError('unauthorized', 'The event key is not valid');
  return account;
}

/** The events of an authenticated request: `body` as parsed, `bytes` its size as sent. */
export async function ingestEvents(
  deps: AppDeps,
  account: Account,
  { body, bytes }: { body: unknown; bytes: number },
): Promise<IngestAnswer> {
  const { db } = deps;
  const at = new Date();
  const received = parseBody(body, account, at);
  const events = received.filter((e) => !isHeartbeat(e));
  const heartbeats = received.length - events.length;
  const sigma = events.length > 0 ? await tenantSigmaRules(deps, account.tenant_id, account.detection_versions) : [];
  const { windows, stored, detecting, opened, batched } = await apply(
    db,
    account,
    events,
    { hits: received.length, kib: Math.ceil(bytes / 1024), touches: regionTouches(received, at), sigma },
    at,
  );
  const passed = limitPassed(windows);
  if (passed) {
    awsEventsReceived.inc({ outcome: 'rate_limited' }, received.length);
    throw new AppError('rate_limited', passed.message, { retryAfterSeconds: passed.retryAfterSeconds });
  }
  awsEventsReceived.inc({ outcome: 'stored' }, stored);
  awsEventsReceived.inc({ outcome: 'duplicate' }, events.length - stored);
  awsEventsReceived.inc({ outcome: 'heartbeat' }, heartbeats);
  // A tenant's own rules are counted together: their ids, one label each, would grow the metric without bound.
  for (const detection of opened)
    eventSignalsOpened.inc({ detection: isSigmaDetection(detection) ? 'sigma' : detection });
  // After the answer, the batch's alerts and rescan; what this process cannot finish, the event-dispatch schedule does.
  // A redelivered event that detected something may be the retry of a request whose process stopped before it.
  if (batched || (stored < events.length && detecting > 0)) dispatchAfterAnswer(deps, account);
  return { accepted: stored + heartbeats, duplicates: events.length - stored, signals_opened: opened.length };
}
