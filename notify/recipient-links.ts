import { CONFIRMATION_LINK_DAYS } from '../domain/alerts/recipients';
import { sign, verifySignature } from '../security/crypto';

// Links in alert e-mails that act for one address of one tenant, with no account behind them: confirm that the
// address wants the tenant's alerts, or stop them. The token is signed (URL_SIGNING_KEY), so nothing is stored
// per link: `<purpose>.<tenant>.<address>.<expires>.<signature>`, the middle parts base64url. A confirmation
// expires after CONFIRMATION_LINK_DAYS; an unsubscribe link never does (RFC 8058: it must keep working).

export type RecipientLinkPurpose = 'confirm' | 'unsubscribe';

export interface RecipientLink {
  purpose: RecipientLinkPurpose;
  tenantId: string;
  address: string;
}

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64url');
const unb64 = (s: string) => Buffer.from(s, 'base64url').toString('utf8');

export function recipientToken(key: Buffer, link: RecipientLink, now = new Date()): string {
  const expires = link.purpose === 'confirm' ? Math.floor(now.getTime() / 1000) + CONFIRMATION_LINK_DAYS * 86_400 : 0;
  const body = [link.purpose, b64(link.tenantId), b64(link.address), String(expires)].join('.');
  return `${body}.${sign(key, `recipient-link:${body}`)}`;
}

/** The link a token stands for, 'expired', or 'invalid' (anything altered, or not a token at all). */
export function readRecipientToken(
  key: Buffer,
  token: string,
  now = new Date(),
): RecipientLink | 'invalid' | 'expired' {
  const parts = token.split('.');
  if (parts.length !== 5) return 'invalid';
  const [purpose, tenant, address, expires, signature] = parts as [string, string, string, string, string];
  const body = [purpose, tenant, address, expires].join('.');
  if ((purpose !== 'confirm' && purpose !== 'unsubscribe') || !/^[0-9]{1,12}$/.test(expires)) return 'invalid';
  if (!verifySignature(key, `recipient-link:${body}`, signature)) return 'invalid';
  if (expires !== '0' && Number(expires) * 1000 <= now.getTime()) return 'expired';
  return { purpose, tenantId: unb64(tenant), address: unb64(address) };
}

/** The dashboard page a person opens from the e-mail (it asks before acting: mail scanners follow links). */
export const recipientPageUrl = (publicBaseUrl: string, token: string) =>
  `${publicBaseUrl}/app/email-preferences#token=${encodeURIComponent(token)}`;

/** RFC 8058 one-click unsubscribe: the mail client POSTs `List-Unsubscribe=One-Click` here. */
export const oneClickUnsubscribeUrl = (publicBaseUrl: string, token: string) =>
  `${publicBaseUrl}/email/unsubscribe?token=${encodeURIComponent(token)}`;
