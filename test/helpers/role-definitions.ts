import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { parse } from 'yaml';
import { PROJECT_ROOT } from '../../scripts/tools';

// The role each onboarding artefact (CloudFormation template, Terraform snippet, CLI script) creates, read back
// as data by a real parser of its language, so tests compare what they grant rather than how they are written.

export interface RoleDefinition {
  roleName: string;
  trustPolicy: unknown;
  managedPolicyArns: string[];
  inlinePolicies: Record<string, unknown>;
}

// A real HCL parser (python-hcl2), asked for plain values: strings unquoted and heredocs as their text.
const HCL_TO_JSON = `
import sys, json, hcl2
options = hcl2.SerializationOptions(strip_string_quotes=True, preserve_heredocs=False, explicit_blocks=False, with_comments=False)
print(json.dumps(hcl2.loads(sys.stdin.read(), serialization_options=options)))
`;

export type HclResources = Record<string, Record<string, Record<string, string>>>;

export function parseHcl(text: string): { resource: HclResources[]; output: Record<string, Record<string, string>>[] } {
  const run = spawnSync(path.join(PROJECT_ROOT, '.tools/venv/bin/python'), ['-c', HCL_TO_JSON], {
    input: text,
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`HCL parse failed: ${run.stderr}`);
  return JSON.parse(run.stdout);
}

/** The one role of a Terraform snippet, its attachments and inline policies. */
export function terraformRole(snippet: string): RoleDefinition {
  const blocks = parseHcl(snippet).resource.flatMap((r) =>
    Object.entries(r).flatMap(([type, byName]) => Object.values(byName).map((body) => ({ type, body }))),
  );
  const roles = blocks.filter((b) => b.type === 'aws_iam_role');
  if (roles.length !== 1) throw new Error(`expected one aws_iam_role, found ${roles.length}`);
  return {
    roleName: roles[0]!.body.name!,
    trustPolicy: JSON.parse(roles[0]!.body.assume_role_policy!),
    managedPolicyArns: blocks.filter((b) => b.type === 'aws_iam_role_policy_attachment').map((b) => b.body.policy_arn!),
    inlinePolicies: Object.fromEntries(
      blocks.filter((b) => b.type === 'aws_iam_role_policy').map((b) => [b.body.name!, JSON.parse(b.body.policy!)]),
    ),
  };
}

/** The role an AWS CLI script creates, from the arguments of its iam commands. */
export function cliScriptRole(script: string): RoleDefinition {
  const create = /aws iam create-role --role-name (\S+) \\\n\s+--assume-role-policy-document '([^']*)'/.exec(script);
  if (!create) throw new Error('no aws iam create-role in the script');
  const inline = [
    ...script.matchAll(
      /aws iam put-role-policy --role-name \S+ --policy-name (\S+) \\\n\s+--policy-document '([^']*)'/g,
    ),
  ];
  return {
    roleName: create[1]!,
    trustPolicy: JSON.parse(create[2]!),
    managedPolicyArns: [...script.matchAll(/aws iam attach-role-policy --role-name \S+ --policy-arn (\S+)/g)].map(
      (m) => m[1]!,
    ),
    inlinePolicies: Object.fromEntries(inline.map((m) => [m[1]!, JSON.parse(m[2]!)])),
  };
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** A template's parameter references replaced by the values a stack would be given. */
function resolveRefs(value: Json, parameters: Record<string, string>): Json {
  if (Array.isArray(value)) return value.map((v) => resolveRefs(v, parameters));
  if (value && typeof value === 'object') {
    const keys = Object.keys(value);
    if (keys.length === 1 && keys[0] === 'Ref' && typeof value.Ref === 'string' && value.Ref in parameters)
      return parameters[value.Ref]!;
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveRefs(v, parameters)]));
  }
  return value;
}

/** The one AWS::IAM::Role of a CloudFormation template (YAML), as a stack with these parameters would create it. */
export function templateRole(template: string, parameters: Record<string, string>): RoleDefinition {
  const parsed = parse(template) as { Resources: Record<string, { Type: string; Properties: Record<string, Json> }> };
  const roles = Object.values(parsed.Resources).filter((r) => r.Type === 'AWS::IAM::Role');
  if (roles.length !== 1) throw new Error(`expected one AWS::IAM::Role, found ${roles.length}`);
  const properties = resolveRefs(roles[0]!.Properties, parameters) as {
    RoleName: string;
    AssumeRolePolicyDocument: unknown;
    ManagedPolicyArns?: string[];
    Policies?: { PolicyName: string; PolicyDocument: unknown }[];
  };
  return {
    roleName: properties.RoleName,
    trustPolicy: properties.AssumeRolePolicyDocument,
    managedPolicyArns: properties.ManagedPolicyArns ?? [],
    inlinePolicies: Object.fromEntries((properties.Policies ?? []).map((p) => [p.PolicyName, p.PolicyDocument])),
  };
}
