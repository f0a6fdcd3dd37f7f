import { DeliveryError, httpFailure, postJson } from './outcome';

// Slack Web API chat.postMessage (bot token from the OAuth install) and incoming webhooks.

// chat.postMessage errors that a retry can fix; every other `ok: false` error is permanent
// (channel_not_found, not_in_channel, invalid_auth, token_revoked, is_archived, ...).
const RETRYABLE_SLACK_ERRORS = new Set([
  'ratelimited',
  'internal_error',
  'fatal_error',
  'service_unavailable',
  'request_timeout',
]);

export async function postSlackMessage({
  apiBaseUrl,
  token,
  channel,
  message,
}: {
  apiBaseUrl: string;
  token: string;
  channel: string;
  message: { text: string; blocks: unknown[] };
}): Promise<void> {
  const res = await postJson(
    'Slack',
    `${apiBaseUrl}/chat.postMessage`,
    { channel, ...message, unfurl_links: false },
    { authorization: `Bearer ${token}` },
  );
  if (!res.ok) throw httpFailure('Slack', res.status, res.headers.get('retry-after'));
  const body = (await res.json().catch(() => ({}))) as { ok?: boolean; error?: string };
  if (body.ok) return;
  const error = body.error ?? 'unknown_error';
  throw new DeliveryError(`Slack refused the message: ${error}`, RETRYABLE_SLACK_ERRORS.has(error), res.status);
}

/** Incoming webhooks answer 200 "ok"; 400/403/404/410 mean the payload or the channel is bad for good. */
export async function postSlackWebhook({
  url,
  message,
}: {
  url: string;
  message: { text: string; blocks: unknown[] };
}): Promise<void> {
  const res = await postJson('Slack webhook', url, message);
  if (!res.ok)
    throw httpFailure('Slack webhook', res.status, res.headers.get('retry-after'), await res.text().catch(() => ''));
}
