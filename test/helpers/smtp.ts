import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface CapturedEmail {
  from: string;
  to: string[];
  /** The raw RFC 5322 message (headers and MIME body). */
  raw: string;
}

export interface SmtpCapture {
  url: string;
  messages: CapturedEmail[];
  /** Makes the next `count` messages fail with this SMTP reply code (e.g. 451 transient, 550 permanent). */
  failNext(count: number, code: number): void;
  /**
   * Holds the next message after its data arrived, before the server accepts it (the end-of-data reply).
   * Resolves once a message is held; `release()` then accepts it, unless the client has hung up meanwhile: as
   * SMTP says, a message whose end-of-data was never acknowledged has not been accepted, so it is dropped.
   */
  holdNext(): Promise<{ release: () => void }>;
  close(): Promise<void>;
}

/** A message whose data has arrived, waiting for the server's end-of-data reply. */
export interface ArrivedEmail extends CapturedEmail {
  /** True once the client has hung up: a reply can no longer reach it, so the message was never accepted. */
  hungUp(): boolean;
}

/**
 * A real SMTP server on loopback (npm smtp-server). Each message that arrives is handed to `onMessage` with
 * `reply`: `reply()` accepts it, `reply(err)` refuses it with `err.responseCode`; a test may also wait.
 */
export async function listenSmtp(
  onMessage: (message: ArrivedEmail, reply: (err?: Error) => void) => void,
): Promise<{ url: string; close: () => Promise<void> }> {
  const closedSessions = new Set<string>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onClose(session) {
      closedSessions.add(session.id);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () =>
        onMessage(
          {
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            raw: Buffer.concat(chunks).toString('utf8'),
            hungUp: () => closedSessions.has(session.id),
          },
          callback,
        ),
      );
    },
  });
  // A client that hangs up mid-message (a worker killed by a test, a timeout) is reported by smtp-server as an
  // 'error' event naming the client's address: the message is simply not accepted, as `hungUp()` tells, and must not
  // crash the suite. Any other error of the server still does.
  server.on('error', (err: Error & { remoteAddress?: string }) => {
    if (!err.remoteAddress) throw err;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return { url: `smtp://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** An SMTP server that keeps every message it accepts, and can be told to refuse or hold the next ones. */
export async function startSmtpCapture(): Promise<SmtpCapture> {
  const messages: CapturedEmail[] = [];
  let failures: { count: number; code: number } = { count: 0, code: 0 };
  let holding: ((held: { release: () => void }) => void) | undefined;
  const server = await listenSmtp(({ hungUp, ...message }, reply) => {
    if (failures.count > 0) {
      failures = { ...failures, count: failures.count - 1 };
      return reply(Object.assign(new Error('Service not available, try again'), { responseCode: failures.code }));
    }
    const accept = () => {
      if (hungUp()) return;
      messages.push(message);
      reply();
    };
    if (!holding) return accept();
    const notify = holding;
    holding = undefined;
    notify({ release: accept });
  });
  return {
    url: server.url,
    messages,
    failNext: (count, code) => {
      failures = { count, code };
    },
    holdNext: () =>
      new Promise((resolve) => {
        holding = resolve;
      }),
    close: server.close,
  };
}

/** The decoded text of a captured message's parts, for assertions on content (quoted-printable undone). */
export function emailText(raw: string): string {
  return raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}
