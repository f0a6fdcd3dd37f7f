import {
  DescribeApiDestinationCommand,
  DescribeConnectionCommand,
  EventBridgeClient,
  ListRulesCommand,
  ListTargetsByRuleCommand,
  type Rule,
} from '@aws-sdk/client-eventbridge';
import { expectedForwarderRules } from '../../../domain/checks/event-forwarding';
import { API_DESTINATION_NAME, CONNECTION_NAME } from '../../../domain/onboarding/forwarder-templates';
import type { ForwarderRegion, ForwarderRule } from '../../../domain/scans/inventory';
import { settleAll } from './concurrency';
import { unlessAbsent } from './failures';
import { type ReadContext, regionalPart } from './reader';

// The event forwarder the onboarding templates create (domain/onboarding/forwarder-templates.ts), read in every
// enabled region with the read-only role (SecurityAudit grants events:Describe* and events:List*): its connection,
// its API destination, and each rule Sentinel expects there, with its state and targets. The rules and their states
// come from one ListRules by the prefix their names share (sentinel-), a page per hundred rules, rather than a
// DescribeRule per rule: only the targets are read rule by rule. Only what exists is read:
// AWS's ResourceNotFoundException says a piece is missing, which the check reports; any other failure (a refusal, a
// throttle that outlasted the retries) leaves the region unread, never clean. Whether what was read is right is the
// check's rule (domain/checks/event-forwarding.ts). An account connected without event forwarding is not read.

const NOT_FOUND = 'ResourceNotFound';

/**
 * A field the check judges, which AWS always answers: one left out makes the region unread (the read fails), never a
 * state Sentinel would have to guess.
 */
function reported<T>(value: T | undefined, what: string): T {
  if (value === undefined || value === '') throw new Error(`EventBridge answered no ${what}`);
  return value;
}

interface Slice {
  /** As the collection was told (ReadContext.eventForwarder); null: nothing expected, nothing read. */
  expectedEndpoint: string | null;
  forwarder: ForwarderRegion | null;
}

/** The longest prefix the names share: ListRules by it lists every one of them (and any other rule that has it). */
function sharedPrefix(names: readonly string[]): string {
  let prefix = names[0] ?? '';
  for (const name of names) while (!name.startsWith(prefix)) prefix = prefix.slice(0, -1);
  return prefix;
}

/**
 * The region's rules (on the default event bus, where the templates put them) whose names start as the expected
 * ones do, by name: ListRules, page after page (the SDK has no paginator for it), answers each rule's State.
 */
async function listRules(events: EventBridgeClient, expected: readonly string[]): Promise<Map<string, Rule>> {
  const prefix = sharedPrefix(expected);
  const rules = new Map<string, Rule>();
  let nextToken: string | undefined;
  do {
    const page = await events.send(new ListRulesCommand({ NamePrefix: prefix || undefined, NextToken: nextToken }));
    for (const rule of page.Rules ?? []) if (rule.Name) rules.set(rule.Name, rule);
    nextToken = page.NextToken;
  } while (nextToken);
  return rules;
}

async function readRule(events: EventBridgeClient, name: string, rule: Rule | undefined): Promise<ForwarderRule> {
  if (rule === undefined) return { name, state: null, targetArns: [] };
  // A rule deleted since it was listed has no targets left: the next scan finds it missing. The SDK has no
  // paginator for ListTargetsByRule.
  const targetArns: string[] = [];
  let nextToken: string | undefined;
  do {
    const page = await unlessAbsent(
      () => events.send(new ListTargetsByRuleCommand({ Rule: name, NextToken: nextToken })),
      NOT_FOUND,
    );
    targetArns.push(...(page?.Targets ?? []).flatMap((t) => (t.Arn ? [t.Arn] : [])));
    nextToken = page?.NextToken;
  } while (nextToken);
  return { name, state: reported(rule.State, `ListRules's State of rule ${name}`), targetArns };
}

/** Each rule Sentinel expects in the region, with its state and targets; a rule not listed is missing (state null). */
async function readRules(events: EventBridgeClient, region: string): Promise<ForwarderRule[]> {
  const expected = expectedForwarderRules(region);
  const listed = await listRules(events, expected);
  return settleAll(expected.map((name) => readRule(events, name, listed.get(name))));
}

export const eventForwarderPart = regionalPart({
  part: 'eventForwarder',
  async read({ session, eventForwarder }: ReadContext, region: string): Promise<Slice> {
    if (!eventForwarder) return { expectedEndpoint: null, forwarder: null };
    const events = session.client((config) => new EventBridgeClient(config), region);
    const [connection, destination, rules] = await settleAll([
      unlessAbsent(() => events.send(new DescribeConnectionCommand({ Name: CONNECTION_NAME })), NOT_FOUND),
      unlessAbsent(() => events.send(new DescribeApiDestinationCommand({ Name: API_DESTINATION_NAME })), NOT_FOUND),
      readRules(events, region),
    ]);
    return {
      expectedEndpoint: eventForwarder.endpoint,
      forwarder: {
        region,
        connection: connection && {
          arn: reported(connection.ConnectionArn, `ConnectionArn of connection ${CONNECTION_NAME}`),
          state: reported(connection.ConnectionState, `ConnectionState of connection ${CONNECTION_NAME}`),
        },
        apiDestination: destination && {
          arn: reported(destination.ApiDestinationArn, `ApiDestinationArn of ${API_DESTINATION_NAME}`),
          state: reported(destination.ApiDestinationState, `ApiDestinationState of ${API_DESTINATION_NAME}`),
          endpoint: reported(destination.InvocationEndpoint, `InvocationEndpoint of ${API_DESTINATION_NAME}`),
          connectionArn: reported(destination.ConnectionArn, `ConnectionArn of ${API_DESTINATION_NAME}`),
        },
        rules,
      },
    };
  },
  assemble: (slices) => ({
    expectedEndpoint: slices.find((s) => s.expectedEndpoint !== null)?.expectedEndpoint ?? null,
    regions: slices.flatMap((s) => (s.forwarder ? [s.forwarder] : [])),
  }),
});
