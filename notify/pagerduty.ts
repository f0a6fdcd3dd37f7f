import { httpFailure, postJson } from './outcome';

/**
 * PagerDuty Events API v2. 202 means accepted; 400 is a malformed event or bad routing key (permanent);
 * 429 and 5xx are retried. Re-sending a trigger with the same dedup_key updates the open incident, which
 * makes a repeated send after a crash harmless.
 */
export async function sendPagerDutyEvent({
  eventsUrl,
  event,
}: {
  eventsUrl: string;
  event: Record<string, unknown>;
}): Promise<void> {
  const res = await postJson('PagerDuty', eventsUrl, event);
  if (res.status === 202 || res.ok) return;
  throw httpFailure('PagerDuty', res.status, res.headers.get('retry-after'), await res.text().catch(() => ''));
}
