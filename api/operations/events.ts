import { z } from 'zod';
import { EVENT_API_KEY_HEADER, EVENT_INGEST_PATH } from '../../domain/events/forwarding-rules';
import { AppError } from '../../core/errors';
import { readRawJsonBody } from '../middleware/body';
import {
  eventForwardingOutput,
  ingestEventsInput,
  ingestEventsOutput,
  listEventsOutput,
  listEventsQuery,
  rotateEventKeyInput,
  rotateEventKeyOutput,
} from '../../core/schemas/events';
import { getEventForwarding, listAccountEvents, rotateEventKey } from '../../core/accounts/account-events';
import { authenticateEventKey, ingestEvents } from '../../core/events/ingestion';
import { ACCOUNT } from './accounts';
import { PUBLIC } from '../openapi/registry';
import { endpoint } from './operation';

/** The body as JSON; bytes that are not JSON are the sender's 400, never a 500 (their depth is checked as read). */
function parseJson(raw: Buffer): unknown {
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    throw new AppError('invalid_json', 'The body is not JSON: send one EventBridge event or an array of them');
  }
}

export const eventOperations = [
  endpoint({
    operationId: 'ingestAwsEvents',
    method: 'post',
    path: EVENT_INGEST_PATH,
    tag: 'Events',
    access: PUBLIC,
    beforeJsonParser: true,
    summary: "Receive the account's EventBridge events",
    description:
      `The account's EventBridge API destination calls it; the \`${EVENT_API_KEY_HEADER}\` header (the account's event ` +
      'key) is the only credential and names the account. One event or an array of up to 100; an event of another AWS ' +
      'account is 403, a body that is not an EventBridge event 400 naming the field. Events are stored 30 days, once (a ' +
      'redelivered event id is a duplicate); what their detections find opens signals at once and alerts. A heartbeat ' +
      "(the forwarder's Scheduled Event from `aws.events`) is recorded as its region's last heartbeat, not stored " +
      '(GET .../event-forwarding). 600 events and 4 MiB of bodies a minute per account, heartbeats included, then 429 ' +
      '(EventBridge retries). The key is checked before the body is read: without a valid one, 401 and nothing read. ' +
      'A body is at most 1 MB, nested at most 64 deep; an event dated after its arrival is taken to have happened ' +
      'when it arrived.',
    body: ingestEventsInput,
    rawInput: true,
    headers: { [EVENT_API_KEY_HEADER]: z.string().meta({ description: "The account's event key" }) },
    success: { status: 202, description: 'Accepted', schema: ingestEventsOutput },
    errors: [
      'unauthorized',
      'forbidden',
      'validation_failed',
      'batch_too_large',
      'invalid_json',
      'unsupported_content_type',
      'body_too_large',
      'body_too_deep',
      'rate_limited',
    ],
    handler: async ({ deps, req }) => {
      // The key first: a request without a working one is refused before a byte of its body is read.
      const account = await authenticateEventKey(deps, req.get(EVENT_API_KEY_HEADER));
      const raw = await readRawJsonBody(req);
      return ingestEvents(deps, account, { body: parseJson(raw), bytes: raw.length });
    },
  }),
  endpoint({
    operationId: 'listAccountEvents',
    method: 'get',
    path: `${ACCOUNT}/events`,
    tag: 'Events',
    access: 'viewer',
    summary: "The account's events, newest first",
    description:
      'What the event forwarder delivered in the last 30 days, with the detections each set off. Filters combine; ' +
      '`next_token` is the cursor of the next page (null on the last). `last_event_received_at` says whether the forwarder works.',
    query: listEventsQuery,
    success: { status: 200, description: 'One page of events', schema: listEventsOutput },
    errors: ['not_found', 'invalid_cursor'],
    handler: ({ deps, caller, params, query }) => listAccountEvents(deps, caller, params.account_id, query),
  }),
  endpoint({
    operationId: 'getEventForwarding',
    method: 'get',
    path: `${ACCOUNT}/event-forwarding`,
    tag: 'Events',
    access: 'viewer',
    summary: "Whether each region of the account's forwarder delivers",
    description:
      "Per region the forwarder delivered from, its state by the heartbeat the forwarder's scheduled rule sends every " +
      '`heartbeat_interval_minutes`: `receiving`, `late` (no heartbeat for more than `late_after_minutes`: real-time ' +
      'detection is blind there, and a HIGH signal says so) or `no_heartbeat` (events, but never a heartbeat). ' +
      'docs/event-forwarding.md, "Heartbeat".',
    success: { status: 200, description: "The forwarder's regions", schema: eventForwardingOutput },
    errors: ['not_found'],
    handler: ({ deps, caller, params }) => getEventForwarding(deps, caller, params.account_id),
  }),
  endpoint({
    operationId: 'rotateEventKey',
    method: 'post',
    path: `${ACCOUNT}/event-key`,
    tag: 'Events',
    access: 'member',
    summary: "A new event key for the account's forwarder",
    description:
      'The new key is shown in this answer only. The key it replaces keeps working 24 hours, time to update the ' +
      'EventBridge connection in every region (docs/event-forwarding.md), or stops at once with `revoke_previous` ' +
      '(a leaked key). A key replaced by an earlier rotation stops now either way: at most two keys ever work. No body ' +
      '(or an empty object) is a rotation with the 24 hours.',
    body: rotateEventKeyInput,
    bodyOptional: true,
    success: { status: 200, description: 'The new key', schema: rotateEventKeyOutput },
    errors: ['not_found', 'invalid_state'],
    handler: ({ deps, caller, params, body }) => rotateEventKey(deps, caller, params.account_id, body),
  }),
];
