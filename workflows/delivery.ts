import { ApplicationFailure, log, proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { DELIVER_ALERT, UNTIL_DATABASE_ANSWERS } from './activity-options';
import { type AlertDeliveryInput, DELIVERY_PERMANENT } from './contracts';

// A failing channel keeps retrying for up to a day (DELIVER_ALERT); then the delivery is recorded as failed.
const { deliverAlert } = proxyActivities<Activities>(DELIVER_ALERT);
const { giveUpDelivery } = proxyActivities<Activities>(UNTIL_DATABASE_ANSWERS);

/**
 * Delivers one alert to one channel. Started by the scan workflow and left running on its own (abandoned), so
 * a channel that is down never delays the next scan. Its workflow id is the delivery id: started twice, it runs once.
 */
export async function alertDeliveryWorkflow({
  tenantId,
  deliveryId,
}: AlertDeliveryInput): Promise<'delivered' | 'failed'> {
  try {
    await deliverAlert({ tenantId, deliveryId });
    return 'delivered';
  } catch (err) {
    const cause = err instanceof Error && err.cause instanceof ApplicationFailure ? err.cause : undefined;
    const reason = cause?.type === DELIVERY_PERMANENT ? cause.message : 'retries exhausted after 24 hours';
    log.warn('alert delivery failed', { deliveryId, reason });
    await giveUpDelivery({ deliveryId, reason });
    return 'failed';
  }
}
