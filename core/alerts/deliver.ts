import { ApplicationFailure } from '@temporalio/common';
import type { Config } from '../../config/config';
import type { Logger } from '../../config/logger';
import type { Db } from '../../db/client';
import type { Attempt } from '../deps';
import { giveUpDelivery, holdDelivery } from '../../db/repositories/alert-deliveries';
import { findSlackToken } from '../../db/repositories/slack-installations';
import { isSlackWebhook } from '../../domain/alerts/channels';
import {
  alertPagerDutyEvent,
  alertSlackMessage,
  type AlertLinks,
  type DeliveryContext,
} from '../../notify/alert-message';
import type { Mailer } from '../../notify/mailer';
import { DeliveryError } from '../../notify/outcome';
import { deliveryOutcomes, deliveryRetries } from '../../observability/metrics';
import { sendPagerDutyEvent } from '../../notify/pagerduty';
import { postSlackMessage, postSlackWebhook } from '../../notify/slack';
import { openChannel } from '../../security/channel-secrets';
import { decryptSecret } from '../../security/crypto';
import { DELIVERY_PERMANENT, DELIVERY_RETRYABLE } from '../../workflows/contracts';
import { type EmailOutcome, sendAlertEmail } from './alert-email';
import { claimDelivery, loadDeliveryContext, recordAttempt, triggerStillPending } from './delivery-attempts';

export function deliveryUseCases({
  db,
  log,
  config,
  mailer,
}: {
  db: Db;
  log: Logger;
  config: Readonly<Config>;
  mailer: Mailer;
}) {
  /** Sends to the channel; for e-mail, answers who got it and who was held back. */
  async function send(ctx: DeliveryContext, links: AlertLinks): Promise<EmailOutcome | undefined> {
    const channel = openChannel(config.secrets.dataEncryptionKey, ctx.channel);
    switch (channel.type) {
      case 'email':
        // Only incidents page twice (trigger, resolve); e-mail and Slack carry the alert itself.
        return sendAlertEmail({ db, config, mailer, log }, ctx, links, channel.to);
      case 'slack': {
        const message = alertSlackMessage(ctx, links);
        if (isSlackWebhook(channel)) {
          await postSlackWebhook({ url: channel.webhook_url, message });
          return undefined;
        }
        const sealed = await findSlackToken({ db, tenantId: ctx.tenantId, teamId: channel.team_id });
        if (!sealed) throw new DeliveryError(`the Slack workspace ${channel.team_id} is no longer installed`, false);
        let token: string;
        try {
          token = decryptSecret(config.secrets.dataEncryptionKey, sealed);
        } catch {
          throw new DeliveryError(
            'the stored Slack token cannot be decrypted (was DATA_ENCRYPTION_KEY changed?)',
            false,
          );
        }
        await postSlackMessage({ apiBaseUrl: config.slack.apiBaseUrl, token, channel: channel.channel, message });
        return undefined;
      }
      case 'pagerduty':
        await sendPagerDutyEvent({
          eventsUrl: config.pagerduty.eventsUrl,
          event: alertPagerDutyEvent(ctx, links, channel.routing_key),
        });
        return undefined;
    }
  }

  return {
    /**
     * One attempt to deliver one alert to one channel. Every attempt is recorded. A delivery already delivered
     * (or failed for good) is never sent again, so a retry after a crash that followed a recorded success
     * sends nothing. Peers' 429 Retry-After becomes the next retry's delay.
     */
    async deliverAlert(
      { tenantId, deliveryId }: { tenantId: string; deliveryId: string },
      attempt: Attempt,
    ): Promise<void> {
      if (await triggerStillPending({ db, deliveryId })) {
        throw ApplicationFailure.create({
          type: DELIVERY_RETRYABLE,
          message: 'waiting for the trigger of this incident to be delivered',
        });
      }
      const claimedAt = await claimDelivery({ db, tenantId, deliveryId });
      if (!claimedAt) return;
      const ctx = await loadDeliveryContext({ db, tenantId, deliveryId });
      if (!ctx) return;
      const fields = {
        deliveryId,
        alertId: ctx.alertId,
        channel: ctx.channel.type,
        kind: ctx.kind,
        attempt: ctx.attempts,
      };
      const channel = ctx.channel.type;
      if (ctx.attempts > 1) deliveryRetries.inc({ channel });
      const links = { findingsUrl: `${config.http.publicBaseUrl}/app/accounts/${ctx.awsAccountId}` };
      // Heartbeats let Temporal notice a dead worker within seconds rather than at the attempt's timeout.
      const beat = setInterval(() => attempt.heartbeat(), 2_000);
      let email: EmailOutcome | undefined;
      try {
        email = await send(ctx, links);
      } catch (err) {
        const failure = err instanceof DeliveryError ? err : new DeliveryError((err as Error).message, true);
        const outcome = failure.retryable ? 'retryable' : 'permanent';
        await recordAttempt({
          db,
          deliveryId,
          claimedAt,
          outcome,
          httpStatus: failure.httpStatus,
          error: failure.message,
        });
        deliveryOutcomes.inc({ channel, outcome: failure.retryable ? 'retryable' : 'failed' });
        log.warn(
          { ...fields, outcome, httpStatus: failure.httpStatus, error: failure.message },
          'alert delivery attempt failed',
        );
        throw ApplicationFailure.create({
          type: failure.retryable ? DELIVERY_RETRYABLE : DELIVERY_PERMANENT,
          message: failure.message,
          nonRetryable: !failure.retryable,
          nextRetryDelay:
            failure.retryAfterSeconds !== undefined ? `${Math.max(1, failure.retryAfterSeconds)}s` : undefined,
        });
      } finally {
        clearInterval(beat);
      }
      if (email?.sent === 0) {
        await holdDelivery({ db, deliveryId, claimedAt, held: email.held });
        deliveryOutcomes.inc({ channel, outcome: 'held' });
        log.info(
          { ...fields, held: email.held.map((h) => h.reason) },
          'alert e-mail held: no address may be sent to yet',
        );
        return;
      }
      await recordAttempt({ db, deliveryId, claimedAt, outcome: 'delivered', held: email?.held });
      deliveryOutcomes.inc({ channel, outcome: 'delivered' });
      log.info(fields, 'alert delivered');
    },

    /** The delivery's retries ran out: record it as failed. */
    async giveUpDelivery({ deliveryId, reason }: { deliveryId: string; reason: string }): Promise<void> {
      const channel = await giveUpDelivery({ db, deliveryId, reason });
      if (channel) deliveryOutcomes.inc({ channel, outcome: 'failed' });
      log.error({ deliveryId, reason }, 'alert delivery failed for good');
    },
  };
}
