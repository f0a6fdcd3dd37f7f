import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import express from 'express';
import { Kysely, PostgresDialect } from 'kysely';
import { Pool } from 'pg';
import request from 'supertest';
import { createApp } from '../../api/app';
import type { Database } from '../../db/database';
import { passwordHashes } from '../../observability/metrics';
import { afterAnswerSettled } from '../../core/after-answer';
import { createLogger } from '../../config/logger';
import {
  LOGIN_FAILURES_PER_ACCOUNT,
  PASSWORD_RESET_CONFIRMS_PER_CLIENT,
  PASSWORD_RESETS_PER_ADDRESS,
} from '../../domain/tenancy/limits';
import { createTestContext, signupAndLogin, type TestContext } from '../helpers/context';
import { emailText, type SmtpCapture, startSmtpCapture } from '../helpers/smtp';

// Password reset: the way back into an account and the proof of an address, through a real SMTP server on
// loopback (and the outbox, the embedded default, whose links also go to the log outside production).

const BASE_URL = 'https://sentinel.example.com';
const ACCEPTED = {
  message: 'If an account uses this address, a password reset link is on its way; it works once, for one hour.',
};
let capture: SmtpCapture;
let ctx: TestContext;
beforeAll(async () => {
  capture = await startSmtpCapture();
  ctx = await createTestContext({ config: { SMTP_URL: capture.url, PUBLIC_BASE_URL: BASE_URL } });
  // Each request from an address of its own: the per-address limit is what the tests below exercise.
  ctx.app.set('trust proxy', true);
});
afterAll(async () => {
  await ctx.close();
  await capture.close();
});

const newEmail = (label = 'reset') => `${label}-${randomBytes(4).toString('hex')}@example.com`;
// Sign-up mails a verification link as well: only the reset e-mails count here. They are sent after the answer.
async function mailsTo(email: string) {
  await afterAnswerSettled();
  return capture.messages.filter((m) => m.to.includes(email) && /^Subject: Reset your Sentinel password$/m.test(m.raw));
}
const tokenIn = (text: string) => {
  const token = /\/app\/reset-password#token=([A-Za-z0-9_-]+)/.exec(text)?.[1];
  if (!token) throw new Error('no reset link in the e-mail');
  return token;
};
const someAddress = () => `198.51.100.${Math.floor(Math.random() * 250) + 1}`;
const requestReset = (email: string) =>
  ctx.http.post('/auth/password-reset').set('X-Forwarded-For', someAddress()).send({ email });
const confirm = (token: string, password: string) =>
  ctx.http.post('/auth/password-reset/confirm').send({ token, password });

async function userWith(email: string, password = 'the-old-password') {
  await ctx.http.post('/auth/signup').send({ email, password, name: 'Rita' }).expect(201);
  return (await ctx.http.post('/auth/login').send({ email, password }).expect(200)).body as {
    refresh_token: string;
    id_token: string;
  };
}

describe('POST /auth/password-reset and /confirm', () => {
  it('mails a single-use link that sets the password and signs every session out', async () => {
    const email = newEmail();
    const session = await userWith(email);
    expect((await requestReset(email).expect(202)).body).toEqual(ACCEPTED);
    const [mail, ...more] = await mailsTo(email);
    expect(more).toEqual([]);
    const text = emailText(mail!.raw);
    const token = tokenIn(text);
    expect(text).toContain(`${BASE_URL}/app/reset-password#token=${token}`);
    expect(text).toContain(`POST ${BASE_URL}/auth/password-reset/confirm`);

    expect((await confirm(token, 'the-new-password').expect(200)).body.message).toContain('log in');
    await ctx.http.post('/auth/login').send({ email, password: 'the-old-password' }).expect(401);
    await ctx.http.post('/auth/login').send({ email, password: 'the-new-password' }).expect(200);
    await ctx.http.post('/auth/refresh').send({ refresh_token: session.refresh_token }).expect(401);
    // Once only.
    expect((await confirm(token, 'yet-another-password').expect(400)).body).toEqual({
      error: 'The password reset link is unknown, already used or expired; ask for a new one',
      code: 'invalid_reset_token',
    });
  });

  it('answers an unknown address and a pending invitee exactly like a real one, sending nothing', async () => {
    const owner = await signupAndLogin(ctx);
    const invitee = newEmail('invitee');
    await ctx.http
      .post('/users/invite')
      .set(owner.auth)
      .send({ email: invitee, name: 'Ivy', role: 'member' })
      .expect(201);
    const before = capture.messages.length;
    for (const email of [newEmail('nobody'), invitee])
      expect((await requestReset(email).expect(202)).body).toEqual(ACCEPTED);
    await afterAnswerSettled();
    expect(capture.messages).toHaveLength(before);
  });

  it('refuses an expired link, and a link a newer one replaced', async () => {
    const email = newEmail();
    await userWith(email);
    // One after the other: each new link ends the older ones.
    await requestReset(email).expect(202);
    await afterAnswerSettled();
    await requestReset(email).expect(202);
    const [older, newer] = (await mailsTo(email)).map((m) => tokenIn(emailText(m.raw)));
    expect((await confirm(older!, 'the-new-password').expect(400)).body.code).toBe('invalid_reset_token');
    await ctx.db
      .updateTable('password_resets')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('used_at', 'is', null)
      .execute();
    expect((await confirm(newer!, 'the-new-password').expect(400)).body.code).toBe('invalid_reset_token');
    await ctx.http.post('/auth/login').send({ email, password: 'the-old-password' }).expect(200);
  });

  it('takes an address back from whoever signed up with it: the owner resets, the squatter is out', async () => {
    const email = newEmail('victim');
    const squatter = await userWith(email, 'squatters-password');
    // The squatter never read the mailbox: the address is not verified, and the tenant mails nobody else.
    expect(
      (await ctx.http.get('/me').set('Authorization', `Bearer ${squatter.id_token}`).expect(200)).body.user
        .email_verified,
    ).toBe(false);
    await requestReset(email).expect(202);
    await confirm(tokenIn(emailText((await mailsTo(email))[0]!.raw)), 'the-owners-password').expect(200);
    await ctx.http.post('/auth/login').send({ email, password: 'squatters-password' }).expect(401);
    await ctx.http.post('/auth/refresh').send({ refresh_token: squatter.refresh_token }).expect(401);
    // The squatter's session ends at once, not when its id token runs out.
    await ctx.http.get('/me').set('Authorization', `Bearer ${squatter.id_token}`).expect(401);
    const owner = (await ctx.http.post('/auth/login').send({ email, password: 'the-owners-password' }).expect(200))
      .body;
    // Following the reset link proved the address.
    expect(
      (await ctx.http.get('/me').set('Authorization', `Bearer ${owner.id_token}`).expect(200)).body.user.email_verified,
    ).toBe(true);
  });

  it(`sends at most ${PASSWORD_RESETS_PER_ADDRESS} links to an address an hour, then 429 sending nothing`, async () => {
    const email = newEmail();
    await userWith(email);
    for (let i = 0; i < PASSWORD_RESETS_PER_ADDRESS; i++) await requestReset(email).expect(202);
    const refused = await requestReset(email).expect(429);
    expect(refused.body.code).toBe('rate_limited');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(await mailsTo(email)).toHaveLength(PASSWORD_RESETS_PER_ADDRESS);
  });

  it('rejects a weak new password with 400 naming it, and the link still works', async () => {
    const email = newEmail();
    await userWith(email);
    await requestReset(email).expect(202);
    const token = tokenIn(emailText((await mailsTo(email))[0]!.raw));
    const weak = await confirm(token, 'short').expect(400);
    expect(weak.body.details).toEqual([{ field: 'password', message: 'must be at least 8 characters' }]);
    await confirm(token, 'long-enough-now').expect(200);
  });
});

describe('what a request for a link does before its answer', () => {
  it('is the same for an address with an account and one without: the limits, and no lookup of the address', async () => {
    const known = newEmail('known');
    await userWith(known);
    const unknown = newEmail('unknown');
    // The app on a pool of its own whose statements are recorded as they complete, each with whether the request
    // had answered by then.
    let answered = false;
    const statements: { sql: string; answered: boolean }[] = [];
    const db = new Kysely<Database>({
      dialect: new PostgresDialect({ pool: new Pool({ connectionString: ctx.config.database.url, max: 4 }) }),
      log: (event) => {
        if (event.level === 'query') statements.push({ sql: event.query.sql, answered });
      },
    });
    const app = express();
    app.use((_req, res, next) => {
      const end = res.end.bind(res);
      res.end = ((...args: Parameters<typeof end>) => {
        answered = true;
        return end(...args);
      }) as typeof res.end;
      next();
    });
    app.use(createApp({ ...ctx, db }));
    const work = async (email: string) => {
      statements.length = 0;
      answered = false;
      expect((await request(app).post('/auth/password-reset').send({ email }).expect(202)).body).toEqual(ACCEPTED);
      await afterAnswerSettled();
      return {
        before: statements.filter((q) => !q.answered).map((q) => q.sql),
        after: statements.filter((q) => q.answered).map((q) => q.sql),
      };
    };
    try {
      const [ofKnown, ofUnknown] = [await work(known), await work(unknown)];
      expect(ofKnown.before.toSorted()).toEqual(ofUnknown.before.toSorted());
      expect(ofKnown.before.length).toBeGreaterThan(0);
      for (const sql of ofKnown.before) expect(sql).toMatch(/^insert into "rate_limits"/);
      // After the answer: both addresses looked up, a link stored for the known one only.
      for (const { after } of [ofKnown, ofUnknown]) expect(after[0]).toMatch(/from "users"/);
      expect(ofKnown.after.some((sql) => sql.startsWith('insert into "password_resets"'))).toBe(true);
      expect(ofUnknown.after.some((sql) => sql.includes('password_resets'))).toBe(false);
      expect(await mailsTo(known)).toHaveLength(1);
    } finally {
      await db.destroy();
    }
  });
});

describe('POST /auth/password-reset/confirm with a token nobody was sent', () => {
  const newPasswordsHashed = async () =>
    (await passwordHashes.get()).values.find((v) => v.labels.use === 'set')?.value ?? 0;
  const confirmFrom = (address: string, token: string) =>
    ctx.http
      .post('/auth/password-reset/confirm')
      .set('X-Forwarded-For', address)
      .send({ token, password: 'a-guessed-new-password' });

  it(`is refused before the new password is hashed, and past ${PASSWORD_RESET_CONFIRMS_PER_CLIENT} attempts from a client with 429`, async () => {
    const email = newEmail();
    await userWith(email);
    await requestReset(email).expect(202);
    const token = tokenIn(emailText((await mailsTo(email))[0]!.raw));
    const hashed = await newPasswordsHashed();

    // Every address of one IPv6 /64 is one client.
    for (let i = 1; i <= PASSWORD_RESET_CONFIRMS_PER_CLIENT; i++) {
      const res = await confirmFrom(`2001:db8:e:1::${i.toString(16)}`, `bogus-${i}`).expect(400);
      expect(res.body.code).toBe('invalid_reset_token');
    }
    expect(await newPasswordsHashed()).toBe(hashed);
    const refused = await confirmFrom('2001:db8:e:1::ffff', token).expect(429);
    expect(refused.body.code).toBe('rate_limited');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(await newPasswordsHashed()).toBe(hashed);

    // Another client is not refused: the real link sets the password, with the one hash it needs.
    await confirmFrom('2001:db8:e:2::1', token).expect(200);
    expect(await newPasswordsHashed()).toBe(hashed + 1);
  });
});

describe('the places an account signed in from', () => {
  const loginFrom = (address: string, email: string, password: string) =>
    ctx.http.post('/auth/login').set('X-Forwarded-For', address).send({ email, password });

  it('are forgotten by a reset, but for the address that followed the link', async () => {
    const email = newEmail();
    await ctx.http.post('/auth/signup').send({ email, password: 'the-old-password', name: 'Rita' }).expect(201);
    // The owner at home; somebody who knew the password, elsewhere.
    await loginFrom('192.0.2.50', email, 'the-old-password').expect(200);
    await loginFrom('203.0.113.50', email, 'the-old-password').expect(200);
    await requestReset(email).expect(202);
    const token = tokenIn(emailText((await mailsTo(email))[0]!.raw));
    await ctx.http
      .post('/auth/password-reset/confirm')
      .set('X-Forwarded-For', '198.51.100.50')
      .send({ token, password: 'the-new-password' })
      .expect(200);

    // Guesses push the account past its limit: the places it signed in from before the reset are slowed like any
    // other (home too, until it signs in again once the guessing stops), the one that followed the link is not.
    for (let i = 1; i <= LOGIN_FAILURES_PER_ACCOUNT; i++)
      await loginFrom(`2001:db8:d:${i.toString(16)}::1`, email, `wrong-${i}-pass`).expect(401);
    await loginFrom('203.0.113.50', email, 'the-new-password').expect(429);
    await loginFrom('192.0.2.50', email, 'the-new-password').expect(429);
    await loginFrom('198.51.100.50', email, 'the-new-password').expect(200);
  });
});

describe('password reset without SMTP_URL (the embedded default)', () => {
  it('keeps the e-mail in the outbox and writes the link to the log, so a newcomer can follow it', async () => {
    const outboxCtx = await createTestContext();
    try {
      const lines: Record<string, unknown>[] = [];
      const destination = new Writable({
        write(chunk: Buffer, _enc, done) {
          for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
          done();
        },
      });
      const http = request(
        createApp({ ...outboxCtx, log: createLogger({ level: 'info', name: 'test', destination }) }),
      );
      const email = newEmail('outbox');
      await http.post('/auth/signup').send({ email, password: 'the-old-password', name: 'Otto' }).expect(201);
      await http.post('/auth/password-reset').send({ email }).expect(202);
      await afterAnswerSettled();
      const [row] = await outboxCtx.db
        .selectFrom('email_outbox')
        .selectAll()
        .where('subject', '=', 'Reset your Sentinel password')
        .execute();
      const token = tokenIn(row!.text_body);
      const base = outboxCtx.config.http.publicBaseUrl;
      const linksLogged = (msg: string) => lines.filter((l) => l.msg === msg).map((l) => l.link as string);
      expect(linksLogged('password reset link (no SMTP_URL: also kept in email_outbox)')).toEqual([
        `${base}/app/reset-password#token=${token}`,
      ]);
      // The other mailed links are logged the same way: the sign-up's verification link, and (once the owner is
      // verified, which the reset just did) an invitation link.
      expect(linksLogged('verification link (no SMTP_URL: also kept in email_outbox)')).toEqual([
        expect.stringMatching(`^${base}/app/verify-email#token=`),
      ]);
      await http.post('/auth/password-reset/confirm').send({ token, password: 'the-new-password' }).expect(200);
      const login = await http.post('/auth/login').send({ email, password: 'the-new-password' }).expect(200);
      await http
        .post('/users/invite')
        .set('Authorization', `Bearer ${login.body.id_token}`)
        .send({ email: newEmail('invitee'), name: 'Ida' })
        .expect(201);
      expect(linksLogged('invitation link (no SMTP_URL: also kept in email_outbox)')).toEqual([
        expect.stringMatching(`^${base}/app/accept-invite#token=`),
      ]);
    } finally {
      await outboxCtx.close();
    }
  });
});
