import { Writable } from 'node:stream';
import express from 'express';
import request from 'supertest';
import { createApp } from '../../api/app';
import { errorHandler } from '../../api/middleware/errors';
import { createLogger } from '../../config/logger';
import { createTestContext, signupAndLogin, type TestContext } from '../helpers/context';

/** The production logger, writing its JSON lines to memory. */
function capturingLogger() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  const log = createLogger({ level: 'info', name: 'test', destination: stream });
  return { log, lines, text: () => JSON.stringify(lines) };
}

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

describe('structured logs', () => {
  it('carry the request id on every line of a request and never the credentials', async () => {
    const capture = capturingLogger();
    const http = request(createApp({ ...ctx, log: capture.log }));
    const user = await signupAndLogin(http);
    await http.get('/me').set(user.auth).set('X-Request-Id', 'req-logging-1').expect(200);

    const requestLines = capture.lines.filter((l) => l.reqId === 'req-logging-1');
    expect(requestLines.map((l) => l.msg)).toContain('request completed');
    // The caller is on the request's lines once authenticated, and the line names the request, not its headers.
    const completed = requestLines.find((l) => l.msg === 'request completed');
    expect(completed).toMatchObject({
      tenantId: user.tenantId,
      userId: user.userId,
      req: { method: 'GET', url: '/me' },
      res: { statusCode: 200 },
    });
    expect(completed?.req).not.toHaveProperty('headers');
    expect(capture.lines.every((l) => typeof l.reqId === 'string')).toBe(true);
    const signupLine = capture.lines.find((l) => l.msg === 'tenant signed up');
    expect(signupLine?.reqId).toEqual(expect.any(String));

    const text = capture.text();
    expect(text).not.toContain(user.idToken);
    expect(text).not.toContain(user.password);
    expect(text).not.toContain(user.refreshToken);
  });

  it('redact credentials in query parameters (whatever the path) and in the Stripe signature header', async () => {
    const capture = capturingLogger();
    const http = request(createApp({ ...ctx, log: capture.log }));
    await http.get('/exports/exp_01ABC/download?expires=1999999999&signature=secret-signature-value').expect(403);
    await http.get('/WEBHOOKS/slack/install?code=secret-oauth-code&State=secret-state').expect(503); // no Slack app configured
    // The dashboard's page (200), or 503 when no test has built it yet: only the log line matters here.
    await http
      .get('/app/accept-invite?token=secret-invitation-token')
      .expect((res) => expect([200, 503]).toContain(res.status));
    await http
      .post('/webhooks/stripe')
      .set('Content-Type', 'application/json')
      .set('Stripe-Signature', 't=1,v1=secret-stripe-signature')
      .send('{}')
      .expect(503); // no webhook secret configured
    const urls = capture.lines.filter((l) => l.req).map((l) => (l.req as { url: string }).url);
    expect(urls).toEqual([
      '/exports/exp_01ABC/download?expires=1999999999&signature=%5Bredacted%5D',
      '/WEBHOOKS/slack/install?code=%5Bredacted%5D&State=%5Bredacted%5D',
      '/app/accept-invite?token=%5Bredacted%5D',
      '/webhooks/stripe',
    ]);
    expect(capture.text()).not.toMatch(/secret-(signature-value|oauth-code|state|invitation-token|stripe-signature)/);
  });
});

describe('unexpected errors', () => {
  it('become a bare JSON 500, logged with the request id', async () => {
    const capture = capturingLogger();
    const app = express();
    app.use((req, _res, next) => {
      req.log = capture.log.child({ reqId: 'req-500' });
      next();
    });
    app.get('/boom', () => {
      throw new Error('secret internal detail');
    });
    app.use(errorHandler);
    const res = await request(app).get('/boom').expect(500);
    expect(res.body).toEqual({ error: 'Internal server error', code: 'internal_error' });
    expect(JSON.stringify(res.body)).not.toContain('secret internal detail');
    expect(capture.lines.find((l) => l.reqId === 'req-500' && l.msg === 'unhandled error')).toBeDefined();
  });
});
