import { randomBytes } from 'node:crypto';
import { lastEventReceivedAt, listEventPage, replaceEventKey } from '../../db/repositories/account-events';
import { lockAccount } from '../../db/repositories/accounts';
import { listForwardingRegions } from '../../db/repositories/event-forwarding';
import {
  EVENT_API_KEY_HEADER,
  EVENT_INGEST_PATH,
  HEARTBEAT_INTERVAL_MINUTES,
  HEARTBEAT_LATE_AFTER_MINUTES,
} from '../../domain/events/forwarding-rules';
import { forwardingState } from '../../domain/events/forwarding-health';
import { EVENT_ID } from '../../domain/events/normalize';
import { EVENT_KEY_GRACE_HOURS } from '../../domain/tenancy/limits';
import { sha256 } from '../../security/crypto';
import type { AppDeps, Caller } from '../deps';
import { AppError } from '../errors';
import type { z } from 'zod';
import type { listEventsQuery, RotateEventKeyInput } from '../schemas/events';
import { requireAccount } from './require-account';
import { audit } from '../audit-log';
import { decodeCursor, encodeCursor } from '../pagination/cursor';

// The account's event forwarder as the tenant sees it: its key (issued at connect, rotated on request) and the
// events it delivered (docs/decisions.md, "Events").

const HOUR_MS = 3_600_000;

export interface EventForwarding {
  endpoint: string;
  api_key_header: typeof EVENT_API_KEY_HEADER;
  api_key: string;
}

/**
 * A new key for the account's forwarder: 32 random bytes (43 characters), stored only as its SHA-256. The key it
 * replaces keeps working until `previousExpireAt` (the customer updates the connection in every region meanwhile),
 * or ends at once with `revokePrevious`; any key rotated out before it ends now.
 */
export async function issueEventKey(
  { db, config }: Pick<AppDeps, 'db' | 'config'>,
  account: { tenantId: string; accountId: string },
  now: Date,
  { revokePrevious = false }: { revokePrevious?: boolean } = {},
): Promise<{ forwarding: EventForwarding; previousExpireAt: Date }> {
  const key = randomBytes(32).toString('base64url');
  const previousExpireAt = revokePrevious ? now : new Date(now.getTime() + EVENT_KEY_GRACE_HOURS * HOUR_MS);
  await db.transaction().execute(async (trx) => {
    // Two rotations at once: the second waits, and rotates out the first one's key.
    await lockAccount({ db: trx, tenantId: account.tenantId, accountId: account.accountId });
    await replaceEventKey({
      db: trx,
      tenantId: account.tenantId,
      accountId: account.accountId,
      keyHash: sha256(key),
      now,
      previousExpireAt,
    });
  });
  return {
    forwarding: {
      endpoint: `${config.http.publicBaseUrl}${EVENT_INGEST_PATH}`,
      api_key_header: EVENT_API_KEY_HEADER,
      api_key: key,
    },
    previousExpireAt,
  };
}

/**
 * POST /accounts/{account_id}/event-key (member): a new key. The one it replaces works 24 hours more, or stops at
 * once with `revoke_previous` (it leaked); one replaced by an earlier rotation stops now either way.
 */
export async function rotateEventKey(
  deps: AppDeps,
  caller: Caller,
  awsAccountId: string,
  input: RotateEventKeyInput = {},
) {
  const account = await requireAccount(deps.db, caller, awsAccountId);
  if (account.status === 'DISCONNECTED')
    throw new AppError('invalid_state', 'The account is disconnected: connect it again for a new key');
  const revokePrevious = input.revoke_previous ?? false;
  const { forwarding, previousExpireAt } = await issueEventKey(
    deps,
    { tenantId: caller.tenantId, accountId: account.id },
    new Date(),
    { revokePrevious },
  );
  await audit(deps.db, caller, 'account.event_key_rotated', `account:${awsAccountId}`, {
    revoke_previous: revokePrevious,
  });
  deps.log.info({ tenantId: caller.tenantId, accountId: account.id, revokePrevious }, 'event key rotated');
  return { event_forwarding: forwarding, previous_key_expires_at: previousExpireAt.toISOString() };
}

/** GET /accounts/{account_id}/events (viewer): newest first, keyset pages. */
export async function listAccountEvents(
  deps: AppDeps,
  caller: Caller,
  awsAccountId: string,
  query: z.output<typeof listEventsQuery>,
) {
  const account = await requireAccount(deps.db, caller, awsAccountId);
  const after = query.next_token ? decodeCursor(query.next_token, { id: EVENT_ID }) : undefined;
  const [events, lastReceived] = await Promise.all([
    listEventPage({
      db: deps.db,
      filter: {
        accountId: account.id,
        source: query.source,
        eventName: query.event_name,
        detection: query.detection,
        since: query.since ? new Date(query.since) : undefined,
        after: after && { at: new Date(after.at), id: after.id },
        limit: query.limit,
      },
    }),
    lastEventReceivedAt({ db: deps.db, accountId: account.id }),
  ]);
  const last = events[events.length - 1];
  return {
    events,
    next_token: events.length === query.limit && last ? encodeCursor({ at: last.time, id: last.event_id }) : null,
    last_event_received_at: lastReceived,
  };
}

/**
 * GET /accounts/{account_id}/event-forwarding (viewer): whether each region of the forwarder delivers, judged by its
 * heartbeat now (domain/events/forwarding-health.ts), as the watch judges it.
 */
export async function getEventForwarding(deps: AppDeps, caller: Caller, awsAccountId: string) {
  const account = await requireAccount(deps.db, caller, awsAccountId);
  const rows = await listForwardingRegions({ db: deps.db, tenantId: caller.tenantId, accountId: account.id });
  const now = new Date();
  return {
    heartbeat_interval_minutes: HEARTBEAT_INTERVAL_MINUTES,
    late_after_minutes: HEARTBEAT_LATE_AFTER_MINUTES,
    regions: rows.map((r) => ({
      region: r.region,
      state: forwardingState(r.last_heartbeat_at, now),
      last_heartbeat_at: r.last_heartbeat_at?.toISOString() ?? null,
      last_event_at: r.last_event_at?.toISOString() ?? null,
    })),
  };
}
