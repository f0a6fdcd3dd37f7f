import { type AlertPeers, ROUTING_KEY, startAlertPeers } from '../helpers/alerts';
import { newId } from '../../domain/ids';
import { encryptSecret } from '../../security/crypto';
import { waitFor } from '../helpers/patience';
import { createTestContext, signupAndLogin, type TestContext } from '../helpers/context';
import { confirmRecipients } from '../helpers/email-trust';
import { RowLock } from '../helpers/row-lock';
import { SandboxWorkers } from '../helpers/worker-process';

// A worker process killed (SIGKILL) while it is sending an alert: after a new worker takes over, every channel
// has exactly one notification. The peers are caught at the worst moment: PagerDuty has processed the event
// but its answer never reaches the dead worker; the SMTP server has the message but has not acknowledged it.
// The Slack delivery is caught after it claimed the delivery (status 'sending'), reading the workspace's
// token: the next worker finds the attempt cut off and posts once.

let ctx: TestContext;
let peers: AlertPeers;
const workers = new SandboxWorkers();

beforeAll(async () => {
  peers = await startAlertPeers();
  ctx = await createTestContext({ config: { CLOUD_PROVIDER: 'sandbox', ...peers.config } });
});
afterAll(async () => {
  await workers.killAll();
  await ctx?.close();
  await peers?.close();
});

const startWorker = () => workers.start(ctx, peers.config);

it('delivers exactly one notification per channel when the worker dies mid-delivery', async () => {
  const first = await startWorker();
  const owner = await signupAndLogin(ctx);
  const recipient = 'oncall-crash@example.com';
  await ctx.db
    .insertInto('slack_installations')
    .values({
      id: newId('slack'),
      tenant_id: owner.tenantId,
      team_id: 'T0CRASH',
      team_name: 'Crash',
      bot_token_encrypted: encryptSecret(ctx.config.secrets.dataEncryptionKey, 'xoxb-crash-token'),
    })
    .execute();
  await ctx.http
    .post('/alert-rules')
    .set(owner.auth)
    .send({
      name: 'Any risk',
      min_srs: 100,
      channels: [
        { type: 'paging', routing_key: ROUTING_KEY },
        { type: 'email', to: [recipient] },
        { type: 'slack', team_id: 'T0CRASH', channel: 'C0CRASH' },
      ],
    })
    .expect(201);
  await confirmRecipients(ctx.db, owner.tenantId, [recipient]);

  const pagerDutyHeld = peers.holdNextPagerDuty();
  const mailHeld = peers.smtp.holdNext();
  const slackHeld = await RowLock.holdTable(ctx.database.url, 'slack_installations');
  await ctx.http.post('/accounts').set(owner.auth).send({ aws_account_id: '222233334444' }).expect(201);
  await ctx.http.post('/accounts/222233334444/verify').set(owner.auth).expect(200);

  // All three sends are in flight: kill the worker, then let the peers answer into the void.
  const [paging, mail] = await Promise.all([pagerDutyHeld, mailHeld]);
  await waitFor(() => slackHeld.blocksSomeone(ctx.db));
  await first.kill();
  await new Promise((r) => setTimeout(r, 500)); // let the SMTP server see the connection drop
  paging.release();
  mail.release();
  await slackHeld.release();

  await startWorker();
  const deliveries = () =>
    ctx.db
      .selectFrom('alert_deliveries')
      .selectAll()
      .where('tenant_id', '=', owner.tenantId)
      .orderBy('channel_index')
      .execute();
  await waitFor(async () => (await deliveries()).every((d) => d.status === 'delivered'));

  const [pagingDelivery, mailDelivery, slackDelivery] = await deliveries();
  const events = peers.pagerduty.requests
    .map((r) => r.json as { dedup_key: string; payload: { source: string } })
    .filter((e) => e.payload?.source === 'aws:222233334444');
  expect(events).toHaveLength(2); // sent again after the crash, with the same dedup_key
  expect(new Set(events.map((e) => e.dedup_key)).size).toBe(1);
  expect(peers.incidents.get(events[0]!.dedup_key)).toEqual({ status: 'triggered', opened: 1 });
  expect(peers.smtp.messages.filter((m) => m.to.includes(recipient))).toHaveLength(1);
  const posts = peers.slack.requests.filter(
    (r) => r.path === '/api/chat.postMessage' && (r.json as { channel: string }).channel === 'C0CRASH',
  );
  expect(posts).toHaveLength(1);
  expect(posts[0]!.headers.authorization).toBe('Bearer xoxb-crash-token');

  for (const delivery of [pagingDelivery!, mailDelivery!, slackDelivery!]) {
    expect(delivery.attempts).toBe(2);
    const attempts = await ctx.db
      .selectFrom('delivery_attempts')
      .select(['outcome', 'error'])
      .where('delivery_id', '=', delivery.id)
      .orderBy('attempted_at')
      .execute();
    expect(attempts).toEqual([
      { outcome: 'retryable', error: expect.stringContaining('cut off') },
      { outcome: 'delivered', error: null },
    ]);
  }
});
