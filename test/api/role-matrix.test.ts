import type { Role } from '../../domain/tenancy/roles';
import { OPERATIONS } from '../../api/operations';
import { type Access, expressPath, pathsOf, PUBLIC } from '../../api/openapi/registry';
import {
  addUserWithRole,
  createTestContext,
  signupAndLogin,
  type TestContext,
  type TestUser,
} from '../helpers/context';
import { servedRoutes } from '../helpers/routes';

// The role table of docs/decisions.md, endpoint by endpoint, for every role, as the operation registry states it (the
// OpenAPI document is built from the same registry). A role below the one required gets 403 `forbidden`; any
// other answer (404 for the made-up ids, 400 for the empty bodies, 503 for billing without Stripe...) means the
// role got past the check. The registry must name every route the app serves, so a new route cannot be added
// without deciding who may call it.

type Method = 'get' | 'post' | 'patch' | 'delete';

const TABLE: Record<string, Access> = Object.fromEntries(
  OPERATIONS.flatMap((op) => pathsOf(op).map((path) => [`${op.method} ${expressPath(path)}`, op.access])),
);

const RANK: Role[] = ['viewer', 'member', 'admin', 'owner'];

let ctx: TestContext;
const users = {} as Record<Role, TestUser>;

beforeAll(async () => {
  ctx = await createTestContext();
  users.owner = await signupAndLogin(ctx);
  for (const role of ['admin', 'member', 'viewer'] as const)
    users[role] = await addUserWithRole(ctx, users.owner.tenantId, role);
});
afterAll(() => ctx.close());

/** Made-up ids of the right shape: past the role check, the request finds nothing (404) or fails validation. */
function concrete(path: string): string {
  return path
    .replace(':accountId', '999999999998')
    .replace(':ruleId', 'rule_01NOTHING0000000000000000')
    .replace(':alertId', 'alrt_01NOTHING0000000000000000')
    .replace(':userId', 'usr_01NOTHING0000000000000000')
    .replace(':teamId', 'T0NOTHING')
    .replace(':exportId', 'exp_01NOTHING0000000000000000')
    .replace(':signalId', 'sig_01NOTHING0000000000000000')
    .replace(':orgId', 'org_01NOTHING0000000000000000')
    .replace(':trustedPrincipalId', 'trp_01NOTHING0000000000000000')
    .replace(':detectionId', 'det_01NOTHING0000000000000000');
}

describe('the role matrix', () => {
  it('names every route the app serves, and only those', () => {
    expect(servedRoutes(ctx.app).sort()).toEqual(Object.keys(TABLE).sort());
  });

  const guarded = Object.entries(TABLE).filter((entry): entry is [string, Role] => entry[1] !== PUBLIC);
  it.each(guarded)('%s needs %s', async (route, required) => {
    const [method, path] = route.split(' ') as [Method, string];
    for (const role of RANK) {
      const res = await ctx.http[method](concrete(path))
        .set(users[role].auth)
        .send(method === 'get' || method === 'delete' ? undefined : {});
      const allowed = RANK.indexOf(role) >= RANK.indexOf(required);
      if (allowed) {
        expect({ role, status: res.status, code: res.body?.code }).not.toMatchObject({ code: 'forbidden' });
        expect(res.status).not.toBe(401);
      } else {
        expect({ role, status: res.status, code: res.body?.code }).toEqual({ role, status: 403, code: 'forbidden' });
      }
    }
  });

  it.each(guarded)('%s needs a bearer token', async (route) => {
    const [method, path] = route.split(' ') as [Method, string];
    const res = await ctx.http[method](concrete(path));
    expect(res.status).toBe(401);
  });
});
