import type { Express } from 'express';
import type { Role } from '../../domain/roles';
import { addUserWithRole, createTestContext, signupAndLogin, type TestContext, type TestUser } from '../helpers/context';

// The README's role table, endpoint by endpoint, for every role. A role below the one required gets 403
// `forbidden`; any other answer (404 for the made-up ids, 400 for the empty bodies, 503 for billing without
// Stripe...) means the role got past the check. The table must name every route the app serves, so a new
// route cannot be added without deciding who may call it.

type Method = 'get' | 'post' | 'patch' | 'delete';
const PUBLIC = 'public';

const TABLE: Record<string, Role | typeof PUBLIC> = {
  'get /healthz': PUBLIC,
  'get /readyz': PUBLIC,
  'post /auth/signup': PUBLIC,
  'post /auth/login': PUBLIC,
  'post /auth/refresh': PUBLIC,
  'post /auth/logout': PUBLIC,
  'post /auth/accept-invite': PUBLIC,
  'get /billing/plans': PUBLIC,
  'post /webhooks/stripe': PUBLIC,
  'get /webhooks/slack/install': PUBLIC,
  'get /webhooks/chat/install': PUBLIC,
  'get /exports/:exportId/download': PUBLIC,

  'get /me': 'viewer',
  'patch /me': 'viewer',
  'get /accounts': 'viewer',
  'get /accounts/:accountId': 'viewer',
  'get /accounts/:accountId/signals': 'viewer',
  'get /accounts/:accountId/score-history': 'viewer',
  'get /accounts/:accountId/recovery-checklist': 'viewer',
  'get /accounts/:accountId/export': 'viewer',
  'get /alert-rules': 'viewer',
  'get /alerts': 'viewer',
  'get /users': 'viewer',
  'get /integrations/slack': 'viewer',
  'get /integrations/chat': 'viewer',

  'post /accounts': 'member',
  'post /accounts/:accountId/verify': 'member',
  'post /accounts/:accountId/scan': 'member',
  'post /accounts/:accountId/panic': 'member',
  'delete /accounts/:accountId': 'member',
  'post /alert-rules': 'member',
  'patch /alert-rules/:ruleId': 'member',
  'delete /alert-rules/:ruleId': 'member',
  'post /alerts/:alertId/ack': 'member',

  'post /users/invite': 'admin',
  'post /users/:userId/resend-invite': 'admin',
  'delete /users/:userId': 'admin',
  'get /integrations/slack/oauth-start': 'admin',
  'get /integrations/chat/oauth-start': 'admin',
  'delete /integrations/slack/:teamId': 'admin',
  'delete /integrations/chat/:teamId': 'admin',

  'patch /users/:userId': 'owner',
  'post /billing/checkout': 'owner',
  'get /billing/portal': 'owner',
};

interface Layer {
  route?: { path: string | string[]; methods: Record<string, boolean> };
  handle?: { stack?: Layer[] };
}

/** Every method and path the app serves, read from Express's own routing table. */
function servedRoutes(app: Express): string[] {
  const found: string[] = [];
  const walk = (stack: Layer[]) => {
    for (const layer of stack) {
      if (layer.route) {
        const paths = Array.isArray(layer.route.path) ? layer.route.path : [layer.route.path];
        for (const method of Object.keys(layer.route.methods).filter((m) => m !== '_all')) {
          for (const path of paths) found.push(`${method} ${path}`);
        }
      } else if (layer.handle?.stack) {
        walk(layer.handle.stack);
      }
    }
  };
  walk((app as unknown as { router: { stack: Layer[] } }).router.stack);
  return found;
}

const RANK: Role[] = ['viewer', 'member', 'admin', 'owner'];

let ctx: TestContext;
const users = {} as Record<Role, TestUser>;

beforeAll(async () => {
  ctx = await createTestContext();
  users.owner = await signupAndLogin(ctx.http);
  for (const role of ['admin', 'member', 'viewer'] as const) users[role] = await addUserWithRole(ctx, users.owner.tenantId, role);
});
afterAll(() => ctx.close());

/** Made-up ids of the right shape: past the role check, the request finds nothing (404) or fails validation. */
function concrete(path: string): string {
  return path.replace(':accountId', '999999999998').replace(':ruleId', 'rule_01NOTHING0000000000000000')
    .replace(':alertId', 'alrt_01NOTHING0000000000000000').replace(':userId', 'usr_01NOTHING0000000000000000')
    .replace(':teamId', 'T0NOTHING').replace(':exportId', 'exp_01NOTHING0000000000000000');
}

describe('the role matrix', () => {
  it('names every route the app serves, and only those', () => {
    expect(servedRoutes(ctx.app).sort()).toEqual(Object.keys(TABLE).sort());
  });

  const guarded = Object.entries(TABLE).filter((entry): entry is [string, Role] => entry[1] !== PUBLIC);
  it.each(guarded)('%s needs %s', async (route, required) => {
    const [method, path] = route.split(' ') as [Method, string];
    for (const role of RANK) {
      const res = await ctx.http[method](concrete(path)).set(users[role].auth).send(method === 'get' || method === 'delete' ? undefined : {});
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
