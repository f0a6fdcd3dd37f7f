import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface PeerRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
  /** The body parsed as JSON or as a form, whichever it is. */
  json: unknown;
  form: Record<string, string>;
}

export interface PeerReply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export type PeerHandler = (req: PeerRequest) => PeerReply | Promise<PeerReply>;

export interface HttpPeer {
  url: string;
  /** Every request received, in order, including ones answered with an error. */
  requests: PeerRequest[];
  /** Replaces the handler (e.g. to make the peer fail or answer 429). */
  handle(handler: PeerHandler): void;
  close(): Promise<void>;
}

/**
 * A loopback HTTP server that plays an external service (Slack, PagerDuty) in tests: it records requests and
 * answers with whatever the current handler says, so a test can make it go down, throttle or come back.
 */
export async function startHttpPeer(handler: PeerHandler): Promise<HttpPeer> {
  let current = handler;
  const requests: PeerRequest[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: unknown;
      try {
        json = body ? JSON.parse(body) : undefined;
      } catch {
        json = undefined;
      }
      const form = Object.fromEntries(new URLSearchParams(body));
      const request: PeerRequest = {
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        headers: req.headers,
        body,
        json,
        form,
      };
      requests.push(request);
      try {
        const reply = await current(request);
        res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
        res.end(reply.body === undefined ? '' : JSON.stringify(reply.body));
      } catch {
        res.destroy();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    handle: (next) => {
      current = next;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
