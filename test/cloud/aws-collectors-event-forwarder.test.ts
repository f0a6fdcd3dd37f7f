import { CloudTrailClient, CreateTrailCommand, StartLoggingCommand } from '@aws-sdk/client-cloudtrail';
import {
  CreateApiDestinationCommand,
  CreateConnectionCommand,
  DeleteRuleCommand,
  DisableRuleCommand,
  EventBridgeClient,
  PutRuleCommand,
  PutTargetsCommand,
  RemoveTargetsCommand,
  UpdateApiDestinationCommand,
} from '@aws-sdk/client-eventbridge';
import { GetPolicyCommand, GetPolicyVersionCommand, IAMClient } from '@aws-sdk/client-iam';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import type { ExpectedForwarder } from '../../cloud/types';
import { checkById } from '../../domain/checks/catalog';
import { expectedForwarderRules } from '../../domain/checks/event-forwarding';
import {
  EVENT_API_KEY_HEADER,
  EVENT_INGEST_PATH,
  HEARTBEAT_RULE_NAME,
  HEARTBEAT_SCHEDULE,
  rulesForRegion,
} from '../../domain/events/forwarding-rules';
import { partsOfGroups } from '../../domain/events/types';
import {
  API_DESTINATION_NAME,
  CONNECTION_NAME,
  INVOCATION_RATE_LIMIT_PER_SECOND,
  TARGET_ID,
} from '../../domain/onboarding/forwarder-templates';
import { MANAGED_POLICIES } from '../../domain/onboarding/role';
import type { Inventory } from '../../domain/scans/inventory';
import {
  accessDenied,
  createSentinelRole,
  type CustomerAccount,
  customerConfig,
  motoDifferences,
  motoGaps,
} from '../helpers/aws';
import { ok, uniqueName, useCollectorSuite } from '../helpers/collector-suite';

// The event forwarder read from moto: set up in a customer account with the EventBridge API as the templates set it
// up (connection, API destination, every expected rule with its one target), broken in one region, read through
// Sentinel's role and the front (test/helpers/aws.ts), and judged by the checks. moto 5.2.5 implements every call the
// collector makes (DescribeConnection, DescribeApiDestination, ListRules with their State, ListTargetsByRule), so
// the front only narrows the account to two regions and, where asked, refuses.

const EAST = 'us-east-1';
const WEST = 'eu-west-1';
/** As the collection lists them: sorted. */
const REGIONS = [WEST, EAST];
const EXPECTED: ExpectedForwarder = { endpoint: `https://sentinel.example.com${EVENT_INGEST_PATH}` };
const FORWARDER = 'detection.event_forwarder_broken';
const MANAGEMENT = 'detection.management_events_not_logged';

/** Each check's outcome: 'pass' or 'not_evaluated', or its failing resources as `resource@region` with their detail. */
function judged(checkId: string, inventory: Inventory) {
  const result = checkById(checkId)!.evaluate(inventory, { now: inventory.collectedAt });
  return {
    status: result.status,
    failing:
      result.status === 'fail'
        ? Object.fromEntries(result.resources.map((r) => [`${r.resource}@${r.region}`, r.detail ?? '']))
        : {},
    unread: (result.unread ?? []).map((u) => `${u.scope}: ${u.reason}`),
    absent: result.status === 'not_evaluated' ? (result.absent ?? false) : false,
  };
}

describe('the event forwarder collected against moto', () => {
  // An account with only these regions enabled: the collection reads them alone.
  const suite = useCollectorSuite({ regions: REGIONS });
  const { client, connectedCustomer } = suite;

  const eventBridge = (customer: CustomerAccount, region: string) =>
    client(new EventBridgeClient(customerConfig(customer, region)));

  /** The forwarder of one region as the templates create it, with the heartbeat. */
  async function setUpForwarder(customer: CustomerAccount, region: string): Promise<void> {
    const events = eventBridge(customer, region);
    const { ConnectionArn } = await events.send(
      new CreateConnectionCommand({
        Name: CONNECTION_NAME,
        AuthorizationType: 'API_KEY',
        AuthParameters: { ApiKeyAuthParameters: { ApiKeyName: EVENT_API_KEY_HEADER, ApiKeyValue: 'k'.repeat(43) } },
      }),
    );
    const { ApiDestinationArn } = await events.send(
      new CreateApiDestinationCommand({
        Name: API_DESTINATION_NAME,
        ConnectionArn,
        InvocationEndpoint: EXPECTED.endpoint,
        HttpMethod: 'POST',
        InvocationRateLimitPerSecond: INVOCATION_RATE_LIMIT_PER_SECOND,
      }),
    );
    const roleArn = `arn:aws:iam::${customer.accountId}:role/SentinelEventForwarder`;
    const rules = [
      ...rulesForRegion(region).map((r) => ({ Name: r.name, EventPattern: JSON.stringify(r.pattern) })),
      { Name: HEARTBEAT_RULE_NAME, ScheduleExpression: HEARTBEAT_SCHEDULE },
    ];
    for (const rule of rules) {
      await events.send(new PutRuleCommand(rule));
      await events.send(
        new PutTargetsCommand({
          Rule: rule.Name,
          Targets: [{ Id: TARGET_ID, Arn: ApiDestinationArn, RoleArn: roleArn }],
        }),
      );
    }
  }

  /** A multi-region trail that logs management events (AWS's default selector, which the front gives moto's trail). */
  async function loggingTrail(customer: CustomerAccount): Promise<void> {
    const bucket = uniqueName('trail-logs');
    await client(new S3Client({ ...customerConfig(customer), forcePathStyle: true })).send(
      new CreateBucketCommand({ Bucket: bucket }),
    );
    const cloudtrail = client(new CloudTrailClient(customerConfig(customer)));
    await cloudtrail.send(
      new CreateTrailCommand({ Name: 'everywhere', S3BucketName: bucket, IsMultiRegionTrail: true }),
    );
    await cloudtrail.send(new StartLoggingCommand({ Name: 'everywhere' }));
  }

  /** A customer with Sentinel's role, a logging trail and the forwarder in both regions. */
  async function forwardingCustomer() {
    const connected = await connectedCustomer();
    await createSentinelRole({ customer: connected.customer, externalId: connected.target.externalId });
    await loggingTrail(connected.customer);
    for (const region of REGIONS) await setUpForwarder(connected.customer, region);
    return connected;
  }

  /** What a targeted rescan of the forwarder reads: the forwarder and the trails. */
  const collect = (target: Awaited<ReturnType<typeof connectedCustomer>>['target'], expected = true) =>
    suite.provider.collectInventory(target, {
      parts: partsOfGroups(['forwarder']),
      ...(expected ? { eventForwarder: EXPECTED } : {}),
    });

  it('finds nothing wrong with a forwarder set up in every region and a trail that logs', async () => {
    const { target } = await forwardingCustomer();
    const inventory = await collect(target);

    const forwarder = ok(inventory.eventForwarder);
    expect(forwarder.expectedEndpoint).toBe(EXPECTED.endpoint);
    expect(forwarder.regions.map((r) => r.region)).toEqual(REGIONS);
    const east = forwarder.regions.find((r) => r.region === EAST)!;
    expect(east.connection?.state).toBe('AUTHORIZED');
    expect(east.apiDestination).toMatchObject({
      state: 'ACTIVE',
      endpoint: EXPECTED.endpoint,
      connectionArn: east.connection?.arn,
    });
    expect(east.rules.map((r) => r.name)).toContain(HEARTBEAT_RULE_NAME);
    expect(east.rules.every((r) => r.state === 'ENABLED' && r.targetArns[0] === east.apiDestination?.arn)).toBe(true);

    expect(judged(FORWARDER, inventory)).toMatchObject({ status: 'pass', unread: [] });
    expect(judged(MANAGEMENT, inventory)).toMatchObject({ status: 'pass', unread: [] });
  });

  it("makes only calls the role's SecurityAudit policy grants", async () => {
    const { customer, target } = await forwardingCustomer();
    await collect(target);
    const operations = [...new Set(suite.front.requests.filter((r) => r.service === 'events').map((r) => r.operation))];
    expect(operations.sort()).toEqual([
      'DescribeApiDestination',
      'DescribeConnection',
      'ListRules',
      'ListTargetsByRule',
    ]);

    // The role the setup creates (domain/onboarding/role.ts) attaches SecurityAudit: its current document, as AWS
    // publishes it, must allow each of them.
    const iam = client(new IAMClient(customerConfig(customer)));
    const policyArn = MANAGED_POLICIES[0];
    const { Policy } = await iam.send(new GetPolicyCommand({ PolicyArn: policyArn }));
    const { PolicyVersion } = await iam.send(
      new GetPolicyVersionCommand({ PolicyArn: policyArn, VersionId: Policy?.DefaultVersionId }),
    );
    const document = JSON.parse(decodeURIComponent(PolicyVersion?.Document ?? '{}')) as {
      Statement: { Effect: string; Action: string | string[] }[];
    };
    const allowed = document.Statement.filter((s) => s.Effect === 'Allow').flatMap((s) =>
      Array.isArray(s.Action) ? s.Action : [s.Action],
    );
    const grants = (action: string) =>
      allowed.some((pattern) =>
        new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`, 'i').test(action),
      );
    expect(policyArn).toBe('arn:aws:iam::aws:policy/SecurityAudit');
    expect(operations.filter((operation) => !grants(`events:${operation}`))).toEqual([]);
  });

  it('names only the region where a rule was deleted, one disabled, one retargeted and the endpoint changed', async () => {
    const { customer, target } = await forwardingCustomer();
    const events = eventBridge(customer, WEST);
    const [deleted, disabled, retargeted] = rulesForRegion(WEST).map((r) => r.name);
    await events.send(new RemoveTargetsCommand({ Rule: deleted, Ids: [TARGET_ID] }));
    await events.send(new DeleteRuleCommand({ Name: deleted }));
    await events.send(new DisableRuleCommand({ Name: disabled }));
    const elsewhere = `arn:aws:sns:${WEST}:${customer.accountId}:elsewhere`;
    await events.send(new PutTargetsCommand({ Rule: retargeted, Targets: [{ Id: TARGET_ID, Arn: elsewhere }] }));
    await events.send(
      new UpdateApiDestinationCommand({
        Name: API_DESTINATION_NAME,
        InvocationEndpoint: 'https://evil.example/collect',
      }),
    );

    const result = judged(FORWARDER, await collect(target));
    expect(result.status).toBe('fail');
    expect(Object.keys(result.failing)).toEqual([`event-forwarder@${WEST}`]);
    const detail = result.failing[`event-forwarder@${WEST}`];
    expect(detail).toContain(`Rule ${deleted} is missing in ${WEST}.`);
    expect(detail).toContain(`Rule ${disabled} is DISABLED in ${WEST}.`);
    expect(detail).toContain(
      `Rule ${retargeted} in ${WEST} sends to ${elsewhere}, not to API destination sentinel-events.`,
    );
    expect(detail).toContain(
      `API destination sentinel-events in ${WEST} posts to https://evil.example/collect, not to ${EXPECTED.endpoint}.`,
    );
    expect(detail).toContain(`SENTINEL_EVENT_REGIONS="${WEST}"`);
  });

  it("lists the rules page after page, leaving the customer's own rules that share the prefix alone", async () => {
    const { customer, target } = await forwardingCustomer();
    const events = eventBridge(customer, WEST);
    // More rules named sentinel-... than one page of ListRules holds (moto answers 50 a page, AWS 100), one disabled.
    const own = Array.from({ length: 50 }, (_, i) => `sentinel-own-${String(i).padStart(2, '0')}`);
    for (const name of own) await events.send(new PutRuleCommand({ Name: name, ScheduleExpression: 'rate(1 day)' }));
    await events.send(new DisableRuleCommand({ Name: own[0] }));
    await events.send(new DisableRuleCommand({ Name: HEARTBEAT_RULE_NAME }));
    suite.front.requests.length = 0;

    const inventory = await collect(target);
    const west = ok(inventory.eventForwarder).regions.find((r) => r.region === WEST)!;
    expect(west.rules.map((r) => r.name).sort()).toEqual([...expectedForwarderRules(WEST)].sort());
    expect(suite.front.requests.filter((r) => r.operation === 'ListRules' && r.region === WEST)).toHaveLength(2);
    // Only Sentinel's rules have their targets read.
    expect(suite.front.requests.filter((r) => r.operation === 'ListTargetsByRule' && r.region === WEST)).toHaveLength(
      expectedForwarderRules(WEST).length,
    );
    const result = judged(FORWARDER, inventory);
    expect(Object.keys(result.failing)).toEqual([`event-forwarder@${WEST}`]);
    expect(result.failing[`event-forwarder@${WEST}`]).toContain(`Rule ${HEARTBEAT_RULE_NAME} is DISABLED in ${WEST}.`);
    expect(result.failing[`event-forwarder@${WEST}`]).not.toContain(own[0] as string);
  });

  it('shows an account that never set up its forwarder, nor a trail, as one finding per region for each', async () => {
    const { customer, target } = await connectedCustomer();
    await createSentinelRole({ customer, externalId: target.externalId });
    const inventory = await collect(target);

    const forwarder = judged(FORWARDER, inventory);
    expect(Object.keys(forwarder.failing)).toEqual(REGIONS.map((r) => `event-forwarder@${r}`));
    expect(forwarder.failing[`event-forwarder@${WEST}`]).toMatch(/^The event forwarder is not set up in eu-west-1/);
    expect(Object.keys(judged(MANAGEMENT, inventory).failing)).toEqual(
      REGIONS.map((r) => `cloudtrail-management-events@${r}`),
    );
  });

  it('leaves a region whose reads AWS refuses unread, never passed, even when its forwarder is broken', async () => {
    const { customer, target } = await forwardingCustomer();
    await eventBridge(customer, WEST).send(new DisableRuleCommand({ Name: HEARTBEAT_RULE_NAME }));
    suite.front.answer = (request) =>
      request.service === 'events' && request.region === WEST ? accessDenied(request) : motoGaps(request);

    const inventory = await collect(target);
    expect(ok(inventory.eventForwarder).regions.map((r) => r.region)).toEqual([EAST]);
    const result = judged(FORWARDER, inventory);
    // us-east-1 was read and is right; eu-west-1 is neither passed nor failed.
    expect(result.status).toBe('pass');
    expect(result.failing).toEqual({});
    expect(result.unread).toEqual([expect.stringMatching(/^eu-west-1: AWS denied Sentinel's role EventBridge /)]);

    // Refused in every region: nothing is judged at all.
    suite.front.answer = (request) => (request.service === 'events' ? accessDenied(request) : motoGaps(request));
    const refused = judged(FORWARDER, await collect(target));
    expect(refused).toMatchObject({ status: 'not_evaluated', absent: false });
    expect(refused.unread).toHaveLength(2);
  });

  it('leaves a region unread when EventBridge answers a rule without its state, rather than guess it', async () => {
    const { target } = await forwardingCustomer();
    suite.front.rewrite = (request, answer) => {
      if (request.service !== 'events' || request.operation !== 'ListRules' || request.region !== WEST)
        return motoDifferences(request, answer);
      // The heartbeat's State left out of the list.
      const listed = JSON.parse(answer.body) as { Rules: Record<string, unknown>[] };
      const rules = listed.Rules.map(({ State, ...rule }) =>
        rule.Name === HEARTBEAT_RULE_NAME ? rule : { ...rule, State },
      );
      return { ...answer, body: JSON.stringify({ ...listed, Rules: rules }) };
    };

    const result = judged(FORWARDER, await collect(target));
    expect(result.status).toBe('pass');
    expect(result.unread).toEqual([
      expect.stringMatching(
        /^eu-west-1: Sentinel could not read this part: EventBridge answered no ListRules's State of rule sentinel-heartbeat/,
      ),
    ]);
  });

  it('reads nothing of EventBridge for an account connected without event forwarding', async () => {
    const { target } = await forwardingCustomer();
    const inventory = await collect(target, false);

    expect(suite.front.requests.filter((r) => r.service === 'events')).toEqual([]);
    expect(ok(inventory.eventForwarder)).toEqual({ expectedEndpoint: null, regions: [] });
    expect(judged(FORWARDER, inventory)).toMatchObject({ status: 'not_evaluated', absent: true });
    expect(judged(MANAGEMENT, inventory)).toMatchObject({ status: 'not_evaluated', absent: true });
  });
});
