import {
  DescribeApiDestinationCommand,
  DescribeConnectionCommand,
  DescribeRuleCommand,
  EventBridgeClient,
  ListTargetsByRuleCommand,
} from '@aws-sdk/client-eventbridge';
import { expectedForwarderRules } from '../../../domain/checks/event-forwarding';
import { API_DESTINATION_NAME, CONNECTION_NAME } from '../../../domain/onboarding/forwarder-templates';
import type { ForwarderRegion, ForwarderRule } from '../../../domain/scans/inventory';
import { settleAll } from './concurrency';
import { unlessAbsent } from './failures';
import { type ReadContext, regionalPart } from './reader';

// The event forwarder the onboarding templates create (domain/onboarding/forwarder-templates.ts), read in every
// enabled region with the read-only role (SecurityAudit grants events:Describe* and events:List*): its connection,
// its API destination, and each rule Sentinel expects there, with its state and targets. Only what exists is read:
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

async function readRule(events: EventBridgeClient, name: string): Promise<ForwarderRule> {
  const rule = await unlessAbsent(() => events.send(new DescribeRuleCommand({ Name: name })), NOT_FOUND);
  if (rule === null) return { name, state: null, targetArns: [] };
  // A rule deleted between the two calls has no targets left: the next scan finds it missing. The SDK has no
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
  return { name, state: reported(rule.State, `DescribeRule's State of rule ${name}`), targetArns };
}

export const eventForwarderPart = regionalPart({
  part: 'eventForwarder',
  async read({ session, eventForwarder }: ReadContext, region: string): Promise<Slice> {
    if (!eventForwarder) return { expectedEndpoint: null, forwarder: null };
    const events = session.client((config) => new EventBridgeClient(config), region);
    const [connection, destination, rules] = await settleAll([
      unlessAbsent(() => events.send(new DescribeConnectionCommand({ Name: CONNECTION_NAME })), NOT_FOUND),
      unlessAbsent(() => events.send(new DescribeApiDestinationCommand({ Name: API_DESTINATION_NAME })), NOT_FOUND),
      settleAll(expectedForwarderRules(region).map((name) => readRule(events, name))),
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
