import { z } from 'zod';
import {
  EVENT_API_KEY_HEADER,
  HEARTBEAT_INTERVAL_MINUTES,
  HEARTBEAT_LATE_AFTER_MINUTES,
} from '../../domain/events/forwarding-rules';
import { FORWARDING_STATES } from '../../domain/events/forwarding-health';
import { pageLimit, timestamp } from './common';

/** Where and how the account's EventBridge forwarder delivers; the key is shown in this answer only. */
export const eventForwarding = z
  .object({
    endpoint: z.string().meta({ description: 'The ingestion URL the API destination calls (POST)' }),
    api_key_header: z
      .literal(EVENT_API_KEY_HEADER)
      .meta({ description: "The header the connection's API-key authorization sends" }),
    api_key: z.string().meta({ description: "The account's event key: shown once, stored only hashed" }),
  })
  .meta({ description: "The event forwarder's connection (docs/event-forwarding.md)" });

/** The connect answer's forwarder: the connection, and the forwarder as CloudFormation. */
export const connectEventForwarding = eventForwarding.extend({
  cloudformation_template: z.string().meta({
    description:
      'The forwarder as a regional CloudFormation template (the key and endpoint are its parameters): one stack a region, ' +
      'or a StackSet over every region',
  }),
  cloudformation_quick_create_url: z
    .string()
    .nullable()
    .meta({
      description:
        "Opens the AWS console's quick-create page for the published template in us-east-1 with this key and the endpoint filled in; " +
        'null when the service publishes no template. It carries the key: shown once, like the key',
    }),
});

/** The rotation's one option; no body (or an empty object) rotates with the 24 hours' grace. */
export const rotateEventKeyInput = z
  .strictObject({
    revoke_previous: z
      .boolean()
      .optional()
      .meta({
        description:
          'true: the key being replaced stops working at once (it leaked), instead of 24 hours from now. Until the ' +
          "connection is updated with the new key in every region, the forwarder's events are refused there",
      }),
  })
  .optional();
export type RotateEventKeyInput = NonNullable<z.output<typeof rotateEventKeyInput>>;

export const rotateEventKeyOutput = z.object({
  event_forwarding: eventForwarding,
  previous_key_expires_at: timestamp.meta({
    description: 'Until then the key it replaces keeps working: 24 hours, or now with `revoke_previous`',
  }),
});

/** One EventBridge event or a batch of them, as AWS sends it (the envelope is checked field by field). */
export const ingestEventsInput = z
  .union([z.record(z.string(), z.unknown()), z.array(z.record(z.string(), z.unknown()))])
  .meta({
    description:
      'One EventBridge event (the envelope: id, detail-type, source, account, time, region, resources, detail), or an array of up to 100',
  });

export const ingestEventsOutput = z.object({
  accepted: z.number().int().meta({
    minimum: 0,
    description:
      "Events stored now, and heartbeats recorded (as their region's last heartbeat: heartbeats are not stored as events)",
  }),
  duplicates: z.number().int().meta({ minimum: 0, description: 'Events received before (same event id): ignored' }),
  signals_opened: z.number().int().meta({ minimum: 0, description: "Signals the events' detections opened" }),
});

export const listEventsQuery = z.strictObject({
  source: z.string().min(1).max(100).optional().meta({ description: 'Only events of this source, e.g. `aws.iam`' }),
  event_name: z.string().min(1).max(200).optional().meta({
    description:
      'Only events with this CloudTrail event name (or GuardDuty finding type, or AWS Health event type code)',
  }),
  detection: z
    .string()
    .min(1)
    .max(100)
    .optional()
    .meta({ description: 'Only events that set off this detection (`event.root_sign_in`), or `any` detection' }),
  since: z.iso.datetime({ offset: true, message: 'must be an ISO 8601 timestamp' }).optional(),
  limit: pageLimit.default(50),
  next_token: z.string().min(1).max(512).optional(),
});

export const accountEvent = z.object({
  event_id: z.string(),
  source: z.string(),
  detail_type: z.string(),
  event_name: z.string().nullable(),
  region: z.string(),
  time: timestamp.meta({ description: 'When it happened, as the event says' }),
  received_at: timestamp,
  actor: z.string().nullable().meta({ description: 'Who acted: an IAM ARN, `root`, or null' }),
  source_ip: z.string().nullable(),
  detections: z
    .array(z.string())
    .meta({ description: 'The detections it set off (their signals carry the same ids as check_id)' }),
  suppressed: z.array(z.object({ detection: z.string(), trusted_principal_id: z.string() })).meta({
    description:
      'The detections it would have set off but a trusted principal suppressed (GET /trusted-principals): no ' +
      'signal, no alert; empty for nearly every event',
  }),
});

export const listEventsOutput = z.object({
  events: z.array(accountEvent),
  next_token: z.string().nullable(),
  last_event_received_at: timestamp
    .nullable()
    .meta({ description: 'When the forwarder last delivered an event; null: never' }),
});

export const forwardingRegion = z.object({
  region: z.string(),
  state: z.enum(FORWARDING_STATES).meta({
    description:
      '`receiving`: a heartbeat within `late_after_minutes`; `late`: the last heartbeat is older (real-time detection ' +
      'is blind there, and a HIGH signal `event.forwarding_blind` is open for the region); `no_heartbeat`: events came ' +
      'from the region but never a heartbeat (its forwarder predates the heartbeat rule: run the template again), so ' +
      'Sentinel cannot tell its silence from quiet',
  }),
  last_heartbeat_at: timestamp
    .nullable()
    .meta({ description: "The region's last heartbeat (its own time, never later than its arrival); null: never" }),
  last_event_at: timestamp
    .nullable()
    .meta({ description: 'When the region last delivered an event other than a heartbeat; null: never' }),
});

export const eventForwardingOutput = z.object({
  heartbeat_interval_minutes: z
    .literal(HEARTBEAT_INTERVAL_MINUTES)
    .meta({ description: "How often the forwarder's heartbeat rule fires in each region" }),
  late_after_minutes: z
    .literal(HEARTBEAT_LATE_AFTER_MINUTES)
    .meta({ description: 'A region whose last heartbeat is older than this is `late`' }),
  regions: z.array(forwardingRegion).meta({
    description: 'Every region the forwarder delivered from (a heartbeat or an event), by name; empty: nothing yet',
  }),
});
