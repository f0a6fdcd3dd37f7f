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

/** A real SMTP server on loopback (npm smtp-server) that keeps every message it accepts. */
export async function startSmtpCapture(): Promise<SmtpCapture> {
  const messages: CapturedEmail[] = [];
  let failures: { count: number; code: number } = { count: 0, code: 0 };
  let holding: ((held: { release: () => void }) => void) | undefined;
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
      stream.on('end', () => {
        if (failures.count > 0) {
          failures = { ...failures, count: failures.count - 1 };
          const err = Object.assign(new Error('Service not available, try again'), { responseCode: failures.code });
          return callback(err);
        }
        const accept = () => {
          if (closedSessions.has(session.id)) return;
          messages.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            raw: Buffer.concat(chunks).toString('utf8'),
          });
          callback();
        };
        if (!holding) return accept();
        const notify = holding;
        holding = undefined;
        notify({ release: accept });
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    failNext: (count, code) => { failures = { count, code }; },
    holdNext: () => new Promise((resolve) => { holding = resolve; }),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The decoded text of a captured message's parts, for assertions on content (quoted-printable undone). */
export function emailText(raw: string): string {
  return raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}
