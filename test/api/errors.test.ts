import { createTestContext, signupAndLogin, type TestContext, type TestUser } from '../helpers/context';

let ctx: TestContext;
let owner: TestUser;
beforeAll(async () => {
  ctx = await createTestContext();
  owner = await signupAndLogin(ctx);
});
afterAll(() => ctx.close());

describe('error responses', () => {
  it('answers an unknown route with a JSON 404', async () => {
    const res = await ctx.http.get('/no/such/route').expect(404);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.body).toEqual({ error: expect.stringContaining('/no/such/route'), code: 'route_not_found' });
  });

  it('answers malformed JSON with 400 invalid_json', async () => {
    const res = await ctx.http
      .post('/auth/signup')
      .set('Content-Type', 'application/json')
      .send('{"email": ')
      .expect(400);
    expect(res.body).toEqual({ error: expect.any(String), code: 'invalid_json' });
  });

  it('answers a body that cannot be read (a corrupt gzip stream) with 400, not 500', async () => {
    const res = await ctx.http
      .post('/auth/login')
      .set('Content-Type', 'application/json')
      .set('Content-Encoding', 'gzip')
      .send('this is not gzip')
      .expect(400);
    expect(res.body).toEqual({ error: expect.any(String), code: 'invalid_json' });
  });

  it('answers a malformed percent-escape in a path with 400, not 500', async () => {
    const user = await signupAndLogin(ctx);
    const res = await ctx.http.get('/accounts/%E0').set(user.auth).expect(400);
    expect(res.body).toEqual({ error: expect.any(String), code: 'invalid_input' });
  });

  it('answers a non-JSON Content-Type with 400 unsupported_content_type', async () => {
    const res = await ctx.http
      .post('/auth/signup')
      .set('Content-Type', 'text/plain')
      .send('email=a@example.com')
      .expect(400);
    expect(res.body.code).toBe('unsupported_content_type');
    const form = await ctx.http
      .post('/auth/login')
      .type('form')
      .send({ email: 'a@example.com', password: 'x' })
      .expect(400);
    expect(form.body.code).toBe('unsupported_content_type');
  });

  it('answers an oversized body with 400 body_too_large', async () => {
    const res = await ctx.http
      .post('/auth/signup')
      .send({ email: 'big@example.com', password: 'password123', name: 'x'.repeat(200_000) })
      .expect(400);
    expect(res.body.code).toBe('body_too_large');
  });

  it('answers a missing body on a route that needs one with 400 validation_failed', async () => {
    const res = await ctx.http.patch('/me').set(owner.auth).expect(400);
    expect(res.body.code).toBe('validation_failed');
  });

  it('answers a JSON array where an object is expected with 400', async () => {
    const res = await ctx.http.post('/auth/signup').send([1, 2, 3]).expect(400);
    expect(res.body.code).toBe('validation_failed');
  });

  it('carries a request id on every response, keeping a sane caller-supplied one', async () => {
    const generated = await ctx.http.get('/healthz').expect(200);
    expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const kept = await ctx.http.get('/healthz').set('X-Request-Id', 'trace-123').expect(200);
    expect(kept.headers['x-request-id']).toBe('trace-123');
    const replaced = await ctx.http.get('/healthz').set('X-Request-Id', 'bad id with spaces').expect(200);
    expect(replaced.headers['x-request-id']).not.toBe('bad id with spaces');
  });

  it('answers a value PostgreSQL cannot store (a NUL character) with 400, not 500', async () => {
    const res = await ctx.http.patch('/me').set(owner.auth).send({ name: 'bad\u0000name' }).expect(400);
    expect(res.body.code).toBe('invalid_input');
  });
});
