import { randomBytes } from 'node:crypto';
import { EMAIL_VERIFICATION_RESENDS_PER_HOUR } from '../../domain/tenancy/limits';
import { createTestContext, type TestContext } from '../helpers/context';
import { type CapturedEmail, emailText, type SmtpCapture, startSmtpCapture } from '../helpers/smtp';

// Proof of the address: the link mailed at sign-up, GET /me's email_verified, and what waits for it (a
// tenant's invitations), through a real SMTP server on loopback. (A squatter losing an address to its owner's
// password reset is in password-reset.test.ts.)

const BASE_URL = 'https://sentinel.example.com';
const VERIFY_SUBJECT = 'Confirm your e-mail address for Sentinel';
let capture: SmtpCapture;
let ctx: TestContext;
beforeAll(async () => {
  capture = await startSmtpCapture();
  ctx = await createTestContext({ config: { SMTP_URL: capture.url, PUBLIC_BASE_URL: BASE_URL } });
});
afterAll(async () => {
  await ctx.close();
  await capture.close();
});

const newEmail = (label: string) => `${label}-${randomBytes(4).toString('hex')}@example.com`;
const subjectOf = (m: CapturedEmail) => /^Subject: (.*)$/m.exec(m.raw)?.[1];
const mailsTo = (email: string, subject?: string) =>
  capture.messages.filter((m) => m.to.includes(email) && (!subject || subjectOf(m) === subject));
const PASSWORD = 'correct horse battery staple';

function tokenIn(mail: CapturedEmail, page: string): string {
  const token = new RegExp(`/app/${page}#token=([A-Za-z0-9_-]+)`).exec(emailText(mail.raw))?.[1];
  if (!token) throw new Error(`no /app/${page} link in the e-mail`);
  return token;
}

async function signUp(email: string) {
  const signup = await ctx.http.post('/auth/signup').send({ email, password: PASSWORD, name: 'Vera' }).expect(201);
  const login = await ctx.http.post('/auth/login').send({ email, password: PASSWORD }).expect(200);
  return { tenantId: signup.body.tenant_id as string, auth: { Authorization: `Bearer ${login.body.id_token}` } };
}

const verified = async (auth: { Authorization: string }) =>
  (await ctx.http.get('/me').set(auth).expect(200)).body.user.email_verified;

describe('e-mail verification', () => {
  it('mails a single-use link at sign-up; following it verifies the address', async () => {
    const email = newEmail('verify');
    const { auth } = await signUp(email);
    expect(await verified(auth)).toBe(false);
    const [mail, ...more] = mailsTo(email);
    expect(more).toEqual([]);
    expect(subjectOf(mail!)).toBe(VERIFY_SUBJECT);
    const token = tokenIn(mail!, 'verify-email');
    expect(emailText(mail!.raw)).toContain(`POST ${BASE_URL}/auth/verify-email`);

    await ctx.http
      .post('/auth/verify-email')
      .send({ token: `${token}x` })
      .expect(400, {
        error: 'The verification link is unknown, already used or expired; ask for a new one',
        code: 'invalid_verification_token',
      });
    expect((await ctx.http.post('/auth/verify-email').send({ token }).expect(200)).body.message).toBe(
      `${email} is verified.`,
    );
    expect(await verified(auth)).toBe(true);
    await ctx.http.post('/auth/verify-email').send({ token }).expect(400); // once only
    await ctx.http.post('/auth/verify-email').send({}).expect(400);
    // Verified: asking for another link is refused.
    await ctx.http.post('/me/verify-email').set(auth).expect(409);
    const events = await ctx.db
      .selectFrom('audit_events')
      .select(['action', 'target'])
      .where('action', '=', 'auth.email_verified')
      .execute();
    expect(events).toContainEqual({ action: 'auth.email_verified', target: expect.stringMatching(/^user:usr_/) });
  });

  it('sends a new link on request (ending the older one), a few times an hour', async () => {
    const email = newEmail('resend');
    const { auth } = await signUp(email);
    const oldToken = tokenIn(mailsTo(email)[0]!, 'verify-email');
    for (let i = 0; i < EMAIL_VERIFICATION_RESENDS_PER_HOUR; i += 1)
      await ctx.http.post('/me/verify-email').set(auth).expect(202);
    const limited = await ctx.http.post('/me/verify-email').set(auth).expect(429);
    expect(limited.body.code).toBe('rate_limited');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    const links = mailsTo(email, VERIFY_SUBJECT);
    expect(links).toHaveLength(1 + EMAIL_VERIFICATION_RESENDS_PER_HOUR);
    await ctx.http.post('/auth/verify-email').send({ token: oldToken }).expect(400);
    await ctx.http
      .post('/auth/verify-email')
      .send({ token: tokenIn(links.at(-1)!, 'verify-email') })
      .expect(200);
  });

  it("holds a tenant's invitations until its owner has verified, then sends them", async () => {
    const ownerEmail = newEmail('owner');
    const { auth } = await signUp(ownerEmail);
    const invitee = newEmail('invitee');
    const invited = await ctx.http
      .post('/users/invite')
      .set(auth)
      .send({ email: invitee, name: 'Ines', role: 'member' })
      .expect(201);
    expect(invited.body.message).toContain("once the tenant's owner has verified");
    await ctx.http.post(`/users/${invited.body.user_id}/resend-invite`).set(auth).expect(409);
    expect(mailsTo(invitee)).toEqual([]);

    const token = tokenIn(mailsTo(ownerEmail, VERIFY_SUBJECT)[0]!, 'verify-email');
    expect((await ctx.http.post('/auth/verify-email').send({ token }).expect(200)).body.message).toContain(
      '1 waiting invitation e-mail was sent',
    );
    const [invitation, ...more] = mailsTo(invitee);
    expect(more).toEqual([]);
    // The invitation works, and accepting it proves the invitee's address too.
    const accepted = await ctx.http
      .post('/auth/accept-invite')
      .send({ token: tokenIn(invitation!, 'accept-invite'), password: PASSWORD })
      .expect(200);
    expect(await verified({ Authorization: `Bearer ${accepted.body.id_token}` })).toBe(true);
    // Once verified, invitations go out at once.
    const second = newEmail('second');
    await ctx.http.post('/users/invite').set(auth).send({ email: second, name: 'Sam', role: 'viewer' }).expect(201);
    expect(mailsTo(second)).toHaveLength(1);
  });

  it('never lets a pending invitation block its address: signing up with it cancels the invitation', async () => {
    const owner = await signUp(newEmail('inviter'));
    await ctx.db
      .updateTable('users')
      .set({ email_verified_at: new Date() })
      .where('tenant_id', '=', owner.tenantId)
      .execute();
    const address = newEmail('claimed');
    await ctx.http
      .post('/users/invite')
      .set(owner.auth)
      .send({ email: address, name: 'Cleo', role: 'member' })
      .expect(201);
    const own = await signUp(address);
    expect((await ctx.http.get('/me').set(own.auth).expect(200)).body.user.role).toBe('owner');
    const team = await ctx.http.get('/users').set(owner.auth).expect(200);
    expect(team.body.users.map((u: { email: string }) => u.email)).not.toContain(address);
  });
});
