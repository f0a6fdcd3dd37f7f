import nodemailer from 'nodemailer';
import type { Logger } from '../config/logger';
import type { Db } from '../db/client';
import { insertOutboxEmail } from '../db/repositories/email-outbox';
import { newId } from '../domain/ids';
import { DeliveryError } from './outcome';

export interface Email {
  /** Stable per logical message: it becomes the Message-ID and the outbox key, so a resend is recognisable. */
  idempotencyKey: string;
  to: string[];
  subject: string;
  text: string;
  html?: string;
  /** Extra headers (List-Unsubscribe); kept in the outbox too. */
  headers?: Record<string, string>;
}

export interface Mailer {
  readonly via: 'smtp' | 'outbox';
  send(email: Email): Promise<void>;
  close(): void;
}

/**
 * SMTP through nodemailer when SMTP_URL is set; otherwise the embedded default, the email_outbox table, where
 * the operator reads what would have been sent. The body is never logged: invitations carry a sign-in link.
 */
export function createMailer({
  config,
  db,
  log,
}: {
  config: { smtpUrl?: string; from: string };
  db: Db;
  log: Logger;
}): Mailer {
  if (!config.smtpUrl) {
    return {
      via: 'outbox',
      async send(email) {
        const id = newId('email');
        const inserted = await insertOutboxEmail({
          db,
          email: {
            id,
            idempotency_key: email.idempotencyKey,
            to_addresses: email.to,
            subject: email.subject,
            text_body: email.text,
            html_body: email.html ?? null,
            headers: email.headers ? JSON.stringify(email.headers) : null,
          },
        });
        if (inserted)
          log.info(
            { outboxId: id, recipients: email.to.length, subject: email.subject },
            'e-mail written to the outbox (no SMTP_URL)',
          );
      },
      close: () => undefined,
    };
  }

  // Short timeouts: an invitation waits for its e-mail inside an HTTP request, and a stalled server must fail
  // an alert attempt well within the activity's timeout (it is retried).
  const transport = nodemailer.createTransport({
    url: config.smtpUrl,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  });
  return {
    via: 'smtp',
    async send(email) {
      try {
        await transport.sendMail({
          from: config.from,
          to: email.to,
          subject: email.subject,
          text: email.text,
          html: email.html,
          headers: email.headers,
          messageId: `<${email.idempotencyKey}@sentinel>`,
        });
      } catch (err) {
        throw smtpFailure(err as Error & { responseCode?: number; code?: string });
      }
    },
    close: () => transport.close(),
  };
}

/** SMTP 5xx replies are permanent (bad recipient, policy); 4xx and connection problems are worth retrying. */
function smtpFailure(err: Error & { responseCode?: number }): DeliveryError {
  const code = err.responseCode;
  const permanent = code !== undefined && code >= 500;
  return new DeliveryError(
    `SMTP ${code ? `answered ${code}` : 'failed'}: ${err.message.slice(0, 200)}`,
    !permanent,
    code,
  );
}
