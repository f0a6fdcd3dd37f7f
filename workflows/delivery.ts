import { ApplicationFailure, log, proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { type AlertDeliveryInput, DELIVERY_PERMANENT } from './contracts';

// A failing channel keeps retrying for up to a day: quickly at first, then at most every 30 minutes, so a
// channel that was down for hours is reached soon after it returns. Peers' Retry-After overrides the delay.
const { deliverAlert } = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  // The activity heartbeats while sending: a worker that dies mid-send is noticed within seconds.
  heartbeatTimeout: '10 seconds',
  scheduleToCloseTimeout: '24 hours',
  retry: {
    initialInterval: '5 seconds',
    backoffCoefficient: 2,
    maximumInterval: '30 minutes',
    nonRetryableErrorTypes: [DELIVERY_PERMANENT],
  },
});

const { giveUpDelivery } = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '2 seconds', maximumInterval: '1 minute', backoffCoefficient: 2 },
});

/**
 * Delivers one alert to one channel. Started by the scan workflow and left running on its own (abandoned), so
 * a channel that is down never delays the next scan. Its workflow id is the delivery id: started twice, it runs once.
 */
export async function alertDeliveryWorkflow({ tenantId, deliveryId }: AlertDeliveryInput): Promise<'delivered' | 'failed'> {
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
