import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { createHttpServer } from '../../api/http-server';
import { createTestContext, signupAndLogin, type TestContext, type TestUser } from '../helpers/context';

// api/main.ts serves the app with createHttpServer: requests and responses born with the app's prototypes, so that
// Express has no prototype to change per request. The app must answer through it exactly as through Node's own.

async function listen(server: http.Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const close = (server: http.Server) => new Promise((resolve) => server.close(resolve));

describe('createHttpServer', () => {
  it("creates each request and response with the app's prototypes, before Express sees them", async () => {
    const app = express();
    app.get('/probe', (req, res) => {
      res.status(201).json({ app: req.app === app, query: req.query.q, host: req.get('host') !== undefined });
    });
    const born: boolean[] = [];
    const observe = (server: http.Server) =>
      server.prependListener('request', (req, res) => {
        born.push(Object.getPrototypeOf(req) === app.request && Object.getPrototypeOf(res) === app.response);
      });
    for (const server of [createHttpServer(app), http.createServer(app)]) {
      observe(server);
      const base = await listen(server);
      try {
        const res = await fetch(`${base}/probe?q=x`);
        expect(res.status).toBe(201);
        expect(await res.json()).toEqual({ app: true, query: 'x', host: true });
      } finally {
        await close(server);
      }
    }
    // Node's own server makes them with its prototypes, and Express changes them; ours makes them right at once.
    expect(born).toEqual([true, false]);
  });

  describe('with the API', () => {
    let ctx: TestContext;
    let server: http.Server;
    let base: string;
    let owner: TestUser;

    beforeAll(async () => {
      ctx = await createTestContext();
      server = createHttpServer(ctx.app);
      base = await listen(server);
      owner = await signupAndLogin(ctx);
    });

    afterAll(async () => {
      await close(server);
      await ctx.close();
    });

    it('answers an authenticated read, with its request id', async () => {
      const res = await fetch(`${base}/me`, { headers: { ...owner.auth, 'X-Request-Id': 'probe-1' } });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-request-id')).toBe('probe-1');
      expect(await res.json()).toMatchObject({ user: { email: owner.email } });
    });

    it('reads a JSON body, and refuses a malformed one with a JSON 400', async () => {
      const login = await fetch(`${base}/auth/login`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ email: owner.email, password: owner.password }),
      });
      expect(login.status).toBe(200);
      expect(await login.json()).toMatchObject({ id_token: expect.any(String) });

      const malformed = await fetch(`${base}/auth/login`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: '{"email":',
      });
      expect(malformed.status).toBe(400);
      expect(await malformed.json()).toMatchObject({ code: 'invalid_json' });
    });

    it('answers HEAD as GET without a body, and an unknown path with the JSON 404', async () => {
      const head = await fetch(`${base}/healthz`, { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(await head.text()).toBe('');

      const missing = await fetch(`${base}/no-such-path`);
      expect(missing.status).toBe(404);
      expect(await missing.json()).toMatchObject({ error: expect.any(String), code: expect.any(String) });
    });
  });
});
