import type { z } from 'zod';
import { alertRule, listAlertRulesOutput } from '../../core/schemas/alerts';
import { errorBody, messageBody } from '../../core/schemas/common';
import { newId } from '../../domain/ids';
import { ALERT_RULES_PER_TENANT } from '../../domain/tenancy/limits';
import { sealLegacyChannelSecrets } from '../../scripts/seal-channel-secrets';
import { openChannel } from '../../security/channel-secrets';
import {
  addUserWithRole,
  createTestContext,
  signupAndLogin,
  type TestContext,
  type TestUser,
} from '../helpers/context';

// Alert rules: create, list, patch and soft-delete, with their validation, roles and tenant isolation.
let ctx: TestContext;
let owner: TestUser;
let member: TestUser;
let viewer: TestUser;
let other: TestUser;

const TEAM = 'T0123ABC';
const OTHER_TEAM = 'T0THER99';
const ROUTING_KEY = 'R'.repeat(16) + '0123456789abcdef';
const WEBHOOK = 'https://hooks.slack.com/services/T0123ABC/B0123/xyz';
const EMAIL = { type: 'email', to: ['ops@example.com'] };

beforeAll(async () => {
  ctx = await createTestContext();
  owner = await signupAndLogin(ctx);
  member = await addUserWithRole(ctx, owner.tenantId, 'member');
  viewer = await addUserWithRole(ctx, owner.tenantId, 'viewer');
  other = await signupAndLogin(ctx);
  await ctx.db
    .insertInto('slack_installations')
    .values([
      { id: 'slk_a', tenant_id: owner.tenantId, team_id: TEAM, bot_token_encrypted: 'x' },
      { id: 'slk_b', tenant_id: other.tenantId, team_id: OTHER_TEAM, bot_token_encrypted: 'x' },
    ])
    .execute();
});
afterAll(() => ctx.close());

function conforms(schema: z.ZodObject, body: unknown): void {
  const result = schema.strict().safeParse(body);
  if (!result.success) throw new Error(`response does not match its schema: ${JSON.stringify(result.error.issues)}`);
}

/** The tests before have used up much of the owner's allowance of live rules: start a group afresh. */
const retireOwnerRules = () =>
  ctx.db
    .updateTable('alert_rules')
    .set({ deleted_at: new Date() })
    .where('tenant_id', '=', owner.tenantId)
    .where('deleted_at', 'is', null)
    .execute();

const ruleRow = (id: string) =>
  ctx.db.selectFrom('alert_rules').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const ruleCount = async () =>
  Number(
    (
      await ctx.db
        .selectFrom('alert_rules')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

async function createRule(body: Record<string, unknown> = {}, user: TestUser = owner) {
  const res = await ctx.http
    .post('/alert-rules')
    .set(user.auth)
    .send({ name: 'Rule', channels: [EMAIL], ...body })
    .expect(201);
  conforms(alertRule, res.body);
  return res.body as z.infer<typeof alertRule>;
}

describe('POST /alert-rules', () => {
  it('creates a rule with every field, storing channel types under their canonical names', async () => {
    const res = await ctx.http
      .post('/alert-rules')
      .set(owner.auth)
      .send({
        name: '  Production on fire  ',
        min_srs: 55,
        scenarios: ['iam', 'threat', 'iam'],
        channels: [
          { type: 'email', to: ['Ops@Example.com', 'ops@example.com', 'cto@example.com'] },
          { type: 'chat', team_id: TEAM, channel: '#alerts' },
          { type: 'slack', team_id: TEAM, channel: 'C0123ABC' },
          { type: 'slack', webhook_url: WEBHOOK },
          { type: 'paging', routing_key: ROUTING_KEY },
        ],
        enabled: false,
      })
      .expect(201);
    conforms(alertRule, res.body);
    const expectedChannels = [
      { type: 'email', to: ['ops@example.com', 'cto@example.com'] },
      { type: 'slack', team_id: TEAM, channel: '#alerts' },
      { type: 'slack', team_id: TEAM, channel: 'C0123ABC' },
      { type: 'slack', webhook_url: WEBHOOK },
      { type: 'pagerduty', routing_key: ROUTING_KEY },
    ];
    // Shown masked; stored sealed (AES-256-GCM), readable only with the data key.
    const masked = expectedChannels.map((c) =>
      'webhook_url' in c
        ? { ...c, webhook_url: `****${WEBHOOK.slice(-4)}` }
        : 'routing_key' in c
          ? { ...c, routing_key: `****${ROUTING_KEY.slice(-4)}` }
          : c,
    );
    expect(res.body).toEqual({
      rule_id: expect.stringMatching(/^rule_[0-9A-Z]{26}$/),
      name: 'Production on fire',
      min_srs: 55,
      scenarios: ['iam', 'threat'],
      channels: masked,
      enabled: false,
      created_at: expect.any(String),
      updated_at: res.body.created_at,
    });
    expect(Date.parse(res.body.created_at)).not.toBeNaN();
    const row = await ruleRow(res.body.rule_id);
    expect(row).toMatchObject({
      tenant_id: owner.tenantId,
      name: 'Production on fire',
      min_srs: 55,
      scenarios: ['iam', 'threat'],
      enabled: false,
      version: 1,
      deleted_at: null,
    });
    expect(JSON.stringify(row.channels)).not.toContain(WEBHOOK);
    expect(JSON.stringify(row.channels)).not.toContain(ROUTING_KEY);
    expect(row.channels.map((c) => openChannel(ctx.config.secrets.dataEncryptionKey, c))).toEqual(expectedChannels);
  });

  it('accepts the bounds: a 200-character name, min_srs 0 and 100', async () => {
    expect((await createRule({ name: 'n'.repeat(200) })).name).toHaveLength(200);
    expect((await createRule({ min_srs: 0 })).min_srs).toBe(0);
    expect((await createRule({ min_srs: 100 })).min_srs).toBe(100);
  });

  it('defaults min_srs to 40, scenarios to all (empty) and enabled to true', async () => {
    const rule = await createRule({ name: 'Defaults' });
    expect(rule).toMatchObject({ name: 'Defaults', min_srs: 40, scenarios: [], enabled: true, channels: [EMAIL] });
  });

  it('lets a member create rules', async () => {
    const rule = await createRule({ name: 'By a member' }, member);
    expect((await ruleRow(rule.rule_id)).tenant_id).toBe(owner.tenantId);
  });

  it('forbids viewers (403) and writes nothing', async () => {
    const before = await ruleCount();
    const res = await ctx.http
      .post('/alert-rules')
      .set(viewer.auth)
      .send({ name: 'No', channels: [EMAIL] })
      .expect(403);
    expect(res.body.code).toBe('forbidden');
    expect(await ruleCount()).toBe(before);
  });

  it('requires a bearer token', async () => {
    await ctx.http
      .post('/alert-rules')
      .send({ name: 'No', channels: [EMAIL] })
      .expect(401);
  });

  const slack = (fields: Record<string, unknown>) => ({ type: 'slack', ...fields });
  it.each([
    ['an empty name', { name: '' }, 'name'],
    ['a blank name', { name: '   ' }, 'name'],
    ['a 201-character name', { name: 'x'.repeat(201) }, 'name'],
    ['a missing name', { name: undefined }, 'name'],
    ['min_srs -1', { min_srs: -1 }, 'min_srs'],
    ['min_srs 101', { min_srs: 101 }, 'min_srs'],
    ['min_srs 1.5', { min_srs: 1.5 }, 'min_srs'],
    ['min_srs "40"', { min_srs: '40' }, 'min_srs'],
    ['an unknown scenario', { scenarios: ['iam', 'weather'] }, 'scenarios.1'],
    ['scenarios that are not a list', { scenarios: 'iam' }, 'scenarios'],
    ['enabled "yes"', { enabled: 'yes' }, 'enabled'],
    ['no channels', { channels: [] }, 'channels'],
    ['a missing channels field', { channels: undefined }, 'channels'],
    ['11 channels', { channels: Array.from({ length: 11 }, () => EMAIL) }, 'channels'],
    ['an unknown channel type', { channels: [{ type: 'sms', to: ['+15550100'] }] }, 'channels.0.type'],
    ['a channel without a type', { channels: [{ to: ['ops@example.com'] }] }, 'channels.0.type'],
    ['a channel that is not an object', { channels: ['ops@example.com'] }, 'channels.0'],
    [
      'a bad e-mail address',
      { channels: [{ type: 'email', to: ['ops@example.com', 'not-an-address'] }] },
      'channels.0.to.1',
    ],
    ['no e-mail recipients', { channels: [{ type: 'email', to: [] }] }, 'channels.0.to'],
    [
      '21 e-mail recipients',
      { channels: [{ type: 'email', to: Array.from({ length: 21 }, (_, i) => `u${i}@example.com`) }] },
      'channels.0.to',
    ],
    [
      '21 e-mail recipients across channels',
      {
        channels: [0, 1, 2].map((c) => ({
          type: 'email',
          to: Array.from({ length: 7 }, (_, i) => `c${c}u${i}@example.com`),
        })),
      },
      'channels',
    ],
    [
      'an unknown field in a channel',
      { channels: [{ type: 'email', to: ['ops@example.com'], cc: ['x@example.com'] }] },
      'channels.0.cc',
    ],
    [
      'a 31-character routing key',
      { channels: [{ type: 'pagerduty', routing_key: 'a'.repeat(31) }] },
      'channels.0.routing_key',
    ],
    [
      'a 33-character routing key',
      { channels: [{ type: 'paging', routing_key: 'a'.repeat(33) }] },
      'channels.0.routing_key',
    ],
    [
      'a routing key with symbols',
      { channels: [{ type: 'pagerduty', routing_key: `${'a'.repeat(31)}-` }] },
      'channels.0.routing_key',
    ],
    ['a missing routing key', { channels: [EMAIL, { type: 'pagerduty' }] }, 'channels.1.routing_key'],
    [
      'a lower-case Slack team id',
      { channels: [slack({ team_id: 't0123abc', channel: '#alerts' })] },
      'channels.0.team_id',
    ],
    [
      'a Slack channel name with capitals',
      { channels: [slack({ team_id: TEAM, channel: '#General' })] },
      'channels.0.channel',
    ],
    ['a Slack channel without its channel', { channels: [slack({ team_id: TEAM })] }, 'channels.0.channel'],
    ['a Slack channel with neither team nor webhook', { channels: [slack({})] }, 'channels.0.team_id'],
    [
      'a Slack webhook together with a team',
      { channels: [slack({ webhook_url: WEBHOOK, team_id: TEAM })] },
      'channels.0.team_id',
    ],
    [
      'a webhook URL that is not a URL',
      { channels: [slack({ webhook_url: 'hooks.slack.com/services/x' })] },
      'channels.0.webhook_url',
    ],
    [
      'a webhook URL elsewhere',
      { channels: [slack({ webhook_url: 'https://example.com/services/x' })] },
      'channels.0.webhook_url',
    ],
    [
      'a look-alike webhook host',
      { channels: [EMAIL, slack({ webhook_url: 'https://hooks.slack.com.example.com/x' })] },
      'channels.1.webhook_url',
    ],
    [
      'a webhook URL with userinfo',
      { channels: [slack({ webhook_url: 'https://hooks.slack.com@example.com/x' })] },
      'channels.0.webhook_url',
    ],
    [
      'a plain-http webhook URL',
      { channels: [slack({ webhook_url: 'http://hooks.slack.com/services/x' })] },
      'channels.0.webhook_url',
    ],
    [
      'a Slack team not installed anywhere',
      { channels: [EMAIL, slack({ team_id: 'T9999999', channel: '#alerts' })] },
      'channels.1.team_id',
    ],
    [
      "another tenant's Slack team",
      { channels: [slack({ team_id: OTHER_TEAM, channel: '#alerts' })] },
      'channels.0.team_id',
    ],
    ['an unknown field', { colour: 'red' }, 'colour'],
  ])('rejects %s with 400 naming %p and writes nothing', async (_label, overrides, field) => {
    const before = await ruleCount();
    const res = await ctx.http
      .post('/alert-rules')
      .set(owner.auth)
      .send({ name: 'Rule', channels: [EMAIL], ...overrides })
      .expect(400);
    conforms(errorBody, res.body);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.details.map((d: { field: string }) => d.field)).toContain(field);
    expect(res.body.error).toContain(field);
    expect(await ruleCount()).toBe(before);
  });

  it('rejects a body that is not an object', async () => {
    const res = await ctx.http.post('/alert-rules').set(owner.auth).send([EMAIL]).expect(400);
    expect(res.body.code).toBe('validation_failed');
  });

  it("counts the same address once across a rule's channels", async () => {
    const twenty = Array.from({ length: 20 }, (_, i) => `same${i}@example.com`);
    const rule = await createRule({
      channels: [
        { type: 'email', to: twenty },
        { type: 'email', to: twenty.slice(0, 5) },
      ],
    });
    await ctx.http.delete(`/alert-rules/${rule.rule_id}`).set(owner.auth).expect(200);
  });

  it(`allows ${ALERT_RULES_PER_TENANT} live rules per tenant, created in parallel too; then 403, until one is deleted`, async () => {
    const tenant = await signupAndLogin(ctx);
    const attempts = await Promise.all(
      Array.from({ length: ALERT_RULES_PER_TENANT + 3 }, (_, i) =>
        ctx.http
          .post('/alert-rules')
          .set(tenant.auth)
          .send({ name: `Rule ${i}`, channels: [EMAIL] }),
      ),
    );
    expect(attempts.filter((r) => r.status === 201)).toHaveLength(ALERT_RULES_PER_TENANT);
    const refused = attempts.filter((r) => r.status !== 201);
    expect(refused.map((r) => [r.status, r.body])).toEqual(
      Array.from({ length: 3 }, () => [
        403,
        {
          error: `A tenant has at most ${ALERT_RULES_PER_TENANT} alert rules; delete one to create another`,
          code: 'plan_limit_exceeded',
        },
      ]),
    );
    await ctx.http
      .delete(`/alert-rules/${attempts.find((r) => r.status === 201)?.body.rule_id}`)
      .set(tenant.auth)
      .expect(200);
    await ctx.http
      .post('/alert-rules')
      .set(tenant.auth)
      .send({ name: 'Room again', channels: [EMAIL] })
      .expect(201);
  });
});

describe('GET /alert-rules', () => {
  let tenant: TestUser;
  beforeAll(async () => {
    tenant = await signupAndLogin(ctx);
  });

  it("lists the tenant's live rules oldest first, to viewers too", async () => {
    const tenantViewer = await addUserWithRole(ctx, tenant.tenantId, 'viewer');
    const empty = await ctx.http.get('/alert-rules').set(tenantViewer.auth).expect(200);
    expect(empty.body).toEqual({ rules: [], count: 0 });
    const first = await createRule({ name: 'First' }, tenant);
    const second = await createRule({ name: 'Second', min_srs: 70 }, tenant);
    const third = await createRule({ name: 'Third' }, tenant);
    await ctx.http.delete(`/alert-rules/${second.rule_id}`).set(tenant.auth).expect(200);

    const res = await ctx.http.get('/alert-rules').set(tenantViewer.auth).expect(200);
    conforms(listAlertRulesOutput, res.body);
    expect(res.body.count).toBe(2);
    expect(res.body.rules).toEqual([first, third]);
  });

  it("shows no other tenant's rules", async () => {
    await createRule({ name: 'Owner only' });
    const res = await ctx.http.get('/alert-rules').set(tenant.auth).expect(200);
    expect(res.body.rules.every((r: { name: string }) => ['First', 'Third'].includes(r.name))).toBe(true);
    const mine = await ctx.http.get('/alert-rules').set(owner.auth).expect(200);
    expect(mine.body.rules.some((r: { name: string }) => r.name === 'First')).toBe(false);
  });
});

describe('PATCH /alert-rules/{rule_id}', () => {
  beforeAll(retireOwnerRules);
  it('changes every field, replacing the lists, and bumps version and updated_at', async () => {
    const rule = await createRule({
      name: 'Before',
      scenarios: ['iam', 'billing'],
      channels: [EMAIL, { type: 'pagerduty', routing_key: ROUTING_KEY }],
    });
    const res = await ctx.http
      .patch(`/alert-rules/${rule.rule_id}`)
      .set(member.auth)
      .send({
        name: ' After ',
        min_srs: 0,
        scenarios: ['exposure'],
        channels: [{ type: 'chat', webhook_url: WEBHOOK }],
        enabled: false,
      })
      .expect(200);
    conforms(alertRule, res.body);
    expect(res.body).toEqual({
      rule_id: rule.rule_id,
      name: 'After',
      min_srs: 0,
      scenarios: ['exposure'],
      channels: [{ type: 'slack', webhook_url: `****${WEBHOOK.slice(-4)}` }],
      enabled: false,
      created_at: rule.created_at,
      updated_at: expect.any(String),
    });
    expect(Date.parse(res.body.updated_at)).toBeGreaterThan(Date.parse(rule.updated_at));
    const row = await ruleRow(rule.rule_id);
    expect(row).toMatchObject({ name: 'After', min_srs: 0, scenarios: ['exposure'], enabled: false, version: 2 });
    expect(row.channels.map((c) => openChannel(ctx.config.secrets.dataEncryptionKey, c))).toEqual([
      { type: 'slack', webhook_url: WEBHOOK },
    ]);
  });

  it('keeps the fields it does not name, and bumps version on each change', async () => {
    const rule = await createRule({ name: 'Partial', min_srs: 60, scenarios: ['iam'] });
    await ctx.http.patch(`/alert-rules/${rule.rule_id}`).set(owner.auth).send({ enabled: false }).expect(200);
    const res = await ctx.http
      .patch(`/alert-rules/${rule.rule_id}`)
      .set(owner.auth)
      .send({ scenarios: [] })
      .expect(200);
    expect(res.body).toMatchObject({ name: 'Partial', min_srs: 60, scenarios: [], channels: [EMAIL], enabled: false });
    expect((await ruleRow(rule.rule_id)).version).toBe(3);
  });

  it('writes nothing for a change that leaves the rule as it was', async () => {
    const rule = await createRule({ name: 'Same', scenarios: ['iam'] });
    const res = await ctx.http
      .patch(`/alert-rules/${rule.rule_id}`)
      .set(owner.auth)
      .send({ name: 'Same', scenarios: ['iam', 'iam'], channels: [{ type: 'email', to: ['OPS@example.com'] }] })
      .expect(200);
    expect(res.body).toEqual(rule);
    expect((await ruleRow(rule.rule_id)).version).toBe(1);
  });

  it('accepts a Slack workspace installed for the tenant', async () => {
    const rule = await createRule({ name: 'Slack' });
    const res = await ctx.http
      .patch(`/alert-rules/${rule.rule_id}`)
      .set(owner.auth)
      .send({ channels: [{ type: 'chat', team_id: TEAM, channel: 'ops-alerts' }] })
      .expect(200);
    expect(res.body.channels).toEqual([{ type: 'slack', team_id: TEAM, channel: 'ops-alerts' }]);
  });

  it.each([
    ['an empty body', {}, '(body)'],
    ['an empty name', { name: '' }, 'name'],
    ['min_srs 101', { min_srs: 101 }, 'min_srs'],
    ['an unknown scenario', { scenarios: ['weather'] }, 'scenarios.0'],
    ['no channels', { channels: [] }, 'channels'],
    ['a bad routing key', { channels: [EMAIL, { type: 'paging', routing_key: 'short' }] }, 'channels.1.routing_key'],
    [
      'a Slack team not installed for the tenant',
      { channels: [{ type: 'slack', team_id: OTHER_TEAM, channel: '#a' }] },
      'channels.0.team_id',
    ],
    [
      'a webhook URL elsewhere',
      { channels: [{ type: 'slack', webhook_url: 'https://example.com/hook' }] },
      'channels.0.webhook_url',
    ],
    ['an unknown field', { rule_id: 'rule_X' }, 'rule_id'],
    ['a null name', { name: null }, 'name'],
  ])('rejects %s with 400 naming %p and changes nothing', async (_label, body, field) => {
    const rule = await createRule({ name: 'Untouched' });
    const res = await ctx.http.patch(`/alert-rules/${rule.rule_id}`).set(owner.auth).send(body).expect(400);
    conforms(errorBody, res.body);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.details.map((d: { field: string }) => d.field)).toContain(field);
    const row = await ruleRow(rule.rule_id);
    expect(row).toMatchObject({ name: 'Untouched', version: 1, channels: [EMAIL] });
  });

  it('rejects a request without a body', async () => {
    const rule = await createRule();
    const res = await ctx.http.patch(`/alert-rules/${rule.rule_id}`).set(owner.auth).expect(400);
    expect(res.body.code).toBe('validation_failed');
  });

  it('validates the merged rule as a whole: a stored rule that no longer validates must be fixed in the same change', async () => {
    await ctx.db
      .insertInto('alert_rules')
      .values({
        id: 'rule_legacy',
        tenant_id: owner.tenantId,
        name: 'Legacy',
        channels: JSON.stringify([{ type: 'sms', number: '+15550100' }]),
        updated_at: new Date(),
      })
      .execute();
    const rename = await ctx.http
      .patch('/alert-rules/rule_legacy')
      .set(owner.auth)
      .send({ name: 'Renamed' })
      .expect(400);
    expect(rename.body.details.map((d: { field: string }) => d.field)).toContain('channels.0.type');
    expect((await ruleRow('rule_legacy')).name).toBe('Legacy');
    const fixed = await ctx.http
      .patch('/alert-rules/rule_legacy')
      .set(owner.auth)
      .send({ name: 'Renamed', channels: [EMAIL] })
      .expect(200);
    expect(fixed.body).toMatchObject({ name: 'Renamed', channels: [EMAIL] });
  });

  it('applies concurrent changes one after the other', async () => {
    const rule = await createRule({ name: 'Concurrent' });
    await Promise.all([
      ctx.http.patch(`/alert-rules/${rule.rule_id}`).set(owner.auth).send({ min_srs: 10 }).expect(200),
      ctx.http.patch(`/alert-rules/${rule.rule_id}`).set(owner.auth).send({ enabled: false }).expect(200),
      ctx.http
        .patch(`/alert-rules/${rule.rule_id}`)
        .set(owner.auth)
        .send({ scenarios: ['billing'] })
        .expect(200),
    ]);
    expect(await ruleRow(rule.rule_id)).toMatchObject({
      min_srs: 10,
      enabled: false,
      scenarios: ['billing'],
      version: 4,
    });
  });

  it('forbids viewers (403)', async () => {
    const rule = await createRule({ name: 'Viewer cannot' });
    const res = await ctx.http
      .patch(`/alert-rules/${rule.rule_id}`)
      .set(viewer.auth)
      .send({ name: 'Changed' })
      .expect(403);
    expect(res.body.code).toBe('forbidden');
    expect((await ruleRow(rule.rule_id)).name).toBe('Viewer cannot');
  });

  it("answers 404 for another tenant's, a deleted, an unknown or a malformed rule", async () => {
    const rule = await createRule({ name: 'Mine' });
    const foreign = await ctx.http
      .patch(`/alert-rules/${rule.rule_id}`)
      .set(other.auth)
      .send({ name: 'Stolen' })
      .expect(404);
    expect(foreign.body.code).toBe('not_found');
    expect(await ruleRow(rule.rule_id)).toMatchObject({ name: 'Mine', version: 1 });

    await ctx.http.delete(`/alert-rules/${rule.rule_id}`).set(owner.auth).expect(200);
    await ctx.http.patch(`/alert-rules/${rule.rule_id}`).set(owner.auth).send({ name: 'Revived' }).expect(404);
    await ctx.http.patch('/alert-rules/rule_01J0000000000000000000000').set(owner.auth).send({ name: 'X' }).expect(404);
    await ctx.http
      .patch(`/alert-rules/${encodeURIComponent('rule x;--')}`)
      .set(owner.auth)
      .send({ name: 'X' })
      .expect(404);
    await ctx.http
      .patch(`/alert-rules/rule_${'A'.repeat(100)}`)
      .set(owner.auth)
      .send({ name: 'X' })
      .expect(404);
    expect((await ruleRow(rule.rule_id)).name).toBe('Mine');
  });
});

describe('channel secrets', () => {
  const PAGING = { type: 'pagerduty', routing_key: ROUTING_KEY };
  const HOOK = { type: 'slack', webhook_url: WEBHOOK };
  const maskedHook = { type: 'slack', webhook_url: `****${WEBHOOK.slice(-4)}` };
  const maskedPaging = { type: 'pagerduty', routing_key: `****${ROUTING_KEY.slice(-4)}` };

  it('are masked for every role, in the list and the rule, on REST and tRPC', async () => {
    const rule = await createRule({ name: 'Secrets', channels: [EMAIL, HOOK, PAGING] });
    expect(rule.channels).toEqual([EMAIL, maskedHook, maskedPaging]);
    for (const user of [viewer, member, owner]) {
      const listed = (await ctx.http.get('/alert-rules').set(user.auth).expect(200)).body.rules.find(
        (r: { rule_id: string }) => r.rule_id === rule.rule_id,
      );
      expect(listed.channels).toEqual([EMAIL, maskedHook, maskedPaging]);
      expect((await ctx.http.get(`/alert-rules/${rule.rule_id}`).set(user.auth).expect(200)).body).toEqual(listed);
    }
    const viaTrpc = await ctx.http.get('/trpc/alertRules.list').set(viewer.auth).expect(200);
    expect(JSON.stringify(viaTrpc.body)).not.toContain(ROUTING_KEY);
    expect(JSON.stringify(viaTrpc.body)).not.toContain(WEBHOOK);
  });

  it('are shown in clear to an admin who asks, and to nobody below', async () => {
    const rule = await createRule({ name: 'Reveal', channels: [HOOK, PAGING] });
    const admin = await addUserWithRole(ctx, owner.tenantId, 'admin');
    for (const user of [admin, owner]) {
      const res = await ctx.http
        .get(`/alert-rules/${rule.rule_id}`)
        .query({ reveal: 'true' })
        .set(user.auth)
        .expect(200);
      expect(res.body.channels).toEqual([HOOK, PAGING]);
    }
    for (const user of [member, viewer]) {
      const res = await ctx.http
        .get(`/alert-rules/${rule.rule_id}`)
        .query({ reveal: 'true' })
        .set(user.auth)
        .expect(403);
      expect(res.body.code).toBe('forbidden');
    }
    await ctx.http.get(`/alert-rules/${rule.rule_id}`).query({ reveal: 'yes' }).set(owner.auth).expect(400);
    await ctx.http.get(`/alert-rules/${rule.rule_id}`).set(other.auth).expect(404);
  });

  it('are kept when a change sends back the masked value shown, and replaced when it sends a new one', async () => {
    const rule = await createRule({ name: 'Keep', channels: [HOOK, PAGING] });
    const renamed = await ctx.http
      .patch(`/alert-rules/${rule.rule_id}`)
      .set(member.auth)
      .send({ name: 'Kept', channels: rule.channels })
      .expect(200);
    expect(renamed.body.channels).toEqual([maskedHook, maskedPaging]);
    const revealed = async () =>
      (await ctx.http.get(`/alert-rules/${rule.rule_id}`).query({ reveal: 'true' }).set(owner.auth)).body.channels;
    expect(await revealed()).toEqual([HOOK, PAGING]);

    const newKey = 'N'.repeat(28) + 'wxyz';
    await ctx.http
      .patch(`/alert-rules/${rule.rule_id}`)
      .set(member.auth)
      .send({ channels: [maskedHook, { type: 'pagerduty', routing_key: newKey }] })
      .expect(200);
    expect(await revealed()).toEqual([HOOK, { type: 'pagerduty', routing_key: newKey }]);

    // A masked value that matches no stored secret at its position is refused, naming the field.
    const wrong = await ctx.http
      .patch(`/alert-rules/${rule.rule_id}`)
      .set(member.auth)
      .send({ channels: [maskedHook, { type: 'pagerduty', routing_key: '****abcd' }] })
      .expect(400);
    expect(wrong.body.details).toEqual([
      { field: 'channels.1.routing_key', message: 'must be a 32-character PagerDuty integration key' },
    ]);
    const swapped = await ctx.http
      .patch(`/alert-rules/${rule.rule_id}`)
      .set(member.auth)
      .send({ channels: [maskedPaging, maskedHook] })
      .expect(400);
    expect(swapped.body.details.map((d: { field: string }) => d.field)).toEqual([
      'channels.0.routing_key',
      'channels.1.webhook_url',
    ]);
    // A new rule has nothing to keep: a masked value is not a secret.
    await ctx.http
      .post('/alert-rules')
      .set(owner.auth)
      .send({ name: 'Masked', channels: [maskedPaging] })
      .expect(400);
  });

  it('stored in clear before sealing are read, masked, and sealed in place by npm run seal-channel-secrets', async () => {
    const id = 'rule_legacy0000000000000000000';
    await ctx.db
      .insertInto('alert_rules')
      .values({
        id,
        tenant_id: owner.tenantId,
        name: 'Legacy',
        min_srs: 40,
        scenarios: [],
        enabled: true,
        channels: JSON.stringify([EMAIL, HOOK, PAGING]),
      })
      .execute();
    expect((await ctx.http.get(`/alert-rules/${id}`).set(viewer.auth).expect(200)).body.channels).toEqual([
      EMAIL,
      maskedHook,
      maskedPaging,
    ]);
    // Deliveries copy their channel when the alert fires: a legacy one holds the secret in clear too.
    const accountId = newId('account');
    const alertId = newId('alert');
    const scanId = newId('scan');
    await ctx.db
      .insertInto('accounts')
      .values({
        id: accountId,
        tenant_id: owner.tenantId,
        aws_account_id: '444455556666',
        display_name: null,
        tags: [],
        status: 'ACTIVE',
        external_id: 'x'.repeat(32),
        role_name: 'SentinelReadOnly',
        workflow_id: `wf-${accountId}`,
      })
      .execute();
    await ctx.db
      .insertInto('scans')
      .values({
        id: scanId,
        tenant_id: owner.tenantId,
        account_id: accountId,
        trigger: 'scheduled',
        status: 'succeeded',
        srs: 10,
        started_at: new Date(),
      })
      .execute();
    await ctx.db
      .insertInto('alert_events')
      .values({
        id: alertId,
        tenant_id: owner.tenantId,
        account_id: accountId,
        rule_id: id,
        scan_id: scanId,
        srs_at_trigger: 10,
        scenarios_triggered: [],
        findings_digest: 'legacy',
        fired_at: new Date(),
      })
      .execute();
    const deliveryIds = [newId('delivery'), newId('delivery')];
    await ctx.db
      .insertInto('alert_deliveries')
      .values(
        [HOOK, PAGING].map((channel, i) => ({
          id: deliveryIds[i]!,
          alert_id: alertId,
          tenant_id: owner.tenantId,
          scan_id: scanId,
          channel_index: i + 1,
          channel_type: channel.type === 'slack' ? ('slack' as const) : ('pagerduty' as const),
          channel: JSON.stringify(channel),
          status: 'delivered' as const,
        })),
      )
      .execute();

    const key = ctx.config.secrets.dataEncryptionKey;
    const sealed = await sealLegacyChannelSecrets(ctx.db, key);
    expect(sealed.rules).toBeGreaterThanOrEqual(1);
    expect(sealed.deliveries).toBe(2);
    const stored = JSON.stringify((await ruleRow(id)).channels);
    expect(stored).not.toContain(WEBHOOK);
    expect(stored).not.toContain(ROUTING_KEY);
    const deliveries = await ctx.db
      .selectFrom('alert_deliveries')
      .select('channel')
      .where('id', 'in', deliveryIds)
      .orderBy('channel_index')
      .execute();
    expect(JSON.stringify(deliveries)).not.toContain(WEBHOOK);
    expect(JSON.stringify(deliveries)).not.toContain(ROUTING_KEY);
    expect(deliveries.map((d) => openChannel(key, d.channel))).toEqual([HOOK, PAGING]);
    expect(
      (await ctx.http.get(`/alert-rules/${id}`).query({ reveal: 'true' }).set(owner.auth).expect(200)).body.channels,
    ).toEqual([EMAIL, HOOK, PAGING]);
    expect(await sealLegacyChannelSecrets(ctx.db, key)).toEqual({ rules: 0, deliveries: 0 });
  });
});

describe('DELETE /alert-rules/{rule_id}', () => {
  beforeAll(retireOwnerRules);
  it('soft-deletes the rule (the row stays for the alerts that point at it)', async () => {
    const rule = await createRule({ name: 'Doomed' }, member);
    const res = await ctx.http.delete(`/alert-rules/${rule.rule_id}`).set(member.auth).expect(200);
    conforms(messageBody, res.body);
    expect(res.body.message).toContain(rule.rule_id);
    const row = await ruleRow(rule.rule_id);
    expect(row.deleted_at).toBeInstanceOf(Date);
    const list = await ctx.http.get('/alert-rules').set(owner.auth).expect(200);
    expect(list.body.rules.map((r: { rule_id: string }) => r.rule_id)).not.toContain(rule.rule_id);
  });

  it('answers 404 the second time', async () => {
    const rule = await createRule({ name: 'Twice' });
    await ctx.http.delete(`/alert-rules/${rule.rule_id}`).set(owner.auth).expect(200);
    const again = await ctx.http.delete(`/alert-rules/${rule.rule_id}`).set(owner.auth).expect(404);
    expect(again.body.code).toBe('not_found');
  });

  it('forbids viewers (403)', async () => {
    const rule = await createRule({ name: 'Kept' });
    const res = await ctx.http.delete(`/alert-rules/${rule.rule_id}`).set(viewer.auth).expect(403);
    expect(res.body.code).toBe('forbidden');
    expect((await ruleRow(rule.rule_id)).deleted_at).toBeNull();
  });

  it("answers 404 for another tenant's rule and for a malformed id", async () => {
    const rule = await createRule({ name: 'Not yours' });
    const res = await ctx.http.delete(`/alert-rules/${rule.rule_id}`).set(other.auth).expect(404);
    expect(res.body.code).toBe('not_found');
    expect((await ruleRow(rule.rule_id)).deleted_at).toBeNull();
    await ctx.http
      .delete(`/alert-rules/${encodeURIComponent('../alert-rules')}`)
      .set(owner.auth)
      .expect(404);
  });
});
