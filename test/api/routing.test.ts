import { createTestContext, signupAndLogin, type TestContext, type TestUser } from '../helpers/context';

// The operations are routed by their path's first segment (api/operations/express.ts): a request reaches the routes
// under its segment only. What Express's routing answered before stays true: paths match whatever their case, HEAD
// answers as GET does without the body, an alias reaches its operation, and anything unmatched is the JSON 404.

let ctx: TestContext;
let owner: TestUser;
beforeAll(async () => {
  ctx = await createTestContext();
  owner = await signupAndLogin(ctx, 'Rita Router');
});
afterAll(() => ctx.close());

describe('routing by first path segment', () => {
  it('answers a path whatever its case, as Express matches it', async () => {
    const lower = await ctx.http.get('/accounts').set(owner.auth).expect(200);
    const upper = await ctx.http.get('/ACCOUNTS').set(owner.auth).expect(200);
    expect(upper.body).toEqual(lower.body);
    await ctx.http.get('/Me').set(owner.auth).expect(200);
  });

  it('writes JSON answers with their length, type and no-store, and HEAD gets the headers without the body', async () => {
    const get = await ctx.http.get('/me').set(owner.auth).expect(200);
    expect(get.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(get.headers['cache-control']).toBe('no-store');
    expect(get.headers['x-request-id']).toEqual(expect.any(String));
    expect(Number(get.headers['content-length'])).toBe(Buffer.byteLength(get.text));
    expect(JSON.parse(get.text)).toMatchObject({ user: { user_id: owner.userId } });

    const head = await ctx.http.head('/me').set(owner.auth).expect(200);
    expect(head.headers['content-length']).toBe(get.headers['content-length']);
    expect(head.text ?? '').toBe('');
  });

  it('reaches an operation under its alias, whose first segment is routed the same way', async () => {
    const slack = await ctx.http.get('/integrations/slack').set(owner.auth).expect(200);
    const chat = await ctx.http.get('/integrations/chat').set(owner.auth).expect(200);
    expect(chat.body).toEqual(slack.body);
  });

  it.each([
    ['an unknown first segment', 'get', '/nowhere'],
    ['an unknown path under a known segment', 'get', '/accounts/123456789012/nowhere'],
    ['a known path with a method it does not take', 'put', '/billing/plans'],
  ] as const)('answers %s with the JSON 404', async (_label, method, path) => {
    const res = await ctx.http[method](path).set(owner.auth).expect(404);
    expect(res.body).toEqual({ error: expect.any(String), code: 'route_not_found' });
  });

  it('still checks the token on a routed path before anything else', async () => {
    const res = await ctx.http.get('/accounts').expect(401);
    expect(res.body).toMatchObject({ code: 'unauthorized' });
  });
});
