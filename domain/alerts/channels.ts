// Where an alert rule sends its alerts. Stored and returned with the canonical (branded) type names; the API
// also accepts the spec's neutral aliases `chat` (= slack) and `paging` (= pagerduty) on input.

export const CHANNEL_TYPES = ['email', 'slack', 'pagerduty'] as const;
export type ChannelType = (typeof CHANNEL_TYPES)[number];

export const CHANNEL_TYPE_ALIASES: Readonly<Record<string, ChannelType>> = { chat: 'slack', paging: 'pagerduty' };

/** One or more recipients (at most 20). */
export interface EmailChannel {
  type: 'email';
  to: string[];
}

/** A workspace installed through the Slack OAuth flow (`team_id`) and a channel id or name to post to. */
export interface SlackAppChannel {
  type: 'slack';
  team_id: string;
  channel: string;
}

/** A Slack incoming-webhook URL (it names its channel itself). */
export interface SlackWebhookChannel {
  type: 'slack';
  webhook_url: string;
}

/** A PagerDuty Events API v2 integration key. */
export interface PagerDutyChannel {
  type: 'pagerduty';
  routing_key: string;
}

export type ChannelConfig = EmailChannel | SlackAppChannel | SlackWebhookChannel | PagerDutyChannel;

export function isSlackWebhook(channel: ChannelConfig): channel is SlackWebhookChannel {
  return channel.type === 'slack' && 'webhook_url' in channel;
}
