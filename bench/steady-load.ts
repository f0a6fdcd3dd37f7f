import net from 'node:net';

// Latency at a steady load, the way a latency target is stated: requests sent on a fixed schedule whatever the server
// does (an open loop), spread over a fixed number of keep-alive connections, each with one request at a time as a
// browser or an SDK sends them. Each latency runs from the time the request was due, not from when it went out, so a
// server that stalls is charged for the requests that queued behind the stall ("coordinated omission", which a
// closed-loop generator such as autocannon at full speed hides, and which its rate mode over-corrects).
//
// autocannon at full speed measures something else: with 50 connections each sending its next request the moment
// its answer arrives, the server is always saturated and the mean latency is 50 / throughput (Little's law), so its
// p99 restates the throughput. This generator speaks just enough HTTP/1.1 for answers with a Content-Length (every
// answer of the API and of the baseline has one), so that it costs the shared cores little next to the server.

export interface SteadyLoad {
  url: string;
  /** Requests a second over all connections. */
  rate: number;
  seconds: number;
  connections: number;
  headers?: Record<string, string>;
}

export interface SteadyLatency {
  /** Requests settled within the run (answered or failed), and how many of them were not answered 200. */
  answered: number;
  errors: number;
  /** Milliseconds from each request's due time to the end of its answer. */
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

/** One keep-alive connection: sends a request when asked, or as soon as the one before it is answered. */
class Connection {
  private readonly socket: net.Socket;
  private buffered: Buffer = Buffer.alloc(0);
  /** Due times of the requests asked for and not yet answered; the first is on the wire. */
  private readonly due: number[] = [];
  private closed = false;

  constructor(
    port: number,
    host: string,
    private readonly request: Buffer,
    private readonly done: (due: number, ok: boolean) => void,
    private readonly unreadable: (err: Error) => void,
  ) {
    this.socket = net.connect({ port, host, noDelay: true });
    this.socket.on('data', (chunk) => this.read(chunk));
    this.socket.on('error', () => this.failAll());
    this.socket.on('close', () => this.failAll());
  }

  send(due: number): void {
    if (this.closed) return this.done(due, false);
    this.due.push(due);
    if (this.due.length === 1) this.socket.write(this.request);
  }

  close(): void {
    this.socket.destroy();
  }

  private read(chunk: Buffer): void {
    this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
    const headerEnd = this.buffered.indexOf('\r\n\r\n');
    if (headerEnd < 0) return;
    const head = this.buffered.toString('latin1', 0, headerEnd);
    const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
    if (!length) return this.unreadable(new Error(`an answer without a Content-Length: ${head.split('\r\n')[0]}`));
    const end = headerEnd + 4 + Number(length[1]);
    if (this.buffered.length < end) return;
    this.buffered = this.buffered.subarray(end);
    this.done(this.due.shift()!, head.startsWith('HTTP/1.1 200 '));
    if (this.due.length > 0) this.socket.write(this.request);
  }

  private failAll(): void {
    this.closed = true;
    for (const due of this.due.splice(0)) this.done(due, false);
  }
}

/** Runs `rate` GET requests a second over `connections` connections for `seconds`, request n on connection n mod connections. */
export async function steadyLoad({
  url,
  rate,
  seconds,
  connections,
  headers = {},
}: SteadyLoad): Promise<SteadyLatency> {
  const target = new URL(url);
  const request = Buffer.from(
    [
      `GET ${target.pathname}${target.search} HTTP/1.1`,
      `Host: ${target.host}`,
      ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
      '',
      '',
    ].join('\r\n'),
  );
  const total = Math.round(rate * seconds);
  const latencies: number[] = [];
  let errors = 0;
  let settle = () => {};
  let unreadable = (_err: Error) => {};
  const settled = new Promise<void>((resolve, reject) => {
    settle = resolve;
    unreadable = reject;
  });
  const done = (due: number, ok: boolean) => {
    latencies.push(performance.now() - due);
    if (!ok) errors += 1;
    if (latencies.length === total) settle();
  };
  const pool = Array.from(
    { length: connections },
    () => new Connection(Number(target.port || 80), target.hostname, request, done, unreadable),
  );
  const start = performance.now() + 100; // the connections open meanwhile
  const dueAt = (n: number) => start + (n * 1000) / rate;
  let sent = 0;
  const tick = () => {
    const now = performance.now();
    for (; sent < total && dueAt(sent) <= now; sent += 1) pool[sent % connections]!.send(dueAt(sent));
    if (sent < total) setTimeout(tick, Math.max(0, dueAt(sent) - performance.now()));
  };
  const first = setTimeout(tick, 100);
  try {
    await settled;
  } finally {
    clearTimeout(first);
    sent = total; // no more ticks
    for (const connection of pool) connection.close();
  }

  latencies.sort((a, b) => a - b);
  const at = (q: number) =>
    Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]! * 10) / 10;
  return { answered: latencies.length, errors, p50: at(0.5), p90: at(0.9), p99: at(0.99), max: at(1) };
}
