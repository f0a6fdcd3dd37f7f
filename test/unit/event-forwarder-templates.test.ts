import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import {
  API_DESTINATION_NAME,
  assertForwarderSetup,
  CONNECTION_NAME,
  CREATE_ROLE_CONDITION,
  eventForwarderTemplate,
  FORWARDER_PARAMETERS,
  forwarderCliScript,
  forwarderPolicy,
  forwarderTerraform,
  forwarderTrustPolicy,
  GLOBAL_REGION_CONDITION,
  REGIONS_VARIABLE,
  ruleResourceId,
  TARGET_ID,
  TERRAFORM_AWS_PROVIDER_VERSION,
} from '../../domain/onboarding/forwarder-templates';
import {
  EVENT_API_KEY_HEADER,
  EVENT_INGEST_PATH,
  FORWARDING_RULES,
  GLOBAL_EVENTS_REGION,
  HEARTBEAT_DESCRIPTION,
  HEARTBEAT_INTERVAL_MINUTES,
  HEARTBEAT_LATE_AFTER_MINUTES,
  HEARTBEAT_RULE_NAME,
  HEARTBEAT_SCHEDULE,
  rulesForRegion,
  ruleState,
} from '../../domain/events/forwarding-rules';
import { cliScript, terraformSnippet } from '../../domain/onboarding/role';

const forwarder = { endpoint: `https://sentinel.example.com${EVENT_INGEST_PATH}`, apiKey: 'aB3_-'.repeat(8) };
const role = { sentinelAccountId: '123456789012', externalId: 'Zx9_-abcdefghijklmnopqrstuvwxyz012' };
const globalRules = FORWARDING_RULES.filter((r) => r.scope === 'global');
const regionalRules = FORWARDING_RULES.filter((r) => r.scope === 'regional');

const occurrences = (text: string, part: string) => text.split(part).length - 1;

/**
 * The blocks of an HCL text that its generator writes: `kind "label" ... {` at the start of a line, to the `}` that
 * closes it (on the same line for an empty block).
 */
function hclBlocks(text: string): { header: string; body: string }[] {
  return [...text.matchAll(/^(resource|variable|locals|terraform|data)\b([^{\n]*)\{(?:\}|\n([\s\S]*?)^\})$/gm)].map(
    (m) => ({ header: `${m[1]}${m[2]}`.trim(), body: m[3] ?? '' }),
  );
}

/** The body of the one block with this header. */
const block = (text: string, header: string) => {
  const found = hclBlocks(text).filter((b) => b.header === header);
  expect({ header, count: found.length }).toEqual({ header, count: 1 });
  return found[0]!.body;
};

/** The entries of the snippet's `sentinel_event_rules` map: name, description, global, pattern. */
function terraformRules(text: string) {
  return [
    ...text.matchAll(
      /^ {4}("[^"]+") = \{\n {6}description = ("(?:[^"\\]|\\.)*")\n {6}global {6}= (true|false)\n {6}state {7}= ("[A-Z_]+")\n {6}pattern {5}= ("(?:[^"\\]|\\.)*")\n {4}\}$/gm,
    ),
  ].map((m) => ({
    name: JSON.parse(m[1]!) as string,
    description: JSON.parse(m[2]!) as string,
    scope: m[3] === 'true' ? 'global' : 'regional',
    state: JSON.parse(m[4]!) as string,
    pattern: JSON.parse(JSON.parse(m[5]!) as string) as unknown,
  }));
}

describe('forwarder Terraform', () => {
  const text = forwarderTerraform(forwarder);

  it('pins the AWS provider 6, whose resources take a region, and covers every region enabled when applied', () => {
    expect(block(text, 'terraform')).toMatch(
      /required_providers \{\n\s+aws = \{\n\s+source\s+= "hashicorp\/aws"\n\s+version = ">= 6\.0"/,
    );
    expect(TERRAFORM_AWS_PROVIDER_VERSION).toBe('>= 6.0');
    expect(hclBlocks(text).map((b) => b.header)).toContain('data "aws_regions" "sentinel_enabled"');
    expect(block(text, 'locals')).toContain(
      `sentinel_event_regions  = toset(concat(["${GLOBAL_EVENTS_REGION}"], data.aws_regions.sentinel_enabled.names))`,
    );
    // No fixed list of regions and no aliased providers: a region enabled later is covered by applying again.
    expect(text).not.toMatch(/provider\s+=|alias\s+=|eu-west-1/);
    expect(text).toContain('after enabling a region, apply again to cover it');
  });

  it('holds every forwarding rule with its description, scope, state and pattern, and the heartbeat apart', () => {
    expect(terraformRules(text)).toEqual(
      FORWARDING_RULES.map((rule) => ({
        name: rule.name,
        description: rule.description,
        scope: rule.scope,
        state: ruleState(rule),
        pattern: rule.pattern,
      })),
    );
    // The region x rule pairs: every regional rule in every region, the global ones in us-east-1 only.
    expect(block(text, 'locals')).toContain(`for region in local.sentinel_event_regions : {
      for name, rule in local.sentinel_event_rules : "\${region}/\${name}" => merge(rule, { region = region, name = name })
      if !rule.global || region == "${GLOBAL_EVENTS_REGION}"
    }`);
  });

  it("gives each region its connection, API destination, rules' targets and heartbeat, all in the resource's region", () => {
    const perRegion = {
      connection: block(text, 'resource "aws_cloudwatch_event_connection" "sentinel"'),
      destination: block(text, 'resource "aws_cloudwatch_event_api_destination" "sentinel"'),
      heartbeat: block(text, 'resource "aws_cloudwatch_event_rule" "sentinel_heartbeat"'),
      heartbeatTarget: block(text, 'resource "aws_cloudwatch_event_target" "sentinel_heartbeat"'),
    };
    for (const body of Object.values(perRegion)) {
      expect(body).toMatch(/for_each\s+= local\.sentinel_event_regions\n\s+region\s+= each\.key\n/);
    }
    const perRule = {
      rule: block(text, 'resource "aws_cloudwatch_event_rule" "sentinel"'),
      target: block(text, 'resource "aws_cloudwatch_event_target" "sentinel"'),
    };
    for (const body of Object.values(perRule)) {
      expect(body).toMatch(/for_each\s+= local\.sentinel_event_region_rules\n\s+region\s+= each\.value\.region\n/);
    }
    expect(perRule.rule).toMatch(
      /name\s+= each\.value\.name\n\s+description\s+= each\.value\.description\n\s+state\s+= each\.value\.state\n\s+event_pattern = each\.value\.pattern/,
    );
    expect(perRegion.connection).toMatch(/name\s+= "sentinel-events"/);
    expect(perRegion.destination).toMatch(/http_method\s+= "POST"/);
    expect(perRegion.destination).toMatch(/invocation_rate_limit_per_second = 10/);
    expect(perRegion.destination).toMatch(
      /connection_arn\s+= aws_cloudwatch_event_connection\.sentinel\[each\.key\]\.arn/,
    );
    expect(perRegion.heartbeat).toContain(`name                = "${HEARTBEAT_RULE_NAME}"`);
    expect(perRegion.heartbeat).toContain(`schedule_expression = "${HEARTBEAT_SCHEDULE}"`);
    expect(perRegion.heartbeat).not.toContain('event_pattern');
    // The heartbeat's target is the rules' own: the same API destination, target id and role.
    expect(perRule.target).toMatch(
      /arn\s+= aws_cloudwatch_event_api_destination\.sentinel\[each\.value\.region\]\.arn/,
    );
    expect(perRegion.heartbeatTarget).toMatch(
      /arn\s+= aws_cloudwatch_event_api_destination\.sentinel\[each\.key\]\.arn/,
    );
    for (const body of [perRule.target, perRegion.heartbeatTarget]) {
      expect(body).toContain(`target_id = "${TARGET_ID}"`);
      expect(body).toMatch(/role_arn\s+= aws_iam_role\.sentinel_event_forwarder\.arn/);
    }
    expect(hclBlocks(text).filter((b) => b.header.startsWith('resource "aws_iam_role"'))).toHaveLength(1);
  });

  it('holds the key once, as the default of a sensitive variable the connections read, and the endpoint', () => {
    expect(occurrences(text, forwarder.apiKey)).toBe(1);
    const variable = block(text, 'variable "sentinel_event_api_key"');
    expect(variable).toContain(`default     = "${forwarder.apiKey}"`);
    expect(variable).toMatch(/sensitive\s+= true/);
    expect(occurrences(text, 'value = var.sentinel_event_api_key')).toBe(1);
    expect(occurrences(text, `key   = "${EVENT_API_KEY_HEADER}"`)).toBe(1);
    expect(text).toContain(`sentinel_event_endpoint = "${forwarder.endpoint}"`);
  });

  it("gives every rule its state: root's read-only calls reach only a rule that receives read-only management events", () => {
    expect(ruleState(FORWARDING_RULES.find((r) => r.name === 'sentinel-root-read-activity')!)).toBe(
      'ENABLED_WITH_ALL_CLOUDTRAIL_MANAGEMENT_EVENTS',
    );
    expect(ruleState(FORWARDING_RULES.find((r) => r.name === 'sentinel-root-activity')!)).toBe('ENABLED');
    expect(block(text, 'resource "aws_cloudwatch_event_rule" "sentinel"')).toMatch(/state\s+= each\.value\.state/);
  });

  it('is appended to the role snippet only when asked for', () => {
    const plain = terraformSnippet(role);
    expect(plain).not.toContain('sentinel_event_forwarder');
    const withForwarder = terraformSnippet(role, { forwarder });
    expect(withForwarder.startsWith(plain)).toBe(true);
    expect(withForwarder).toContain(forwarderTerraform(forwarder));
  });
});

describe('forwarder CLI script', () => {
  const script = forwarderCliScript(forwarder);

  it('is valid bash, alone and after the role script', () => {
    for (const text of [script, cliScript(role, { forwarder })]) {
      const run = spawnSync('bash', ['-n'], { input: text, encoding: 'utf8' });
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
    }
    expect(cliScript(role)).not.toContain('aws events');
    expect(cliScript(role, { forwarder }).startsWith(cliScript(role))).toBe(true);
  });

  it('creates the role once, then loops over the enabled regions unless told which', () => {
    expect(script).toContain('aws iam create-role --role-name SentinelEventForwarder');
    expect(script).toContain(`--assume-role-policy-document '${JSON.stringify(forwarderTrustPolicy())}'`);
    expect(script).toContain(`--policy-document '${JSON.stringify(forwarderPolicy())}'`);
    expect(script).toContain(`regions=\${${REGIONS_VARIABLE}:-}`);
    expect(script).toContain(
      `regions=$(aws ec2 describe-regions --region ${GLOBAL_EVENTS_REGION} --query 'Regions[].RegionName' --output text)`,
    );
    expect(script).toContain(`*) regions="${GLOBAL_EVENTS_REGION} $regions" ;;`);
    expect(script).toContain('for region in $regions; do');
    expect(script).toContain(`--name ${CONNECTION_NAME}`);
    expect(script).toContain(`--name ${API_DESTINATION_NAME}`);
    expect(script).toContain(`sentinel_event_destination='{"InvocationEndpoint":"${forwarder.endpoint}"}'`);
    expect(script).toContain(
      `'{"ApiKeyAuthParameters":{"ApiKeyName":"${EVENT_API_KEY_HEADER}","ApiKeyValue":"${forwarder.apiKey}"}}'`,
    );
  });

  it('puts the heartbeat in every region, with the same target as the rules', () => {
    const [loop] = script.split(`if [ "$region" = ${GLOBAL_EVENTS_REGION} ]; then`);
    expect(loop).toContain(
      `sentinel_event_rule ${HEARTBEAT_RULE_NAME} ENABLED '${HEARTBEAT_DESCRIPTION}' --schedule-expression '${HEARTBEAT_SCHEDULE}'`,
    );
    expect(script).toContain(
      'aws events put-rule --region "$region" --name "$1" --state "$2" --description "$3" "$4" "$5"',
    );
  });

  it('puts every rule with its pattern, the global ones in us-east-1 only', () => {
    const [loop, globalBlock] = script.split(`if [ "$region" = ${GLOBAL_EVENTS_REGION} ]; then`);
    for (const rule of regionalRules) expect(loop).toContain(`sentinel_event_rule ${rule.name} ${ruleState(rule)} `);
    for (const rule of globalRules) {
      expect(loop).not.toContain(rule.name);
      expect(globalBlock!.split('\n  fi\n')[0]).toContain(`sentinel_event_rule ${rule.name} ${ruleState(rule)} `);
    }
    expect(script).toContain('aws events put-rule --region "$region" --name "$1" --state "$2" ');
    for (const rule of FORWARDING_RULES) expect(script).toContain(`--event-pattern '${JSON.stringify(rule.pattern)}'`);
  });
});

describe('forwarder CloudFormation template', () => {
  const template = eventForwarderTemplate();
  const parsed = parse(template);

  it('takes the key (hidden), the endpoint and an optional role as parameters, and holds no tenant value', () => {
    expect(parsed.AWSTemplateFormatVersion).toBe('2010-09-09');
    expect(parsed.Parameters[FORWARDER_PARAMETERS.apiKey]).toMatchObject({
      Type: 'String',
      NoEcho: true,
      MinLength: 32,
    });
    expect(
      new RegExp(`^(?:${parsed.Parameters[FORWARDER_PARAMETERS.apiKey].AllowedPattern})$`).test(forwarder.apiKey),
    ).toBe(true);
    const endpoint = new RegExp(`^(?:${parsed.Parameters[FORWARDER_PARAMETERS.endpoint].AllowedPattern})$`);
    expect([endpoint.test(forwarder.endpoint), endpoint.test('http://sentinel.example.com/ingest/aws/events')]).toEqual(
      [true, false],
    );
    expect(parsed.Parameters[FORWARDER_PARAMETERS.endpoint]).toMatchObject({ Type: 'String' });
    expect(parsed.Parameters[FORWARDER_PARAMETERS.roleArn]).toMatchObject({ Type: 'String', Default: '' });
    expect(parsed.Conditions[CREATE_ROLE_CONDITION]).toEqual({
      'Fn::Equals': [{ Ref: FORWARDER_PARAMETERS.roleArn }, ''],
    });
    expect(parsed.Conditions[GLOBAL_REGION_CONDITION]).toEqual({
      'Fn::Equals': [{ Ref: 'AWS::Region' }, GLOBAL_EVENTS_REGION],
    });
    expect(eventForwarderTemplate()).toBe(template);
  });

  it('creates the connection with the key and the API destination to the endpoint', () => {
    const resources = Object.values(parsed.Resources) as {
      Type: string;
      Condition?: string;
      Properties: Record<string, unknown>;
    }[];
    const connection = resources.find((r) => r.Type === 'AWS::Events::Connection')!;
    expect(connection.Properties).toMatchObject({
      Name: CONNECTION_NAME,
      AuthorizationType: 'API_KEY',
      AuthParameters: {
        ApiKeyAuthParameters: { ApiKeyName: EVENT_API_KEY_HEADER, ApiKeyValue: { Ref: FORWARDER_PARAMETERS.apiKey } },
      },
    });
    const destination = resources.find((r) => r.Type === 'AWS::Events::ApiDestination')!;
    expect(destination.Properties).toMatchObject({
      InvocationEndpoint: { Ref: FORWARDER_PARAMETERS.endpoint },
      HttpMethod: 'POST',
      InvocationRateLimitPerSecond: 10,
    });
    const createdRole = resources.find((r) => r.Type === 'AWS::IAM::Role')!;
    expect(createdRole.Condition).toBe(CREATE_ROLE_CONDITION);
    expect(createdRole.Properties.AssumeRolePolicyDocument).toEqual(forwarderTrustPolicy());
  });

  it('has a rule per forwarding rule, the global ones only in us-east-1, each targeting the API destination', () => {
    const rules = Object.entries(
      parsed.Resources as Record<string, { Type: string; Condition?: string; Properties: Record<string, unknown> }>,
    ).filter(([, r]) => r.Type === 'AWS::Events::Rule');
    expect(rules.map(([id]) => id)).toEqual([...FORWARDING_RULES.map(ruleResourceId), 'SentinelHeartbeatRule']);
    const target = [
      {
        Id: TARGET_ID,
        Arn: { 'Fn::GetAtt': ['SentinelApiDestination', 'Arn'] },
        RoleArn: {
          'Fn::If': [
            CREATE_ROLE_CONDITION,
            { 'Fn::GetAtt': ['SentinelEventForwarderRole', 'Arn'] },
            { Ref: FORWARDER_PARAMETERS.roleArn },
          ],
        },
      },
    ];
    // The heartbeat: in every region the stack is deployed in (no condition), on a schedule, to the same target.
    const [, heartbeat] = rules.pop()!;
    expect(heartbeat).toEqual({
      Type: 'AWS::Events::Rule',
      Properties: {
        Name: HEARTBEAT_RULE_NAME,
        Description: HEARTBEAT_DESCRIPTION,
        State: 'ENABLED',
        ScheduleExpression: HEARTBEAT_SCHEDULE,
        Targets: target,
      },
    });
    for (const [id, resource] of rules) {
      const rule = FORWARDING_RULES.find((r) => ruleResourceId(r) === id)!;
      expect(resource.Condition).toBe(rule.scope === 'global' ? GLOBAL_REGION_CONDITION : undefined);
      expect(resource.Properties.Name).toBe(rule.name);
      expect(resource.Properties.EventPattern).toEqual(rule.pattern);
      expect(resource.Properties.State).toBe(ruleState(rule));
      expect(resource.Properties.Targets).toEqual(target);
    }
    expect(rulesForRegion('eu-west-1').every((r) => r.scope === 'regional')).toBe(true);
  });
});

describe('the heartbeat', () => {
  it('costs what docs/event-forwarding.md says, from its interval: beats a month, per region and for the 17 regions every account has enabled', () => {
    const docs = readFileSync(path.join(__dirname, '../../docs/event-forwarding.md'), 'utf8');
    const perRegion = (60 / HEARTBEAT_INTERVAL_MINUTES) * 24 * 30;
    const defaultRegions = 17;
    const invocationsPerMillion = 0.2;
    expect(docs).toContain(
      `| ${perRegion.toLocaleString('en-US')} | ${(perRegion * defaultRegions).toLocaleString('en-US')} |`,
    );
    expect(docs).toContain(
      `**$${(Math.round(((perRegion * defaultRegions) / 1e6) * invocationsPerMillion * 100) / 100).toFixed(2)} a month**`,
    );
    expect(docs).toContain(`\`${HEARTBEAT_RULE_NAME}\` (\`${HEARTBEAT_SCHEDULE}\`)`);
    expect(docs).toContain(`older than **${HEARTBEAT_LATE_AFTER_MINUTES} minutes**`);
  });
});

describe('forwarder setup', () => {
  it('accepts http(s) URLs and API keys of 32 to 128 safe characters', () => {
    expect(() => assertForwarderSetup(forwarder)).not.toThrow();
    expect(() =>
      assertForwarderSetup({ endpoint: 'http://localhost:3000/ingest/aws/events?x=1&y=%20', apiKey: 'a'.repeat(128) }),
    ).not.toThrow();
  });

  it.each([
    ['a quote', "https://x.example.com/'; rm -rf ~; echo '"],
    ['a double quote', 'https://x.example.com/"'],
    ['a space', 'https://x.example.com/a b'],
    ['an interpolation', 'https://x.example.com/${file("/etc/passwd")}'],
    ['a template directive', 'https://x.example.com/%{if true}'],
    ['a command substitution', 'https://x.example.com/$(id)'],
    ['a backtick', 'https://x.example.com/`id`'],
    ['a newline', 'https://x.example.com/\nrm -rf ~'],
    ['another scheme', 'file:///etc/passwd'],
  ])('refuses an endpoint with %s', (_, endpoint) => {
    for (const build of [forwarderTerraform, forwarderCliScript]) {
      expect(() => build({ ...forwarder, endpoint })).toThrow(/endpoint/);
    }
    expect(() => terraformSnippet(role, { forwarder: { ...forwarder, endpoint } })).toThrow(/endpoint/);
  });

  it.each([
    ['too short', 'a'.repeat(31)],
    ['too long', 'a'.repeat(129)],
    ['a quote', `${'a'.repeat(32)}'`],
    ['an interpolation', `${'a'.repeat(32)}\${var.x}`],
  ])('refuses an API key %s', (_, apiKey) => {
    expect(() => forwarderTerraform({ ...forwarder, apiKey })).toThrow(/apiKey/);
    expect(() => cliScript(role, { forwarder: { ...forwarder, apiKey } })).toThrow(/apiKey/);
  });
});
