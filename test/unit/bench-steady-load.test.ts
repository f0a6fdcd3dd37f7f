import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { steadyLoad } from '../../bench/steady-load';

// The bench's steady-load generator: its p99 is only worth reporting if a stall is charged to the requests that
// queued behind it, and if every answer is counted whatever its size or status. Lower bounds only: a slow machine
// can only make latencies longer.

async function serve(handler: http.RequestListener): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/path?q=1`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function answer(res: http.ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) }).end(body);
}

describe('steadyLoad', () => {
  it('charges a stalled answer to the requests due behind it on the same connection', async () => {
    let seen = 0;
    const server = await serve((_req, res) => {
      seen += 1;
      // Held 310 ms for the 300 asserted: a timer may fire a fraction of a millisecond early by the clock the
      // generator measures with (libuv dates timers from the time it cached at the start of its loop turn).
      if (seen === 50) setTimeout(() => answer(res, 200, '{"ok":true}'), 310);
      else answer(res, 200, '{"ok":true}');
    });
    try {
      // 200 requests over 5 connections: 40 on each, one every 25 ms. The 50th waits over 300 ms, and the next ones on its
      // connection were due while it waited: measured from when they were due, the second longest latency is at
      // least 300 - 25 ms. Measured from when they went out, only the stalled request would be slow.
      const latency = await steadyLoad({ url: server.url, rate: 200, seconds: 1, connections: 5 });
      expect(latency).toMatchObject({ answered: 200, errors: 0 });
      expect(latency.max).toBeGreaterThanOrEqual(300);
      expect(latency.p99).toBeGreaterThanOrEqual(275);
    } finally {
      await server.close();
    }
  });

  it('reads answers that arrive in several chunks, sends the headers given, and counts answers other than 200 as errors', async () => {
    const body = JSON.stringify({ items: 'x'.repeat(300_000) });
    const requests: Array<{ url?: string; auth?: string }> = [];
    const server = await serve((req, res) => {
      requests.push({ url: req.url, auth: req.headers.authorization });
      answer(res, requests.length % 10 === 0 ? 503 : 200, body);
    });
    try {
      const latency = await steadyLoad({
        url: server.url,
        rate: 100,
        seconds: 1,
        connections: 4,
        headers: { Authorization: 'Bearer t' },
      });
      expect(latency).toMatchObject({ answered: 100, errors: 10 });
      expect(requests).toHaveLength(100);
      expect(requests.every((r) => r.url === '/path?q=1' && r.auth === 'Bearer t')).toBe(true);
    } finally {
      await server.close();
    }
  });

  it('counts the requests of a connection the server closes as errors, and still ends', async () => {
    let seen = 0;
    const server = await serve((req, res) => {
      seen += 1;
      if (seen === 3) req.socket.destroy();
      else answer(res, 200, '{}');
    });
    try {
      const latency = await steadyLoad({ url: server.url, rate: 40, seconds: 1, connections: 2 });
      expect(latency.answered).toBe(40);
      // The closed connection's own request and every later one due on it.
      expect(latency.errors).toBeGreaterThanOrEqual(10);
    } finally {
      await server.close();
    }
  });

  it('refuses an answer it cannot delimit (no Content-Length) rather than measuring it', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('{}'); // chunked: headers were sent before the body's length was known
    });
    try {
      await expect(steadyLoad({ url: server.url, rate: 10, seconds: 1, connections: 1 })).rejects.toThrow(
        'an answer without a Content-Length',
      );
    } finally {
      await server.close();
    }
  });
});
