import { EventBridgeClient, ListEventBusesCommand } from '@aws-sdk/client-eventbridge';
import type { PolicyHolder } from '../../../domain/scans/inventory';
import { readingOf } from './policy-reading';
import type { ReadContext } from './reader';
import { regionalPart } from './reader';

// EventBridge event buses, region by region: ListEventBuses answers each bus with its resource policy (the
// permissions PutPermission grants), so one call per page reads them all; a refusal leaves the region unread.

const PAGE_SIZE = 100;

export const eventBusesPart = regionalPart({
  part: 'eventBuses',
  async read({ session }: ReadContext, region: string): Promise<PolicyHolder[]> {
    const events = session.client((config) => new EventBridgeClient(config), region);
    const buses: PolicyHolder[] = [];
    let token: string | undefined;
    do {
      const page = await events.send(new ListEventBusesCommand({ Limit: PAGE_SIZE, NextToken: token }));
      for (const b of page.EventBuses ?? []) {
        if (b.Name && b.Arn)
          buses.push({ name: b.Name, arn: b.Arn, region, policy: readingOf(b.Policy, session.accountId) });
      }
      token = page.NextToken;
    } while (token);
    return buses;
  },
  assemble: (slices) => ({ buses: slices.flat() }),
});
