import type { Config } from '../../config/config';
import type { Logger } from '../../config/logger';
import type { Db } from '../../db/client';
import { claimConfirmation, loadRecipientFacts, releaseConfirmation } from '../../db/repositories/alert-recipients';
import { hitWindow, releaseHit } from '../../db/repositories/rate-limits';
import { emailsPerTenantPerHour, TENANT_EMAIL_WINDOW_SECONDS } from '../../domain/tenancy/limits';
import { getPlan } from '../../domain/tenancy/plans';
import {
  CONFIRMATION_LINK_DAYS,
  type HeldRecipient,
  overHourlyLimit,
  planRecipients,
} from '../../domain/alerts/recipients';
import { sha256 } from '../../security/crypto';
import {
  alertEmail,
  type AlertLinks,
  type DeliveryContext,
  recipientConfirmationEmail,
  type UnsubscribeLinks,
} from '../../notify/alert-message';
import type { Mailer } from '../../notify/mailer';
import { oneClickUnsubscribeUrl, recipientPageUrl, recipientToken } from '../../notify/recipient-links';

export interface EmailOutcome {
  /** Addresses the alert went to. */
  sent: number;
  /** Addresses held back, and why (domain/alerts/recipients.ts). */
  held: HeldRecipient[];
}

/**
 * Sends an alert to an e-mail channel: one message per address the tenant may mail (each with its own
 * unsubscribe link), the one confirmation e-mail to each new address, and nothing past the tenant's hourly
 * allowance. A send that fails throws (the attempt is retried); the recipients are sorted again on the retry.
 */
export async function sendAlertEmail(
  { db, config, mailer, log }: { db: Db; config: Readonly<Config>; mailer: Mailer; log: Logger },
  ctx: DeliveryContext,
  links: AlertLinks,
  addresses: string[],
): Promise<EmailOutcome> {
  const { tenantId } = ctx;
  let plan = planRecipients(
    addresses,
    await loadRecipientFacts({ db, tenantId, addresses, linkDays: CONFIRMATION_LINK_DAYS }),
  );
  const hits = plan.send.length + plan.confirm.length;
  if (hits > 0) {
    const key = `email:tenant:${tenantId}`;
    const window = await hitWindow({ db, key, windowSeconds: TENANT_EMAIL_WINDOW_SECONDS, hits });
    if (window.count > emailsPerTenantPerHour(getPlan(ctx.plan).account_limit)) {
      // Held, not queued: an alert an hour late is noise. The hits are taken back so later, smaller alerts fit.
      await releaseHit({ db, key, hits });
      log.warn(
        { tenantId, deliveryId: ctx.deliveryId, recipients: hits },
        'alert e-mail held: the tenant is past its hourly e-mail allowance',
      );
      plan = overHourlyLimit(plan);
    }
  }

  const key = config.secrets.urlSigningKey;
  const base = config.http.publicBaseUrl;
  const unsubscribeFor = (address: string): UnsubscribeLinks => {
    const token = recipientToken(key, { purpose: 'unsubscribe', tenantId, address });
    return { pageUrl: recipientPageUrl(base, token), oneClickUrl: oneClickUnsubscribeUrl(base, token) };
  };

  for (const address of plan.confirm) {
    const claimed = await claimConfirmation({ db, tenantId, address, linkDays: CONFIRMATION_LINK_DAYS });
    if (!claimed) continue;
    const confirmUrl = recipientPageUrl(base, recipientToken(key, { purpose: 'confirm', tenantId, address }));
    try {
      await mailer.send({
        // One per claim: a later confirmation (the first link expired) is a message of its own.
        idempotencyKey: `confirm-${tenantId}-${sha256(address).slice(0, 24)}-${claimed.getTime()}`,
        ...recipientConfirmationEmail({
          tenantName: ctx.tenantName,
          to: address,
          confirmUrl,
          unsubscribe: unsubscribeFor(address),
        }),
      });
    } catch (err) {
      await releaseConfirmation({ db, tenantId, address });
      throw err;
    }
    log.info({ tenantId, deliveryId: ctx.deliveryId }, 'alert recipient asked to confirm');
    if (mailer.via === 'outbox' && config.env !== 'production')
      log.info({ tenantId, confirmUrl }, 'recipient confirmation link (no SMTP_URL: also kept in email_outbox)');
  }

  for (const address of plan.send) {
    await mailer.send({
      idempotencyKey: `${ctx.deliveryId}-${sha256(address).slice(0, 24)}`,
      ...alertEmail(ctx, links, address, unsubscribeFor(address)),
    });
  }
  return { sent: plan.send.length, held: plan.held };
}
