import { spawnSync } from 'node:child_process';
import { parse } from 'yaml';
import {
  API_DESTINATION_NAME,
  assertForwarderSetup,
  CONNECTION_NAME,
  CREATE_ROLE_CONDITION,
  DEFAULT_REGIONS,
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
} from '../../domain/onboarding/forwarder-templates';
import {
  EVENT_API_KEY_HEADER,
  EVENT_INGEST_PATH,
  FORWARDING_RULES,
  GLOBAL_EVENTS_REGION,
  rulesForRegion,
  ruleState,
} from '../../domain/events/forwarding-rules';
import { cliScript, terraformSnippet } from '../../domain/onboarding/role';

const forwarder = { endpoint: `https://sentinel.example.com${EVENT_INGEST_PATH}`, apiKey: 'aB3_-'.repeat(8) };
const role = { sentinelAccountId: '123456789012', externalId: 'Zx9_-abcdefghijklmnopqrstuvwxyz012' };
const globalRules = FORWARDING_RULES.filter((r) => r.scope === 'global');
const regionalRules = FORWARDING_RULES.filter((r) => r.scope === 'regional');

const occurrences = (text: string, part: string) => text.split(part).length - 1;

/** The blocks of an HCL text that its generator writes: `kind "label" ... {` at the start of a line, to the `}` that closes it. */
function hclBlocks(text: string): { header: string; body: string }[] {
  return [...text.matchAll(/^(resource|provider|variable|locals)\b([^{\n]*)\{\n([\s\S]*?)^\}$/gm)].map((m) => ({
    header: `${m[1]}${m[2]}`.trim(),
    body: m[3]!,
  }));
}

/** The event rules of a Terraform text, by region (from their provider alias) and rule name, with their heredoc pattern. */
function terraformRules(text: string): Map<string, Map<string, unknown>> {
  const byRegion = new Map<string, Map<string, unknown>>();
  for (const { header, body } of hclBlocks(text)) {
    if (!header.startsWith('resource "aws_cloudwatch_event_rule"')) continue;
    const alias = /provider\s+=\s+aws\.(\w+)/.exec(body)![1]!;
    const name = /\bname\s+=\s+"([^"]+)"/.exec(body)![1]!;
    const pattern = /event_pattern = <<PATTERN\n([\s\S]*?)\nPATTERN/.exec(body)![1]!;
    const region = alias.replace(/_/g, '-');
    if (!byRegion.has(region)) byRegion.set(region, new Map());
    byRegion.get(region)!.set(name, JSON.parse(pattern));
  }
  return byRegion;
}

describe('forwarder Terraform', () => {
  const text = forwarderTerraform(forwarder);

  it('has a block per default region, us-east-1 with every rule and the others with the regional ones only', () => {
    const rules = terraformRules(text);
    expect([...rules.keys()].sort()).toEqual([...DEFAULT_REGIONS].sort());
    expect(DEFAULT_REGIONS).toHaveLength(17);
    expect(Object.fromEntries(rules.get(GLOBAL_EVENTS_REGION)!)).toEqual(
      Object.fromEntries(FORWARDING_RULES.map((r) => [r.name, r.pattern])),
    );
    for (const region of DEFAULT_REGIONS.filter((r) => r !== GLOBAL_EVENTS_REGION)) {
      expect(Object.fromEntries(rules.get(region)!)).toEqual(
        Object.fromEntries(regionalRules.map((r) => [r.name, r.pattern])),
      );
    }
  });

  it('gives each region its provider, connection, API destination, and a target per rule', () => {
    const blocks = hclBlocks(text);
    const count = (prefix: string) => blocks.filter((b) => b.header.startsWith(prefix)).length;
    expect(count('provider "aws"')).toBe(17);
    expect(count('resource "aws_cloudwatch_event_connection"')).toBe(17);
    expect(count('resource "aws_cloudwatch_event_api_destination"')).toBe(17);
    expect(count('resource "aws_cloudwatch_event_target"')).toBe(17 * regionalRules.length + globalRules.length);
    expect(count('resource "aws_iam_role"')).toBe(1);
    const eu = blocks.find(
      (b) => b.header === 'resource "aws_cloudwatch_event_api_destination" "sentinel_eu_west_1"',
    )!.body;
    expect(eu).toMatch(/provider\s+= aws\.eu_west_1\n/);
    expect(eu).toMatch(/http_method\s+= "POST"/);
    expect(eu).toMatch(/invocation_rate_limit_per_second = 10/);
    expect(eu).toMatch(/connection_arn\s+= aws_cloudwatch_event_connection\.sentinel_eu_west_1\.arn/);
    const target = blocks.find(
      (b) => b.header === 'resource "aws_cloudwatch_event_target" "sentinel_iam_changes_us_east_1"',
    )!.body;
    expect(target).toMatch(/arn\s+= aws_cloudwatch_event_api_destination\.sentinel_us_east_1\.arn/);
    expect(target).toMatch(/role_arn\s+= aws_iam_role\.sentinel_event_forwarder\.arn/);
    expect(target).toContain(`target_id = "${TARGET_ID}"`);
  });

  it('holds the key once, as the default of a sensitive variable the connections read, and the endpoint', () => {
    expect(occurrences(text, forwarder.apiKey)).toBe(1);
    const variable = hclBlocks(text).find((b) => b.header === 'variable "sentinel_event_api_key"')!.body;
    expect(variable).toContain(`default     = "${forwarder.apiKey}"`);
    expect(variable).toMatch(/sensitive\s+= true/);
    expect(occurrences(text, 'value = var.sentinel_event_api_key')).toBe(17);
    expect(occurrences(text, `key   = "${EVENT_API_KEY_HEADER}"`)).toBe(17);
    expect(text).toContain(`sentinel_event_endpoint = "${forwarder.endpoint}"`);
  });

  it("gives every rule its state: root's read-only calls reach only a rule that receives read-only management events", () => {
    const states = hclBlocks(text)
      .filter((b) => b.header.startsWith('resource "aws_cloudwatch_event_rule"'))
      .map((b) => [/\bname\s+=\s+"([^"]+)"/.exec(b.body)![1], /^\s+state\s+=\s+"([^"]+)"$/m.exec(b.body)?.[1]]);
    expect(Object.fromEntries(states)).toEqual(Object.fromEntries(FORWARDING_RULES.map((r) => [r.name, ruleState(r)])));
    expect(ruleState(FORWARDING_RULES.find((r) => r.name === 'sentinel-root-read-activity')!)).toBe(
      'ENABLED_WITH_ALL_CLOUDTRAIL_MANAGEMENT_EVENTS',
    );
    expect(ruleState(FORWARDING_RULES.find((r) => r.name === 'sentinel-root-activity')!)).toBe('ENABLED');
    // Terraform's AWS provider has the state argument from 5.27.0: the snippet says so.
    expect(text).toContain('5.27.0');
  });

  it('always covers us-east-1, and takes other regions', () => {
    const rules = terraformRules(forwarderTerraform(forwarder, { regions: ['eu-west-1', 'ap-east-1'] }));
    expect([...rules.keys()]).toEqual(['us-east-1', 'eu-west-1', 'ap-east-1']);
    expect(() => forwarderTerraform(forwarder, { regions: ['eu-west-1"'] })).toThrow(/region/);
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

  it('puts every rule with its pattern, the global ones in us-east-1 only', () => {
    const [loop, globalBlock] = script.split(`if [ "$region" = ${GLOBAL_EVENTS_REGION} ]; then`);
    for (const rule of regionalRules) expect(loop).toContain(`sentinel_event_rule ${rule.name} ${ruleState(rule)} `);
    for (const rule of globalRules) {
      expect(loop).not.toContain(rule.name);
      expect(globalBlock!.split('\n  fi\n')[0]).toContain(`sentinel_event_rule ${rule.name} ${ruleState(rule)} `);
    }
    expect(script).toContain('aws events put-rule --region "$region" --name "$1" --state "$2" ');
    for (const rule of FORWARDING_RULES) expect(script).toContain(`'${JSON.stringify(rule.pattern)}'`);
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
    expect(rules.map(([id]) => id)).toEqual(FORWARDING_RULES.map(ruleResourceId));
    for (const [id, resource] of rules) {
      const rule = FORWARDING_RULES.find((r) => ruleResourceId(r) === id)!;
      expect(resource.Condition).toBe(rule.scope === 'global' ? GLOBAL_REGION_CONDITION : undefined);
      expect(resource.Properties.Name).toBe(rule.name);
      expect(resource.Properties.EventPattern).toEqual(rule.pattern);
      expect(resource.Properties.State).toBe(ruleState(rule));
      expect(resource.Properties.Targets).toEqual([
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
      ]);
    }
    expect(rulesForRegion('eu-west-1').every((r) => r.scope === 'regional')).toBe(true);
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
