import { CloudTrailClient, LookupEventsCommand } from '@aws-sdk/client-cloudtrail';
import { THREAT_EVENT_NAMES, THREAT_WINDOW_HOURS } from '../../../domain/checks/cloudtrail-threat';
import type { CloudTrailActivity } from '../../../domain/scans/inventory';
import { mapLimit } from './concurrency';
import { type ReadContext, regionalPart } from './reader';

// CloudTrail's recent management events in every enabled region, for the threat checks of
// domain/checks/cloudtrail-threat.ts (which say what they count and what it costs): one LookupEvents call per API
// name, over the last THREAT_WINDOW_HOURS, one page of up to EVENTS_PER_NAME events, as Prowler reads it. LookupEvents
// is limited to 2 calls a second per account and region: two calls at a time, the SDK's adaptive retry pacing them.
// Kept per identity: the names it called. Events without an identity ARN (AWS services) and those of Sentinel's own
// role (its scan makes many of these calls) are left out.

const EVENTS_PER_NAME = 50; // LookupEvents' maximum page
const CONCURRENT_LOOKUPS = 2;
const HOUR_MS = 3_600_000;

interface Identity {
  arn?: string;
  type?: string;
}

function identityOf(raw: string | undefined): Identity {
  try {
    const event = JSON.parse(raw ?? '') as { userIdentity?: Identity };
    return event.userIdentity ?? {};
  } catch {
    return {};
  }
}

export const cloudtrailActivityPart = regionalPart({
  part: 'cloudtrailActivity',
  async read({ session, now }: ReadContext, region: string): Promise<CloudTrailActivity> {
    const cloudtrail = session.client((config) => new CloudTrailClient(config), region);
    const ownRole = `:assumed-role/${session.roleName}/`;
    const byArn = new Map<string, { type: string; eventNames: Set<string> }>();
    const truncated: string[] = [];
    await mapLimit({
      items: THREAT_EVENT_NAMES,
      limit: CONCURRENT_LOOKUPS,
      run: async (name) => {
        const answer = await cloudtrail.send(
          new LookupEventsCommand({
            LookupAttributes: [{ AttributeKey: 'EventName', AttributeValue: name }],
            StartTime: new Date(now.getTime() - THREAT_WINDOW_HOURS * HOUR_MS),
            EndTime: now,
            MaxResults: EVENTS_PER_NAME,
          }),
        );
        if (answer.NextToken) truncated.push(name);
        for (const event of answer.Events ?? []) {
          const { arn, type } = identityOf(event.CloudTrailEvent);
          if (!arn || arn.includes(ownRole)) continue;
          const seen = byArn.get(arn) ?? { type: type ?? 'Unknown', eventNames: new Set<string>() };
          seen.eventNames.add(event.EventName ?? name);
          byArn.set(arn, seen);
        }
      },
    });
    return {
      region,
      identities: [...byArn.entries()]
        .map(([arn, { type, eventNames }]) => ({ arn, type, eventNames: [...eventNames].sort() }))
        .sort((a, b) => a.arn.localeCompare(b.arn)),
      truncated: truncated.sort(),
    };
  },
  assemble: (slices) => ({ regions: slices }),
});
