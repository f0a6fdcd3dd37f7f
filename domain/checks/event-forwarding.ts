import { API_DESTINATION_NAME, CONNECTION_NAME, REGIONS_VARIABLE } from '../onboarding/forwarder-templates';
import { HEARTBEAT_RULE_NAME, rulesForRegion } from '../events/forwarding-rules';
import type { EventForwarder, ForwarderRegion, Trail, Unread } from '../scans/inventory';
import { failing, onPart, withPart, withUnread } from './helpers';
import { trailLogs } from './trails';
import type { Check, CheckResult, FailingResource } from './types';

// Whether the account's event forwarder can deliver: in every enabled region, the connection, the API destination
// and every rule Sentinel expects, each as the onboarding templates create it; and whether a trail logs the region's
// management events, without which EventBridge receives no API call to forward. A region that fails either is blind:
// Sentinel learns what happens there only at the next scan. An account connected without event forwarding expects
// none, and is not judged (docs/event-forwarding.md, "What each scan checks").

/** The rules Sentinel expects in a region: its forwarding rules and the heartbeat. */
export function expectedForwarderRules(region: string): string[] {
  return [...rulesForRegion(region).map((r) => r.name), HEARTBEAT_RULE_NAME];
}

/** The states in which a rule matches events (the second also matches read-only management events). */
export const ENABLED_RULE_STATES: readonly string[] = ['ENABLED', 'ENABLED_WITH_ALL_CLOUDTRAIL_MANAGEMENT_EVENTS'];
export const AUTHORIZED_CONNECTION = 'AUTHORIZED';
export const ACTIVE_API_DESTINATION = 'ACTIVE';

const NOT_FORWARDING =
  'The account was connected without event forwarding (it has no event key): there is no forwarder to check.';

/** Nothing to judge when the account has no forwarder to have: not evaluated, and no read Sentinel missed. */
const notForwarding = (): CheckResult => ({ status: 'not_evaluated', reason: NOT_FORWARDING, absent: true });

/** How to put a region's forwarder back, for the finding's detail: every form re-creates what is missing. */
const regionFix = (region: string) =>
  `To fix it, run the event forwarder part of the setup CLI script again (from "# Event forwarder") with ` +
  `${REGIONS_VARIABLE}="${region}", apply the Terraform again, or update the SentinelEventForwarder stack in ${region}.`;

/**
 * What is wrong with the forwarder in one region, as sentences; empty when it delivers as set up. `unread`: the region,
 * when the read did not cover every rule expected now (a retried scan kept a read made before a rule was added): what
 * was not read neither passes nor fails.
 */
export function forwarderProblems(
  forwarder: ForwarderRegion,
  expectedEndpoint: string,
): { problems: string[]; unread: Unread[] } {
  const { region, connection, apiDestination } = forwarder;
  const expected = expectedForwarderRules(region);
  const byName = new Map(forwarder.rules.map((r) => [r.name, r]));
  // The region is what a finding names: a rule not read leaves the region's finding as it is.
  const notRead = expected.filter((name) => !byName.has(name));
  const unread: Unread[] =
    notRead.length === 0
      ? []
      : [
          {
            kind: 'region',
            scope: region,
            reason: `Not read: rule ${notRead.join(', ')} (a rule added since the read).`,
          },
        ];
  const rules = expected.flatMap((name) => byName.get(name) ?? []);
  if (connection === null && apiDestination === null && rules.every((r) => r.state === null)) {
    return {
      problems: [
        `The event forwarder is not set up in ${region}: it has no connection ${CONNECTION_NAME}, no API destination ` +
          `${API_DESTINATION_NAME} and none of the rules ${rules.map((r) => r.name).join(', ')}.`,
      ],
      unread,
    };
  }
  const problems: string[] = [];
  if (connection === null) problems.push(`Connection ${CONNECTION_NAME} is missing in ${region}.`);
  else if (connection.state !== AUTHORIZED_CONNECTION)
    problems.push(`Connection ${CONNECTION_NAME} is ${connection.state} in ${region}, not ${AUTHORIZED_CONNECTION}.`);
  if (apiDestination === null) problems.push(`API destination ${API_DESTINATION_NAME} is missing in ${region}.`);
  else {
    if (apiDestination.state !== ACTIVE_API_DESTINATION)
      problems.push(
        `API destination ${API_DESTINATION_NAME} is ${apiDestination.state} in ${region}, not ${ACTIVE_API_DESTINATION}.`,
      );
    if (apiDestination.endpoint !== expectedEndpoint)
      problems.push(
        `API destination ${API_DESTINATION_NAME} in ${region} posts to ${apiDestination.endpoint}, not to ${expectedEndpoint}.`,
      );
    if (connection !== null && apiDestination.connectionArn !== connection.arn)
      problems.push(
        `API destination ${API_DESTINATION_NAME} in ${region} authorizes with ${apiDestination.connectionArn}, not ` +
          `with connection ${CONNECTION_NAME}.`,
      );
  }
  for (const rule of rules) {
    if (rule.state === null) {
      problems.push(`Rule ${rule.name} is missing in ${region}.`);
      continue;
    }
    if (!ENABLED_RULE_STATES.includes(rule.state)) problems.push(`Rule ${rule.name} is ${rule.state} in ${region}.`);
    // Without the API destination no target can be right, and its absence is said already. Other targets beside it
    // are the customer's own: they take nothing from Sentinel's.
    if (apiDestination !== null && !rule.targetArns.includes(apiDestination.arn)) {
      problems.push(
        rule.targetArns.length === 0
          ? `Rule ${rule.name} in ${region} has no target.`
          : `Rule ${rule.name} in ${region} sends to ${rule.targetArns.join(', ')}, not to API destination ${API_DESTINATION_NAME}.`,
      );
    }
  }
  return { problems, unread };
}

/** The forwarder check on the part: one failing resource per region with anything wrong. */
function judgeForwarder({ expectedEndpoint, regions }: EventForwarder): CheckResult {
  if (expectedEndpoint === null) return notForwarding();
  const resources: FailingResource[] = [];
  const unread: Unread[] = [];
  for (const forwarder of regions) {
    const judged = forwarderProblems(forwarder, expectedEndpoint);
    unread.push(...judged.unread);
    if (judged.problems.length > 0)
      resources.push({
        resource: 'event-forwarder',
        region: forwarder.region,
        detail: `${judged.problems.join(' ')} ${regionFix(forwarder.region)}`,
      });
  }
  return withUnread(failing(resources), unread);
}

/** Whether a trail can record a region's management write events: it is multi-region or homed there. */
const covers = (trail: Trail, region: string) => trail.multiRegion || trail.homeRegion === region;

/**
 * Whether a trail that logs (and delivers) records the management write events of each enabled region: what
 * EventBridge receives as "AWS API Call via CloudTrail" (read-only calls are not what the rules match). A region no
 * trail is known to cover, but where a trail whose status or selectors could not be read might, or whose own trails
 * could not be listed, is unread, never failed.
 */
export function managementEventsByRegion(
  enabled: readonly string[],
  trails: readonly Trail[],
  unreadRegions: ReadonlySet<string>,
  now: string,
): CheckResult {
  const resources: FailingResource[] = [];
  const unread: Unread[] = [];
  for (const region of enabled) {
    const candidates = trails.filter((t) => covers(t, region) && trailLogs(t, now) !== false);
    if (candidates.some((t) => trailLogs(t, now) === true && t.events?.management.write === true)) continue;
    const unknown = candidates.filter((t) => trailLogs(t, now) === null || t.events === null);
    if (unknown.length > 0) {
      unread.push({
        kind: 'region',
        scope: region,
        reason: `What ${unknown.map((t) => `trail ${t.name}`).join(', ')} records is unknown: its status or event selectors could not be read.`,
      });
    } else if (!unreadRegions.has(region)) {
      resources.push({
        resource: 'cloudtrail-management-events',
        region,
        detail:
          `No trail that is logging records the management events of ${region} (read and write, or write only), so ` +
          `EventBridge receives none of its API calls and the forwarder's rules for them never fire there. Turn on ` +
          `logging of a multi-region trail, or give one management events (CloudTrail > Trails > the trail > ` +
          `Management events: Read and Write, or Write).`,
      });
    }
    // A region whose trails could not be listed is left to the part's own unread, which the result carries.
  }
  return withUnread(failing(resources), unread);
}

export const EVENT_FORWARDING_CHECKS: readonly Check[] = [
  {
    id: 'detection.event_forwarder_broken',
    service: 'eventbridge',
    scenario: 'detection',
    severity: 'HIGH',
    title: 'Event forwarder missing, disabled or pointing elsewhere in a region',
    description:
      "In a region enabled for the account, Sentinel's event forwarder is not as set up: its connection, API " +
      'destination or a rule is missing, disabled or deauthorized, a rule does not target the API destination, or the ' +
      'API destination posts somewhere other than Sentinel. Events of that region (a security group opened, an access ' +
      'key created, GuardDuty findings) no longer reach Sentinel when they happen: the region is blind until the next ' +
      'scan, which is what an intruder who tampers with the forwarder wants.',
    remediation:
      'Put the forwarder back in the region the finding names, with the form you set it up with: run the event ' +
      'forwarder part of the setup CLI script again (from "# Event forwarder" on, with SENTINEL_EVENT_REGIONS set to ' +
      'the region), which re-creates what is missing and updates the API destination and the connection in place; or ' +
      'apply the Terraform again (terraform apply); or update the SentinelEventForwarder stack (StackSet instance) in ' +
      'that region with its current parameters. A rule only disabled: aws events enable-rule --name <rule> --region ' +
      '<region>. Then find in CloudTrail event history who deleted, disabled or changed it (DeleteRule, DisableRule, ' +
      'RemoveTargets, UpdateApiDestination, UpdateConnection). The EventBridge console (Rules, API destinations, Connections, in that region) shows what is there.',
    docsUrl: 'https://docs.aws.amazon.com/eventbridge/latest/userguide/eb-api-destinations.html',
    evaluate: onPart('eventForwarder', judgeForwarder),
  },
  {
    id: 'detection.management_events_not_logged',
    service: 'cloudtrail',
    scenario: 'detection',
    severity: 'HIGH',
    title: 'No trail logs management events in a region',
    description:
      'No trail that is logging records the management events of a region enabled for the account. EventBridge ' +
      'receives CloudTrail API calls only while a trail logs them, so the event forwarder has nothing to forward ' +
      'there: IAM changes, security groups opened and trails stopped in that region reach Sentinel only at the next ' +
      'scan.',
    remediation:
      'In the CloudTrail console: Log management events everywhere with one multi-region trail: CloudTrail > Trails > Create trail (or the ' +
      'existing trail > Edit) > apply to all regions, Management events: Read and Write (or Write) > Save, and make ' +
      'sure its logging is on (Start logging). With the CLI: aws cloudtrail update-trail --name <trail> ' +
      '--is-multi-region-trail, then aws cloudtrail start-logging --name <trail>.',
    docsUrl: 'https://docs.aws.amazon.com/eventbridge/latest/userguide/eb-service-event.html',
    // Only an account that forwards events is judged: without a forwarder the trail checks say what is missing. The
    // forwarder's own unread regions do not matter here, only whether it is expected.
    evaluate: (inventory, ctx) => {
      const forwarder = inventory.eventForwarder;
      if (forwarder.status !== 'ok') return { status: 'not_evaluated', reason: forwarder.reason };
      if (forwarder.value.expectedEndpoint === null) return notForwarding();
      const unreadRegions = new Set(
        (inventory.cloudtrail.unread ?? []).filter((u) => u.kind === 'region').map((u) => u.scope),
      );
      return withPart(inventory.cloudtrail, ({ trails }) =>
        managementEventsByRegion(inventory.regions.enabled, trails, unreadRegions, ctx.now),
      );
    },
  },
];
