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
    expect(capture.lines.every((l) => typeof l.reqId === 'string')).toBe(true);
    const signupLine = capture.lines.find((l) => l.msg === 'tenant signed up');
    expect(signupLine?.reqId).toEqual(expect.any(String));

    const text = capture.text();
    expect(text).not.toContain(user.idToken);
    expect(text).not.toContain(user.password);
    expect(text).not.toContain(user.refreshToken);
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
