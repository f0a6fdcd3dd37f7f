import { readFileSync } from 'node:fs';
import path from 'node:path';
import { OCCURRENCE_WINDOW_MINUTES, OPEN_SIGNALS_PER_DETECTION } from '../../domain/events/occurrences';
import { waitFor } from '../helpers/patience';
import { type AlertPeers, startAlertPeers } from '../helpers/alerts';
import {
  addUserWithRole,
  createTestContext,
  signupAndLogin,
  type TestContext,
  type TestUser,
} from '../helpers/context';
import { callerFor, failure } from '../trpc/caller';

// Every occurrence counts (docs/decisions.md, "Events" and "Accepted risk"): through POST /ingest/aws/events with real
// EventBridge envelopes (test/fixtures/aws-events), the API process firing the tenant's alert rule after each answer
// and the worker delivering to a Slack peer. Each test has an AWS account of its own (connected, its events taken
// from then on), so its signals and alerts are its own.

const FIXTURES = path.join(__dirname, '../fixtures/aws-events');
const HEADER = 'X-Sentinel-Event-Key';
const MINUTE = 60_000;
const ALICE = 'arn:aws:iam::123456789012:user/alice';
const BOB = 'arn:aws:iam::123456789012:user/bob';

let ctx: TestContext;
let peers: AlertPeers;
let owner: TestUser;
let member: TestUser;
let sequence = 0;
let nextAccount = 0;

interface Signal {
  signal_id: string;
  check_id: string;
  occurrences: number;
  description: string;
  resolved_at: string | null;
  accepted: null | {
    by_email: string;
    reason: string;
    expires_at: string | null;
    scope: 'signal' | 'principal' | 'detection';
    principal: string | null;
    scope_signal_id: string | null;
  };
}

interface Account {
  awsId: string;
  key: string;
}

function fixture(name: string): Record<string, unknown> & { detail: Record<string, unknown> } {
  return JSON.parse(readFileSync(path.join(FIXTURES, `${name}.json`), 'utf8'));
}

/** A fixture as a new event of `account` that happened `minutesAgo` minutes ago, its CloudTrail record changed by `detail`. */
function event(account: Account, name: string, minutesAgo: number, detail: Record<string, unknown> = {}) {
  sequence += 1;
  const base = fixture(name);
  return {
    ...base,
    id: `${name}-${sequence}-${Date.now()}`,
    account: account.awsId,
    time: new Date(Date.now() - minutesAgo * MINUTE).toISOString(),
    detail: { ...base.detail, ...detail },
  };
}

/** A console sign-in without MFA by the IAM user `arn`. */
const signInWithoutMfa = (account: Account, arn: string, minutesAgo: number) =>
  event(account, 'console-sign-in-no-mfa', minutesAgo, {
    userIdentity: { ...(fixture('console-sign-in-no-mfa').detail.userIdentity as object), arn },
  });

async function ingest(account: Account, body: unknown): Promise<{ accepted: number; signals_opened: number }> {
  const res = await ctx.http
    .post('/ingest/aws/events')
    .set('Content-Type', 'application/json')
    .set(HEADER, account.key)
    .send(JSON.stringify(body))
    .expect(202);
  return res.body;
}

/** A new AWS account of the tenant, connected with its event key (its events are taken before it is verified). */
async function connect(): Promise<Account> {
  nextAccount += 1;
  const awsId = `4${String(nextAccount).padStart(2, '0')}${String(Date.now()).slice(-9)}`;
  const res = await ctx.http.post('/accounts').set(owner.auth).send({ aws_account_id: awsId }).expect(201);
  return { awsId, key: res.body.event_forwarding.api_key };
}

async function signals(account: Account, checkId: string): Promise<Signal[]> {
  const res = await ctx.http
    .get(`/accounts/${account.awsId}/signals`)
    .query({ check_id: checkId, limit: 200 })
    .set(owner.auth)
    .expect(200);
  // Oldest first: the order they opened in.
  return [...res.body.signals].reverse();
}

/** The account's alerts, once every batch of its events has been acted on (the rules fired after each answer). */
async function alertsOf(account: Account): Promise<{ scenarios_triggered: string[] }[]> {
  await waitFor(async () => {
    const left = await ctx.db
      .selectFrom('event_batches')
      .innerJoin('accounts', 'accounts.id', 'event_batches.account_id')
      .select('event_batches.id')
      .where('accounts.aws_account_id', '=', account.awsId)
      .where('event_batches.dispatched_at', 'is', null)
      .execute();
    return left.length === 0;
  });
  const res = await ctx.http.get('/alerts').query({ limit: 200 }).set(owner.auth).expect(200);
  return res.body.alerts.filter((a: { cloud_account_id: string }) => a.cloud_account_id === account.awsId);
}

const accept = (account: Account, signalId: string, body: Record<string, unknown>) =>
  ctx.http.post(`/accounts/${account.awsId}/signals/${signalId}/accept`).set(member.auth).send(body);
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

beforeAll(async () => {
  peers = await startAlertPeers();
  ctx = await createTestContext({
    withWorker: true,
    config: { CLOUD_PROVIDER: 'sandbox', ...peers.config, SLACK_WEBHOOK_URL_PREFIX: `${peers.slack.url}/` },
  });
  owner = await signupAndLogin(ctx);
  member = await addUserWithRole(ctx, owner.tenantId, 'member');
  await ctx.db.updateTable('tenants').set({ plan: 'agency' }).where('id', '=', owner.tenantId).execute();
  // Every new finding of every scenario alerts (a threshold of 0 is never crossed).
  await ctx.http
    .post('/alert-rules')
    .set(owner.auth)
    .send({
      name: 'Every new finding',
      min_srs: 0,
      scenarios: [],
      channels: [{ type: 'slack', webhook_url: `${peers.slack.url}/services/T000/B000/occurrences` }],
    })
    .expect(201);
});
afterAll(async () => {
  await ctx?.close();
  await peers?.close();
});

describe('repeated root sign-ins', () => {
  it('alert twice: each sign-in past the window opens its own signal, and both reach Slack', async () => {
    const account = await connect();
    const slackBefore = peers.slack.requests.length;
    const first = event(account, 'root-console-sign-in', 40);
    const second = event(account, 'root-console-sign-in', 40 - OCCURRENCE_WINDOW_MINUTES - 5);
    expect((await ingest(account, first)).signals_opened).toBe(1);
    expect((await ingest(account, second)).signals_opened).toBe(1);

    const opened = await signals(account, 'event.root_console_sign_in');
    expect(opened).toHaveLength(2);
    expect(opened[0]!.description).toContain(first.id);
    expect(opened[1]!.description).toContain(second.id);
    expect(await alertsOf(account)).toHaveLength(2);
    await waitFor(async () => peers.slack.requests.length >= slackBefore + 2);
  });

  it('accepting the first leaves the second alerting, even within its window', async () => {
    const account = await connect();
    await ingest(account, event(account, 'root-console-sign-in', 10));
    const [first] = await signals(account, 'event.root_console_sign_in');
    expect(await alertsOf(account)).toHaveLength(1);
    const accepted = await accept(account, first!.signal_id, { reason: 'It was me, rotating the MFA device' }).expect(
      200,
    );
    expect(accepted.body.accepted).toMatchObject({ scope: 'signal', principal: null, scope_signal_id: null });

    // Two minutes later: "it was me" was about the first one.
    expect((await ingest(account, event(account, 'root-console-sign-in', 8))).signals_opened).toBe(1);
    const [stillAccepted, second] = await signals(account, 'event.root_console_sign_in');
    expect(stillAccepted!.accepted).not.toBeNull();
    expect(second!.accepted).toBeNull();
    expect(await alertsOf(account)).toHaveLength(2);
    // A third within the second's window, while it is not accepted: counted on it, no third alert.
    expect((await ingest(account, event(account, 'root-console-sign-in', 7))).signals_opened).toBe(0);
    expect(await signals(account, 'event.root_console_sign_in')).toHaveLength(2);
    expect(await alertsOf(account)).toHaveLength(2);
  });
});

describe('a principal-scoped acceptance', () => {
  it("silences the next sign-in by that principal until undone, but not another principal's", async () => {
    const account = await connect();
    await ingest(account, signInWithoutMfa(account, ALICE, 50));
    const [alice] = await signals(account, 'event.console_sign_in_without_mfa');
    expect(await alertsOf(account)).toHaveLength(1);

    // A scope needs an expiry; a state detection's signal takes none.
    const noExpiry = await accept(account, alice!.signal_id, { reason: 'Alice travels', scope: 'principal' }).expect(
      400,
    );
    expect(noExpiry.body.details).toEqual([{ field: 'expires_at', message: 'is required with scope principal' }]);
    await accept(account, alice!.signal_id, {
      reason: 'Alice travels',
      scope: 'principal',
      expires_at: inDays(91),
    }).expect(400);
    // Through the dashboard's procedure, as through REST.
    const scoped = await callerFor(ctx, member).signals.accept({
      account_id: account.awsId,
      signal_id: alice!.signal_id,
      body: { reason: 'Alice is on the road without her MFA device', scope: 'principal', expires_at: inDays(7) },
    });
    expect(scoped.accepted).toMatchObject({ scope: 'principal', principal: ALICE, scope_signal_id: alice!.signal_id });

    // Alice again, past the window: stored and accepted as it comes, no alert. Bob: his own signal, and an alert.
    expect((await ingest(account, signInWithoutMfa(account, ALICE, 30))).signals_opened).toBe(1);
    expect((await ingest(account, signInWithoutMfa(account, BOB, 30))).signals_opened).toBe(1);
    const [, aliceAgain, bob] = await signals(account, 'event.console_sign_in_without_mfa');
    expect(aliceAgain!.description).toContain(ALICE);
    expect(aliceAgain!.accepted).toMatchObject({
      scope: 'principal',
      principal: ALICE,
      scope_signal_id: alice!.signal_id,
      reason: 'Alice is on the road without her MFA device',
      by_email: member.email,
    });
    expect(bob!.description).toContain(BOB);
    expect(bob!.accepted).toBeNull();
    expect(await alertsOf(account)).toHaveLength(2);

    // Undone on the signal it was made on: the scope ends, with what it accepted, and Alice's next sign-in alerts.
    const undone = await ctx.http
      .delete(`/accounts/${account.awsId}/signals/${alice!.signal_id}/accept`)
      .set(member.auth)
      .expect(200);
    expect(undone.body.accepted).toBeNull();
    const afterUndo = await signals(account, 'event.console_sign_in_without_mfa');
    expect(afterUndo.map((s) => s.accepted)).toEqual([null, null, null]);
    expect((await ingest(account, signInWithoutMfa(account, ALICE, 10))).signals_opened).toBe(1);
    expect(await alertsOf(account)).toHaveLength(3);
  });

  it('replaced by another scope, keeps what it accepted that the new one covers; undone on a later occurrence, ends that one alone', async () => {
    const account = await connect();
    await ingest(account, signInWithoutMfa(account, ALICE, 50));
    const [origin] = await signals(account, 'event.console_sign_in_without_mfa');
    await accept(account, origin!.signal_id, { reason: 'Travel', scope: 'principal', expires_at: inDays(7) }).expect(
      200,
    );
    await ingest(account, signInWithoutMfa(account, ALICE, 30));
    await ingest(account, signInWithoutMfa(account, ALICE, 10));
    const [, later, latest] = await signals(account, 'event.console_sign_in_without_mfa');
    expect([later!.accepted?.scope, latest!.accepted?.scope]).toEqual(['principal', 'principal']);

    // Widened to anyone for two weeks: the occurrences it had accepted are the new scope's, with its expiry.
    const widened = await accept(account, origin!.signal_id, {
      reason: 'Conference week',
      scope: 'detection',
      expires_at: inDays(14),
    }).expect(200);
    expect(widened.body.accepted).toMatchObject({ scope: 'detection', principal: null });
    const carried = await signals(account, 'event.console_sign_in_without_mfa');
    for (const s of carried.slice(1)) {
      expect(s.accepted).toMatchObject({
        scope: 'detection',
        reason: 'Conference week',
        scope_signal_id: origin!.signal_id,
        expires_at: widened.body.accepted.expires_at,
      });
    }
    // Undone on one of them: that one counts again, the scope and the other stay.
    await ctx.http.delete(`/accounts/${account.awsId}/signals/${later!.signal_id}/accept`).set(member.auth).expect(200);
    const afterOne = await signals(account, 'event.console_sign_in_without_mfa');
    expect(afterOne.map((s) => s.accepted?.scope ?? null)).toEqual(['detection', null, 'detection']);
    // Narrowed to the signal alone: the scope ends, and so does what it accepted.
    await accept(account, origin!.signal_id, { reason: 'Only that sign-in' }).expect(200);
    const narrowed = await signals(account, 'event.console_sign_in_without_mfa');
    expect(narrowed.map((s) => s.accepted?.scope ?? null)).toEqual(['signal', null, null]);
    const audit = await ctx.http.get('/audit-log').query({ limit: 200 }).set(owner.auth).expect(200);
    expect(JSON.stringify(audit.body)).toContain('scope_acceptances_ended');
  });

  it('is refused on a signal that stands for a state, and by principal on a probable compromise', async () => {
    const account = await connect();
    await ingest(account, event(account, 'sg-open-ssh', 5));
    const [group] = await signals(account, 'event.security_group_admin_port_opened');
    const refused = await accept(account, group!.signal_id, {
      reason: 'Bastion',
      scope: 'detection',
      expires_at: inDays(7),
    }).expect(400);
    expect(refused.body).toMatchObject({ code: 'validation_failed', details: [{ field: 'scope' }] });
    expect(
      await failure(
        callerFor(ctx, member).signals.accept({
          account_id: account.awsId,
          signal_id: group!.signal_id,
          body: { reason: 'Bastion', scope: 'principal', expires_at: inDays(7) },
        }),
      ),
    ).toMatchObject({ trpc: 'BAD_REQUEST', code: 'validation_failed' });
    // Accepted alone, it is.
    await accept(account, group!.signal_id, { reason: 'Bastion' }).expect(200);
  });
});

describe('a burst', () => {
  it('within the bound opens one signal and alerts once, whatever the requests at once; the next window alerts again', async () => {
    const account = await connect();
    // An attacker's script: twelve root calls in thirteen minutes, delivered as EventBridge does, one per request,
    // several at a time.
    const burst = Array.from({ length: 12 }, (_, i) => event(account, 'root-api-call', 30 - i));
    const answers = await Promise.all(burst.map((e) => ingest(account, e)));
    expect(answers.reduce((n, a) => n + a.signals_opened, 0)).toBe(1);
    expect(await signals(account, 'event.root_api_call')).toHaveLength(1);
    expect(await alertsOf(account)).toHaveLength(1);
    // Every call is stored, naming its detection.
    const stored = await ctx.http
      .get(`/accounts/${account.awsId}/events`)
      .query({ detection: 'event.root_api_call', limit: 200 })
      .set(owner.auth)
      .expect(200);
    expect(stored.body.events).toHaveLength(12);

    // Seventeen minutes after the last of them, and more than the window after any: a new occurrence window.
    expect((await ingest(account, event(account, 'root-api-call', 2))).signals_opened).toBe(1);
    expect(await signals(account, 'event.root_api_call')).toHaveLength(2);
    expect(await alertsOf(account)).toHaveLength(2);
  });
});

describe('failed calls', () => {
  it('fire nothing: a failed root sign-in, root call or key creation is stored with no detection', async () => {
    const account = await connect();
    const failedSignIn = event(account, 'root-console-sign-in', 3, {
      errorMessage: 'Failed authentication',
      responseElements: { ConsoleLogin: 'Failure' },
    });
    const deniedRootCall = event(account, 'root-api-call', 3, {
      errorCode: 'AccessDenied',
      errorMessage: 'User: root is not authorized by an SCP',
    });
    const deniedKey = event(account, 'create-access-key', 3, {
      errorCode: 'LimitExceeded',
      responseElements: null,
    });
    for (const body of [failedSignIn, deniedRootCall, deniedKey]) {
      expect(await ingest(account, body)).toMatchObject({ accepted: 1, signals_opened: 0 });
    }
    const stored = await ctx.http.get(`/accounts/${account.awsId}/events`).set(owner.auth).expect(200);
    expect(stored.body.events.map((e: { detections: string[] }) => e.detections)).toEqual([[], [], []]);
    const all = await ctx.http.get(`/accounts/${account.awsId}/signals`).set(owner.auth).expect(200);
    expect(all.body.signals).toEqual([]);
    expect(await alertsOf(account)).toEqual([]);
  });
});

describe('probable compromise', () => {
  it('recurring after the first is accepted alerts again; before, it is counted on the open one', async () => {
    const account = await connect();
    const compounds = () => signals(account, 'event.probable_compromise');
    await ingest(account, event(account, 'create-access-key', 30));
    expect(await compounds()).toEqual([]);
    await ingest(account, event(account, 'run-instances-gpu', 29));
    const [first] = await compounds();
    expect(first).toBeDefined();
    expect(await alertsOf(account)).toHaveLength(2);

    // Another key by the same user, while the compound is open and not accepted: counted on the open signals.
    expect((await ingest(account, event(account, 'create-access-key', 28))).signals_opened).toBe(0);
    expect(await compounds()).toHaveLength(1);
    expect(await alertsOf(account)).toHaveLength(2);

    // "It was our ML team." The next indicator that completes the pattern is a new probable compromise, and alerts.
    await accept(account, first!.signal_id, { reason: 'The ML team, training' }).expect(200);
    expect((await ingest(account, event(account, 'create-access-key', 27))).signals_opened).toBe(1);
    const [, again] = await compounds();
    expect(again).toMatchObject({ accepted: null, resolved_at: null });
    const alerts = await alertsOf(account);
    expect(alerts).toHaveLength(3);
    expect(alerts[0]!.scenarios_triggered).toEqual(['threat']);
  });

  it('accepted for the detection with an expiry, its recurrence within the day is counted on it and alerts nobody', async () => {
    const account = await connect();
    await ingest(account, event(account, 'create-access-key', 30));
    await ingest(account, event(account, 'run-instances-gpu', 29));
    const [first] = await signals(account, 'event.probable_compromise');
    const principal = await accept(account, first!.signal_id, {
      reason: 'Load test',
      scope: 'principal',
      expires_at: inDays(1),
    }).expect(400);
    expect(principal.body.details).toEqual([{ field: 'scope', message: expect.stringMatching(/no principal/) }]);
    const scoped = await accept(account, first!.signal_id, {
      reason: 'Load test',
      scope: 'detection',
      expires_at: inDays(1),
    }).expect(200);
    expect(scoped.body.accepted).toMatchObject({
      scope: 'detection',
      principal: null,
      scope_signal_id: first!.signal_id,
    });
    const before = (await alertsOf(account)).length;
    // A GPU launch by someone else completes the pattern again: the scope covers it, within the day of the accepted one.
    const other = event(account, 'run-instances-gpu', 10, {
      userIdentity: { type: 'IAMUser', arn: BOB, accountId: account.awsId, userName: 'bob' },
    });
    expect((await ingest(account, other)).signals_opened).toBe(1);
    expect(await signals(account, 'event.gpu_instance_launched')).toHaveLength(2);
    expect(await signals(account, 'event.probable_compromise')).toHaveLength(1);
    // Bob's launch alerts as his own; the probable compromise, accepted, adds nothing to it.
    const alerts = await alertsOf(account);
    expect(alerts).toHaveLength(before + 1);
  });
});

describe('the bound on what one detection keeps open', () => {
  /** Every open signal of the detection, through the list's pages. */
  async function allOpen(account: Account, checkId: string): Promise<Signal[]> {
    const found: Signal[] = [];
    let token: string | null = null;
    do {
      const res: { body: { signals: Signal[]; next_token: string | null } } = await ctx.http
        .get(`/accounts/${account.awsId}/signals`)
        .query({ check_id: checkId, status: 'open', limit: 100, ...(token ? { next_token: token } : {}) })
        .set(owner.auth)
        .expect(200);
      found.push(...res.body.signals);
      token = res.body.next_token;
    } while (token);
    return found;
  }

  it('counts on the newest open signal what forged occurrences bring past it: no more signals, no more alerts', async () => {
    const account = await connect();
    const past = 30;
    // A principal of its own for each: each would open a signal, and alert, without the bound.
    const arn = (i: number) => `arn:aws:iam::123456789012:user/forged-${i}`;
    const events = Array.from({ length: OPEN_SIGNALS_PER_DETECTION + past }, (_, i) =>
      signInWithoutMfa(account, arn(i), 5),
    );
    const first = await ingest(account, events.slice(0, OPEN_SIGNALS_PER_DETECTION));
    expect(first).toMatchObject({ accepted: OPEN_SIGNALS_PER_DETECTION, signals_opened: OPEN_SIGNALS_PER_DETECTION });
    const beyond = await ingest(account, events.slice(OPEN_SIGNALS_PER_DETECTION));
    // Stored, every one of them (the event list names the detection), but opening nothing.
    expect(beyond).toMatchObject({ accepted: past, signals_opened: 0 });
    const open = await allOpen(account, 'event.console_sign_in_without_mfa');
    expect(open).toHaveLength(OPEN_SIGNALS_PER_DETECTION);
    // The newest open signal counts them: every occurrence is in some signal's count.
    const [newest] = open;
    expect(newest!.occurrences).toBe(1 + past);
    expect(open.reduce((sum, s) => sum + s.occurrences, 0)).toBe(OPEN_SIGNALS_PER_DETECTION + past);
    const stored = await ctx.http
      .get(`/accounts/${account.awsId}/events`)
      .query({ detection: 'event.console_sign_in_without_mfa', limit: 200 })
      .set(owner.auth)
      .expect(200);
    expect(stored.body.events).toHaveLength(OPEN_SIGNALS_PER_DETECTION + past);
    // One alert for the batch that opened signals; none for the one that opened nothing.
    expect(await alertsOf(account)).toHaveLength(1);
  });

  it("holds for a state detection's forged resources too, and counts an occurrence within its window as before", async () => {
    const account = await connect();
    // GuardDuty findings, each with an id of its own: a state each, the finding's.
    const findings = Array.from({ length: OPEN_SIGNALS_PER_DETECTION + 5 }, (_, i) =>
      event(account, 'guardduty-finding-high', 3, {
        id: `forged${String(i).padStart(4, '0')}`,
        accountId: account.awsId,
      }),
    );
    await ingest(account, findings.slice(0, 100));
    expect((await ingest(account, findings.slice(100))).signals_opened).toBe(0);
    const open = await allOpen(account, 'event.guardduty_high_severity_finding');
    expect(open).toHaveLength(OPEN_SIGNALS_PER_DETECTION);
    expect(open.reduce((sum, s) => sum + s.occurrences, 0)).toBe(OPEN_SIGNALS_PER_DETECTION + 5);

    // Within a window, below the bound: counted on the window's signal, which says so.
    const root = [event(account, 'root-console-sign-in', 4), event(account, 'root-console-sign-in', 3)];
    expect((await ingest(account, root)).signals_opened).toBe(1);
    expect((await signals(account, 'event.root_console_sign_in')).map((s) => s.occurrences)).toEqual([2]);
  });
});
