import { readFileSync } from 'node:fs';
import path from 'node:path';
import { SANDBOX_PARTIAL_ACCOUNT_ID } from '../../cloud/sandbox/inventory';
import { ATTACK_PATH_KINDS } from '../../domain/attack-paths/types';
import { SEVERITIES } from '../../domain/checks/types';
import { createTestContext, signupAndLogin, type TestContext, type TestUser } from '../helpers/context';
import { waitFor } from '../helpers/patience';
import { scanResult } from '../helpers/scans';
import { callerFor } from '../trpc/caller';

// GET /accounts/{id}/attack-paths and GET /attack-paths on scanned sandbox accounts: the demo estate's escalation
// path and toxic combination, each edge joining nodes of its path with its evidence; the order (toxic combinations
// first), pages, filters, the analysis' status (never an empty list passed off as safe), isolation between
// tenants, and the paths as findings: signals of the attack_path scenario, the recovery checklist, an alert rule.

const AWS_ID = '123456789012';
const OTHER_ID = '123456789013';
const FRESH_ID = '210987654321';

interface Node {
  id: string;
  kind: string;
  label: string;
}
interface Edge {
  from: string;
  to: string;
  label: string;
  evidence: string[];
  certainty: string;
}
interface Path {
  path_id: string;
  aws_account_id: string;
  kind: string;
  rule: string;
  severity: string;
  certainty: string;
  title: string;
  summary: string;
  source: string;
  nodes: Node[];
  edges: Edge[];
}
interface Listed {
  analysis: { status: string; reason: string | null; scan_id: string | null; unread: { scope: string }[] };
  paths: Path[];
  count: number;
  next_token: string | null;
}

let ctx: TestContext;
let owner: TestUser;
let stranger: TestUser;
/** The owner's accounts' event keys, by AWS account id. */
const eventKeys = new Map<string, string>();

async function connectAndScan(user: TestUser, awsId: string) {
  const connected = await ctx.http.post('/accounts').set(user.auth).send({ aws_account_id: awsId }).expect(201);
  if (user === owner) eventKeys.set(awsId, connected.body.event_forwarding.api_key);
  const verified = await ctx.http.post(`/accounts/${awsId}/verify`).set(user.auth).expect(200);
  await scanResult(ctx.temporal, verified.body.first_scan_execution_arn);
}

/** A console sign-in without MFA by `userArn` in the account, happening now, sent as the account's forwarder sends it. */
async function signInWithoutMfa(awsId: string, userArn: string) {
  const fixture = JSON.parse(
    readFileSync(path.join(__dirname, '../fixtures/aws-events/console-sign-in-no-mfa.json'), 'utf8'),
  ) as { detail: { userIdentity: object } };
  const now = new Date().toISOString();
  const event = {
    ...fixture,
    id: `sign-in-${userArn.slice(userArn.lastIndexOf('/') + 1)}-${Date.now()}`,
    account: awsId,
    time: now,
    detail: {
      ...fixture.detail,
      eventTime: now,
      userIdentity: {
        ...fixture.detail.userIdentity,
        arn: userArn,
        userName: userArn.slice(userArn.lastIndexOf('/') + 1),
      },
    },
  };
  await ctx.http
    .post('/ingest/aws/events')
    .set('Content-Type', 'application/json')
    .set('X-Sentinel-Event-Key', eventKeys.get(awsId)!)
    .send(JSON.stringify([event]))
    .expect(202);
}

const openSignalsOf = async (awsId: string, checkId: string) =>
  (
    await ctx.http
      .get(`/accounts/${awsId}/signals`)
      .query({ check_id: checkId, status: 'open' })
      .set(owner.auth)
      .expect(200)
  ).body.signals as { resource: string; severity: string }[];

beforeAll(async () => {
  ctx = await createTestContext({ withWorker: true, config: { CLOUD_PROVIDER: 'sandbox' } });
  owner = await signupAndLogin(ctx);
  stranger = await signupAndLogin(ctx);
  for (const user of [owner, stranger])
    await ctx.db.updateTable('tenants').set({ plan: 'team' }).where('id', '=', user.tenantId).execute();
  // Fires on any attack path a scan opens, whatever the score.
  await ctx.http
    .post('/alert-rules')
    .set(owner.auth)
    .send({
      name: 'Attack paths',
      min_srs: 0,
      scenarios: ['attack_path'],
      channels: [{ type: 'email', to: ['ops@example.com'] }],
    })
    .expect(201);
  await connectAndScan(owner, AWS_ID);
  await connectAndScan(owner, OTHER_ID);
  await connectAndScan(owner, SANDBOX_PARTIAL_ACCOUNT_ID);
  await connectAndScan(stranger, AWS_ID);
  await ctx.http.post('/accounts').set(owner.auth).send({ aws_account_id: FRESH_ID }).expect(201);
});
afterAll(() => ctx.close());

const list = async (awsId: string, query: Record<string, string | number> = {}, user = owner) =>
  (await ctx.http.get(`/accounts/${awsId}/attack-paths`).query(query).set(user.auth).expect(200)).body as Listed;

describe('an account’s attack paths', () => {
  it('shows the demo estate’s escalation path and toxic combination, each a connected chain with evidence', async () => {
    const { analysis, paths, count } = await list(AWS_ID, { limit: 200 });
    expect(analysis).toMatchObject({ status: 'complete', reason: null });
    expect(analysis.scan_id).toMatch(/^scan_/);
    expect(count).toBe(paths.length);
    const kinds = new Set(paths.map((p) => p.kind));
    expect(kinds).toContain('escalation');
    expect(kinds).toContain('toxic_combination');
    for (const path of paths) {
      expect(ATTACK_PATH_KINDS).toContain(path.kind);
      expect(path.aws_account_id).toBe(AWS_ID);
      expect(path.edges.length).toBeGreaterThan(0);
      const ids = new Set(path.nodes.map((n) => n.id));
      for (const edge of path.edges) {
        expect(ids.has(edge.from) && ids.has(edge.to)).toBe(true);
        expect(edge.evidence.length).toBeGreaterThan(0);
      }
    }
    const toxic = paths.filter((p) => p.kind === 'toxic_combination');
    expect(toxic.every((p) => p.severity === 'CRITICAL')).toBe(true);
    // An escalation ends at the administrator, through the permission that allows each step.
    const escalation = paths.find((p) => p.kind === 'escalation')!;
    expect(escalation.nodes.some((n) => n.kind === 'administrator')).toBe(true);
    expect(
      escalation.edges.some((e) =>
        /^(iam|sts|lambda|ec2|ssm|glue|cloudformation|codebuild|sagemaker|ecs):/.test(e.label),
      ),
    ).toBe(true);
  });

  it('lists the most severe first, toxic combinations first among equals, in pages that cover the list once', async () => {
    const whole = (await list(AWS_ID, { limit: 200 })).paths;
    const rank = (p: Path) =>
      SEVERITIES.indexOf(p.severity as never) * 3 + ['toxic_combination', 'escalation', 'exposure'].indexOf(p.kind);
    const ranks = whole.map(rank);
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
    const paged: string[] = [];
    let token: string | null = null;
    do {
      const page: Listed = await list(AWS_ID, { limit: 2, ...(token ? { next_token: token } : {}) });
      expect(page.paths.length).toBeLessThanOrEqual(2);
      paged.push(...page.paths.map((p) => p.path_id));
      token = page.next_token;
    } while (token);
    expect(paged).toEqual(whole.map((p) => p.path_id));
  });

  it('filters by kind and severity', async () => {
    const toxic = await list(AWS_ID, { kind: 'toxic_combination' });
    expect(toxic.paths.length).toBeGreaterThan(0);
    expect(toxic.paths.every((p) => p.kind === 'toxic_combination')).toBe(true);
    const high = await list(AWS_ID, { severity: 'HIGH' });
    expect(high.paths.every((p) => p.severity === 'HIGH')).toBe(true);
  });

  it('says when the analysis could not read everything, and before the first scan that nothing was analysed', async () => {
    const partial = await list(SANDBOX_PARTIAL_ACCOUNT_ID);
    expect(partial.analysis.status).toBe('partial');
    expect(partial.analysis.unread.length).toBeGreaterThan(0);
    const fresh = await list(FRESH_ID);
    expect(fresh).toEqual({
      analysis: { status: 'not_scanned', reason: null, scan_id: null, analyzed_at: null, unread: [] },
      paths: [],
      count: 0,
      next_token: null,
    });
  });

  it('answers 400 for a bad filter or cursor, and 404 for an account of another tenant or none', async () => {
    for (const [query, code] of [
      [{ kind: 'shortcut' }, 'validation_failed'],
      [{ severity: 'SEVERE' }, 'validation_failed'],
      [{ limit: 0 }, 'validation_failed'],
      [{ colour: 'red' }, 'validation_failed'],
      [{ next_token: 'bm90IGEgY3Vyc29y' }, 'invalid_cursor'],
      [{ next_token: Buffer.from(JSON.stringify([1, 'acc_x', ''])).toString('base64url') }, 'invalid_cursor'],
    ] as const) {
      const res = await ctx.http.get(`/accounts/${AWS_ID}/attack-paths`).query(query).set(owner.auth).expect(400);
      expect(res.body).toMatchObject({ code });
    }
    await ctx.http.get('/accounts/999988887777/attack-paths').set(owner.auth).expect(404);
    const { body } = await ctx.http.get(`/accounts/${OTHER_ID}/attack-paths`).set(stranger.auth).expect(404);
    expect(body).toMatchObject({ code: 'not_found' });
  });
});

describe("the tenant's attack paths", () => {
  it('lists every account’s, each naming its account, and only the caller tenant’s', async () => {
    const all: Path[] = [];
    let token: string | null = null;
    do {
      const res: { body: { paths: Path[]; next_token: string | null } } = await ctx.http
        .get('/attack-paths')
        .query({ limit: 200, ...(token ? { next_token: token } : {}) })
        .set(owner.auth)
        .expect(200);
      all.push(...res.body.paths);
      token = res.body.next_token;
    } while (token);
    const accounts = new Set(all.map((p) => p.aws_account_id));
    expect(accounts).toContain(AWS_ID);
    expect(accounts).toContain(OTHER_ID);
    const mine = await list(AWS_ID, { limit: 200 });
    expect(all.filter((p) => p.aws_account_id === AWS_ID).map((p) => p.path_id)).toEqual(
      mine.paths.map((p) => p.path_id),
    );
    // The stranger scanned the same AWS account id: its paths are its own, and ours are not in its list.
    const theirs = await ctx.http.get('/attack-paths').query({ limit: 200 }).set(stranger.auth).expect(200);
    expect(new Set(theirs.body.paths.map((p: Path) => p.aws_account_id))).toEqual(new Set([AWS_ID]));
    const ours = await ctx.db
      .selectFrom('attack_paths')
      .select('tenant_id')
      .distinct()
      .where('tenant_id', 'in', [owner.tenantId, stranger.tenantId])
      .execute();
    expect(ours).toHaveLength(2);
  });

  it('narrows to one account, and an account that matches nothing is an empty page', async () => {
    const one = await ctx.http.get('/attack-paths').query({ aws_account_id: OTHER_ID }).set(owner.auth).expect(200);
    expect(one.body.paths.every((p: Path) => p.aws_account_id === OTHER_ID)).toBe(true);
    const none = await ctx.http
      .get('/attack-paths')
      .query({ aws_account_id: '555566667777' })
      .set(owner.auth)
      .expect(200);
    expect(none.body).toEqual({
      analyses: { complete: 0, incomplete_count: 0, incomplete: [] },
      paths: [],
      count: 0,
      next_token: null,
    });
  });

  it('says how far its accounts were analysed, naming those not analysed completely, never an unqualified empty list', async () => {
    const ids = [AWS_ID, OTHER_ID, SANDBOX_PARTIAL_ACCOUNT_ID, FRESH_ID];
    const statuses = await Promise.all(ids.map(async (id) => ({ id, analysis: (await list(id)).analysis })));
    const order = { not_scanned: 0, not_evaluated: 1, partial: 2 } as Record<string, number>;
    const incomplete = statuses
      .filter((s) => s.analysis.status !== 'complete')
      .sort((a, b) => order[a.analysis.status]! - order[b.analysis.status]! || a.id.localeCompare(b.id))
      .map((s) => ({ aws_account_id: s.id, status: s.analysis.status, reason: s.analysis.reason }));
    // The partial sandbox account and the one never verified are among them.
    expect(incomplete.map((a) => [a.aws_account_id, a.status])).toEqual(
      expect.arrayContaining([
        [SANDBOX_PARTIAL_ACCOUNT_ID, 'partial'],
        [FRESH_ID, 'not_scanned'],
      ]),
    );
    const whole = await ctx.http.get('/attack-paths').query({ kind: 'exposure' }).set(owner.auth).expect(200);
    expect(whole.body.analyses).toEqual({
      complete: ids.length - incomplete.length,
      incomplete_count: incomplete.length,
      incomplete,
    });
    // One account in scope: its own; a fresh account's empty page says nothing was analysed.
    const fresh = await ctx.http.get('/attack-paths').query({ aws_account_id: FRESH_ID }).set(owner.auth).expect(200);
    expect(fresh.body).toEqual({
      analyses: {
        complete: 0,
        incomplete_count: 1,
        incomplete: [{ aws_account_id: FRESH_ID, status: 'not_scanned', reason: null }],
      },
      paths: [],
      count: 0,
      next_token: null,
    });
    // The stranger's scope is its one account.
    const theirs = await ctx.http.get('/attack-paths').set(stranger.auth).expect(200);
    expect(theirs.body.analyses.complete + theirs.body.analyses.incomplete_count).toBe(1);
  });

  it('answers the same through tRPC', async () => {
    const trpc = callerFor(ctx, owner);
    const viaTrpc = await trpc.attackPaths.list({ account_id: AWS_ID, query: { limit: 200 } });
    const viaRest = await list(AWS_ID, { limit: 200 });
    expect(viaTrpc).toEqual(viaRest);
    const search = await trpc.attackPaths.search({ kind: 'toxic_combination' });
    expect(search.paths.every((p) => p.kind === 'toxic_combination')).toBe(true);
  });
});

describe('attack paths as findings', () => {
  it('opens a signal of the attack_path scenario for each toxic combination, at the head of the checklist', async () => {
    const signals = await ctx.http
      .get(`/accounts/${AWS_ID}/signals`)
      .query({ scenario: 'attack_path', status: 'open', limit: 200 })
      .set(owner.auth)
      .expect(200);
    const checkIds = new Set(signals.body.signals.map((s: { check_id: string }) => s.check_id));
    expect(checkIds).toContain('attack_path.privilege_escalation');
    const toxicRules = new Set(
      (await list(AWS_ID, { kind: 'toxic_combination' })).paths.map((p) => `attack_path.${p.rule}`),
    );
    for (const id of toxicRules) expect(checkIds).toContain(id);
    const checklist = await ctx.http.get(`/accounts/${AWS_ID}/recovery-checklist`).set(owner.auth).expect(200);
    const titles = checklist.body.checklist.map((s: { title: string }) => s.title);
    const toxicTitles = signals.body.signals
      .filter((s: { severity: string }) => s.severity === 'CRITICAL')
      .map((s: { title: string }) => s.title);
    expect(toxicTitles.length).toBeGreaterThan(0);
    expect(titles).toEqual(expect.arrayContaining(toxicTitles));
  });

  it('joins live detections: a principal with an escalation path seen acting is a toxic combination at the next scan', async () => {
    const account = await ctx.db
      .selectFrom('accounts')
      .select(['id', 'tenant_id'])
      .where('tenant_id', '=', owner.tenantId)
      .where('aws_account_id', '=', AWS_ID)
      .executeTakeFirstOrThrow();
    const escalating = (await list(AWS_ID, { kind: 'escalation' })).paths[0]!.source;
    const bystander = `arn:aws:iam::${AWS_ID}:role/no-such-role`;
    // What an event detection's signals hold of who acted (as ingestion writes them), an hour ago.
    const at = new Date(Date.now() - 3_600_000);
    await ctx.db
      .insertInto('signals')
      .values(
        [escalating, bystander].map((principal, i) => ({
          id: `sig_actor${i}${owner.tenantId.slice(-6)}`,
          tenant_id: account.tenant_id,
          account_id: account.id,
          check_id: 'event.console_sign_in_without_mfa',
          fingerprint: `event.console_sign_in_without_mfa:${principal}:${i}`,
          scenario: 'threat' as const,
          severity: 'HIGH' as const,
          title: 'Console sign-in without MFA',
          description: 'A console sign-in without MFA.',
          resource: principal,
          first_scan_id: null,
          detected_at: at,
          principal,
          occurred_at: at,
        })),
      )
      .execute();
    const scan = await ctx.http.post(`/accounts/${AWS_ID}/scan`).set(owner.auth).expect(202);
    await scanResult(ctx.temporal, scan.body.execution_arn);

    const seen = (await list(AWS_ID, { kind: 'toxic_combination', limit: 200 })).paths.filter(
      (p) => p.rule === 'escalation_seen_acting',
    );
    expect(seen.map((p) => p.path_id)).toEqual([`toxic:escalation_seen_acting:${escalating}`]);
    expect(seen[0]!.edges[0]).toMatchObject({ label: 'seen acting', evidence: ['event.console_sign_in_without_mfa'] });
    const opened = await ctx.http
      .get(`/accounts/${AWS_ID}/signals`)
      .query({ check_id: 'attack_path.escalation_seen_acting', status: 'open' })
      .set(owner.auth)
      .expect(200);
    expect(opened.body.signals.map((s: { resource: string }) => s.resource)).toEqual([escalating]);
  });

  it('joins live detections the moment the event comes: the combination is found without a scan, and the next scan keeps it as one', async () => {
    const escalating = (await list(OTHER_ID, { kind: 'escalation' })).paths.find((p) =>
      p.source.includes(':user/'),
    )!.source;
    const bystander = `arn:aws:iam::${OTHER_ID}:user/no-escalation`;
    const seenActing = async () =>
      (await list(OTHER_ID, { kind: 'toxic_combination', limit: 200 })).paths.filter(
        (p) => p.rule === 'escalation_seen_acting',
      );
    expect(await seenActing()).toEqual([]);

    await signInWithoutMfa(OTHER_ID, bystander);
    expect(await seenActing()).toEqual([]);
    expect(await openSignalsOf(OTHER_ID, 'attack_path.escalation_seen_acting')).toEqual([]);

    await signInWithoutMfa(OTHER_ID, escalating);
    const [live] = await seenActing();
    expect(live).toMatchObject({
      path_id: `toxic:escalation_seen_acting:${escalating}`,
      severity: 'CRITICAL',
      source: 'event:event.console_sign_in_without_mfa',
    });
    expect(live!.edges[0]).toMatchObject({
      from: 'event:event.console_sign_in_without_mfa',
      to: escalating,
      label: 'seen acting',
      evidence: ['event.console_sign_in_without_mfa'],
    });
    // The rest of the chain is the stored escalation path's, ending at the administrator.
    expect(live!.nodes.map((n) => n.id)).toContain('administrator');
    expect(await openSignalsOf(OTHER_ID, 'attack_path.escalation_seen_acting')).toEqual([
      expect.objectContaining({ resource: escalating, severity: 'CRITICAL' }),
    ]);
    // The alert rule on the attack_path scenario fires on the event batch, not on a scan.
    await waitFor(async () => {
      const fired = await ctx.db
        .selectFrom('alert_events')
        .innerJoin('accounts', 'accounts.id', 'alert_events.account_id')
        .select(['alert_events.scenarios_triggered'])
        .where('accounts.aws_account_id', '=', OTHER_ID)
        .where('alert_events.tenant_id', '=', owner.tenantId)
        .where('alert_events.event_batch_id', 'is not', null)
        .execute();
      return fired.some((a) => a.scenarios_triggered.includes('attack_path'));
    });

    // The same principal again opens nothing new; the next full scan finds the same combination (the event is within
    // its day) and keeps the one signal.
    await signInWithoutMfa(OTHER_ID, escalating);
    const scan = await ctx.http.post(`/accounts/${OTHER_ID}/scan`).set(owner.auth).expect(202);
    await scanResult(ctx.temporal, scan.body.execution_arn);
    expect((await seenActing()).map((p) => p.path_id)).toEqual([`toxic:escalation_seen_acting:${escalating}`]);
    expect(await openSignalsOf(OTHER_ID, 'attack_path.escalation_seen_acting')).toHaveLength(1);
  });

  it('fires an alert rule that lists the attack_path scenario', async () => {
    await waitFor(async () => {
      const alerts = await ctx.http.get('/alerts').set(owner.auth).expect(200);
      return alerts.body.alerts.some((a: { scenarios_triggered: string[] }) =>
        a.scenarios_triggered.includes('attack_path'),
      );
    });
  });
});
