import {
  consumeUserLink,
  findLiveUserLink,
  insertUserLink,
  type UserLinkTable,
} from '../../db/repositories/user-links';
import { type IdKind, newId } from '../../domain/ids';
import type { AppDeps } from '../deps';
import { sha256 } from '../../security/crypto';
import { newRefreshSecret } from './tokens';

// Single-use links mailed to a user: a password reset, an address verification. Whoever reads the mailbox can
// follow them. The token (256 random bits) exists only in the e-mail; a SHA-256 of it is stored.

export interface UserLinkKind {
  table: UserLinkTable;
  idKind: IdKind;
  ttlMinutes: number;
  /** The dashboard page the link opens, under /app (the token goes in the fragment). */
  page: string;
  /** What the log lines call it. */
  label: string;
}

export interface LinkEmail {
  subject: string;
  text: string;
  html: string;
}

/**
 * Stores a new link for the user (ending the older ones of its kind) and mails it; false when the mail server
 * refused (logged, not thrown: the caller decides). Without a mail server (the embedded default) the link is
 * also logged outside production, so a newcomer can follow it.
 */
export async function mailUserLink(
  { db, config, log, mailer }: Pick<AppDeps, 'db' | 'config' | 'log' | 'mailer'>,
  kind: UserLinkKind,
  user: { id: string; email: string },
  compose: (link: { url: string; token: string; expiresAt: Date }) => LinkEmail,
): Promise<boolean> {
  const id = newId(kind.idKind);
  const { secret, hash } = newRefreshSecret();
  const { expiresAt } = await insertUserLink({
    db,
    table: kind.table,
    id,
    userId: user.id,
    tokenHash: hash,
    ttlMinutes: kind.ttlMinutes,
  });
  const url = `${config.http.publicBaseUrl}/app/${kind.page}#token=${encodeURIComponent(secret)}`;
  try {
    await mailer.send({ idempotencyKey: id, to: [user.email], ...compose({ url, token: secret, expiresAt }) });
  } catch (err) {
    log.warn({ userId: user.id, reason: (err as Error).message }, `${kind.label} e-mail could not be sent`);
    return false;
  }
  log.info({ userId: user.id, linkId: id }, `${kind.label} link sent`);
  if (mailer.via === 'outbox' && config.env !== 'production')
    log.info({ userId: user.id, link: url }, `${kind.label} link (no SMTP_URL: also kept in email_outbox)`);
  return true;
}

/** The user a live link of this kind belongs to, once: the link is used up by this call. */
export function consumeLink(db: AppDeps['db'], kind: UserLinkKind, token: string) {
  return consumeUserLink({ db, table: kind.table, tokenHash: sha256(token) });
}

/** Whether a link of this kind is live, without using it up: a refusal that costs nothing more. */
export async function isLiveLink(db: AppDeps['db'], kind: UserLinkKind, token: string): Promise<boolean> {
  return (await findLiveUserLink({ db, table: kind.table, tokenHash: sha256(token) })) !== undefined;
}
