import { HealthClient, paginateDescribeEvents } from '@aws-sdk/client-health';
import type { HealthEvent } from '../../../domain/scans/inventory';
import { ReadFailure } from './failures';
import { foldPages, globalPart, type ReadContext } from './reader';

// The AWS Health API answers only accounts with a Business or Enterprise support plan, from us-east-1. Open
// and upcoming events are the ones to act on; closed ones are history.

/** AWS Health refusing an account without the support plan it needs: the reason says which plan. */
class HealthNeedsSupportPlan extends ReadFailure {
  override get reason(): string {
    return 'AWS Health needs a Business or Enterprise support plan';
  }
}

export const healthPart = globalPart({
  part: 'health',
  async read({ session }: ReadContext) {
    const health = session.client((config) => new HealthClient(config));
    try {
      return {
        value: {
          events: await foldPages(
            paginateDescribeEvents({ client: health }, { filter: { eventStatusCodes: ['open', 'upcoming'] } }),
            [] as HealthEvent[],
            (into, page) => [
              ...into,
              ...(page.events ?? []).map((e) => ({
                arn: e.arn ?? '',
                eventTypeCode: e.eventTypeCode ?? '',
                service: e.service ?? '',
                region: e.region ?? '',
                startTime: e.startTime?.toISOString() ?? '',
                statusCode: e.statusCode ?? '',
              })),
            ],
          ),
        },
      };
    } catch (err) {
      if (err instanceof ReadFailure && err.code === 'SubscriptionRequired')
        throw new HealthNeedsSupportPlan(err.call, err.cause);
      throw err;
    }
  },
});
