import { SLOT_MS } from '../../cloud/sandbox/inventory';
import { waitFor } from '../helpers/patience';
import { ROUTING_KEY } from '../helpers/alerts';
import { createTestContext, signupAndLogin, type TestContext, type TestUser } from '../helpers/context';
import { confirmRecipients } from '../helpers/email-trust';
import { type GatedPeers, startGatedPeers } from '../helpers/gated-peers';
import { RowLock } from '../helpers/row-lock';
import { SandboxWorkers } from '../helpers/worker-process';
import { scanResult } from '../helpers/scans';

// The worker process is killed (SIGKILL) four times in a row, each time in the middle of a manual scan, and
// restarted. Every kill lands at a chosen point, one kill at each, held there so it is not left to timing:
// - start:    recording the scan as running (its row inserted, not committed);
// - save:     saving the findings (signals, scan, account written; the score-history point not yet);
// - alerts:   firing the rules (the alert event and its deliveries written; the rule's memory not yet);
// - delivery: notifying (the e-mail not yet accepted by the SMTP server; PagerDuty has processed the event,
//             its answer never reaches the worker).
// Nothing is released before the last worker starts, so activities retried on the next workers stop at the
// same points and die with them too. Afterwards every scan has completed exactly once: no signal, score point,
// alert or notification is duplicated or lost.

type Phase = 'start' | 'save' | 'alerts' | 'delivery';
// Saves recover slowest (the scan activity's heartbeat timeout), deliveries fastest: in that order, most
// retries come after the last kill. One kill at each point: each more only repeats a recovery already shown, at
// the cost of a worker start and a heartbeat timeout.
const PHASES: Phase[] = ['save', 'start', 'alerts', 'delivery'];
const RECIPIENT = 'oncall-kill@example.com';

let ctx: TestContext;
let peers: GatedPeers;
const workers = new SandboxWorkers();
const locks: RowLock[] = [];

beforeAll(async () => {
  peers = await startGatedPeers();
  ctx = await createTestContext({ config: { CLOUD_PROVIDER: 'sandbox', ...peers.config } });
});
afterAll(async () => {
  await workers.killAll();
  await Promise.all(locks.map((l) => l.release()));
  await ctx?.close();
  await peers?.close();
});

const startWorker = () => workers.start(ctx, peers.config);

interface Connected {
  awsAccountId: string;
  accountId: string;
  firstScanId: string;
}

const scanIdOf = (executionArn: string) => executionArn.split('/').pop() as string;

async function connect(owner: TestUser, awsAccountId: string): Promise<Connected> {
  await ctx.http.post('/accounts').set(owner.auth).send({ aws_account_id: awsAccountId }).expect(201);
  const verified = await ctx.http.post(`/accounts/${awsAccountId}/verify`).set(owner.auth).expect(200);
  const row = await ctx.db
    .selectFrom('accounts')
    .select('id')
    .where('aws_account_id', '=', awsAccountId)
    .where('tenant_id', '=', owner.tenantId)
    .executeTakeFirstOrThrow();
  return { awsAccountId, accountId: row.id, firstScanId: scanIdOf(verified.body.first_scan_execution_arn) };
}

/** Holds what the scan of `account` will need at `phase`, and returns how to tell that the scan waits there. */
async function holdAt(phase: Phase, account: Connected, ruleId: string): Promise<() => Promise<boolean>> {
  if (phase === 'delivery') return async () => peers.holds(account.awsAccountId);
  const statements: Record<Exclude<Phase, 'delivery'>, [string, unknown[]]> = {
    start: ['select id from accounts where id = $1 for update', [account.accountId]],
    // Today's point exists since the first scan (or is created here, uncommitted, if the UTC day turned since).
    save: [
      `insert into score_history (account_id, day, srs, scan_id, recorded_at) values ($1, (now() at time zone 'utc')::date, 100, $2, now())
       on conflict (account_id, day) do update set srs = score_history.srs`,
      [account.accountId, account.firstScanId],
    ],
    alerts: [
      'select rule_id from alert_rule_states where rule_id = $1 and account_id = $2 for update',
      [ruleId, account.accountId],
    ],
  };
  const [statement, params] = statements[phase];
  const lock = await RowLock.hold(ctx.database.url, statement, params);
  locks.push(lock);
  return () => lock.blocksSomeone(ctx.db);
}

it('completes every scan exactly once when the worker is killed mid-scan four times in a row', async () => {
  let worker = await startWorker();
  const owner = await signupAndLogin(ctx);
  await ctx.db.updateTable('tenants').set({ plan: 'agency' }).where('id', '=', owner.tenantId).execute();
  const rule = await ctx.http
    .post('/alert-rules')
    .set(owner.auth)
    .send({
      name: 'Any risk',
      min_srs: 100,
      channels: [
        { type: 'email', to: [RECIPIENT] },
        { type: 'pagerduty', routing_key: ROUTING_KEY },
      ],
    })
    .expect(201);
  const ruleId = rule.body.rule_id as string;
  await confirmRecipients(ctx.db, owner.tenantId, [RECIPIENT]);

  // The sandbox's inventory changes only at its slot boundaries: a run that crosses one sees drifting issues move.
  const slotNow = () => Math.floor(Date.now() / SLOT_MS);
  const firstSlot = slotNow();

  // Four accounts, each scanned once (and alerted on) undisturbed.
  const accounts: Connected[] = [];
  for (let i = 0; i < PHASES.length; i++) accounts.push(await connect(owner, String(310_000_000_000 + i * 7_919)));
  const deliveries = () =>
    ctx.db.selectFrom('alert_deliveries').selectAll().where('tenant_id', '=', owner.tenantId).execute();
  await waitFor(async () => {
    const all = await deliveries();
    return all.length === 2 * accounts.length && all.every((d) => d.status === 'delivered');
  });
  const signalsBefore = await ctx.db
    .selectFrom('signals')
    .select(['id', 'account_id', 'fingerprint'])
    .where('tenant_id', '=', owner.tenantId)
    .orderBy('id')
    .execute();

  // A changed rule fires again on each account's next scan: every manual scan below sends one alert.
  await ctx.http.patch(`/alert-rules/${ruleId}`).set(owner.auth).send({ name: 'Any risk, re-armed' }).expect(200);
  peers.closeGate();
  // A worker that stops cleanly tells Temporal so; one killed is waited for (up to 10 s) before its workflows
  // move to another worker. Each account is commanded once below, none from a killed worker's cache.
  await worker.stop();
  worker = await startWorker();

  const manualScans: string[] = [];
  const manualArns: string[] = [];
  for (const [i, phase] of PHASES.entries()) {
    const account = accounts[i] as Connected;
    const waitsThere = await holdAt(phase, account, ruleId);
    const scan = await ctx.http.post(`/accounts/${account.awsAccountId}/scan`).set(owner.auth).expect(202);
    manualScans.push(scanIdOf(scan.body.execution_arn));
    manualArns.push(scan.body.execution_arn);
    await waitFor(waitsThere);
    await worker.kill();
    worker = await startWorker();
  }

  // The last worker is up: let everything through.
  peers.openGate();
  await Promise.all(locks.splice(0).map((l) => l.release()));

  // A scan killed while it saved is retried only after its heartbeat timeout (a minute), then completes.
  const outcomes = await Promise.all(manualArns.map((arn) => scanResult(ctx.temporal, arn)));
  expect(outcomes.map((o) => o.status)).toEqual(PHASES.map(() => 'succeeded'));
  await waitFor(async () => {
    const all = await deliveries();
    return all.length === 4 * accounts.length && all.every((d) => d.status === 'delivered');
  });

  // Scans: the first and the manual one of each account, both succeeded; nothing else ran.
  const scans = await ctx.db
    .selectFrom('scans')
    .select(['id', 'account_id', 'status', 'srs', 'trigger'])
    .where('tenant_id', '=', owner.tenantId)
    .execute();
  expect(scans.map((s) => s.id).sort()).toEqual([...accounts.map((a) => a.firstScanId), ...manualScans].sort());
  expect(scans.every((s) => s.status === 'succeeded')).toBe(true);

  // Signals: the inventory did not change, so neither did the signals; each is open once (that the manual scans
  // were saved shows in the score history below).
  const signalsAfter = await ctx.db
    .selectFrom('signals')
    .select(['id', 'account_id', 'fingerprint', 'resolved_at'])
    .where('tenant_id', '=', owner.tenantId)
    .orderBy('id')
    .execute();
  const open = signalsAfter.filter((s) => s.resolved_at === null);
  expect(new Set(open.map((s) => `${s.account_id} ${s.fingerprint}`)).size).toBe(open.length);
  if (slotNow() === firstSlot) {
    expect(signalsAfter.map(({ id, account_id, fingerprint }) => ({ id, account_id, fingerprint }))).toEqual(
      signalsBefore,
    );
    expect(open).toHaveLength(signalsAfter.length);
  } else {
    // A boundary passed: drifted issues may have opened or closed, but a finding seen before and still open is
    // the same signal, never a second one.
    const before = new Map(signalsBefore.map((s) => [`${s.account_id} ${s.fingerprint}`, s.id]));
    for (const s of open) expect(before.get(`${s.account_id} ${s.fingerprint}`) ?? s.id).toBe(s.id);
  }

  for (const [i, account] of accounts.entries()) {
    const manual = scans.find((s) => s.id === manualScans[i]);
    // Score: one point per day (two only if the scans straddled midnight UTC), the latest being the manual
    // scan's, which is also the account's current score.
    const points = await ctx.db
      .selectFrom('score_history')
      .select(['day', 'srs', 'complete', 'scan_id'])
      .where('account_id', '=', account.accountId)
      .orderBy('day', 'desc')
      .execute();
    expect(points[0]).toEqual({
      day: expect.any(String),
      srs: manual?.srs,
      complete: expect.any(Boolean),
      scan_id: manualScans[i],
    });
    expect(points.slice(1).map((p) => p.scan_id)).toEqual(points.length > 1 ? [account.firstScanId] : []);
    const history = await ctx.http.get(`/accounts/${account.awsAccountId}/score-history`).set(owner.auth).expect(200);
    expect(history.body.history).toEqual(points.map((p) => ({ date: p.day, srs: p.srs, complete: p.complete })));
    const current = await ctx.http.get(`/accounts/${account.awsAccountId}`).set(owner.auth).expect(200);
    expect(current.body.current_srs).toBe(manual?.srs);
  }

  // Alerts: exactly one per scan (the rule was new, then changed), each with one delivery per channel.
  const alerts = await ctx.db
    .selectFrom('alert_events')
    .select(['id', 'scan_id', 'rule_id'])
    .where('tenant_id', '=', owner.tenantId)
    .execute();
  expect(alerts.map((a) => a.scan_id).sort()).toEqual(scans.map((s) => s.id).sort());
  const all = await deliveries();
  for (const alert of alerts) {
    expect(
      all
        .filter((d) => d.alert_id === alert.id)
        .map((d) => d.channel_type)
        .sort(),
    ).toEqual(['email', 'pagerduty']);
  }
  const delivered = await ctx.db
    .selectFrom('delivery_attempts')
    .select('delivery_id')
    .where('outcome', '=', 'delivered')
    .execute();
  expect(delivered.map((d) => d.delivery_id).sort()).toEqual(all.map((d) => d.id).sort());

  // Notifications: one accepted e-mail per e-mail delivery; one PagerDuty incident per account, opened once,
  // and every paging delivery reached PagerDuty.
  // (Besides them, only the owner's verification link from the sign-up.) The Message-ID names the delivery.
  const emailDeliveries = all
    .filter((d) => d.channel_type === 'email')
    .map((d) => d.id)
    .sort();
  const alertEmails = peers.emails.filter((e) => e.to.join() !== owner.email);
  expect(alertEmails.map((e) => /^<(dlv_[0-9A-Z]+)-[0-9a-f]+@sentinel>$/.exec(e.messageId)?.[1]).sort()).toEqual(
    emailDeliveries,
  );
  expect(alertEmails.every((e) => e.to.join() === RECIPIENT)).toBe(true);
  expect([...peers.incidents.values()]).toEqual(accounts.map(() => ({ status: 'triggered', opened: 1 })));
  expect([...peers.incidents.keys()].sort()).toEqual(accounts.map((a) => `sentinel:${ruleId}:${a.accountId}`).sort());
  const paged = new Set(
    peers.pagerduty.requests.map(
      (r) => (r.json as { payload: { custom_details: { alert_id: string } } }).payload.custom_details.alert_id,
    ),
  );
  expect([...paged].sort()).toEqual(alerts.map((a) => a.id).sort());
});
