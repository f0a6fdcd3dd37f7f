import { createHash, randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { sql } from 'kysely';
import request from 'supertest';
import type { z } from 'zod';
import { createApp } from '../../api/app';
import { tokensOutput } from '../../core/schemas/auth';
import { createLogger } from '../../config/logger';
import { INVITATION_EMAILS_PER_ADDRESS, INVITATION_EMAILS_PER_TENANT } from '../../domain/tenancy/limits';
import { errorBody, messageBody } from '../../core/schemas/common';
import { createTestContext, signupAndLogin, type TestContext, type TestUser } from '../helpers/context';
import { type CapturedEmail, emailText, type SmtpCapture, startSmtpCapture } from '../helpers/smtp';

// Invitations travel through a real SMTP server on loopback; one more context without SMTP_URL shows the
// embedded default (the email_outbox table).
const BASE_URL = 'https://sentinel.example.com';
let capture: SmtpCapture;
let ctx: TestContext;
let owner: TestUser;
beforeAll(async () => {
  capture = await startSmtpCapture();
  ctx = await createTestContext({ config: { SMTP_URL: capture.url, PUBLIC_BASE_URL: BASE_URL } });
  owner = await signupAndLogin(ctx, 'Acme Security');
  await ctx.http.patch('/me').set(owner.auth).send({ name: 'Olive Owner' }).expect(200);
});
afterAll(async () => {
  await ctx.close();
  await capture.close();
});

const PASSWORD = 'a sturdy team password';
const newEmail = (label = 'invitee') => `${label}-${randomBytes(4).toString('hex')}@example.com`;
const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

function conforms(schema: z.ZodObject, body: unknown): void {
  const result = schema.strict().safeParse(body);
  if (!result.success) throw new Error(`response does not match its schema: ${JSON.stringify(result.error.issues)}`);
}

function mailsTo(email: string): CapturedEmail[] {
  return capture.messages.filter((m) => m.to.includes(email));
}

function header(raw: string, name: string): string | undefined {
  const head = raw.split(/\r?\n\r?\n/)[0]!.replace(/\r?\n[ \t]+/g, ' ');
  return new RegExp(`^${name}: (.*)$`, 'mi').exec(head)?.[1]?.trim();
}

function tokenIn(text: string): string {
  const token = /\/app\/accept-invite#token=([A-Za-z0-9_-]+)/.exec(text)?.[1];
  if (!token) throw new Error('no invitation link in the e-mail');
  return token;
}

/** The token of the only invitation e-mail the invitee received. */
function mailedToken(email: string): string {
  const mails = mailsTo(email);
  expect(mails).toHaveLength(1);
  return tokenIn(emailText(mails[0]!.raw));
}

async function invite(role: 'admin' | 'member' | 'viewer' = 'member', email = newEmail()) {
  const res = await ctx.http
    .post('/users/invite')
    .set(owner.auth)
    .send({ email, name: 'Ivy Invitee', role })
    .expect(201);
  return { userId: res.body.user_id as string, email, message: res.body.message as string };
}

const pause = () => new Promise((resolve) => setTimeout(resolve, 10));

/** Starts a request now (supertest starts on `then`), as a promise that always settles. */
const started = (test: PromiseLike<request.Response>) => Promise.resolve(test);

/** Waits until the request has finished or is blocked behind another transaction's lock. */
async function untilDoneOrBlocked(pending: Promise<unknown>): Promise<void> {
  let done = false;
  pending.then(
    () => {
      done = true;
    },
    () => {
      done = true;
    },
  );
  const blocked = async () =>
    (
      await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
    where datname = current_database() and wait_event_type = 'Lock'`.execute(ctx.db)
    ).rows[0]!.n > 0;
  for (let i = 0; i < 500 && !done && !(await blocked()); i++) await pause();
}

const liveInvitations = async (userId: string) =>
  ctx.db
    .selectFrom('invitations')
    .select('id')
    .where('user_id', '=', userId)
    .where('accepted_at', 'is', null)
    .where(sql<boolean>`expires_at > now()`)
    .execute();

const acceptedAt = async (userId: string) =>
  (await ctx.db.selectFrom('invitations').select('accepted_at').where('user_id', '=', userId).executeTakeFirstOrThrow())
    .accepted_at;

describe('the invitation e-mail', () => {
  it('reaches the invitee over SMTP with the inviter, the tenant, the role, the link and the API steps', async () => {
    const { userId, email } = await invite('admin');
    const [mail] = mailsTo(email);
    expect(mail!.to).toEqual([email]);
    expect(header(mail!.raw, 'Subject')).toBe('Olive Owner invited you to Acme Security on Sentinel');
    const invitation = await ctx.db
      .selectFrom('invitations')
      .selectAll()
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    expect(header(mail!.raw, 'Message-ID')).toBe(`<${invitation.id}@sentinel>`);

    const body = emailText(mail!.raw);
    const token = tokenIn(body);
    // The token rides in the fragment, which browsers never send to a server (so no access log holds it).
    expect(body).toContain(`${BASE_URL}/app/accept-invite#token=${token}`);
    expect(body).toContain(`href="${BASE_URL}/app/accept-invite#token=${token}"`);
    expect(body).not.toContain('accept-invite?');
    expect(body).toContain('Olive Owner invited you to join Acme Security on Sentinel as an admin');
    expect(body).toContain(`POST ${BASE_URL}/auth/accept-invite`);
    expect(body).toContain(`POST ${BASE_URL}/auth/login`);
    expect(body).toContain(invitation.expires_at.toISOString());

    // Only the hash of the token is kept; the link lives for seven days.
    expect(invitation).toMatchObject({ tenant_id: owner.tenantId, token_hash: sha256(token), accepted_at: null });
    expect(invitation.expires_at.getTime() - invitation.created_at.getTime()).toBe(7 * 86_400_000);
  });

  it('carries a token that signs the invitee in with the role given', async () => {
    const { userId, email } = await invite('viewer');
    const res = await ctx.http
      .post('/auth/accept-invite')
      .send({ token: mailedToken(email), password: PASSWORD })
      .expect(200);
    conforms(tokensOutput, res.body);
    expect(res.body).toMatchObject({ expires_in: 3600, token_type: 'Bearer' });
    const me = await ctx.http
      .get('/me')
      .set({ Authorization: `Bearer ${res.body.id_token}` })
      .expect(200);
    expect(me.body.user).toMatchObject({ user_id: userId, email, name: 'Ivy Invitee', role: 'viewer' });
    expect(me.body.tenant.tenant_id).toBe(owner.tenantId);
    await ctx.http.post('/auth/login').send({ email, password: PASSWORD }).expect(200);
    await ctx.http.post('/auth/refresh').send({ refresh_token: res.body.refresh_token }).expect(200);
  });

  it('is written to the email_outbox table when no SMTP_URL is set', async () => {
    const outboxCtx = await createTestContext();
    try {
      const tenant = await signupAndLogin(outboxCtx, 'Outbox Tenant');
      const email = newEmail('outbox');
      const res = await outboxCtx.http.post('/users/invite').set(tenant.auth).send({ email, name: 'Otto' }).expect(201);
      const invitation = await outboxCtx.db
        .selectFrom('invitations')
        .select('id')
        .where('user_id', '=', res.body.user_id)
        .executeTakeFirstOrThrow();
      const rows = await outboxCtx.db
        .selectFrom('email_outbox')
        .selectAll()
        .where(sql<boolean>`${email} = any(to_addresses)`)
        .execute();
      expect(rows).toEqual([
        expect.objectContaining({
          idempotency_key: invitation.id,
          to_addresses: [email],
          subject: 'Outbox Tenant invited you to Outbox Tenant on Sentinel',
        }),
      ]);
      const token = tokenIn(rows[0]!.text_body);
      expect(rows[0]!.text_body).toContain('as a member');
      expect(rows[0]!.html_body).toContain(`/app/accept-invite#token=${token}`);
      await outboxCtx.http.post('/auth/accept-invite').send({ token, password: PASSWORD }).expect(200);
      await outboxCtx.http.post('/auth/login').send({ email, password: PASSWORD }).expect(200);
    } finally {
      await outboxCtx.close();
    }
  });

  it('escapes names in the HTML part', async () => {
    const email = newEmail();
    await ctx.http.post('/users/invite').set(owner.auth).send({ email, name: '<b>Mallory</b>' }).expect(201);
    const body = emailText(mailsTo(email)[0]!.raw);
    expect(body).toContain('&lt;b&gt;Mallory&lt;/b&gt;');
    expect(body).not.toContain('<b>Mallory</b>,</p>');
  });

  it('is not sent when the e-mail is taken (409)', async () => {
    const { email } = await invite();
    const before = capture.messages.length;
    await ctx.http.post('/users/invite').set(owner.auth).send({ email, name: 'Again' }).expect(409);
    await ctx.http.post('/users/invite').set(owner.auth).send({ email: owner.email, name: 'Owner' }).expect(409);
    expect(capture.messages).toHaveLength(before);
  });

  it('keeps the invitation when the mail server refuses it; a resend delivers a working link', async () => {
    capture.failNext(1, 550);
    const { userId, email, message } = await invite();
    expect(message).toContain(`/users/${userId}/resend-invite`);
    expect(mailsTo(email)).toHaveLength(0);
    const list = await ctx.http.get('/users').set(owner.auth).expect(200);
    expect(list.body.users).toEqual(
      expect.arrayContaining([expect.objectContaining({ user_id: userId, status: 'invited' })]),
    );

    const resent = await ctx.http.post(`/users/${userId}/resend-invite`).set(owner.auth).expect(200);
    conforms(messageBody, resent.body);
    await ctx.http
      .post('/auth/accept-invite')
      .send({ token: mailedToken(email), password: PASSWORD })
      .expect(200);
  });
});

describe('an invited address signing up on its own', () => {
  it('cancels the pending invitation: the sign-up succeeds, the invitee and the link are gone', async () => {
    const { userId, email } = await invite();
    const token = mailedToken(email);
    const signup = await ctx.http
      .post('/auth/signup')
      .send({ email, password: PASSWORD, name: 'Own Tenant' })
      .expect(201);
    expect(signup.body.tenant_id).not.toBe(owner.tenantId);
    const team = await ctx.http.get('/users').set(owner.auth).expect(200);
    expect(team.body.users.map((u: { user_id: string }) => u.user_id)).not.toContain(userId);
    expect(await ctx.db.selectFrom('invitations').select('id').where('user_id', '=', userId).execute()).toEqual([]);
    expect((await ctx.http.post('/auth/accept-invite').send({ token, password: PASSWORD }).expect(400)).body.code).toBe(
      'invalid_invitation',
    );
    await ctx.http.post('/auth/login').send({ email, password: PASSWORD }).expect(200);
  });

  it('still refuses the address of a user who accepted (409)', async () => {
    const { email } = await invite();
    await ctx.http
      .post('/auth/accept-invite')
      .send({ token: mailedToken(email), password: PASSWORD })
      .expect(200);
    expect(
      (await ctx.http.post('/auth/signup').send({ email, password: PASSWORD, name: 'Again' }).expect(409)).body.code,
    ).toBe('email_taken');
  });
});

describe('an address invited by two tenants', () => {
  it('joins the one it accepts first; the other invitation is then refused (409) and stays as it was', async () => {
    const { userId, email } = await invite();
    const stranger = await signupAndLogin(ctx, 'Stranger Things');
    await ctx.http.post('/users/invite').set(stranger.auth).send({ email, name: 'Elsewhere' }).expect(201);
    const [ours, theirs] = mailsTo(email).map((m) => tokenIn(emailText(m.raw)));
    await ctx.http.post('/auth/accept-invite').send({ token: theirs, password: PASSWORD }).expect(200);

    const refused = await ctx.http.post('/auth/accept-invite').send({ token: ours, password: PASSWORD }).expect(409);
    expect(refused.body.code).toBe('email_taken');
    expect(await liveInvitations(userId)).toHaveLength(1);
    const team = await ctx.http.get('/users').set(owner.auth).expect(200);
    expect(team.body.users).toEqual(
      expect.arrayContaining([expect.objectContaining({ user_id: userId, status: 'invited' })]),
    );
    // The address signs in to the account it accepted, with the password it chose there.
    const login = await ctx.http.post('/auth/login').send({ email, password: PASSWORD }).expect(200);
    const me = await ctx.http.get('/me').set('Authorization', `Bearer ${login.body.id_token}`).expect(200);
    expect(me.body.tenant.tenant_id).toBe(stranger.tenantId);
  });
});

describe('invitation e-mail limits', () => {
  it(`sends at most ${INVITATION_EMAILS_PER_ADDRESS} invitation e-mails to one address a day, invites and resends together`, async () => {
    const { userId, email } = await invite();
    for (let i = 1; i < INVITATION_EMAILS_PER_ADDRESS; i++)
      await ctx.http.post(`/users/${userId}/resend-invite`).set(owner.auth).expect(200);
    const refused = await ctx.http.post(`/users/${userId}/resend-invite`).set(owner.auth).expect(429);
    expect(refused.body).toEqual({
      error: `At most ${INVITATION_EMAILS_PER_ADDRESS} invitation e-mails to one address per day`,
      code: 'rate_limited',
    });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(23 * 3600);
    expect(mailsTo(email)).toHaveLength(INVITATION_EMAILS_PER_ADDRESS);
    // Another tenant inviting the same address is held to the same count.
    const stranger = await signupAndLogin(ctx);
    await ctx.http
      .post('/users/invite')
      .set(stranger.auth)
      .send({ email: email.toUpperCase(), name: 'Again', role: 'member' })
      .expect(429);
    expect(mailsTo(email)).toHaveLength(INVITATION_EMAILS_PER_ADDRESS);
  });

  it(`sends at most ${INVITATION_EMAILS_PER_TENANT} invitation e-mails per tenant an hour, and a refused invite creates no user`, async () => {
    const tenant = await signupAndLogin(ctx);
    await ctx.db
      .insertInto('rate_limits')
      .values({
        key: `invitation:tenant:${tenant.tenantId}`,
        window_start: new Date(),
        count: INVITATION_EMAILS_PER_TENANT,
      })
      .execute();
    const email = newEmail();
    const refused = await ctx.http
      .post('/users/invite')
      .set(tenant.auth)
      .send({ email, name: 'Late', role: 'member' })
      .expect(429);
    expect(refused.body).toEqual({
      error: `At most ${INVITATION_EMAILS_PER_TENANT} invitation e-mails per tenant per hour`,
      code: 'rate_limited',
    });
    expect(await ctx.db.selectFrom('users').select('id').where('email', '=', email).execute()).toEqual([]);
    expect(mailsTo(email)).toEqual([]);
  });

  it('counts an invite refused because the address is taken', async () => {
    const { email } = await invite();
    for (let i = 1; i < INVITATION_EMAILS_PER_ADDRESS; i++)
      await ctx.http.post('/users/invite').set(owner.auth).send({ email, name: 'Again', role: 'member' }).expect(409);
    const refused = await ctx.http
      .post('/users/invite')
      .set(owner.auth)
      .send({ email, name: 'Again', role: 'member' })
      .expect(429);
    expect(refused.body.code).toBe('rate_limited');
  });
});

describe('POST /users/{user_id}/resend-invite', () => {
  it('mails a new link and ends the old one', async () => {
    const { userId, email } = await invite();
    const oldToken = mailedToken(email);
    await ctx.http.post(`/users/${userId}/resend-invite`).set(owner.auth).expect(200);
    const mails = mailsTo(email);
    expect(mails).toHaveLength(2);
    const newToken = tokenIn(emailText(mails[1]!.raw));
    expect(newToken).not.toBe(oldToken);
    expect(header(mails[1]!.raw, 'Message-ID')).not.toBe(header(mails[0]!.raw, 'Message-ID'));

    const old = await ctx.http.post('/auth/accept-invite').send({ token: oldToken, password: PASSWORD }).expect(400);
    expect(old.body.code).toBe('invalid_invitation');
    await ctx.http.post('/auth/accept-invite').send({ token: newToken, password: PASSWORD }).expect(200);
  });

  it('answers 502 when the mail server refuses, and the old link keeps working', async () => {
    const { userId, email } = await invite();
    const oldToken = mailedToken(email);
    capture.failNext(1, 451);
    const res = await ctx.http.post(`/users/${userId}/resend-invite`).set(owner.auth).expect(502);
    expect(res.body.code).toBe('upstream_failed');
    expect(await ctx.db.selectFrom('invitations').select('id').where('user_id', '=', userId).execute()).toHaveLength(1);
    await ctx.http.post('/auth/accept-invite').send({ token: oldToken, password: PASSWORD }).expect(200);
  });

  it('leaves exactly one live link after two concurrent resends: the one mailed last', async () => {
    const { userId, email } = await invite();
    const held = capture.holdNext();
    const first = started(ctx.http.post(`/users/${userId}/resend-invite`).set(owner.auth));
    const { release } = await held; // the first resend's e-mail is at the mail server, not yet accepted
    const second = started(ctx.http.post(`/users/${userId}/resend-invite`).set(owner.auth));
    await untilDoneOrBlocked(second);
    release();
    expect((await first).status).toBe(200);
    expect((await second).status).toBe(200);

    expect(await liveInvitations(userId)).toHaveLength(1);
    const tokens = mailsTo(email).map((m) => tokenIn(emailText(m.raw)));
    expect(tokens).toHaveLength(3);
    for (const stale of tokens.slice(0, 2)) {
      expect(
        (await ctx.http.post('/auth/accept-invite').send({ token: stale, password: PASSWORD }).expect(400)).body.code,
      ).toBe('invalid_invitation');
    }
    await ctx.http.post('/auth/accept-invite').send({ token: tokens[2], password: PASSWORD }).expect(200);
  });

  it('makes an accept of the old link wait for a resend in flight, then refuses it', async () => {
    const { userId, email } = await invite();
    const oldToken = mailedToken(email);
    const held = capture.holdNext();
    const resend = started(ctx.http.post(`/users/${userId}/resend-invite`).set(owner.auth));
    const { release } = await held;
    const accept = started(ctx.http.post('/auth/accept-invite').send({ token: oldToken, password: PASSWORD }));
    await untilDoneOrBlocked(accept);
    release();
    expect((await resend).status).toBe(200);
    expect((await accept).body.code).toBe('invalid_invitation');
    const newToken = tokenIn(emailText(mailsTo(email)[1]!.raw));
    await ctx.http.post('/auth/accept-invite').send({ token: newToken, password: PASSWORD }).expect(200);
  });

  it("answers 409 for a user who already accepted, 404 for another tenant's user, 403 below admin", async () => {
    const { userId, email } = await invite();
    const joined = await ctx.http
      .post('/auth/accept-invite')
      .send({ token: mailedToken(email), password: PASSWORD })
      .expect(200);
    expect((await ctx.http.post(`/users/${userId}/resend-invite`).set(owner.auth).expect(409)).body.code).toBe(
      'invalid_state',
    );

    const pending = await invite();
    const other = await signupAndLogin(ctx);
    expect((await ctx.http.post(`/users/${pending.userId}/resend-invite`).set(other.auth).expect(404)).body.code).toBe(
      'not_found',
    );
    const member = { Authorization: `Bearer ${joined.body.id_token}` };
    expect((await ctx.http.post(`/users/${pending.userId}/resend-invite`).set(member).expect(403)).body.code).toBe(
      'forbidden',
    );
    expect(mailsTo(pending.email)).toHaveLength(1);
  });
});

describe('POST /auth/accept-invite', () => {
  it('lets no one log in as an invited user before acceptance: same answer as a wrong password', async () => {
    const { email } = await invite();
    const invited = await ctx.http.post('/auth/login').send({ email, password: PASSWORD }).expect(401);
    const unknown = await ctx.http
      .post('/auth/login')
      .send({ email: newEmail('nobody'), password: PASSWORD })
      .expect(401);
    expect(invited.body).toEqual(unknown.body);
    expect(invited.body.code).toBe('invalid_credentials');
  });

  it('sets the display name when one is given', async () => {
    const { email } = await invite();
    const res = await ctx.http
      .post('/auth/accept-invite')
      .send({ token: mailedToken(email), password: PASSWORD, name: 'Ivy Renamed' })
      .expect(200);
    const me = await ctx.http
      .get('/me')
      .set({ Authorization: `Bearer ${res.body.id_token}` })
      .expect(200);
    expect(me.body.user.name).toBe('Ivy Renamed');
  });

  it('works once: a second accept is 400 and the first password stays', async () => {
    const { email } = await invite();
    const token = mailedToken(email);
    await ctx.http.post('/auth/accept-invite').send({ token, password: PASSWORD }).expect(200);
    const again = await ctx.http
      .post('/auth/accept-invite')
      .send({ token, password: 'a password of the attacker' })
      .expect(400);
    expect(again.body).toEqual({ error: expect.any(String), code: 'invalid_invitation' });
    await ctx.http.post('/auth/login').send({ email, password: PASSWORD }).expect(200);
    await ctx.http.post('/auth/login').send({ email, password: 'a password of the attacker' }).expect(401);
  });

  it('lets exactly one of two concurrent accepts win', async () => {
    const { email } = await invite();
    const token = mailedToken(email);
    const results = await Promise.all([
      ctx.http.post('/auth/accept-invite').send({ token, password: 'first concurrent password' }),
      ctx.http.post('/auth/accept-invite').send({ token, password: 'second concurrent password' }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
    const winner = results[0]!.status === 200 ? 'first concurrent password' : 'second concurrent password';
    await ctx.http.post('/auth/login').send({ email, password: winner }).expect(200);
  });

  it('refuses an expired invitation with 400 and changes nothing', async () => {
    const { userId, email } = await invite();
    const token = mailedToken(email);
    await ctx.db
      .updateTable('invitations')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('user_id', '=', userId)
      .execute();
    const res = await ctx.http.post('/auth/accept-invite').send({ token, password: PASSWORD }).expect(400);
    expect(res.body.code).toBe('invalid_invitation');
    expect(await acceptedAt(userId)).toBeNull();
    const user = await ctx.db
      .selectFrom('users')
      .select('password_hash')
      .where('id', '=', userId)
      .executeTakeFirstOrThrow();
    expect(user.password_hash).toBeNull();
  });

  it('refuses an unknown token and a tampered one with 400 invalid_invitation', async () => {
    const { userId, email } = await invite();
    const token = mailedToken(email);
    const tampered = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    for (const guess of [randomBytes(32).toString('base64url'), tampered]) {
      const res = await ctx.http.post('/auth/accept-invite').send({ token: guess, password: PASSWORD }).expect(400);
      conforms(errorBody, res.body);
      expect(res.body.code).toBe('invalid_invitation');
    }
    expect(await acceptedAt(userId)).toBeNull();
  });

  it('refuses a weak password with 400 naming it, and the invitation stays usable', async () => {
    const { userId, email } = await invite();
    const token = mailedToken(email);
    const res = await ctx.http.post('/auth/accept-invite').send({ token, password: 'short' }).expect(400);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.details).toEqual([expect.objectContaining({ field: 'password' })]);
    expect(await acceptedAt(userId)).toBeNull();
    await ctx.http.post('/auth/accept-invite').send({ token, password: PASSWORD }).expect(200);
  });

  it.each([
    ['a missing token', { password: PASSWORD }, 'token'],
    ['a missing password', { token: 'abc' }, 'password'],
    ['a 1025-character password', { token: 'abc', password: 'p'.repeat(1025) }, 'password'],
    ['an empty name', { token: 'abc', password: PASSWORD, name: '' }, 'name'],
    ['an unknown field', { token: 'abc', password: PASSWORD, role: 'owner' }, 'role'],
  ])('rejects %s with 400 naming the field', async (_label, body, field) => {
    const res = await ctx.http.post('/auth/accept-invite').send(body).expect(400);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.error).toContain(field);
    expect(res.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
  });

  it('rate limits attempts per client address with 429 and Retry-After, even with a valid token', async () => {
    const { email } = await invite();
    const token = mailedToken(email);
    ctx.app.set('trust proxy', true);
    try {
      const from = (client: string) => ctx.http.post('/auth/accept-invite').set('X-Forwarded-For', client);
      for (let i = 0; i < 20; i++) {
        await from('203.0.113.90')
          .send({ token: `guess-${i}`, password: PASSWORD })
          .expect(400);
      }
      const limited = await from('203.0.113.90').send({ token, password: PASSWORD }).expect(429);
      expect(limited.body.code).toBe('rate_limited');
      const retryAfter = Number(limited.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(900);
      // Another address is not affected, and the limited attempt did not use the invitation up.
      await from('203.0.113.91').send({ token, password: PASSWORD }).expect(200);
    } finally {
      ctx.app.set('trust proxy', ctx.config.http.trustProxy);
    }
  });
});

describe('logs', () => {
  it('never carry the invitation token or the new password', async () => {
    const lines: string[] = [];
    const destination = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const http = request(createApp({ ...ctx, log: createLogger({ level: 'debug', name: 'test', destination }) }));
    const email = newEmail('logged');
    capture.failNext(1, 451);
    const invited = await http.post('/users/invite').set(owner.auth).send({ email, name: 'Logan' }).expect(201);
    await http.post(`/users/${invited.body.user_id}/resend-invite`).set(owner.auth).expect(200);
    const token = mailedToken(email);
    const accepted = await http.post('/auth/accept-invite').send({ token, password: PASSWORD }).expect(200);

    const text = lines.join('');
    expect(text).toContain('invitation e-mail could not be sent');
    expect(text).toContain('invitation accepted');
    for (const secret of [token, sha256(token), PASSWORD, accepted.body.id_token, accepted.body.refresh_token]) {
      expect(text).not.toContain(secret);
    }
  });
});
