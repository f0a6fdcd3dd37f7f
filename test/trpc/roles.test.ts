import { OPERATIONS } from '../../api/operations';
import { PUBLIC } from '../../api/openapi/registry';
import { hasRole, type Role } from '../../domain/tenancy/roles';
import {
  addUserWithRole,
  createTestContext,
  signupAndLogin,
  type TestContext,
  type TestUser,
} from '../helpers/context';
import { callPath, callerFor, failure, procedures } from './caller';
import { PROCEDURES } from './table';

// Roles: every procedure follows the access rule of the REST operation it mirrors (read from the operation
// registry). Below that role the answer is 403 `forbidden` and nothing is written; at it, the role check lets
// the call through to the service (which then refuses the harmless input: an unknown id or an invalid body).

const ROLES: Role[] = ['viewer', 'member', 'admin', 'owner'];
const ACCESS = new Map(OPERATIONS.map((op) => [op.operationId, op.access]));

let ctx: TestContext;
const users = {} as Record<Role, TestUser>;

beforeAll(async () => {
  ctx = await createTestContext();
  users.owner = await signupAndLogin(ctx, 'Roles Owner');
  for (const role of ['admin', 'member', 'viewer'] as const)
    users[role] = await addUserWithRole(ctx, users.owner.tenantId, role);
});
afterAll(() => ctx.close());

async function rowCounts(): Promise<Record<string, number>> {
  const tables = [
    'accounts',
    'alert_rules',
    'alert_events',
    'users',
    'invitations',
    'exports',
    'oauth_states',
    'tenants',
  ] as const;
  const counts: Record<string, number> = {};
  for (const table of tables) {
    const row = await ctx.db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    counts[table] = Number(row.n);
  }
  return counts;
}

it('lists every procedure of the router, each mirroring a REST operation', () => {
  expect(Object.keys(PROCEDURES).sort()).toEqual(Object.keys(procedures()).sort());
  const unknown = Object.entries(PROCEDURES)
    .filter(([, e]) => !ACCESS.has(e.operation))
    .map(([path]) => path);
  expect(unknown).toEqual([]);
});

it('answers procedures of public operations without a token, and refuses the others with 401', async () => {
  const anonymous = callerFor(ctx, null);
  const wrong: unknown[] = [];
  for (const [path, entry] of Object.entries(PROCEDURES)) {
    const got = await failure(callPath(anonymous, path, entry.harmless ?? {})).catch(() => ({ code: 'succeeded' }));
    const isPublic = ACCESS.get(entry.operation) === PUBLIC;
    if ((got.code === 'unauthorized') === isPublic) wrong.push({ path, isPublic, got: got.code });
  }
  expect(wrong).toEqual([]);
});

it("refuses every role below the operation's with 403 forbidden, writing nothing, and lets the others through", async () => {
  const before = await rowCounts();
  const wrong: unknown[] = [];
  let refused = 0;
  for (const [path, entry] of Object.entries(PROCEDURES)) {
    const access = ACCESS.get(entry.operation);
    if (access === PUBLIC || access === undefined) continue;
    for (const role of ROLES) {
      const result = await failure(callPath(callerFor(ctx, users[role]), path, entry.harmless)).catch(() => ({
        trpc: 'none',
        code: 'succeeded',
      }));
      const allowed = hasRole(role, access);
      if (!allowed) refused += 1;
      const forbidden = result.code === 'forbidden';
      if (forbidden === allowed) wrong.push({ path, role, access, got: result.code });
      if (forbidden && result.trpc !== 'FORBIDDEN') wrong.push({ path, role, trpc: result.trpc });
    }
  }
  expect(wrong).toEqual([]);
  expect(refused).toBeGreaterThan(20);
  expect(await rowCounts()).toEqual(before);
});

it('lets a viewer read but not change anything: every mutation the viewer calls is refused', async () => {
  const viewer = callerFor(ctx, users.viewer);
  const mutations = Object.entries(procedures())
    .filter(([, type]) => type === 'mutation')
    .map(([path]) => path);
  const allowedForViewers = mutations.filter((path) => {
    const access = ACCESS.get(PROCEDURES[path]!.operation);
    return access === PUBLIC || access === 'viewer';
  });
  // Only the public auth procedures, renaming oneself and asking for a verification link are mutations a viewer may make.
  expect(allowedForViewers.sort()).toEqual([
    'auth.acceptInvite',
    'auth.confirmAlertRecipient',
    'auth.confirmPasswordReset',
    'auth.login',
    'auth.logout',
    'auth.refresh',
    'auth.requestPasswordReset',
    'auth.signup',
    'auth.unsubscribeAlertRecipient',
    'auth.verifyEmail',
    'me.rename',
    'me.resendVerificationEmail',
  ]);
  for (const path of mutations.filter((p) => !allowedForViewers.includes(p))) {
    expect({ path, ...(await failure(callPath(viewer, path, PROCEDURES[path]!.harmless))) }).toMatchObject({
      path,
      code: 'forbidden',
    });
  }
  expect((await viewer.accounts.list()).total).toBe(0);
});
