import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { GetRoleCommand, GetRolePolicyCommand } from '@aws-sdk/client-iam';
import { parsePolicyDocument } from '../../cloud/aws/trust-policy';
import {
  API_DESTINATION_NAME,
  CONNECTION_NAME,
  eventForwarderTemplate,
  FORWARDER_POLICY_NAME,
  FORWARDER_ROLE_NAME,
  forwarderCliScript,
  forwarderPolicy,
  forwarderTrustPolicy,
  REGIONS_VARIABLE,
  TARGET_ID,
} from '../../domain/onboarding/forwarder-templates';
import {
  EVENT_API_KEY_HEADER,
  EVENT_INGEST_PATH,
  FORWARDER_CHANGES_RULE_NAME,
  FORWARDING_RULES,
  GLOBAL_EVENTS_REGION,
  HEARTBEAT_RULE_NAME,
  HEARTBEAT_SCHEDULE,
  rulesForRegion,
  ruleState,
} from '../../domain/events/forwarding-rules';
import {
  BILLING_POLICY_NAME,
  cliScript,
  ROLE_NAME,
  SCAN_POLICY_NAME,
  terraformSnippet,
} from '../../domain/onboarding/role';
import { PROJECT_ROOT } from '../../scripts/tools';
import {
  type AwsFront,
  customerAccount,
  type CustomerAccount,
  MOTO_ACCOUNT_ID,
  queryError,
  randomExternalId,
  runAsCustomer,
  startAwsFront,
} from '../helpers/aws';
import { type HclResources, parseHcl } from '../helpers/role-definitions';
import { CONDITION_CEILING_MS } from '../helpers/patience';

// The forwarder's three forms checked by real tools: the Terraform snippet by a real HCL parser, the CLI script
// run with the AWS CLI against moto and its result read back through the EventBridge API, the CloudFormation
// template by AWS's linter. (moto 5.2's CloudFormation creates no AWS::Events::Connection or ApiDestination, so
// the template is not deployed here.) EventBridge never answers a connection's key (AWS and moto alike): the
// key the script gave is read from the requests it sent, through a recording front to moto.

const CFN_LINT = path.join(PROJECT_ROOT, '.tools/venv/bin/cfn-lint');
const newKey = () => randomBytes(32).toString('base64url');
const forwarder = { endpoint: `https://sentinel.example.com${EVENT_INGEST_PATH}`, apiKey: newKey() };
const role = { sentinelAccountId: MOTO_ACCOUNT_ID, externalId: randomExternalId() };

/** The pattern of each rule, by name. */
const patterns = (rules: readonly { name: string; pattern: unknown }[]) =>
  Object.fromEntries(rules.map((r) => [r.name, r.pattern]));

describe('forwarder Terraform, read by python-hcl2', () => {
  type Body = Record<string, unknown>;
  const parsed = parseHcl(terraformSnippet(role, { forwarder })) as unknown as {
    resource: HclResources[];
    terraform: { required_providers: { aws: { source: string; version: string } }[] }[];
    data: Record<string, Record<string, Body>>[];
    variable: Record<string, Body>[];
    locals: Record<string, unknown>[];
  };
  const resources = (type: string) =>
    parsed.resource.flatMap((r) => Object.entries(r[type] ?? {}).map(([name, body]) => ({ name, body: body as Body })));
  /** The one resource of a type and name. */
  const resource = (type: string, name: string) => {
    const found = resources(type).filter((r) => r.name === name);
    expect({ type, name, count: found.length }).toEqual({ type, name, count: 1 });
    return found[0]!.body;
  };

  it('keeps the role Sentinel assumes, and adds the role EventBridge assumes', () => {
    expect(resources('aws_iam_role').map((r) => r.body.name)).toEqual([ROLE_NAME, FORWARDER_ROLE_NAME]);
    const forwarderRole = resources('aws_iam_role').find((r) => r.body.name === FORWARDER_ROLE_NAME)!;
    expect(JSON.parse(String(forwarderRole.body.assume_role_policy))).toEqual(forwarderTrustPolicy());
    const policy = resources('aws_iam_role_policy').find((r) => r.body.name === FORWARDER_POLICY_NAME)!;
    expect(policy.body.role).toBe(`\${aws_iam_role.${forwarderRole.name}.id}`);
    expect(JSON.parse(String(policy.body.policy))).toEqual(forwarderPolicy());
    expect(resources('aws_iam_role_policy').map((r) => r.body.name)).toEqual([
      BILLING_POLICY_NAME,
      SCAN_POLICY_NAME,
      FORWARDER_POLICY_NAME,
    ]);
  });

  it('needs the AWS provider 6 and reads the regions enabled in the account, us-east-1 always among them', () => {
    expect(parsed.terraform[0]!.required_providers[0]!.aws).toEqual({ source: 'hashicorp/aws', version: '>= 6.0' });
    expect(parsed.data).toEqual([{ aws_regions: { sentinel_enabled: {} } }]);
    expect(parsed.locals[0]!.sentinel_event_regions).toBe(
      `\${toset(concat(["${GLOBAL_EVENTS_REGION}"], data.aws_regions.sentinel_enabled.names))}`,
    );
  });

  it('holds every forwarding rule with its scope, state and pattern', () => {
    const rules = parsed.locals[0]!.sentinel_event_rules as Record<
      string,
      { description: string; global: boolean; state: string; pattern: string }
    >;
    expect(
      Object.entries(rules).map(([name, rule]) => ({
        name,
        description: rule.description,
        scope: rule.global ? 'global' : 'regional',
        state: rule.state,
        pattern: JSON.parse(rule.pattern),
      })),
    ).toEqual(
      FORWARDING_RULES.map((rule) => ({
        name: rule.name,
        description: rule.description,
        scope: rule.scope,
        // The root read-only rule's state lets CloudTrail's read-only management events through.
        state: ruleState(rule),
        pattern: rule.pattern,
      })),
    );
  });

  it('creates per region a connection with the key, an API destination to the endpoint, the heartbeat, and a target per rule', () => {
    const [variable] = parsed.variable.map((v) => v.sentinel_event_api_key).filter(Boolean);
    expect(variable).toMatchObject({ sensitive: true, default: forwarder.apiKey });
    expect(parsed.locals[0]!.sentinel_event_endpoint).toBe(forwarder.endpoint);
    const perRegion = { for_each: '${local.sentinel_event_regions}', region: '${each.key}' };
    expect(resource('aws_cloudwatch_event_connection', 'sentinel')).toMatchObject({
      ...perRegion,
      name: CONNECTION_NAME,
      authorization_type: 'API_KEY',
      auth_parameters: [{ api_key: [{ key: EVENT_API_KEY_HEADER, value: '${var.sentinel_event_api_key}' }] }],
    });
    expect(resource('aws_cloudwatch_event_api_destination', 'sentinel')).toMatchObject({
      ...perRegion,
      name: API_DESTINATION_NAME,
      invocation_endpoint: '${local.sentinel_event_endpoint}',
      http_method: 'POST',
      invocation_rate_limit_per_second: 10,
      connection_arn: '${aws_cloudwatch_event_connection.sentinel[each.key].arn}',
    });
    const perRule = { for_each: '${local.sentinel_event_region_rules}', region: '${each.value.region}' };
    expect(resource('aws_cloudwatch_event_rule', 'sentinel')).toMatchObject({
      ...perRule,
      name: '${each.value.name}',
      event_pattern: '${each.value.pattern}',
    });
    const sameTarget = { target_id: TARGET_ID, role_arn: '${aws_iam_role.sentinel_event_forwarder.arn}' };
    expect(resource('aws_cloudwatch_event_target', 'sentinel')).toMatchObject({
      ...perRule,
      ...sameTarget,
      rule: '${aws_cloudwatch_event_rule.sentinel[each.key].name}',
      arn: '${aws_cloudwatch_event_api_destination.sentinel[each.value.region].arn}',
    });
    expect(resource('aws_cloudwatch_event_rule', 'sentinel_heartbeat')).toMatchObject({
      ...perRegion,
      name: HEARTBEAT_RULE_NAME,
      schedule_expression: HEARTBEAT_SCHEDULE,
    });
    expect(resource('aws_cloudwatch_event_target', 'sentinel_heartbeat')).toMatchObject({
      ...perRegion,
      ...sameTarget,
      rule: '${aws_cloudwatch_event_rule.sentinel_heartbeat[each.key].name}',
      arn: '${aws_cloudwatch_event_api_destination.sentinel[each.key].arn}',
    });
  });
});

/** What EventBridge holds in a region, read back with the AWS CLI. */
interface RegionState {
  connection: {
    ConnectionArn: string;
    AuthorizationType: string;
    AuthParameters: { ApiKeyAuthParameters: { ApiKeyName: string } };
  } | null;
  destination: {
    ApiDestinationArn: string;
    ConnectionArn: string;
    InvocationEndpoint: string;
    HttpMethod: string;
    InvocationRateLimitPerSecond: number;
  } | null;
  rules: { Name: string; EventPattern?: string; ScheduleExpression?: string; State: string }[];
  targets: Record<string, { Id: string; Arn: string; RoleArn: string }[]>;
}

async function readRegion(customer: CustomerAccount, region: string): Promise<RegionState> {
  const script = `set -euo pipefail
aws events describe-connection --region ${region} --name ${CONNECTION_NAME} 2>/dev/null || echo null
echo ---
aws events describe-api-destination --region ${region} --name ${API_DESTINATION_NAME} 2>/dev/null || echo null
echo ---
aws events list-rules --region ${region} --query Rules
for rule in $(aws events list-rules --region ${region} --query 'Rules[].Name' --output text); do
  echo ---
  aws events list-targets-by-rule --region ${region} --rule "$rule" --query "{Rule: '$rule', Targets: Targets}"
done
`;
  const output = await runAsCustomer({ customer, script });
  const [connection, destination, rules, ...targets] = output.split(/^---$/m).map((part: string) => JSON.parse(part));
  return {
    connection,
    destination,
    rules,
    targets: Object.fromEntries((targets as { Rule: string; Targets: never[] }[]).map((t) => [t.Rule, t.Targets])),
  };
}

describe('forwarder CLI script on moto', () => {
  const regions = [GLOBAL_EVENTS_REGION, 'eu-west-1'];
  let customer: CustomerAccount;
  let front: AwsFront;
  let forwarderRoleArn: string;
  const before: Record<string, RegionState> = {};

  const runThroughFront = (script: string, inRegions: string[]) =>
    runAsCustomer({
      customer,
      endpoint: front.endpoint,
      script: `${REGIONS_VARIABLE}='${inRegions.join(' ')}'\n${script}`,
    });

  /** The API key each request of an operation sent to EventBridge, by the region it was sent to. */
  const sentKeys = (operation: string) =>
    Object.fromEntries(
      front.requests
        .filter((r) => r.service === 'events' && r.operation === operation)
        .map((r) => [r.region, JSON.parse(r.body).AuthParameters.ApiKeyAuthParameters]),
    );

  beforeAll(async () => {
    [customer, front] = await Promise.all([customerAccount(), startAwsFront()]);
    const output = await runThroughFront(cliScript(role, { forwarder }), regions);
    expect(output).toContain(`Event forwarding set up in ${GLOBAL_EVENTS_REGION}`);
    forwarderRoleArn = `arn:aws:iam::${customer.accountId}:role/${FORWARDER_ROLE_NAME}`;
    const states = await Promise.all(regions.map((region) => readRegion(customer, region)));
    regions.forEach((region, i) => {
      before[region] = states[i]!;
    });
  });

  afterAll(() => front?.close());

  it('creates the role EventBridge assumes, with the invoke policy', async () => {
    const { Role } = await customer.iam.send(new GetRoleCommand({ RoleName: FORWARDER_ROLE_NAME }));
    expect(Role?.Arn).toBe(forwarderRoleArn);
    expect(parsePolicyDocument(Role?.AssumeRolePolicyDocument ?? '')).toEqual(forwarderTrustPolicy());
    const { PolicyDocument } = await customer.iam.send(
      new GetRolePolicyCommand({ RoleName: FORWARDER_ROLE_NAME, PolicyName: FORWARDER_POLICY_NAME }),
    );
    expect(parsePolicyDocument(PolicyDocument ?? '')).toEqual(forwarderPolicy());
  });

  it('creates in each region the connection with the key and the API destination to the endpoint', () => {
    const key = { ApiKeyName: EVENT_API_KEY_HEADER, ApiKeyValue: forwarder.apiKey };
    expect(sentKeys('CreateConnection')).toEqual(Object.fromEntries(regions.map((region) => [region, key])));
    for (const region of regions) {
      const { connection, destination } = before[region]!;
      expect(connection).toMatchObject({
        AuthorizationType: 'API_KEY',
        AuthParameters: { ApiKeyAuthParameters: { ApiKeyName: EVENT_API_KEY_HEADER } },
      });
      expect(connection!.ConnectionArn).toContain(
        `:events:${region}:${customer.accountId}:connection/${CONNECTION_NAME}/`,
      );
      expect(destination).toMatchObject({
        ConnectionArn: connection!.ConnectionArn,
        InvocationEndpoint: forwarder.endpoint,
        HttpMethod: 'POST',
        InvocationRateLimitPerSecond: 10,
      });
      expect(destination!.ApiDestinationArn).toContain(
        `:events:${region}:${customer.accountId}:api-destination/${API_DESTINATION_NAME}/`,
      );
    }
  });

  it("puts each region's rules with their patterns and the heartbeat, the global ones in us-east-1 only, each targeting the API destination", () => {
    for (const region of regions) {
      const { rules, targets, destination } = before[region]!;
      const expected = rulesForRegion(region);
      const [heartbeat, ...others] = [
        ...rules.filter((r) => r.Name === HEARTBEAT_RULE_NAME),
        ...rules.filter((r) => r.Name !== HEARTBEAT_RULE_NAME),
      ];
      expect(heartbeat).toMatchObject({ Name: HEARTBEAT_RULE_NAME, ScheduleExpression: HEARTBEAT_SCHEDULE });
      expect(heartbeat!.EventPattern).toBeUndefined();
      expect(patterns(others.map((r) => ({ name: r.Name, pattern: JSON.parse(r.EventPattern!) })))).toEqual(
        patterns(expected),
      );
      // moto keeps the state put-rule was given, as EventBridge does: the root read-only rule's lets read-only
      // management events through.
      expect(Object.fromEntries(rules.map((r) => [r.Name, r.State]))).toEqual({
        ...Object.fromEntries(expected.map((r) => [r.name, ruleState(r)])),
        [HEARTBEAT_RULE_NAME]: 'ENABLED',
      });
      // The same expected target for every rule and the heartbeat: one API destination, one target id, one role.
      for (const name of [...expected.map((r) => r.name), HEARTBEAT_RULE_NAME]) {
        expect({ name, targets: targets[name] }).toEqual({
          name,
          targets: [{ Id: TARGET_ID, Arn: destination!.ApiDestinationArn, RoleArn: forwarderRoleArn }],
        });
      }
    }
    expect(before['eu-west-1']!.rules.map((r) => r.Name)).toContain(FORWARDER_CHANGES_RULE_NAME);
    expect(
      before['eu-west-1']!.rules.some((r) => FORWARDING_RULES.find((f) => f.name === r.Name)?.scope === 'global'),
    ).toBe(false);
  });

  it('creates nothing in a region it was not given', async () => {
    expect(await readRegion(customer, 'us-west-2')).toEqual({
      connection: null,
      destination: null,
      rules: [],
      targets: {},
    });
  });

  it('runs again in place: a new key and endpoint update the connection and the API destination, nothing is duplicated', async () => {
    const again = { endpoint: `https://events.sentinel.example.com${EVENT_INGEST_PATH}`, apiKey: newKey() };
    await runThroughFront(`set -euo pipefail\n${forwarderCliScript(again)}`, ['eu-west-1']);
    // us-east-1 is always among the regions: the global services deliver their events there only.
    const key = { ApiKeyName: EVENT_API_KEY_HEADER, ApiKeyValue: again.apiKey };
    expect(sentKeys('UpdateConnection')).toEqual({ [GLOBAL_EVENTS_REGION]: key, 'eu-west-1': key });
    const after = await readRegion(customer, 'eu-west-1');
    const previous = before['eu-west-1']!;
    expect(after.connection!.ConnectionArn).toBe(previous.connection!.ConnectionArn);
    expect(after.destination!.ApiDestinationArn).toBe(previous.destination!.ApiDestinationArn);
    expect(after.destination!.InvocationEndpoint).toBe(again.endpoint);
    expect(after.rules.map((r) => r.Name).sort()).toEqual(previous.rules.map((r) => r.Name).sort());
    expect(after.targets).toEqual(previous.targets);
  });

  it("stops, setting up nothing more, when the account's regions cannot be listed", async () => {
    front.answer = (req) =>
      req.service === 'ec2' && req.operation === 'DescribeRegions'
        ? queryError({
            service: 'ec2',
            status: 403,
            code: 'UnauthorizedOperation',
            message: 'You are not authorized to perform this operation.',
          })
        : undefined;
    try {
      const before = front.requests.length;
      const run = runAsCustomer({
        customer,
        endpoint: front.endpoint,
        script: `unset ${REGIONS_VARIABLE}\nset -euo pipefail\n${forwarderCliScript(forwarder)}`,
      });
      await expect(run).rejects.toThrow(/UnauthorizedOperation|not authorized/);
      expect(front.requests.slice(before).filter((r) => r.service === 'events')).toEqual([]);
    } finally {
      front.answer = () => undefined;
    }
  });
});

describe('forwarder template, by cfn-lint', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'sentinel-cfn-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('finds nothing to report', () => {
    const file = path.join(dir, 'event-forwarder.yaml');
    writeFileSync(file, eventForwarderTemplate());
    const run = spawnSync(CFN_LINT, ['--', file], { encoding: 'utf8', timeout: CONDITION_CEILING_MS });
    expect(run.stdout + run.stderr).toBe('');
    expect(run.status).toBe(0);
  });

  it('reports a broken one, so a clean run means something', () => {
    const file = path.join(dir, 'broken.yaml');
    writeFileSync(file, eventForwarderTemplate().replace('HttpMethod: POST', 'HttpMethod: PUSH'));
    const run = spawnSync(CFN_LINT, ['--', file], { encoding: 'utf8', timeout: CONDITION_CEILING_MS });
    expect(run.stdout).toMatch(/PUSH/);
    expect(run.status).not.toBe(0);
  });
});
