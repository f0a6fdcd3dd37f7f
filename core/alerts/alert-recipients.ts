import { findTenant } from '../../db/repositories/tenants';
import { confirmRecipient, unsubscribeRecipient } from '../../db/repositories/alert-recipients';
import { readRecipientToken, type RecipientLinkPurpose } from '../../notify/recipient-links';
import type { AppDeps } from '../deps';
import { AppError } from '../errors';

// The two things a person can do from an alert e-mail without an account: confirm that they want a tenant's
// alerts, or stop them. The signed token in the link says which tenant and address (notify/recipient-links.ts).

type Deps = Pick<AppDeps, 'db' | 'config' | 'log'>;

function readLink({ config }: Deps, token: string | undefined, purpose: RecipientLinkPurpose) {
  const link = readRecipientToken(config.secrets.urlSigningKey, token ?? '');
  if (link === 'expired')
    throw new AppError(
      'link_expired',
      'This confirmation link has expired; the next alert of the tenant to this address brings a new one',
    );
  if (link === 'invalid' || link.purpose !== purpose) throw new AppError('link_invalid', 'This link is not valid');
  return link;
}

export async function confirmAlertRecipient(deps: Deps, token: string | undefined): Promise<{ message: string }> {
  const { tenantId, address } = readLink(deps, token, 'confirm');
  const tenant = await findTenant({ db: deps.db, tenantId });
  if (!tenant) throw new AppError('link_invalid', 'This link is not valid');
  await confirmRecipient({ db: deps.db, tenantId, address });
  deps.log.info({ tenantId }, 'alert recipient confirmed');
  return {
    message: `${address} will receive the security alerts of ${tenant.name}. Every alert e-mail has a link to stop them.`,
  };
}

/** Idempotent; also what mail clients call for RFC 8058 one-click unsubscribe. */
export async function unsubscribeAlertRecipient(deps: Deps, token: string | undefined): Promise<{ message: string }> {
  const { tenantId, address } = readLink(deps, token, 'unsubscribe');
  const tenant = await findTenant({ db: deps.db, tenantId });
  // A tenant deleted since has nothing left to send: the answer is the same.
  if (tenant) await unsubscribeRecipient({ db: deps.db, tenantId, address });
  deps.log.info({ tenantId }, 'alert recipient unsubscribed');
  return { message: `${address} will get no more alert e-mails from ${tenant?.name ?? 'this tenant'}.` };
}
