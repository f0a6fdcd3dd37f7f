import { HealthClient, paginateDescribeEvents } from '@aws-sdk/client-health';
import type { Collected, HealthEvent } from '../../../domain/inventory';
import { allPages } from './pages';
import { readPart } from './refusals';
import type { Session } from './session';

// The AWS Health API answers only accounts with a Business or Enterprise support plan, from us-east-1. Open
// and upcoming events are the ones to act on; closed ones are history.

export function collectHealth(session: Session): Promise<Collected<{ events: HealthEvent[] }>> {
  return readPart(async () => {
    const health = session.client((config) => new HealthClient(config));
    const pages = await allPages(paginateDescribeEvents({ client: health }, { filter: { eventStatusCodes: ['open', 'upcoming'] } }));
    return {
      events: pages.flatMap((page) => page.events ?? []).map((e) => ({
        arn: e.arn ?? '',
        eventTypeCode: e.eventTypeCode ?? '',
        service: e.service ?? '',
        region: e.region ?? '',
        startTime: e.startTime?.toISOString() ?? '',
        statusCode: e.statusCode ?? '',
      })),
    };
  }, (refused) => (refused.code === 'SubscriptionRequired'
    ? 'AWS Health needs a Business or Enterprise support plan'
    : refused.reason));
}
