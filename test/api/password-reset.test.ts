import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import request from 'supertest';
import { createApp } from '../../api/app';
import { createLogger } from '../../config/logger';
import { PASSWORD_RESETS_PER_ADDRESS } from '../../domain/tenancy/limits';
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
// Sign-up mails a verification link as well: only the reset e-mails count here.
const mailsTo = (email: string) =>
  capture.messages.filter((m) => m.to.includes(email) && /^Subject: Reset your Sentinel password$/m.test(m.raw));
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
    const [mail, ...more] = mailsTo(email);
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
    expect(capture.messages).toHaveLength(before);
  });

  it('refuses an expired link, and a link a newer one replaced', async () => {
    const email = newEmail();
    await userWith(email);
    await requestReset(email).expect(202);
    await requestReset(email).expect(202);
    const [older, newer] = mailsTo(email).map((m) => tokenIn(emailText(m.raw)));
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
    await confirm(tokenIn(emailText(mailsTo(email)[0]!.raw)), 'the-owners-password').expect(200);
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
    expect(mailsTo(email)).toHaveLength(PASSWORD_RESETS_PER_ADDRESS);
  });

  it('rejects a weak new password with 400 naming it, and the link still works', async () => {
    const email = newEmail();
    await userWith(email);
    await requestReset(email).expect(202);
    const token = tokenIn(emailText(mailsTo(email)[0]!.raw));
    const weak = await confirm(token, 'short').expect(400);
    expect(weak.body.details).toEqual([{ field: 'password', message: 'must be at least 8 characters' }]);
    await confirm(token, 'long-enough-now').expect(200);
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
