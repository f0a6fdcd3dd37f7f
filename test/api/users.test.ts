import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { z } from 'zod';
import { tokensOutput } from '../../core/schemas/auth';
import { errorBody } from '../../core/schemas/common';
import { changeRoleOutput, inviteUserOutput, listUsersOutput } from '../../core/schemas/users';
import { createTestContext, signupAndLogin, type TestContext, type TestUser } from '../helpers/context';

// Users join a tenant only through the real flow: invitation (its e-mail lands in the outbox, the embedded
// default) and acceptance with the token from that e-mail.
let ctx: TestContext;
let owner: TestUser;
let admin: TestUser;
let member: TestUser;
let viewer: TestUser;
let otherOwner: TestUser;
beforeAll(async () => {
  ctx = await createTestContext();
  owner = await signupAndLogin(ctx, 'Olive Owner');
  otherOwner = await signupAndLogin(ctx, 'Other Tenant');
  admin = await join(owner, 'admin');
  member = await join(owner, 'member');
  viewer = await join(owner, 'viewer');
});
afterAll(() => ctx.close());

type Role = 'admin' | 'member' | 'viewer';
const PASSWORD = 'a sturdy team password';

function conforms(schema: z.ZodObject, body: unknown): void {
  const result = schema.strict().safeParse(body);
  if (!result.success) throw new Error(`response does not match its schema: ${JSON.stringify(result.error.issues)}`);
}

const newEmail = (label: string) => `${label}-${randomBytes(4).toString('hex')}@example.com`;

async function invite(by: TestUser, role: Role, email = newEmail(role)) {
  const res = await ctx.http
    .post('/users/invite')
    .set(by.auth)
    .send({ email, name: `New ${role}`, role })
    .expect(201);
  return { userId: res.body.user_id as string, email };
}

async function tokenMailedTo(email: string): Promise<string> {
  const rows = await ctx.db
    .selectFrom('email_outbox')
    .select('text_body')
    .where(sql<boolean>`${email} = any(to_addresses)`)
    .execute();
  expect(rows).toHaveLength(1);
  const token = /\/app\/accept-invite#token=([A-Za-z0-9_-]+)/.exec(rows[0]!.text_body)?.[1];
  if (!token) throw new Error('no invitation link in the e-mail');
  return token;
}

async function accept(email: string): Promise<{ idToken: string; refreshToken: string }> {
  const res = await ctx.http
    .post('/auth/accept-invite')
    .send({ token: await tokenMailedTo(email), password: PASSWORD })
    .expect(200);
  return { idToken: res.body.id_token, refreshToken: res.body.refresh_token };
}

/** Invites a user with the role and accepts the invitation: a signed-in team member. */
async function join(by: TestUser, role: Role): Promise<TestUser> {
  const { userId, email } = await invite(by, role);
  const { idToken, refreshToken } = await accept(email);
  return {
    email,
    password: PASSWORD,
    tenantId: by.tenantId,
    userId,
    idToken,
    refreshToken,
    auth: { Authorization: `Bearer ${idToken}` },
  };
}

const roleOf = async (userId: string) =>
  (await ctx.db.selectFrom('users').select('role').where('id', '=', userId).executeTakeFirst())?.role;
const userExists = async (userId: string) => (await roleOf(userId)) !== undefined;
const outboxCount = async () =>
  Number(
    (
      await ctx.db
        .selectFrom('email_outbox')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
const userByEmail = (email: string) =>
  ctx.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst();

describe('GET /users', () => {
  it('lists the team oldest first, invited users with status invited', async () => {
    const tenant = await signupAndLogin(ctx, 'Lister');
    const joined = await join(tenant, 'viewer');
    const pending = await invite(tenant, 'member');

    const res = await ctx.http.get('/users').set(tenant.auth).expect(200);
    conforms(listUsersOutput, res.body);
    const created_at = expect.any(String);
    expect(res.body).toEqual({
      users: [
        { user_id: tenant.userId, email: tenant.email, name: 'Lister', role: 'owner', created_at, status: 'active' },
        {
          user_id: joined.userId,
          email: joined.email,
          name: 'New viewer',
          role: 'viewer',
          created_at,
          status: 'active',
        },
        {
          user_id: pending.userId,
          email: pending.email,
          name: 'New member',
          role: 'member',
          created_at,
          status: 'invited',
        },
      ],
      total: 3,
    });
    for (const u of res.body.users) expect(new Date(u.created_at).toISOString()).toBe(u.created_at);

    await accept(pending.email);
    const after = await ctx.http.get('/users').set(tenant.auth).expect(200);
    expect(after.body.users[2]).toMatchObject({ user_id: pending.userId, status: 'active' });
  });

  it.each([['owner'], ['admin'], ['member'], ['viewer']])('is open to the %s', async (role) => {
    const caller = { owner, admin, member, viewer }[role]!;
    const res = await ctx.http.get('/users').set(caller.auth).expect(200);
    expect(res.body.users.map((u: { user_id: string }) => u.user_id)).toEqual(
      expect.arrayContaining([owner.userId, admin.userId, member.userId, viewer.userId]),
    );
    expect(res.body.total).toBe(res.body.users.length);
  });

  it("shows only the caller's tenant", async () => {
    const other = await signupAndLogin(ctx);
    const res = await ctx.http.get('/users').set(other.auth).expect(200);
    expect(res.body).toMatchObject({ users: [{ user_id: other.userId, role: 'owner' }], total: 1 });
  });

  it('needs a bearer token', async () => {
    const res = await ctx.http.get('/users').expect(401);
    conforms(errorBody, res.body);
  });
});

describe('POST /users/invite', () => {
  it.each([['owner'], ['admin']])('lets the %s invite, with role member by default', async (role) => {
    const caller = { owner, admin }[role]!;
    const email = newEmail('invitee');
    const res = await ctx.http
      .post('/users/invite')
      .set(caller.auth)
      .send({ email: email.toUpperCase(), name: 'Ivy' })
      .expect(201);
    conforms(inviteUserOutput, res.body);
    expect(res.body).toEqual({
      user_id: expect.stringMatching(/^usr_/),
      email,
      name: 'Ivy',
      role: 'member',
      message: expect.stringContaining(email),
    });
    const row = await ctx.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', res.body.user_id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ tenant_id: owner.tenantId, email, name: 'Ivy', role: 'member', password_hash: null });
    await tokenMailedTo(email);
  });

  it('lets an admin invite another admin', async () => {
    const { userId } = await invite(admin, 'admin');
    expect(await roleOf(userId)).toBe('admin');
  });

  it.each([['member'], ['viewer']])('refuses the %s with 403 and sends nothing', async (role) => {
    const caller = { member, viewer }[role]!;
    const email = newEmail('refused');
    const before = await outboxCount();
    const res = await ctx.http.post('/users/invite').set(caller.auth).send({ email, name: 'Nope' }).expect(403);
    expect(res.body).toEqual({ error: expect.any(String), code: 'forbidden' });
    expect(await userByEmail(email)).toBeUndefined();
    expect(await outboxCount()).toBe(before);
  });

  it('answers 409 email_taken for a user of the same tenant (any case) and sends nothing', async () => {
    const before = await outboxCount();
    const res = await ctx.http
      .post('/users/invite')
      .set(owner.auth)
      .send({ email: member.email.toUpperCase(), name: 'Dup', role: 'admin' })
      .expect(409);
    expect(res.body).toEqual({ error: expect.any(String), code: 'email_taken' });
    expect(await outboxCount()).toBe(before);
    expect(await ctx.db.selectFrom('users').select('id').where('email', '=', member.email).execute()).toHaveLength(1);
  });

  it("answers an address of another tenant's user exactly as a fresh one, and tells only its owner why it cannot join", async () => {
    const invitedElsewhere = newEmail('elsewhere');
    await invite(otherOwner, 'member', invitedElsewhere);
    const otherTenantBefore = await ctx.db
      .selectFrom('users')
      .selectAll()
      .where('tenant_id', '=', otherOwner.tenantId)
      .orderBy('id')
      .execute();
    const addresses = [newEmail('fresh'), otherOwner.email, invitedElsewhere];
    const answers = [];
    for (const email of addresses) {
      const res = await ctx.http
        .post('/users/invite')
        .set(owner.auth)
        .send({ email, name: 'Newcomer', role: 'viewer' });
      // What the inviter sees, with the address, the new user's id and the link's expiry taken out.
      answers.push({
        status: res.status,
        headers: Object.keys(res.headers).filter((h) => !['date', 'content-length', 'x-request-id'].includes(h)),
        body: JSON.parse(
          res.text
            .replaceAll(email, '<email>')
            .replace(res.body.user_id, '<user_id>')
            .replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/, '<time>'),
        ),
      });
    }
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
    expect(answers[0]!.status).toBe(201);
    const team = (await ctx.http.get('/users').set(owner.auth).expect(200)).body.users as {
      email: string;
      status: string;
    }[];
    for (const email of addresses) expect(team.find((u) => u.email === email)?.status).toBe('invited');
    // The other tenant's users are as they were; its owner still signs in.
    expect(
      await ctx.db.selectFrom('users').selectAll().where('tenant_id', '=', otherOwner.tenantId).orderBy('id').execute(),
    ).toEqual(otherTenantBefore);
    await ctx.http.post('/auth/login').send({ email: otherOwner.email, password: otherOwner.password }).expect(200);
    // The fresh address and the one only invited elsewhere get a link; the one with an account is told why not.
    const invitation = async (email: string) =>
      (
        await ctx.db
          .selectFrom('email_outbox')
          .select('text_body')
          .where(sql<boolean>`${email} = any(to_addresses)`)
          .where('subject', 'like', 'Olive Owner invited you%')
          .executeTakeFirstOrThrow()
      ).text_body;
    expect(await invitation(addresses[0]!)).toContain('/app/accept-invite#token=');
    expect(await invitation(invitedElsewhere)).toContain('/app/accept-invite#token=');
    const told = await invitation(otherOwner.email);
    expect(told).not.toContain('#token=');
    expect(told).toContain('This address already signs in to a Sentinel account');
  });

  it.each([
    ['role owner', { email: 'x1@example.com', name: 'X', role: 'owner' }, 'role'],
    ['an unknown role', { email: 'x2@example.com', name: 'X', role: 'superuser' }, 'role'],
    ['a missing e-mail', { name: 'X' }, 'email'],
    ['a malformed e-mail', { email: 'not-an-email', name: 'X' }, 'email'],
    ['65 characters before the @', { email: `${'x'.repeat(65)}@example.com`, name: 'X' }, 'email'],
    ['a missing name', { email: 'x3@example.com' }, 'name'],
    ['an empty name', { email: 'x4@example.com', name: '  ' }, 'name'],
    ['a 201-character name', { email: 'x5@example.com', name: 'x'.repeat(201) }, 'name'],
    ['an unknown field', { email: 'x6@example.com', name: 'X', password: 'password123' }, 'password'],
  ])('rejects %s with 400 naming the field and creates nothing', async (_label, body, field) => {
    const res = await ctx.http.post('/users/invite').set(owner.auth).send(body).expect(400);
    conforms(errorBody, res.body);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.error).toContain(field);
    expect(res.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
    if ('email' in body) expect(await userByEmail(body.email)).toBeUndefined();
  });
});

describe('PATCH /users/{user_id}', () => {
  it('lets the owner change a role', async () => {
    const target = await join(owner, 'member');
    const res = await ctx.http.patch(`/users/${target.userId}`).set(owner.auth).send({ role: 'admin' }).expect(200);
    conforms(changeRoleOutput, res.body);
    expect(res.body).toEqual({ user_id: target.userId, role: 'admin', updated_at: expect.any(String) });
    expect(new Date(res.body.updated_at).toISOString()).toBe(res.body.updated_at);
    const list = await ctx.http.get('/users').set(owner.auth).expect(200);
    expect(list.body.users).toEqual(
      expect.arrayContaining([expect.objectContaining({ user_id: target.userId, role: 'admin' })]),
    );
  });

  it('changes the role of an invited user, who joins with it', async () => {
    const pending = await invite(owner, 'viewer');
    await ctx.http.patch(`/users/${pending.userId}`).set(owner.auth).send({ role: 'member' }).expect(200);
    const { idToken } = await accept(pending.email);
    const me = await ctx.http
      .get('/me')
      .set({ Authorization: `Bearer ${idToken}` })
      .expect(200);
    expect(me.body.user.role).toBe('member');
  });

  it.each([['admin'], ['member'], ['viewer']])('refuses the %s with 403', async (role) => {
    const caller = { admin, member, viewer }[role]!;
    const target = await join(owner, 'viewer');
    const res = await ctx.http.patch(`/users/${target.userId}`).set(caller.auth).send({ role: 'admin' }).expect(403);
    expect(res.body.code).toBe('forbidden');
    expect(await roleOf(target.userId)).toBe('viewer');
  });

  it("never changes the owner's role (403), even for the owner", async () => {
    const res = await ctx.http.patch(`/users/${owner.userId}`).set(owner.auth).send({ role: 'admin' }).expect(403);
    expect(res.body.code).toBe('forbidden');
    expect(await roleOf(owner.userId)).toBe('owner');
  });

  it.each([
    ['role owner', { role: 'owner' }, 'role'],
    ['a missing role', {}, 'role'],
    ['an unknown role', { role: 'root' }, 'role'],
    ['an unknown field', { role: 'admin', name: 'Renamed' }, 'name'],
  ])('rejects %s with 400 naming the field', async (_label, body, field) => {
    const res = await ctx.http.patch(`/users/${member.userId}`).set(owner.auth).send(body).expect(400);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
    expect(await roleOf(member.userId)).toBe('member');
  });

  it("answers 404 for an unknown user and for another tenant's user", async () => {
    await ctx.http.patch('/users/usr_nobody').set(owner.auth).send({ role: 'admin' }).expect(404);
    const res = await ctx.http
      .patch(`/users/${member.userId}`)
      .set(otherOwner.auth)
      .send({ role: 'viewer' })
      .expect(404);
    expect(res.body.code).toBe('not_found');
    expect(await roleOf(member.userId)).toBe('member');
  });
});

describe('DELETE /users/{user_id}', () => {
  it('lets an admin remove a member: 204 with an empty body', async () => {
    const target = await join(owner, 'member');
    const res = await ctx.http.delete(`/users/${target.userId}`).set(admin.auth).expect(204);
    expect(res.text).toBe('');
    expect(res.headers['content-type']).toBeUndefined();
    expect(await userExists(target.userId)).toBe(false);
    const list = await ctx.http.get('/users').set(owner.auth).expect(200);
    expect(list.body.users.map((u: { user_id: string }) => u.user_id)).not.toContain(target.userId);
  });

  it.each([
    ['owner', 'admin'],
    ['admin', 'admin'],
    ['admin', 'viewer'],
    ['owner', 'member'],
  ])('lets the %s remove a user with role %s', async (callerRole, targetRole) => {
    const caller = { owner, admin }[callerRole]!;
    const target = await join(owner, targetRole as Role);
    await ctx.http.delete(`/users/${target.userId}`).set(caller.auth).expect(204);
    expect(await userExists(target.userId)).toBe(false);
  });

  it('removes an invited user, whose link then stops working', async () => {
    const pending = await invite(owner, 'member');
    const token = await tokenMailedTo(pending.email);
    await ctx.http.delete(`/users/${pending.userId}`).set(admin.auth).expect(204);
    const res = await ctx.http.post('/auth/accept-invite').send({ token, password: PASSWORD }).expect(400);
    expect(res.body.code).toBe('invalid_invitation');
  });

  it.each([['member'], ['viewer']])('refuses the %s with 403', async (role) => {
    const caller = { member, viewer }[role]!;
    const target = await join(owner, 'viewer');
    const res = await ctx.http.delete(`/users/${target.userId}`).set(caller.auth).expect(403);
    expect(res.body.code).toBe('forbidden');
    expect(await userExists(target.userId)).toBe(true);
  });

  it.each([
    ['the owner removing themselves', () => owner, () => owner.userId],
    ['an admin removing themselves', () => admin, () => admin.userId],
    ['an admin removing the owner', () => admin, () => owner.userId],
  ])('refuses %s with 403', async (_label, caller, target) => {
    const res = await ctx.http.delete(`/users/${target()}`).set(caller().auth).expect(403);
    expect(res.body.code).toBe('forbidden');
    expect(await userExists(target())).toBe(true);
    await ctx.http.get('/me').set(caller().auth).expect(200);
  });

  it("answers 404 for an unknown user and for another tenant's user", async () => {
    await ctx.http.delete('/users/usr_nobody').set(owner.auth).expect(404);
    const res = await ctx.http.delete(`/users/${member.userId}`).set(otherOwner.auth).expect(404);
    expect(res.body.code).toBe('not_found');
    expect(await userExists(member.userId)).toBe(true);
  });
});

describe('sessions follow the team', () => {
  it("ends a removed user's sessions at once: id_token, refresh token and password", async () => {
    const target = await join(owner, 'admin');
    await ctx.http.get('/users').set(target.auth).expect(200);
    await ctx.http.delete(`/users/${target.userId}`).set(owner.auth).expect(204);

    const res = await ctx.http.get('/users').set(target.auth).expect(401);
    expect(res.body.code).toBe('unauthorized');
    const refreshed = await ctx.http.post('/auth/refresh').send({ refresh_token: target.refreshToken }).expect(401);
    expect(refreshed.body.code).toBe('invalid_refresh_token');
    await ctx.http.post('/auth/login').send({ email: target.email, password: PASSWORD }).expect(401);
  });

  it('applies a promotion to the next request: a member made admin invites with the same token', async () => {
    const target = await join(owner, 'member');
    await ctx.http
      .post('/users/invite')
      .set(target.auth)
      .send({ email: newEmail('early'), name: 'Early' })
      .expect(403);
    await ctx.http.patch(`/users/${target.userId}`).set(owner.auth).send({ role: 'admin' }).expect(200);
    await ctx.http
      .post('/users/invite')
      .set(target.auth)
      .send({ email: newEmail('promoted'), name: 'Promoted' })
      .expect(201);
  });

  it('applies a demotion to the next request: an admin made viewer gets 403 on the next write', async () => {
    const target = await join(owner, 'admin');
    const victim = await join(owner, 'member');
    await ctx.http.patch(`/users/${target.userId}`).set(owner.auth).send({ role: 'viewer' }).expect(200);
    await ctx.http.delete(`/users/${victim.userId}`).set(target.auth).expect(403);
    await ctx.http
      .post('/users/invite')
      .set(target.auth)
      .send({ email: newEmail('late'), name: 'Late' })
      .expect(403);
    await ctx.http.get('/users').set(target.auth).expect(200);
    expect(await userExists(victim.userId)).toBe(true);
  });

  it('gives an accepted invitation the login token set', async () => {
    const { email } = await invite(owner, 'viewer');
    const res = await ctx.http
      .post('/auth/accept-invite')
      .send({ token: await tokenMailedTo(email), password: PASSWORD })
      .expect(200);
    conforms(tokensOutput, res.body);
  });
});
