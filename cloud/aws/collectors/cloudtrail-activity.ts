import { CloudTrailClient, LookupEventsCommand } from '@aws-sdk/client-cloudtrail';
import { THREAT_EVENT_NAMES, THREAT_WINDOW_HOURS } from '../../../domain/checks/cloudtrail-threat';
import type { CloudTrailActivity } from '../../../domain/scans/inventory';
import { type ReadContext, regionalPart } from './reader';

// CloudTrail's recent management events in every enabled region, for the threat checks of
// domain/checks/cloudtrail-threat.ts (which say what they count and what it costs): one LookupEvents call per API
// name, over the last THREAT_WINDOW_HOURS, one page of up to EVENTS_PER_NAME events, as Prowler reads it. LookupEvents
// is limited to 2 calls a second per account and region: the calls of a region go one after the other, one every
// CALL_SPACING_MS, so they are not throttled (a throttled read would be retried with the whole scan).
// Kept per identity: the names it called. Events without an identity ARN (AWS services) and those of Sentinel's own
// role (its scan makes many of these calls) are left out.

const EVENTS_PER_NAME = 50; // LookupEvents' maximum page
/** AWS's limit of 2 LookupEvents a second per region; an emulator (a session with an endpoint URL) has none. */
const CALL_SPACING_MS = 500;
const HOUR_MS = 3_600_000;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

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
    const spacing = session.endpointUrl === undefined ? CALL_SPACING_MS : 0;
    let lastCall = 0;
    for (const name of THREAT_EVENT_NAMES) {
      await pause(Math.max(0, lastCall + spacing - Date.now()));
      lastCall = Date.now();
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
    }
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
