import { type ChannelConfig, isSlackWebhook } from '../domain/alerts/channels';
import { decryptSecret, encryptSecret } from './crypto';

// The secrets inside alert channels (a Slack incoming-webhook URL, a PagerDuty routing key) are credentials: anyone
// holding one can post to the tenant's Slack or page its on-call. They are stored sealed (AES-256-GCM under
// DATA_ENCRYPTION_KEY, like Slack bot tokens), opened only to deliver, and shown masked: the last 4 characters.

const SEALED = 'sealed:';
/** How a secret is shown: four asterisks and its last 4 characters. */
const MASK = '****';

type SecretField = 'webhook_url' | 'routing_key';

/** The channel's secret field and value, if it has one. */
function secretOf(channel: ChannelConfig): { field: SecretField; value: string } | undefined {
  if (isSlackWebhook(channel)) return { field: 'webhook_url', value: channel.webhook_url };
  if (channel.type === 'pagerduty') return { field: 'routing_key', value: channel.routing_key };
  return undefined;
}

/** The channel with another value for its secret (a channel without one is returned as it is). */
function withSecret(channel: ChannelConfig, value: string): ChannelConfig {
  if (isSlackWebhook(channel)) return { ...channel, webhook_url: value };
  if (channel.type === 'pagerduty') return { ...channel, routing_key: value };
  return channel;
}

/** The channel as stored: its secret sealed (a sealed one stays as it is). */
export function sealChannel(key: Buffer, channel: ChannelConfig): ChannelConfig {
  const secret = secretOf(channel);
  if (!secret || secret.value.startsWith(SEALED)) return channel;
  return withSecret(channel, SEALED + encryptSecret(key, secret.value));
}

/** The channel with its secret in clear, to deliver through it. Rows written before sealing hold it in clear. */
export function openChannel(key: Buffer, channel: ChannelConfig): ChannelConfig {
  const secret = secretOf(channel);
  if (!secret?.value.startsWith(SEALED)) return channel;
  return withSecret(channel, decryptSecret(key, secret.value.slice(SEALED.length)));
}

const maskSecret = (value: string): string => MASK + value.slice(-4);

/** Whether a value has the shape of a masked secret (what the API shows instead of the secret). */
export const isMaskedSecret = (value: string): boolean => value.startsWith(MASK) && value.length <= MASK.length + 4;

/** The channel as the API shows it: its secret masked. */
export function maskChannel(key: Buffer, channel: ChannelConfig): ChannelConfig {
  const opened = openChannel(key, channel);
  const secret = secretOf(opened);
  return secret ? withSecret(opened, maskSecret(secret.value)) : opened;
}

/**
 * A changed rule's channels, where a masked secret stands for the one stored at the same position with the same
 * type (an edit form sends back what it was shown): that secret is kept. Other masked values are left as they
 * are, for validation to refuse.
 */
export function keepMaskedSecrets(
  incoming: readonly ChannelConfig[],
  stored: readonly ChannelConfig[],
): ChannelConfig[] {
  return incoming.map((channel, i) => {
    const given = secretOf(channel);
    const before = stored[i] ? secretOf(stored[i]) : undefined;
    if (!given || !before || given.field !== before.field || !isMaskedSecret(given.value)) return channel;
    return given.value === maskSecret(before.value) ? withSecret(channel, before.value) : channel;
  });
}
