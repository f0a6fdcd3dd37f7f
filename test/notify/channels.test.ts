import { createLogger } from '../../config/logger';
import { createMailer } from '../../notify/mailer';
import { DeliveryError, parseRetryAfter } from '../../notify/outcome';
import { sendPagerDutyEvent } from '../../notify/pagerduty';
import { postSlackMessage, postSlackWebhook } from '../../notify/slack';
import { freePort } from '../../scripts/local-services';
import { createTestDatabase, type TestDatabase } from '../helpers/database';
import { type HttpPeer, startHttpPeer } from '../helpers/http-peer';
import { type SmtpCapture, startSmtpCapture } from '../helpers/smtp';

// How each channel's answers map to the retry policy: retry (with the peer's Retry-After) or give up.

let peer: HttpPeer;
let smtp: SmtpCapture;
let database: TestDatabase;
beforeAll(async () => {
  [peer, smtp, database] = await Promise.all([
    startHttpPeer(() => ({ status: 200 })),
    startSmtpCapture(),
    createTestDatabase(),
  ]);
});
afterAll(async () => {
  await Promise.all([peer.close(), smtp.close(), database.drop()]);
});

const message = { text: 'Sentinel alert', blocks: [] };

async function failure(promise: Promise<unknown>): Promise<DeliveryError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof DeliveryError)) throw new Error(`expected a DeliveryError, got ${String(err)}`);
  return err;
}

describe('PagerDuty', () => {
  const send = () => sendPagerDutyEvent({ eventsUrl: `${peer.url}/v2/enqueue`, event: { event_action: 'trigger' } });

  it('accepts 202, retries 5xx and 429 (with Retry-After), gives up on every other 4xx', async () => {
    peer.handle(() => ({ status: 202, body: { status: 'success' } }));
    await expect(send()).resolves.toBeUndefined();
    peer.handle(() => ({ status: 502 }));
    expect(await failure(send())).toMatchObject({ retryable: true, httpStatus: 502 });
    peer.handle(() => ({ status: 429, headers: { 'retry-after': '60' } }));
    expect(await failure(send())).toMatchObject({ retryable: true, httpStatus: 429, retryAfterSeconds: 60 });
    for (const status of [400, 401, 403, 404, 408, 413]) {
      peer.handle(() => ({ status, body: { status: 'invalid event' } }));
      expect(await failure(send())).toMatchObject({ retryable: false, httpStatus: status });
    }
  });

  it('treats an unreachable peer as retryable and never follows a redirect', async () => {
    const closed = await freePort();
    expect(await failure(sendPagerDutyEvent({ eventsUrl: `http://127.0.0.1:${closed}/`, event: {} }))).toMatchObject({
      retryable: true,
    });
    peer.handle((req) =>
      req.path === '/elsewhere' ? { status: 202 } : { status: 302, headers: { location: `${peer.url}/elsewhere` } },
    );
    const before = peer.requests.length;
    expect(await failure(send())).toMatchObject({ retryable: false, httpStatus: 302 });
    expect(peer.requests.slice(before).map((r) => r.path)).toEqual(['/v2/enqueue']);
  });
});

describe('Slack', () => {
  const post = () => postSlackMessage({ apiBaseUrl: peer.url, token: 'xoxb-1', channel: 'C1', message });

  it('reads chat.postMessage errors from the body: rate limits retry, a missing channel does not', async () => {
    peer.handle(() => ({ status: 200, body: { ok: true, ts: '1.2' } }));
    await expect(post()).resolves.toBeUndefined();
    peer.handle(() => ({ status: 200, body: { ok: false, error: 'channel_not_found' } }));
    expect(await failure(post())).toMatchObject({
      retryable: false,
      message: expect.stringContaining('channel_not_found'),
    });
    peer.handle(() => ({ status: 200, body: { ok: false, error: 'internal_error' } }));
    expect(await failure(post())).toMatchObject({ retryable: true });
    peer.handle(() => ({ status: 429, headers: { 'retry-after': '30' } }));
    expect(await failure(post())).toMatchObject({ retryable: true, retryAfterSeconds: 30 });
  });

  it('gives up on an incoming webhook that is gone, retries one that is down', async () => {
    peer.handle(() => ({ status: 404, body: 'no_service' }));
    expect(await failure(postSlackWebhook({ url: `${peer.url}/services/x`, message }))).toMatchObject({
      retryable: false,
      httpStatus: 404,
    });
    peer.handle(() => ({ status: 503 }));
    expect(await failure(postSlackWebhook({ url: `${peer.url}/services/x`, message }))).toMatchObject({
      retryable: true,
    });
  });
});

describe('SMTP', () => {
  const log = createLogger({ level: 'silent', name: 'test' });
  const email = (key: string) => ({ idempotencyKey: key, to: ['ops@example.com'], subject: 'Alert', text: 'body' });

  it('retries a 4xx reply, gives up on a 5xx reply, and sends with a fixed Message-ID', async () => {
    const mailer = createMailer({
      config: { smtpUrl: smtp.url, from: 'Sentinel <s@example.com>' },
      db: database.db,
      log,
    });
    smtp.failNext(1, 451);
    expect(await failure(mailer.send(email('dlv_a')))).toMatchObject({ retryable: true, httpStatus: 451 });
    smtp.failNext(1, 550);
    expect(await failure(mailer.send(email('dlv_b')))).toMatchObject({ retryable: false, httpStatus: 550 });
    await mailer.send(email('dlv_c'));
    expect(smtp.messages.at(-1)!.raw).toMatch(/^Message-ID: <dlv_c@sentinel>/m);
    mailer.close();
  });

  it('writes to the outbox without SMTP, once per idempotency key, and logs the row but never the body', async () => {
    const lines: Record<string, unknown>[] = [];
    const outboxLog = createLogger({
      level: 'info',
      name: 'test',
      destination: {
        write: (line: string) => {
          lines.push(JSON.parse(line));
        },
      },
    });
    const mailer = createMailer({ config: { from: 'Sentinel <s@example.com>' }, db: database.db, log: outboxLog });
    await mailer.send(email('dlv_outbox'));
    await mailer.send(email('dlv_outbox'));
    const rows = await database.db
      .selectFrom('email_outbox')
      .selectAll()
      .where('idempotency_key', '=', 'dlv_outbox')
      .execute();
    expect(rows).toEqual([
      expect.objectContaining({ to_addresses: ['ops@example.com'], subject: 'Alert', text_body: 'body' }),
    ]);
    expect(lines).toEqual([
      expect.objectContaining({
        msg: 'e-mail written to the outbox (no SMTP_URL)',
        outboxId: rows[0]!.id,
        subject: 'Alert',
      }),
    ]);
    expect(JSON.stringify(lines)).not.toContain('body');
  });
});

it('reads Retry-After as seconds or as an HTTP date', () => {
  const now = Date.parse('2026-11-21T12:00:00Z');
  expect(parseRetryAfter('120', now)).toBe(120);
  expect(parseRetryAfter('Sat, 21 Nov 2026 12:01:30 GMT', now)).toBe(90);
  expect(parseRetryAfter('soon', now)).toBeUndefined();
  expect(parseRetryAfter(null, now)).toBeUndefined();
});
