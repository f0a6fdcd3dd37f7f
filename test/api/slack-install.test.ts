import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import request from 'supertest';
import type { z } from 'zod';
import { createApp } from '../../api/app';
import { errorBody, messageBody } from '../../core/schemas/common';
import { listSlackInstallationsOutput, oauthStartOutput } from '../../core/schemas/integrations';
import { sha256 } from '../../security/crypto';
import { createLogger } from '../../config/logger';
import { decryptSecret } from '../../security/crypto';
import {
  addUserWithRole,
  createTestContext,
  signupAndLogin,
  type TestContext,
  type TestUser,
} from '../helpers/context';
import { type HttpPeer, type PeerReply, type PeerRequest, startHttpPeer } from '../helpers/http-peer';

const CLIENT_ID = '2141029472.691202649728';
const CLIENT_SECRET = 'e1b7c0d9a4f25c3b8d6e0f1a2b3c4d5e';
const PUBLIC_BASE_URL = 'https://sentinel.example.com';
const AUTHORIZE_URL = 'https://slack.example.com/oauth/v2/authorize';
const REDIRECT_URI = `${PUBLIC_BASE_URL}/webhooks/slack/install`;

interface Team {
  id: string;
  name: string;
}

/**
 * Slack's oauth.v2.access as documented: form-encoded POST, client credentials as HTTP Basic auth, HTTP 200
 * with `ok: true` and the bot token, or `ok: false` with an error code. A code is issued when the user approves
 * (`approve`) and redeems once (then `code_already_used`), for the redirect_uri the flow was started with.
 */
class FakeSlack {
  private readonly codes = new Map<string, { team: Team; token: string }>();
  private readonly redeemed = new Set<string>();

  approve(team: Team, token = `xoxb-${randomBytes(12).toString('hex')}`): { code: string; token: string } {
    const code = `${randomBytes(4).toString('hex')}.${randomBytes(12).toString('hex')}`;
    this.codes.set(code, { team, token });
    return { code, token };
  }

  readonly oauthV2Access = (req: PeerRequest): PeerReply => {
    if (req.method !== 'POST' || req.path !== '/oauth.v2.access')
      return { status: 404, body: { ok: false, error: 'unknown_method' } };
    if (!String(req.headers['content-type']).startsWith('application/x-www-form-urlencoded')) {
      return { status: 200, body: { ok: false, error: 'invalid_form_data' } };
    }
    const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? '');
    const [id, secret] = basic?.[1] ? Buffer.from(basic[1], 'base64').toString('utf8').split(':') : [];
    if (id !== CLIENT_ID) return { status: 200, body: { ok: false, error: 'invalid_client_id' } };
    if (secret !== CLIENT_SECRET) return { status: 200, body: { ok: false, error: 'bad_client_secret' } };
    if (req.form.redirect_uri !== REDIRECT_URI) return { status: 200, body: { ok: false, error: 'bad_redirect_uri' } };
    const code = req.form.code ?? '';
    if (this.redeemed.has(code)) return { status: 200, body: { ok: false, error: 'code_already_used' } };
    const grant = this.codes.get(code);
    if (!grant) return { status: 200, body: { ok: false, error: 'invalid_code' } };
    this.codes.delete(code);
    this.redeemed.add(code);
    return {
      status: 200,
      body: {
        ok: true,
        access_token: grant.token,
        token_type: 'bot',
        scope: 'chat:write,chat:write.public,channels:read',
        bot_user_id: 'U0KRQLJ9H',
        app_id: 'A0KRD7HC3',
        team: grant.team,
        enterprise: null,
        is_enterprise_install: false,
        authed_user: { id: 'U1234' },
      },
    };
  };
}

let ctx: TestContext;
let peer: HttpPeer;
let slack: FakeSlack;

beforeAll(async () => {
  slack = new FakeSlack();
  peer = await startHttpPeer(slack.oauthV2Access);
  ctx = await createTestContext({
    config: {
      SLACK_CLIENT_ID: CLIENT_ID,
      SLACK_CLIENT_SECRET: CLIENT_SECRET,
      SLACK_API_BASE_URL: peer.url,
      SLACK_AUTHORIZE_URL: AUTHORIZE_URL,
      PUBLIC_BASE_URL,
    },
  });
});
afterAll(async () => {
  await ctx.close();
  await peer.close();
});
beforeEach(() => peer.handle(slack.oauthV2Access));

function conforms(schema: z.ZodObject, body: unknown): void {
  const result = schema.strict().safeParse(body);
  if (!result.success) throw new Error(`response does not match its schema: ${JSON.stringify(result.error.issues)}`);
}

const newTeam = (name = 'Acme Ops'): Team => ({ id: `T${randomBytes(5).toString('hex').toUpperCase()}`, name });

async function startInstall(
  user: TestUser,
  path = '/integrations/slack/oauth-start',
  http = ctx.http,
): Promise<string> {
  const res = await http.get(path).set(user.auth).expect(200);
  conforms(oauthStartOutput, res.body);
  return new URL(res.body.oauth_url).searchParams.get('state') as string;
}

const installations = (tenantId: string) =>
  ctx.db.selectFrom('slack_installations').selectAll().where('tenant_id', '=', tenantId).execute();

describe('GET /integrations/slack/oauth-start', () => {
  it('answers the authorize URL with the client id, bot scopes, redirect URI and a state stored only as a hash', async () => {
    const owner = await signupAndLogin(ctx);
    const res = await ctx.http.get('/integrations/slack/oauth-start').set(owner.auth).expect(200);
    const url = new URL(res.body.oauth_url);
    expect(`${url.origin}${url.pathname}`).toBe(AUTHORIZE_URL);
    expect(url.searchParams.get('client_id')).toBe(CLIENT_ID);
    expect(url.searchParams.get('scope')).toBe('chat:write,chat:write.public,channels:read');
    expect(url.searchParams.get('redirect_uri')).toBe(REDIRECT_URI);
    const state = url.searchParams.get('state') as string;
    expect(state).toMatch(/^[A-Za-z0-9_-]{43}$/); // 32 random bytes, base64url

    const rows = await ctx.db.selectFrom('oauth_states').selectAll().where('tenant_id', '=', owner.tenantId).execute();
    expect(rows).toEqual([
      expect.objectContaining({ state_hash: sha256(state), provider: 'slack', user_id: owner.userId, used_at: null }),
    ]);
    expect(JSON.stringify(rows)).not.toContain(state);
    const lifetime = ((rows[0]?.expires_at.getTime() ?? 0) - Date.now()) / 1000;
    expect(lifetime).toBeGreaterThan(8 * 60);
    expect(lifetime).toBeLessThanOrEqual(10 * 60 + 5);
  });

  it('gives a different state each time', async () => {
    const owner = await signupAndLogin(ctx);
    expect(await startInstall(owner)).not.toBe(await startInstall(owner));
  });

  it("deletes the tenant's expired states, and only its own", async () => {
    const a = await signupAndLogin(ctx);
    const b = await signupAndLogin(ctx);
    const stale = [sha256(await startInstall(a)), sha256(await startInstall(b))];
    await ctx.db
      .updateTable('oauth_states')
      .set({ expires_at: new Date(Date.now() - 60_000) })
      .where('state_hash', 'in', stale)
      .execute();
    await startInstall(a);
    const left = await ctx.db
      .selectFrom('oauth_states')
      .select('state_hash')
      .where('state_hash', 'in', stale)
      .execute();
    expect(left.map((r) => r.state_hash)).toEqual([stale[1]]);
  });

  it('requires the admin role: viewers and members get 403', async () => {
    const owner = await signupAndLogin(ctx);
    const admin = await addUserWithRole(ctx, owner.tenantId, 'admin');
    await startInstall(admin);
    for (const role of ['viewer', 'member'] as const) {
      const user = await addUserWithRole(ctx, owner.tenantId, role);
      const res = await ctx.http.get('/integrations/slack/oauth-start').set(user.auth).expect(403);
      expect(res.body.code).toBe('forbidden');
    }
  });

  it('requires a bearer token', async () => {
    const res = await ctx.http.get('/integrations/slack/oauth-start').expect(401);
    conforms(errorBody, res.body);
    expect(res.body.code).toBe('unauthorized');
  });

  it('answers 503 slack_not_configured without the Slack app credentials, and so does the callback', async () => {
    const owner = await signupAndLogin(ctx);
    const state = await startInstall(owner);
    const unconfigured = request(
      createApp({ ...ctx, config: { ...ctx.config, slack: { ...ctx.config.slack, clientSecret: undefined } } }),
    );
    const start = await unconfigured.get('/integrations/slack/oauth-start').set(owner.auth).expect(503);
    conforms(errorBody, start.body);
    expect(start.body.code).toBe('slack_not_configured');
    const { code } = slack.approve(newTeam());
    const callback = await unconfigured.get('/webhooks/slack/install').query({ code, state }).expect(503);
    expect(callback.body.code).toBe('slack_not_configured');
    expect(peer.requests.some((r) => r.form.code === code)).toBe(false);
    // Configuration comes first, whatever the query lacks, and an unconfigured server consumes no state.
    expect((await unconfigured.get('/webhooks/slack/install').query({ state }).expect(503)).body.code).toBe(
      'slack_not_configured',
    );
    expect((await unconfigured.get('/webhooks/slack/install').expect(503)).body.code).toBe('slack_not_configured');
    await ctx.http.get('/webhooks/slack/install').query({ code, state }).expect(200);
  });
});

describe('GET /webhooks/slack/install', () => {
  it('exchanges the code at oauth.v2.access, stores the bot token encrypted and answers a page', async () => {
    const owner = await signupAndLogin(ctx);
    const state = await startInstall(owner);
    const team = newTeam('Acme <Ops> & "Friends"');
    const { code, token } = slack.approve(team);
    const before = peer.requests.length;

    const res = await ctx.http.get('/webhooks/slack/install').query({ code, state }).expect(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-security-policy']).toBe("default-src 'none'");
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.text).toContain('Acme &lt;Ops&gt; &amp; &quot;Friends&quot;');
    expect(res.text).not.toContain('<Ops>');
    const channel = `{ "type": "slack", "team_id": "${team.id}", "channel": "#alerts" }`;
    expect(res.text).toContain(channel.replaceAll('"', '&quot;'));
    expect(res.text).not.toContain(token);

    expect(peer.requests.length).toBe(before + 1);
    const exchange = peer.requests[before] as PeerRequest;
    expect(exchange.method).toBe('POST');
    expect(exchange.path).toBe('/oauth.v2.access');
    expect(exchange.headers['content-type']).toMatch(/^application\/x-www-form-urlencoded/);
    expect(exchange.form).toEqual({ code, redirect_uri: REDIRECT_URI });
    expect(exchange.headers.authorization).toBe(
      `Basic ${Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString('base64')}`,
    );

    const rows = await installations(owner.tenantId);
    expect(rows).toEqual([
      expect.objectContaining({
        team_id: team.id,
        team_name: team.name,
        bot_user_id: 'U0KRQLJ9H',
        installed_by: owner.userId,
        id: expect.stringMatching(/^slk_/),
      }),
    ]);
    const stored = (rows[0] as (typeof rows)[number]).bot_token_encrypted;
    expect(stored).not.toContain(token);
    expect(decryptSecret(ctx.config.secrets.dataEncryptionKey, stored)).toBe(token);

    const listed = await ctx.http.get('/integrations/slack').set(owner.auth).expect(200);
    conforms(listSlackInstallationsOutput, listed.body);
    expect(listed.body.installations).toEqual([
      {
        team_id: team.id,
        team_name: team.name,
        bot_user_id: 'U0KRQLJ9H',
        installed_at: rows[0]?.created_at.toISOString(),
      },
    ]);
  });

  it('answers under the chat aliases too', async () => {
    const owner = await signupAndLogin(ctx);
    const state = await startInstall(owner, '/integrations/chat/oauth-start');
    const team = newTeam();
    const { code } = slack.approve(team);
    await ctx.http.get('/webhooks/chat/install').query({ code, state }).expect(200);
    const listed = await ctx.http.get('/integrations/chat').set(owner.auth).expect(200);
    conforms(listSlackInstallationsOutput, listed.body);
    expect(listed.body.installations.map((i: { team_id: string }) => i.team_id)).toEqual([team.id]);
    const removed = await ctx.http.delete(`/integrations/chat/${team.id}`).set(owner.auth).expect(200);
    conforms(messageBody, removed.body);
    expect(await installations(owner.tenantId)).toEqual([]);
  });

  it('refuses a replayed state with 400 without calling Slack again', async () => {
    const owner = await signupAndLogin(ctx);
    const state = await startInstall(owner);
    const { code } = slack.approve(newTeam());
    await ctx.http.get('/webhooks/slack/install').query({ code, state }).expect(200);
    const calls = peer.requests.length;
    const replay = await ctx.http.get('/webhooks/slack/install').query({ code, state }).expect(400);
    conforms(errorBody, replay.body);
    expect(replay.body.code).toBe('invalid_oauth_state');
    expect(peer.requests.length).toBe(calls);
  });

  it('refuses an expired state with 400 and stores nothing', async () => {
    const owner = await signupAndLogin(ctx);
    const state = await startInstall(owner);
    await ctx.db
      .updateTable('oauth_states')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('state_hash', '=', sha256(state))
      .execute();
    const { code } = slack.approve(newTeam());
    const calls = peer.requests.length;
    const res = await ctx.http.get('/webhooks/slack/install').query({ code, state }).expect(400);
    expect(res.body.code).toBe('invalid_oauth_state');
    expect(peer.requests.length).toBe(calls);
    expect(await installations(owner.tenantId)).toEqual([]);
  });

  it('refuses an unknown, missing or repeated state with 400', async () => {
    const { code } = slack.approve(newTeam());
    const calls = peer.requests.length;
    const unknown = await ctx.http
      .get('/webhooks/slack/install')
      .query({ code, state: randomBytes(32).toString('base64url') })
      .expect(400);
    expect(unknown.body.code).toBe('invalid_oauth_state');
    const missing = await ctx.http.get('/webhooks/slack/install').query({ code }).expect(400);
    expect(missing.body.code).toBe('invalid_oauth_state');
    const repeated = await ctx.http.get(`/webhooks/slack/install?code=${code}&state=a&state=b`).expect(400);
    expect(repeated.body.code).toBe('invalid_oauth_state');
    expect(peer.requests.length).toBe(calls);
  });

  it('refuses a callback without code or error (400) after consuming its state, which is single-use', async () => {
    const owner = await signupAndLogin(ctx);
    const state = await startInstall(owner);
    const res = await ctx.http.get('/webhooks/slack/install').query({ state }).expect(400);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.details).toEqual([{ field: 'code', message: 'is required' }]);
    const { code } = slack.approve(newTeam());
    expect((await ctx.http.get('/webhooks/slack/install').query({ code, state }).expect(400)).body.code).toBe(
      'invalid_oauth_state',
    );
    expect(await installations(owner.tenantId)).toEqual([]);
  });

  it('checks the state before the rest of the query: a bad state without code or error is invalid_oauth_state', async () => {
    const unknown = await ctx.http
      .get('/webhooks/slack/install')
      .query({ state: randomBytes(32).toString('base64url') })
      .expect(400);
    conforms(errorBody, unknown.body);
    expect(unknown.body.code).toBe('invalid_oauth_state');
    expect((await ctx.http.get('/webhooks/slack/install').expect(400)).body.code).toBe('invalid_oauth_state');
    const tooLong = await ctx.http
      .get('/webhooks/slack/install')
      .query({ state: 'x'.repeat(300), code: 'y'.repeat(600) })
      .expect(400);
    expect(tooLong.body.code).toBe('invalid_oauth_state');
  });

  it('stores the workspace in the tenant that started the flow, whoever opens the callback', async () => {
    const a = await signupAndLogin(ctx);
    const admin = await addUserWithRole(ctx, a.tenantId, 'admin');
    const b = await signupAndLogin(ctx);
    const state = await startInstall(admin);
    const team = newTeam();
    const { code } = slack.approve(team);
    // The callback is public: a bearer from another tenant changes nothing.
    await ctx.http.get('/webhooks/slack/install').query({ code, state }).set(b.auth).expect(200);
    expect(await installations(a.tenantId)).toEqual([
      expect.objectContaining({ team_id: team.id, installed_by: admin.userId }),
    ]);
    expect(await installations(b.tenantId)).toEqual([]);
  });

  it('refuses the callback when the user who started the flow was removed or is no longer an admin', async () => {
    const owner = await signupAndLogin(ctx);
    const removed = await addUserWithRole(ctx, owner.tenantId, 'admin');
    const demoted = await addUserWithRole(ctx, owner.tenantId, 'admin');
    const removedState = await startInstall(removed);
    const demotedState = await startInstall(demoted);
    await ctx.db.deleteFrom('users').where('id', '=', removed.userId).execute();
    await ctx.db.updateTable('users').set({ role: 'member' }).where('id', '=', demoted.userId).execute();
    const calls = peer.requests.length;
    for (const state of [removedState, demotedState]) {
      const { code } = slack.approve(newTeam());
      const res = await ctx.http.get('/webhooks/slack/install').query({ code, state }).expect(400);
      expect(res.body.code).toBe('invalid_oauth_state');
    }
    expect(peer.requests.length).toBe(calls);
    expect(await installations(owner.tenantId)).toEqual([]);
  });

  it('answers 502 when Slack refuses the code, stores nothing and consumes the state', async () => {
    const owner = await signupAndLogin(ctx);
    const state = await startInstall(owner);
    const res = await ctx.http.get('/webhooks/slack/install').query({ code: 'never-issued', state }).expect(502);
    conforms(errorBody, res.body);
    expect(res.body).toEqual({ code: 'upstream_failed', error: expect.stringContaining('invalid_code') });
    expect(await installations(owner.tenantId)).toEqual([]);
    // Slack's codes are single-use as well: the flow starts over, the same callback cannot be retried.
    const { code } = slack.approve(newTeam());
    const retry = await ctx.http.get('/webhooks/slack/install').query({ code, state }).expect(400);
    expect(retry.body.code).toBe('invalid_oauth_state');
  });

  it('answers 502 when Slack answers HTTP 500 or drops the connection, storing nothing', async () => {
    const owner = await signupAndLogin(ctx);
    const outages: [string, (req: PeerRequest) => PeerReply][] = [
      ['HTTP 500', () => ({ status: 500, body: { ok: false, error: 'internal_error' } })],
      [
        'dropped connection',
        () => {
          throw new Error('connection dropped');
        },
      ],
    ];
    for (const [, outage] of outages) {
      peer.handle(outage);
      const state = await startInstall(owner);
      const { code } = slack.approve(newTeam());
      const calls = peer.requests.length;
      const res = await ctx.http.get('/webhooks/slack/install').query({ code, state }).expect(502);
      expect(res.body.code).toBe('upstream_failed');
      expect(peer.requests.length).toBe(calls + 1);
    }
    expect(await installations(owner.tenantId)).toEqual([]);
  });

  it('answers 502 when Slack grants no single-workspace bot token', async () => {
    const owner = await signupAndLogin(ctx);
    peer.handle(() => ({
      status: 200,
      body: {
        ok: true,
        access_token: 'xoxb-org',
        token_type: 'bot',
        team: null,
        enterprise: { id: 'E1', name: 'Org' },
        is_enterprise_install: true,
      },
    }));
    const state = await startInstall(owner);
    const res = await ctx.http.get('/webhooks/slack/install').query({ code: 'org-code', state }).expect(502);
    expect(res.body.code).toBe('upstream_failed');
    expect(res.body.error).not.toContain('xoxb-org');
    expect(await installations(owner.tenantId)).toEqual([]);
  });

  it('answers a 400 page when the user cancels at Slack (error=access_denied), consuming the state', async () => {
    const owner = await signupAndLogin(ctx);
    const state = await startInstall(owner);
    const calls = peer.requests.length;
    const res = await ctx.http.get('/webhooks/slack/install').query({ error: 'access_denied', state }).expect(400);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-security-policy']).toBe("default-src 'none'");
    expect(res.text).toContain('cancelled');
    expect(res.text).toContain('access_denied');
    expect(peer.requests.length).toBe(calls);
    const again = await ctx.http.get('/webhooks/slack/install').query({ error: 'access_denied', state }).expect(400);
    expect(again.body.code).toBe('invalid_oauth_state');
  });

  it('escapes whatever Slack reports on the cancellation page', async () => {
    const owner = await signupAndLogin(ctx);
    const state = await startInstall(owner);
    const res = await ctx.http
      .get('/webhooks/slack/install')
      .query({ error: '<script>alert(1)</script>', state })
      .expect(400);
    expect(res.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(res.text).not.toContain('<script>');
  });

  it('replaces the token when the same workspace is installed again', async () => {
    const owner = await signupAndLogin(ctx);
    const team = newTeam('Old name');
    const first = slack.approve(team);
    await ctx.http
      .get('/webhooks/slack/install')
      .query({ code: first.code, state: await startInstall(owner) })
      .expect(200);
    const [before] = await installations(owner.tenantId);
    const second = slack.approve({ ...team, name: 'New name' });
    await ctx.http
      .get('/webhooks/slack/install')
      .query({ code: second.code, state: await startInstall(owner) })
      .expect(200);
    const rows = await installations(owner.tenantId);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.id).toBe(before?.id);
    expect(rows[0]?.team_name).toBe('New name');
    expect(decryptSecret(ctx.config.secrets.dataEncryptionKey, rows[0]?.bot_token_encrypted as string)).toBe(
      second.token,
    );
  });
});

describe('GET /integrations/slack and DELETE /integrations/slack/{team_id}', () => {
  it("show and remove only the caller tenant's workspaces; viewers read, admins remove", async () => {
    const a = await signupAndLogin(ctx);
    const b = await signupAndLogin(ctx);
    const team = newTeam();
    const { code } = slack.approve(team);
    await ctx.http
      .get('/webhooks/slack/install')
      .query({ code, state: await startInstall(a) })
      .expect(200);

    const viewer = await addUserWithRole(ctx, a.tenantId, 'viewer');
    const seen = await ctx.http.get('/integrations/slack').set(viewer.auth).expect(200);
    expect(seen.body.installations.map((i: { team_id: string }) => i.team_id)).toEqual([team.id]);
    expect(JSON.stringify(seen.body)).not.toContain('xoxb');
    const other = await ctx.http.get('/integrations/slack').set(b.auth).expect(200);
    expect(other.body).toEqual({ installations: [] });

    const member = await addUserWithRole(ctx, a.tenantId, 'member');
    expect((await ctx.http.delete(`/integrations/slack/${team.id}`).set(member.auth).expect(403)).body.code).toBe(
      'forbidden',
    );
    const foreign = await ctx.http.delete(`/integrations/slack/${team.id}`).set(b.auth).expect(404);
    conforms(errorBody, foreign.body);
    expect(foreign.body.code).toBe('not_found');
    expect(await installations(a.tenantId)).toHaveLength(1);

    const removed = await ctx.http.delete(`/integrations/slack/${team.id}`).set(a.auth).expect(200);
    conforms(messageBody, removed.body);
    expect(await installations(a.tenantId)).toEqual([]);
    expect((await ctx.http.delete(`/integrations/slack/${team.id}`).set(a.auth).expect(404)).body.code).toBe(
      'not_found',
    );
  });
});

describe('logs', () => {
  it('never carry the bot token, the code, the state or the client secret', async () => {
    const lines: string[] = [];
    const destination = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const http = request(createApp({ ...ctx, log: createLogger({ level: 'debug', name: 'test', destination }) }));
    const owner = await signupAndLogin(http);
    const state = await startInstall(owner, '/integrations/slack/oauth-start', http);
    const { code, token } = slack.approve(newTeam());
    await http.get('/webhooks/slack/install').query({ code, state }).expect(200);
    const refusedState = await startInstall(owner, '/integrations/slack/oauth-start', http);
    await http.get('/webhooks/slack/install').query({ code: 'refused-code-123', state: refusedState }).expect(502);

    const text = lines.join('');
    expect(text).toContain('slack workspace installed');
    expect(text).toContain('/webhooks/slack/install');
    for (const secret of [token, code, state, refusedState, 'refused-code-123', CLIENT_SECRET])
      expect(text).not.toContain(secret);
  });
});
