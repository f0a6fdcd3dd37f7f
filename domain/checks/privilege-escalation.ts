import { actionMatches } from '../policies/resource-policy';
import type { RoleTrust } from '../scans/inventory';

// What an identity policy grants that leads to compromise, read from its document (for the IAM collector,
// cloud/aws/collectors/iam-policies.ts): the known privilege-escalation paths it completes, full control of
// CloudTrail, and assuming any role. And who a role's trust policy lets in.
//
// The paths are the single-policy ones of Rhino Security Labs' research ("AWS IAM Privilege Escalation - Methods
// and Mitigation") as Prowler lists them (prowler/providers/aws/services/iam/lib/privilege_escalation.py): a path
// is complete when every one of its actions is allowed. Resource constraints and conditions are not weighed (a
// policy that grants iam:PassRole on one role still lets that role be passed); an action a Deny statement names on
// every resource is taken out.

export const ESCALATION_PATHS: Readonly<Record<string, readonly string[]>> = {
  'iam:CreatePolicyVersion': ['iam:CreatePolicyVersion'],
  'iam:SetDefaultPolicyVersion': ['iam:SetDefaultPolicyVersion'],
  'iam:CreateAccessKey': ['iam:CreateAccessKey'],
  'iam:CreateLoginProfile': ['iam:CreateLoginProfile'],
  'iam:UpdateLoginProfile': ['iam:UpdateLoginProfile'],
  'iam:AttachUserPolicy': ['iam:AttachUserPolicy'],
  'iam:AttachGroupPolicy': ['iam:AttachGroupPolicy'],
  'iam:AttachRolePolicy': ['iam:AttachRolePolicy'],
  'iam:PutUserPolicy': ['iam:PutUserPolicy'],
  'iam:PutGroupPolicy': ['iam:PutGroupPolicy'],
  'iam:PutRolePolicy': ['iam:PutRolePolicy'],
  'iam:AddUserToGroup': ['iam:AddUserToGroup'],
  'iam:UpdateAssumeRolePolicy': ['iam:UpdateAssumeRolePolicy'],
  'PassRole+EC2': ['iam:PassRole', 'ec2:RunInstances'],
  'PassRole+EC2SpotInstances': ['iam:PassRole', 'ec2:RequestSpotInstances'],
  'PassRole+CreateLambda+Invoke': ['iam:PassRole', 'lambda:CreateFunction', 'lambda:InvokeFunction'],
  'PassRole+CreateLambda+EventSourceMapping': [
    'iam:PassRole',
    'lambda:CreateFunction',
    'lambda:CreateEventSourceMapping',
  ],
  'PassRole+CreateLambda+AddPermission': ['iam:PassRole', 'lambda:CreateFunction', 'lambda:AddPermission'],
  'lambda:UpdateFunctionCode': ['lambda:UpdateFunctionCode'],
  'PassRole+GlueCreateDevEndpoint': ['iam:PassRole', 'glue:CreateDevEndpoint'],
  'glue:UpdateDevEndpoint': ['glue:UpdateDevEndpoint'],
  'PassRole+CloudFormation': ['iam:PassRole', 'cloudformation:CreateStack'],
  'PassRole+DataPipeline': [
    'iam:PassRole',
    'datapipeline:CreatePipeline',
    'datapipeline:PutPipelineDefinition',
    'datapipeline:ActivatePipeline',
  ],
  'PassRole+SageMakerNotebook': [
    'iam:PassRole',
    'sagemaker:CreateNotebookInstance',
    'sagemaker:CreatePresignedNotebookInstanceUrl',
  ],
  'PassRole+CodeBuild': ['iam:PassRole', 'codebuild:CreateProject', 'codebuild:StartBuild'],
  'PassRole+ECS': ['iam:PassRole', 'ecs:RegisterTaskDefinition', 'ecs:RunTask'],
  'ssm:SendCommand': ['ssm:SendCommand'],
  'ssm:StartSession': ['ssm:StartSession'],
};

type Json = Record<string, unknown>;
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined ? [] : [v]);
const strings = (v: unknown): string[] => list(v).filter((s): s is string => typeof s === 'string');
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const statements = (document: unknown): Json[] =>
  list(isObject(document) ? document.Statement : undefined).filter(isObject);

/** Whether a statement names an action (by Action, or by leaving it out of NotAction). */
function names(statement: Json, action: string): boolean {
  if (statement.NotAction !== undefined) return !strings(statement.NotAction).some((g) => actionMatches(g, action));
  return strings(statement.Action).some((g) => actionMatches(g, action));
}

const onEveryResource = (statement: Json) =>
  statement.NotResource === undefined && strings(statement.Resource).includes('*');

/** Whether a parsed identity policy allows an action: an Allow names it and no Deny on every resource does. */
export function policyAllows(document: unknown, action: string): boolean {
  const all = statements(document);
  return (
    all.some((s) => s.Effect === 'Allow' && names(s, action)) &&
    !all.some((s) => s.Effect === 'Deny' && onEveryResource(s) && s.Condition === undefined && names(s, action))
  );
}

/** The escalation paths a parsed identity policy completes, by name. */
export function escalationPaths(document: unknown): string[] {
  return Object.entries(ESCALATION_PATHS)
    .filter(([, actions]) => actions.every((action) => policyAllows(document, action)))
    .map(([name]) => name);
}

/** Whether the policy allows every action of a service (`cloudtrail:*`, `*`) on every resource, as Prowler reads it. */
export function fullServiceAccess(document: unknown, service: string): boolean {
  return statements(document).some(
    (s) =>
      s.Effect === 'Allow' &&
      onEveryResource(s) &&
      s.NotAction === undefined &&
      strings(s.Action).some((a) => a === '*' || a.toLowerCase() === `${service}:*`),
  );
}

/** Whether the policy allows sts:AssumeRole (or sts:*, *) on a resource with a wildcard: any role that trusts it. */
export function assumesAnyRole(document: unknown): boolean {
  return statements(document).some(
    (s) =>
      s.Effect === 'Allow' &&
      strings(s.Resource).some((r) => r.includes('*')) &&
      strings(s.Action).some((a) => ['sts:assumerole', 'sts:*', '*'].includes(a.toLowerCase())),
  );
}

/** Services AWS only lets act within the role's own account (Prowler exempts the same two). */
const SAME_ACCOUNT_SERVICES = new Set(['secretsmanager.amazonaws.com', 'eks.amazonaws.com']);

/** Condition keys that tie a service principal to the account it acts for (AWS's confused-deputy guidance). */
const SOURCE_KEYS = new Set(['aws:sourceaccount', 'aws:sourcearn', 'aws:sourceorgid', 'aws:sourceorgpaths']);

function hasSourceCondition(condition: unknown): boolean {
  if (!isObject(condition)) return false;
  return Object.values(condition).some(
    (tests) => isObject(tests) && Object.keys(tests).some((key) => SOURCE_KEYS.has(key.toLowerCase())),
  );
}

/** The account an AWS principal names (its 12-digit id, or an ARN's account field); '*' for everyone. */
function accountOf(principal: string): string | undefined {
  if (principal === '*') return '*';
  if (/^\d{12}$/.test(principal)) return principal;
  return /^arn:[^:]+:[^:]*:[^:]*:(\d{12}):/.exec(principal)?.[1];
}

/** Who a parsed trust policy lets assume the role from outside the account, and the services it trusts unbound. */
export function roleTrust(document: unknown, ownAccount: string): RoleTrust {
  const external = new Set<string>();
  const services = new Set<string>();
  for (const s of statements(document)) {
    if (s.Effect !== 'Allow') continue;
    const principal = s.Principal;
    const aws = principal === '*' ? ['*'] : isObject(principal) ? strings(principal.AWS) : [];
    for (const p of aws) {
      const account = accountOf(p);
      if (account !== undefined && account !== ownAccount) external.add(account);
    }
    if (isObject(principal) && !hasSourceCondition(s.Condition))
      for (const service of strings(principal.Service)) if (!SAME_ACCOUNT_SERVICES.has(service)) services.add(service);
  }
  return { externalPrincipals: [...external].sort(), servicesWithoutSourceCondition: [...services].sort() };
}
