import { z } from 'zod';
import { SCENARIOS } from '../../domain/checks/types';
import { CHANNEL_TYPE_ALIASES, CHANNEL_TYPES, type ChannelConfig } from '../../domain/alerts/channels';
import { isMaskedSecret } from '../../security/channel-secrets';
import { accountIdOutput, scoreComplete, srs } from './accounts';
import { displayName, email, pageLimit, timestamp } from './common';

export const MAX_CHANNELS = 10;
export const MAX_EMAIL_RECIPIENTS = 20;

const unique = <T>(values: T[]) => [...new Set(values)];

/** A channel type and the neutral names accepted for it, as documented (the schema sees the canonical name). */
const typeLiteral = <T extends (typeof CHANNEL_TYPES)[number]>(type: T) =>
  z.literal(type).meta({
    enum: [type, ...Object.keys(CHANNEL_TYPE_ALIASES).filter((alias) => CHANNEL_TYPE_ALIASES[alias] === type)],
  });

const emailChannel = z.strictObject({
  type: typeLiteral('email'),
  to: z
    .array(email)
    .min(1, `must list 1-${MAX_EMAIL_RECIPIENTS} addresses`)
    .max(MAX_EMAIL_RECIPIENTS, `must list 1-${MAX_EMAIL_RECIPIENTS} addresses`)
    .transform(unique),
});

const SLACK_TEAM_ID = /^[A-Z0-9]{2,32}$/;
// A conversation id (public C..., private G..., direct D...) or a lower-case channel name, with or without '#'.
const SLACK_CHANNEL = /^(?:[CGD][A-Z0-9]{2,32}|#?[a-z0-9_-]{1,80})$/;

/**
 * In a change, a secret field may carry the masked value the API showed (`****` and the last 4 characters): the
 * service then keeps the secret stored at that position (security/channel-secrets.ts).
 */
const orMasked = (secret: z.ZodType<string>, message: string) =>
  z.string().refine((v) => isMaskedSecret(v) || secret.safeParse(v).success, message);

const WEBHOOK_URL = z.url('must be a URL').max(2048, 'must be at most 2048 characters');
const ROUTING_KEY = z.string().regex(/^[A-Za-z0-9]{32}$/, 'must be a 32-character PagerDuty integration key');

// One object for both Slack shapes, so a missing or extra field is reported by name rather than as "no union
// member matched". Whether the webhook URL is one of Slack's, and whether the team is installed, depends on
// configuration and on the tenant: the service checks those.
const slackChannel = (webhookUrl: z.ZodType<string>) =>
  z
    .strictObject({
      type: typeLiteral('slack'),
      team_id: z.string().regex(SLACK_TEAM_ID, 'must be a Slack workspace id such as T0123ABC').optional(),
      channel: z
        .string()
        .regex(SLACK_CHANNEL, 'must be a channel id (C0123ABC) or a lower-case channel name (#alerts)')
        .optional(),
      webhook_url: webhookUrl.optional(),
    })
    .superRefine((v, ctx) => {
      if (v.webhook_url !== undefined) {
        for (const field of ['team_id', 'channel'] as const) {
          if (v[field] !== undefined)
            ctx.addIssue({ code: 'custom', path: [field], message: 'is not allowed together with webhook_url' });
        }
        return;
      }
      for (const field of ['team_id', 'channel'] as const) {
        if (v[field] === undefined)
          ctx.addIssue({ code: 'custom', path: [field], message: 'is required (or give webhook_url instead)' });
      }
    })
    .meta({
      anyOf: [
        { required: ['team_id', 'channel'], not: { required: ['webhook_url'] } },
        { required: ['webhook_url'], not: { anyOf: [{ required: ['team_id'] }, { required: ['channel'] }] } },
      ],
    })
    .transform(
      (v): ChannelConfig =>
        v.webhook_url !== undefined
          ? { type: 'slack', webhook_url: v.webhook_url }
          : { type: 'slack', team_id: v.team_id as string, channel: v.channel as string },
    );

const pagerDutyChannel = (routingKey: z.ZodType<string>) =>
  z.strictObject({ type: typeLiteral('pagerduty'), routing_key: routingKey });

/** The spec's neutral type names (chat, paging) become the canonical ones before validation. */
function canonicalType(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || !('type' in value) || typeof value.type !== 'string') return value;
  const canonical = CHANNEL_TYPE_ALIASES[value.type];
  return canonical ? { ...value, type: canonical } : value;
}

const channelUnion = (slack: ReturnType<typeof slackChannel>, pagerDuty: ReturnType<typeof pagerDutyChannel>) =>
  z.preprocess(
    canonicalType,
    z.discriminatedUnion('type', [emailChannel, slack, pagerDuty], {
      error: (issue) =>
        issue.code === 'invalid_union' ? `must be one of ${CHANNEL_TYPES.join(', ')} (or chat, paging)` : undefined,
    }),
  );

export const channelConfig = channelUnion(slackChannel(WEBHOOK_URL), pagerDutyChannel(ROUTING_KEY));
/** A channel in a change: a secret may be the masked value shown, to keep the stored one. */
const changedChannelConfig = channelUnion(
  slackChannel(orMasked(WEBHOOK_URL, 'must be a URL, or the masked value shown to keep the stored one')),
  pagerDutyChannel(
    orMasked(
      ROUTING_KEY,
      'must be a 32-character PagerDuty integration key, or the masked value shown to keep the stored one',
    ),
  ),
);

/** Per rule, not per channel: ten e-mail channels must not make 200 recipients. */
const channelList = (channel: typeof channelConfig) =>
  z
    .array(channel)
    .min(1, 'needs at least one channel')
    .max(MAX_CHANNELS, `at most ${MAX_CHANNELS} channels`)
    .refine(
      (channels) => new Set(channels.flatMap((c) => (c.type === 'email' ? c.to : []))).size <= MAX_EMAIL_RECIPIENTS,
      `must list at most ${MAX_EMAIL_RECIPIENTS} e-mail addresses across the rule's channels`,
    );

const ruleFields = {
  name: displayName,
  min_srs: z
    .number('must be an integer 0-100')
    .int('must be an integer 0-100')
    .min(0, 'must be 0-100')
    .max(100, 'must be 0-100'),
  scenarios: z
    .array(z.enum(SCENARIOS, `must be one of ${SCENARIOS.join(', ')}`))
    .max(50, 'at most 50 entries')
    .transform(unique),
  channels: channelList(channelConfig),
  enabled: z.boolean('must be true or false'),
};

export const createAlertRuleInput = z.strictObject({
  name: ruleFields.name,
  min_srs: ruleFields.min_srs.default(40),
  scenarios: ruleFields.scenarios.default([]),
  channels: ruleFields.channels,
  enabled: ruleFields.enabled.default(true),
});

export const patchAlertRuleInput = z
  .strictObject({
    name: ruleFields.name.optional(),
    min_srs: ruleFields.min_srs.optional(),
    scenarios: ruleFields.scenarios.optional(),
    channels: channelList(changedChannelConfig).optional(),
    enabled: ruleFields.enabled.optional(),
  })
  .refine((v) => Object.keys(v).length > 0, 'must change at least one of name, min_srs, scenarios, channels, enabled')
  .meta({ minProperties: 1 });

export const getAlertRuleQuery = z.strictObject({
  reveal: z
    .enum(['true', 'false'], 'must be true or false')
    .default('false')
    .transform((v) => v === 'true')
    .meta({ description: 'true: channel secrets in clear (admins and owners; logged); otherwise masked' }),
});

export const listAlertsQuery = z.strictObject({
  limit: pageLimit.default(50),
  next_token: z.string().min(1).max(512).optional(),
});

const channelOutput = z.union([
  z.object({ type: z.literal('email'), to: z.array(z.string()) }),
  z.object({ type: z.literal('slack'), team_id: z.string(), channel: z.string() }),
  z.object({ type: z.literal('slack'), webhook_url: z.string() }),
  z.object({ type: z.literal('pagerduty'), routing_key: z.string() }),
]);

export const alertRule = z.object({
  rule_id: z.string(),
  name: z.string(),
  min_srs: srs,
  scenarios: z.array(z.enum(SCENARIOS)),
  channels: z.array(channelOutput),
  enabled: z.boolean(),
  created_at: timestamp,
  updated_at: timestamp,
});
export const listAlertRulesOutput = z.object({ rules: z.array(alertRule), count: z.number().int() });

export const alertEvent = z.object({
  alert_id: z.string(),
  aws_account_id: accountIdOutput,
  cloud_account_id: accountIdOutput,
  rule_id: z.string(),
  srs_at_trigger: srs,
  srs_complete_at_trigger: scoreComplete.meta({
    description:
      'Whether srs_at_trigger read every core source of the account (false: it covers only what was read). Null for ' +
      'alerts fired before this was kept',
  }),
  scenarios_triggered: z.array(z.string().meta({ enum: SCENARIOS })),
  fired_at: timestamp,
  acknowledged_at: timestamp.nullable(),
});
export const listAlertsOutput = z.object({
  alerts: z.array(alertEvent),
  count: z.number().int(),
  next_token: z.string().nullable(),
});
export const ackAlertOutput = z.object({ alert_id: z.string(), acknowledged_at: timestamp });

export type CreateAlertRuleInput = z.output<typeof createAlertRuleInput>;
export type PatchAlertRuleInput = z.output<typeof patchAlertRuleInput>;
export type ListAlertsQuery = z.output<typeof listAlertsQuery>;
