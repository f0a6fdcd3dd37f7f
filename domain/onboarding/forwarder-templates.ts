// The event forwarder in the customer's account, in the three onboarding forms (Terraform, CLI script,
// CloudFormation): an EventBridge connection that authorizes with Sentinel's per-account API key, an API
// destination that POSTs to Sentinel's ingestion endpoint, an IAM role EventBridge assumes to invoke it, the
// rules of forwarding-rules.ts with the API destination as their target, and the heartbeat: a scheduled rule with
// the same target, so Sentinel can tell a region whose forwarder stopped from a quiet one.
//
// A rule can target only an API destination of its own region, so every region gets its own connection, API
// destination and rules; the role is global and is created once (the CloudFormation template, deployed region
// by region, creates one per region unless given one). Global-service rules exist in us-east-1 only
// (rulesForRegion). All three forms give the connection, the API destination and the rules the same names, so
// the docs (docs/event-forwarding.md) and key rotation read the same whichever form the customer chose.

import { toYaml, type YamlValue } from './yaml';
import {
  EVENT_API_KEY_HEADER,
  FORWARDING_RULES,
  type ForwardingRule,
  GLOBAL_EVENTS_REGION,
  HEARTBEAT_DESCRIPTION,
  HEARTBEAT_INTERVAL_MINUTES,
  HEARTBEAT_RULE_NAME,
  HEARTBEAT_SCHEDULE,
  rulesForRegion,
  DEFAULT_RULE_STATE,
  ruleState,
} from '../events/forwarding-rules';

export interface ForwarderSetup {
  /** The full URL of the ingestion endpoint: the service's public base URL and EVENT_INGEST_PATH. */
  endpoint: string;
  /** The account's event API key, which the connection sends in EVENT_API_KEY_HEADER. */
  apiKey: string;
}

/** The role EventBridge assumes to invoke the API destination (Terraform and CLI: one per account). */
export const FORWARDER_ROLE_NAME = 'SentinelEventForwarder';
export const FORWARDER_POLICY_NAME = 'SentinelInvokeApiDestination';
/** The connection's and the API destination's name, in every region. */
export const CONNECTION_NAME = 'sentinel-events';
export const API_DESTINATION_NAME = 'sentinel-events';
/** The id of the one target of every rule. */
export const TARGET_ID = 'sentinel';
export const INVOCATION_RATE_LIMIT_PER_SECOND = 10;
/** The environment variable that restricts the CLI script to some regions (space-separated). */
export const REGIONS_VARIABLE = 'SENTINEL_EVENT_REGIONS';
/** The Terraform variable that holds the API key. */
export const API_KEY_VARIABLE = 'sentinel_event_api_key';

/** The CloudFormation template's parameters. */
export const FORWARDER_PARAMETERS = {
  apiKey: 'EventApiKey',
  endpoint: 'IngestEndpoint',
  roleArn: 'ForwarderRoleArn',
} as const;

const API_KEY = /^[A-Za-z0-9_-]{32,128}$/;
// RFC 3986's characters without those a shell single-quoted word, an HCL string or heredoc, or YAML would read:
// no quotes, spaces, `$`, backticks, backslashes or braces (so no `${` or `%{` interpolation either).
const ENDPOINT = /^https?:\/\/[A-Za-z0-9._~:/?#[\]@!&()*+,;=%-]+$/;
/** EventBridge's limit on an API destination's invocation endpoint. */
const ENDPOINT_MAX_LENGTH = 2048;

/** Both values end up in HCL strings, single-quoted shell words and YAML: refuses anything those could read as code. */
export function assertForwarderSetup({ endpoint, apiKey }: ForwarderSetup): void {
  if (endpoint.length > ENDPOINT_MAX_LENGTH || !ENDPOINT.test(endpoint)) {
    throw new Error('endpoint must be an http(s) URL without quotes, spaces, $, backticks, backslashes or braces');
  }
  if (!API_KEY.test(apiKey)) throw new Error('apiKey must be 32 to 128 letters, digits, _ or -');
}

export function forwarderTrustPolicy() {
  return {
    Version: '2012-10-17',
    Statement: [{ Effect: 'Allow', Principal: { Service: 'events.amazonaws.com' }, Action: 'sts:AssumeRole' }],
  };
}

/** Invoking Sentinel's API destinations (named sentinel-*) in any region of the account, and nothing else. */
export function forwarderPolicy() {
  return {
    Version: '2012-10-17',
    Statement: [
      {
        Effect: 'Allow',
        Action: 'events:InvokeApiDestination',
        Resource: `arn:aws:events:*:*:api-destination/sentinel-*`,
      },
    ],
  };
}

/** The connection's authorization, as the EventBridge API takes it. */
function authParameters(apiKey: string) {
  return { ApiKeyAuthParameters: { ApiKeyName: EVENT_API_KEY_HEADER, ApiKeyValue: apiKey } };
}

const CONNECTION_DESCRIPTION = "Authorizes Sentinel event forwarding with the account's event API key";
const API_DESTINATION_DESCRIPTION = 'Sentinel event ingestion';

const INTERPOLATION = /[$%]\{/;

/** A rule's pattern as JSON; nothing in it may read as HCL interpolation. */
function patternJson(rule: ForwardingRule): string {
  const json = JSON.stringify(rule.pattern);
  if (INTERPOLATION.test(json)) throw new Error(`the pattern of ${rule.name} contains a template interpolation`);
  return json;
}

/** A quoted HCL string (JSON's escapes are HCL's) of a text without interpolation. */
function hclString(text: string): string {
  if (INTERPOLATION.test(text)) throw new Error(`not a plain text: ${text}`);
  return JSON.stringify(text);
}

// --- Terraform ---------------------------------------------------------------------------------------------

/** The Terraform AWS provider from which every regional resource takes a `region` argument of its own. */
export const TERRAFORM_AWS_PROVIDER_VERSION = '>= 6.0';

/** A rule of the forwarder as an entry of the snippet's `sentinel_event_rules` map. */
function terraformRuleEntry(rule: ForwardingRule): string {
  return `    ${hclString(rule.name)} = {
      description = ${hclString(rule.description)}
      global      = ${rule.scope === 'global'}
      state       = ${hclString(ruleState(rule))}
      pattern     = ${hclString(patternJson(rule))}
    }
`;
}

/**
 * Terraform for the event forwarder, to append to the role snippet: the role EventBridge assumes, then a connection,
 * an API destination, the rules and the heartbeat in every region the account has enabled when it is applied. The AWS
 * provider 6's per-resource `region` argument lets one resource iterate over the regions (`for_each`), where earlier
 * versions needed an aliased provider per region, written out one by one. us-east-1 is always among them.
 */
export function forwarderTerraform(setup: ForwarderSetup): string {
  assertForwarderSetup(setup);
  const target = `  target_id = "${TARGET_ID}"
  role_arn  = aws_iam_role.sentinel_event_forwarder.arn`;
  return `# Forwards the AWS events Sentinel's detections read (a few API calls, sign-ins, GuardDuty findings and AWS Health
# risk and abuse events) to Sentinel, through an EventBridge API destination in every region the account has
# enabled (opt-in regions you enabled included), with a heartbeat every ${HEARTBEAT_INTERVAL_MINUTES} minutes in each so Sentinel can tell a quiet region from a blind one. The
# global services (IAM, Account Management) deliver their events in ${GLOBAL_EVENTS_REGION} only, so their rules are there alone.
# The regions are read when you apply: after enabling a region, apply again to cover it (Sentinel tells you when
# it sees a region enabled). Needs the AWS provider 6 or later, whose resources take a region argument.
terraform {
  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = "${TERRAFORM_AWS_PROVIDER_VERSION}"
    }
  }
}

variable "${API_KEY_VARIABLE}" {
  description = "The event API key Sentinel gave for this account (sent in the ${EVENT_API_KEY_HEADER} header)"
  type        = string
  sensitive   = true
  default     = "${setup.apiKey}"
}

# The regions enabled in the account: those enabled by default and the opt-in regions you enabled.
data "aws_regions" "sentinel_enabled" {}

locals {
  sentinel_event_endpoint = "${setup.endpoint}"
  sentinel_event_regions  = toset(concat(["${GLOBAL_EVENTS_REGION}"], data.aws_regions.sentinel_enabled.names))
  sentinel_event_rules = {
${FORWARDING_RULES.map(terraformRuleEntry).join('')}  }
  # Every region's regional rules, and the global ones in ${GLOBAL_EVENTS_REGION} only, keyed "<region>/<rule>".
  sentinel_event_region_rules = merge([
    for region in local.sentinel_event_regions : {
      for name, rule in local.sentinel_event_rules : "\${region}/\${name}" => merge(rule, { region = region, name = name })
      if !rule.global || region == "${GLOBAL_EVENTS_REGION}"
    }
  ]...)
}

resource "aws_iam_role" "sentinel_event_forwarder" {
  name               = "${FORWARDER_ROLE_NAME}"
  assume_role_policy = <<POLICY
${JSON.stringify(forwarderTrustPolicy(), null, 2)}
POLICY
}

resource "aws_iam_role_policy" "sentinel_event_forwarder" {
  name   = "${FORWARDER_POLICY_NAME}"
  role   = aws_iam_role.sentinel_event_forwarder.id
  policy = <<POLICY
${JSON.stringify(forwarderPolicy(), null, 2)}
POLICY
}

resource "aws_cloudwatch_event_connection" "sentinel" {
  for_each           = local.sentinel_event_regions
  region             = each.key
  name               = "${CONNECTION_NAME}"
  description        = ${hclString(CONNECTION_DESCRIPTION)}
  authorization_type = "API_KEY"
  auth_parameters {
    api_key {
      key   = "${EVENT_API_KEY_HEADER}"
      value = var.${API_KEY_VARIABLE}
    }
  }
}

resource "aws_cloudwatch_event_api_destination" "sentinel" {
  for_each                         = local.sentinel_event_regions
  region                           = each.key
  name                             = "${API_DESTINATION_NAME}"
  description                      = ${hclString(API_DESTINATION_DESCRIPTION)}
  invocation_endpoint              = local.sentinel_event_endpoint
  http_method                      = "POST"
  invocation_rate_limit_per_second = ${INVOCATION_RATE_LIMIT_PER_SECOND}
  connection_arn                   = aws_cloudwatch_event_connection.sentinel[each.key].arn
}

resource "aws_cloudwatch_event_rule" "sentinel" {
  for_each      = local.sentinel_event_region_rules
  region        = each.value.region
  name          = each.value.name
  description   = each.value.description
  state         = each.value.state
  event_pattern = each.value.pattern
}

resource "aws_cloudwatch_event_target" "sentinel" {
  for_each  = local.sentinel_event_region_rules
  region    = each.value.region
  rule      = aws_cloudwatch_event_rule.sentinel[each.key].name
  arn       = aws_cloudwatch_event_api_destination.sentinel[each.value.region].arn
${target}
}

resource "aws_cloudwatch_event_rule" "sentinel_heartbeat" {
  for_each            = local.sentinel_event_regions
  region              = each.key
  name                = "${HEARTBEAT_RULE_NAME}"
  description         = ${hclString(HEARTBEAT_DESCRIPTION)}
  schedule_expression = "${HEARTBEAT_SCHEDULE}"
}

resource "aws_cloudwatch_event_target" "sentinel_heartbeat" {
  for_each  = local.sentinel_event_regions
  region    = each.key
  rule      = aws_cloudwatch_event_rule.sentinel_heartbeat[each.key].name
  arn       = aws_cloudwatch_event_api_destination.sentinel[each.key].arn
${target}
}
`;
}

// --- CLI ---------------------------------------------------------------------------------------------------

/** A single-quoted shell word. */
const shellWord = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

function cliRule(rule: ForwardingRule, indent: string): string {
  return `${indent}sentinel_event_rule ${rule.name} ${ruleState(rule)} ${shellWord(rule.description)} \\\n${indent}  --event-pattern ${shellWord(patternJson(rule))}\n`;
}

/**
 * A bash fragment, to append to the role script (which sets `set -euo pipefail`), creating the forwarder in every
 * region the account has enabled. Running it again updates the connection's key and the API destination's
 * endpoint in place.
 */
export function forwarderCliScript(setup: ForwarderSetup): string {
  assertForwarderSetup(setup);
  const regional = FORWARDING_RULES.filter((r) => r.scope === 'regional');
  const global = rulesForRegion(GLOBAL_EVENTS_REGION).filter((r) => r.scope === 'global');
  const target = `Id=${TARGET_ID},Arn=$destination_arn,RoleArn=$forwarder_role_arn`;
  return `
# Event forwarder: sends the AWS events Sentinel's detections read to Sentinel, through an EventBridge API
# destination in every region enabled in this account (opt-in regions you enabled included), with a heartbeat every
# ${HEARTBEAT_INTERVAL_MINUTES} minutes in each. After enabling a region, run this part again to cover it. To choose the
# regions, set ${REGIONS_VARIABLE}, e.g. ${REGIONS_VARIABLE}="eu-west-1 eu-central-1"; ${GLOBAL_EVENTS_REGION} is
# always added, as the global services (IAM, Account Management) deliver their events there only.
if ! aws iam get-role --role-name ${FORWARDER_ROLE_NAME} >/dev/null 2>&1; then
  aws iam create-role --role-name ${FORWARDER_ROLE_NAME} \\
    --assume-role-policy-document ${shellWord(JSON.stringify(forwarderTrustPolicy()))} >/dev/null
fi
aws iam put-role-policy --role-name ${FORWARDER_ROLE_NAME} --policy-name ${FORWARDER_POLICY_NAME} \\
  --policy-document ${shellWord(JSON.stringify(forwarderPolicy()))}
forwarder_role_arn=$(aws iam get-role --role-name ${FORWARDER_ROLE_NAME} --query Role.Arn --output text)
# The endpoint goes in as JSON: version 1 of the AWS CLI would fetch a parameter that starts with https://.
sentinel_event_destination=${shellWord(JSON.stringify({ InvocationEndpoint: setup.endpoint }))}
sentinel_event_auth=${shellWord(JSON.stringify(authParameters(setup.apiKey)))}

# A rule in $region with the API destination as its one target: name, state, description, and what it matches
# (--event-pattern '...') or when it runs (--schedule-expression '...').
sentinel_event_rule() {
  aws events put-rule --region "$region" --name "$1" --state "$2" --description "$3" "$4" "$5" >/dev/null
  failed=$(aws events put-targets --region "$region" --rule "$1" \\
    --targets "${target}" --query FailedEntryCount --output text)
  if [ "$failed" != 0 ]; then echo "The target of rule $1 in $region was refused" >&2; exit 1; fi
}

# An assignment of its own, so that a failed lookup stops the script (set -e) rather than set up no region.
regions=\${${REGIONS_VARIABLE}:-}
if [ -z "$regions" ]; then
  regions=$(aws ec2 describe-regions --region ${GLOBAL_EVENTS_REGION} --query 'Regions[].RegionName' --output text)
fi
case " $regions " in *" ${GLOBAL_EVENTS_REGION} "*) ;; *) regions="${GLOBAL_EVENTS_REGION} $regions" ;; esac
for region in $regions; do
  if connection_arn=$(aws events describe-connection --region "$region" --name ${CONNECTION_NAME} --query ConnectionArn --output text 2>/dev/null); then
    aws events update-connection --region "$region" --name ${CONNECTION_NAME} --authorization-type API_KEY \\
      --auth-parameters "$sentinel_event_auth" >/dev/null
  else
    connection_arn=$(aws events create-connection --region "$region" --name ${CONNECTION_NAME} \\
      --description ${shellWord(CONNECTION_DESCRIPTION)} --authorization-type API_KEY \\
      --auth-parameters "$sentinel_event_auth" --query ConnectionArn --output text)
  fi
  if destination_arn=$(aws events describe-api-destination --region "$region" --name ${API_DESTINATION_NAME} --query ApiDestinationArn --output text 2>/dev/null); then
    aws events update-api-destination --region "$region" --name ${API_DESTINATION_NAME} --connection-arn "$connection_arn" \\
      --cli-input-json "$sentinel_event_destination" --http-method POST --invocation-rate-limit-per-second ${INVOCATION_RATE_LIMIT_PER_SECOND} >/dev/null
  else
    destination_arn=$(aws events create-api-destination --region "$region" --name ${API_DESTINATION_NAME} \\
      --description ${shellWord(API_DESTINATION_DESCRIPTION)} --connection-arn "$connection_arn" \\
      --cli-input-json "$sentinel_event_destination" --http-method POST --invocation-rate-limit-per-second ${INVOCATION_RATE_LIMIT_PER_SECOND} \\
      --query ApiDestinationArn --output text)
  fi
${regional.map((rule) => cliRule(rule, '  ')).join('')}  # The heartbeat: Sentinel tells a quiet region from one whose forwarder stopped delivering.
  sentinel_event_rule ${HEARTBEAT_RULE_NAME} ${DEFAULT_RULE_STATE} ${shellWord(HEARTBEAT_DESCRIPTION)} --schedule-expression ${shellWord(HEARTBEAT_SCHEDULE)}
  if [ "$region" = ${GLOBAL_EVENTS_REGION} ]; then
${global.map((rule) => cliRule(rule, '    ')).join('')}  fi
  echo "Event forwarding set up in $region"
done
`;
}

// --- CloudFormation ----------------------------------------------------------------------------------------

const CONNECTION_RESOURCE = 'SentinelEventConnection';
const API_DESTINATION_RESOURCE = 'SentinelApiDestination';
const ROLE_RESOURCE = 'SentinelEventForwarderRole';
/** Conditions of the forwarder template. */
export const CREATE_ROLE_CONDITION = 'CreateRole';
export const GLOBAL_REGION_CONDITION = 'IsGlobalEventsRegion';

/** A rule's logical id: sentinel-iam-changes -> SentinelIamChangesRule. */
export function ruleResourceId(rule: { name: string }): string {
  return `${rule.name
    .split('-')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('')}Rule`;
}

/**
 * The forwarder as a regional CloudFormation template, the same for every tenant: the key and the endpoint are
 * parameters. Deployed in one region it covers that region (and, in us-east-1, the global services); a
 * self-managed StackSet deploys it in every region. Without a ForwarderRoleArn each stack creates its own role,
 * named for its region, so the stacks of a StackSet do not collide.
 */
export function eventForwarderTemplate(): string {
  const roleArn: YamlValue = {
    'Fn::If': [CREATE_ROLE_CONDITION, { 'Fn::GetAtt': [ROLE_RESOURCE, 'Arn'] }, { Ref: FORWARDER_PARAMETERS.roleArn }],
  };
  const targets: YamlValue = [
    { Id: TARGET_ID, Arn: { 'Fn::GetAtt': [API_DESTINATION_RESOURCE, 'Arn'] }, RoleArn: roleArn },
  ];
  const rules = Object.fromEntries(
    FORWARDING_RULES.map((rule): [string, YamlValue] => [
      ruleResourceId(rule),
      {
        Type: 'AWS::Events::Rule',
        ...(rule.scope === 'global' ? { Condition: GLOBAL_REGION_CONDITION } : {}),
        Properties: {
          Name: rule.name,
          Description: rule.description,
          State: ruleState(rule),
          EventPattern: rule.pattern as { [key: string]: YamlValue },
          Targets: targets,
        },
      },
    ]),
  );
  const heartbeat: YamlValue = {
    Type: 'AWS::Events::Rule',
    Properties: {
      Name: HEARTBEAT_RULE_NAME,
      Description: HEARTBEAT_DESCRIPTION,
      State: 'ENABLED',
      ScheduleExpression: HEARTBEAT_SCHEDULE,
      Targets: targets,
    },
  };
  const template: { [key: string]: YamlValue } = {
    AWSTemplateFormatVersion: '2010-09-09',
    Description:
      'Forwards the AWS events Sentinel reads from this region to Sentinel through an EventBridge API destination, ' +
      `with a heartbeat every ${HEARTBEAT_INTERVAL_MINUTES} minutes. ` +
      `Deploy it in every region the account has enabled (a StackSet does it at once); the global services' events arrive in ${GLOBAL_EVENTS_REGION} only.`,
    Parameters: {
      [FORWARDER_PARAMETERS.apiKey]: {
        Type: 'String',
        Description: 'The event API key Sentinel gave for this account',
        NoEcho: true,
        MinLength: 32,
        MaxLength: 128,
        AllowedPattern: '[A-Za-z0-9_-]*',
        ConstraintDescription: '32 to 128 letters, digits, _ or -',
      },
      [FORWARDER_PARAMETERS.endpoint]: {
        Type: 'String',
        Description: 'The URL Sentinel gave for event ingestion',
        // EventBridge invokes only HTTPS endpoints: refused here, an http one fails at creation rather than silently.
        AllowedPattern: 'https://.+',
        ConstraintDescription: 'an https URL (EventBridge calls only HTTPS endpoints)',
      },
      [FORWARDER_PARAMETERS.roleArn]: {
        Type: 'String',
        Description:
          'The ARN of an existing role EventBridge assumes to invoke the API destination; empty: the stack creates one',
        Default: '',
        AllowedPattern: '(arn:aws[a-z-]*:iam::[0-9]{12}:role/.+)?',
        ConstraintDescription: 'empty, or an IAM role ARN',
      },
    },
    Conditions: {
      [CREATE_ROLE_CONDITION]: { 'Fn::Equals': [{ Ref: FORWARDER_PARAMETERS.roleArn }, ''] },
      [GLOBAL_REGION_CONDITION]: { 'Fn::Equals': [{ Ref: 'AWS::Region' }, GLOBAL_EVENTS_REGION] },
    },
    Resources: {
      [ROLE_RESOURCE]: {
        Type: 'AWS::IAM::Role',
        Condition: CREATE_ROLE_CONDITION,
        Properties: {
          RoleName: { 'Fn::Sub': `${FORWARDER_ROLE_NAME}-\${AWS::Region}` },
          AssumeRolePolicyDocument: forwarderTrustPolicy(),
          Policies: [{ PolicyName: FORWARDER_POLICY_NAME, PolicyDocument: forwarderPolicy() }],
        },
      },
      [CONNECTION_RESOURCE]: {
        Type: 'AWS::Events::Connection',
        Properties: {
          Name: CONNECTION_NAME,
          Description: CONNECTION_DESCRIPTION,
          AuthorizationType: 'API_KEY',
          AuthParameters: {
            ApiKeyAuthParameters: {
              ApiKeyName: EVENT_API_KEY_HEADER,
              ApiKeyValue: { Ref: FORWARDER_PARAMETERS.apiKey },
            },
          },
        },
      },
      [API_DESTINATION_RESOURCE]: {
        Type: 'AWS::Events::ApiDestination',
        Properties: {
          Name: API_DESTINATION_NAME,
          Description: API_DESTINATION_DESCRIPTION,
          ConnectionArn: { 'Fn::GetAtt': [CONNECTION_RESOURCE, 'Arn'] },
          InvocationEndpoint: { Ref: FORWARDER_PARAMETERS.endpoint },
          HttpMethod: 'POST',
          InvocationRateLimitPerSecond: INVOCATION_RATE_LIMIT_PER_SECOND,
        },
      },
      ...rules,
      [ruleResourceId({ name: HEARTBEAT_RULE_NAME })]: heartbeat,
    },
    Outputs: {
      ApiDestinationArn: {
        Description: 'The API destination the rules send events to',
        Value: { 'Fn::GetAtt': [API_DESTINATION_RESOURCE, 'Arn'] },
      },
      ForwarderRoleArn: { Description: 'The role EventBridge assumes to invoke the API destination', Value: roleArn },
    },
  };
  return toYaml(template);
}
