import { analyzeAttackPaths, type UnreadSource } from '../attack-paths/analyze';
import { TOXIC_RULES, type ToxicRule } from '../attack-paths/toxic-combinations';
import type { AttackPath } from '../attack-paths/types';
import type { Inventory } from '../scans/inventory';
import { failing, withUnread } from './helpers';
import type { Check, CheckResult, EvaluationContext, FailingResource } from './types';

// The attack-path analysis (domain/attack-paths/) as findings: one check for privilege escalation and one per toxic
// combination, so that paths become signals, count in the score, head the recovery checklist, travel in the panic
// export and fire alert rules that list the `attack_path` scenario. The paths themselves, with every node and
// edge, are stored by the scan and listed by GET /accounts/{id}/attack-paths.

/** A check over the analysis' paths: not evaluated when the IAM documents were not read, partial when some of it was. */
function onPaths(
  select: (path: AttackPath) => boolean,
  dependsOn: readonly UnreadSource[],
): (inventory: Inventory, context: EvaluationContext) => CheckResult {
  return (inventory, context) => {
    const analysis = analyzeAttackPaths(inventory, context);
    if (analysis.status === 'not_evaluated')
      return {
        status: 'not_evaluated',
        reason: analysis.reason ?? 'The IAM documents were not read.',
        unread: analysis.unread,
      };
    const unread = dependsOn.flatMap((source) => analysis.unreadBy[source]);
    // One finding per subject (a principal, a workload): the most certain, shortest path stands for the others.
    const bySubject = new Map<string, AttackPath>();
    for (const path of analysis.paths.filter(select)) {
      const subject = subjectOf(path);
      const known = bySubject.get(subject);
      if (!known || betterPath(path, known)) bySubject.set(subject, path);
    }
    return withUnread(failing([...bySubject.values()].map(pathFailure)), unread);
  };
}

/** A path as its check's failing resource: its subject, region and chain. */
export function pathFailure(path: AttackPath): FailingResource {
  return {
    resource: subjectOf(path),
    ...(path.region ? { region: path.region } : {}),
    detail: `${path.certainty === 'possible' ? 'Possibly (a condition or an unread document decides): ' : ''}${path.summary}`,
  };
}

/** The resource a path's finding is about: the escalating principal, or the toxic combination's subject. */
const subjectOf = (path: AttackPath): string =>
  path.kind === 'toxic_combination' ? path.fingerprint.slice(`toxic:${path.rule}:`.length) : path.source;

/** Whether `a` stands for its subject before `b`: the more certain, then the shorter. */
export const betterPath = (a: AttackPath, b: AttackPath): boolean =>
  (a.certainty === 'certain' && b.certainty === 'possible') ||
  (a.certainty === b.certainty && a.edges.length < b.edges.length);

const ESCALATION_CHECK: Check = {
  id: 'attack_path.privilege_escalation',
  scenario: 'attack_path',
  service: 'iam',
  severity: 'HIGH',
  title: 'A principal can make itself an administrator',
  description:
    'A user or role that is not an administrator holds permissions that, used in sequence (changing a policy, passing a role to a service, assuming a role), make it one. Whoever holds its credentials holds the account.',
  remediation:
    'Remove the permission named by the first step of each path (or scope it to resources that do not lead on), add a permissions boundary, or deny it by SCP; the attack-path view names each step and the statement that allows it. In the IAM console, edit the policy the step cites; with the AWS CLI, `aws iam put-user-permissions-boundary` or `aws iam put-role-permissions-boundary` bounds the principal at once.',
  docsUrl: 'https://docs.aws.amazon.com/IAM/latest/UserGuide/best-practices.html#grant-least-privilege',
  evaluate: onPaths((p) => p.kind === 'escalation', ['iam']),
};

/** What each combination's findings depend on beyond the IAM documents. */
const TOXIC_SOURCES: Record<ToxicRule, readonly UnreadSource[]> = {
  exposed_admin_workload: ['iam', 'network'],
  exposed_imdsv1_admin_workload: ['iam', 'network'],
  user_key_without_mfa_admin: ['iam', 'users'],
  external_trust_admin: ['iam'],
  public_function_reads_secrets: ['iam', 'network', 'secrets'],
  public_queue_function_reads_secrets: ['iam', 'queues', 'secrets'],
  escalation_seen_acting: ['iam'],
};

const TOXIC_TEXT: Record<ToxicRule, { description: string; remediation: string; docsUrl: string; review?: true }> = {
  exposed_admin_workload: {
    description:
      'A workload the internet reaches (the network path is shown) runs with a role that is an administrator or can become one: one flaw in what it serves gives the attacker the account.',
    remediation:
      'Cut one link: close the port to the internet (or put the workload behind a load balancer with a WAF), or give the workload a role with only what it needs. In the EC2 console, edit the security group’s inbound rules; with the AWS CLI, `aws ec2 revoke-security-group-ingress` closes the port and `aws iam detach-role-policy` narrows the role.',
    docsUrl: 'https://docs.aws.amazon.com/wellarchitected/latest/security-pillar/sec_permissions_least_privileges.html',
  },
  exposed_imdsv1_admin_workload: {
    description:
      'An instance the internet reaches answers IMDSv1, so a server-side request forgery reads its role’s keys, and the role is an administrator or can become one (the Capital One breach path).',
    remediation:
      'Require IMDSv2 on the instance (EC2 console: Actions, Instance settings, Modify instance metadata options; AWS CLI: `aws ec2 modify-instance-metadata-options --instance-id <id> --http-tokens required`), close its ports to the internet, and narrow its role.',
    docsUrl: 'https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/configuring-IMDS-existing-instances.html',
  },
  user_key_without_mfa_admin: {
    description:
      'A user with an active access key and no MFA is an administrator or can become one: a key leaked from a laptop, a repository or a CI log is the whole account.',
    remediation:
      'Replace the user’s keys with roles (IAM Identity Center, OIDC federation for CI); if a key must stay, enable MFA and narrow its policies. In the IAM console, the user’s Security credentials tab deactivates keys and assigns MFA; with the AWS CLI, `aws iam update-access-key --status Inactive` stops a key at once.',
    docsUrl: 'https://docs.aws.amazon.com/IAM/latest/UserGuide/best-practices.html#bp-users-federation-idp',
  },
  external_trust_admin: {
    description:
      'A role that is an administrator, or can become one, trusts another AWS account (or every account) without requiring an ExternalId: that account, or anyone who tricks its service, takes yours.',
    remediation:
      'Require sts:ExternalId in the trust policy, trust a specific role rather than an account, and narrow the role’s permissions. In the IAM console, edit the role’s trust relationship; with the AWS CLI, `aws iam update-assume-role-policy` replaces it.',
    docsUrl: 'https://docs.aws.amazon.com/IAM/latest/UserGuide/id_roles_common-scenarios_third-party.html',
  },
  public_function_reads_secrets: {
    description:
      'A function or API anyone on the internet can invoke runs with a role that reads Secrets Manager secrets or SSM parameters: a flaw in its code discloses them.',
    remediation:
      'Require authentication on its URL or API (IAM or a Cognito authorizer), and scope the role to the one secret it needs. In the Lambda console, the function URL’s auth type is under Configuration; with the AWS CLI, `aws lambda update-function-url-config --auth-type AWS_IAM`.',
    docsUrl: 'https://docs.aws.amazon.com/lambda/latest/dg/urls-auth.html',
  },
  public_queue_function_reads_secrets: {
    description:
      'Anyone may send messages to an SQS queue (its access policy allows sqs:SendMessage to everyone), and the queue triggers a Lambda function whose role reads Secrets Manager secrets or SSM parameters: whoever sends writes the function’s input, and a flaw in its code discloses the secrets.',
    remediation:
      'Cut one link: limit the queue’s policy to the accounts, roles or sources that send to it (aws:SourceArn for a topic or bucket), or scope the function’s role to the one secret it needs. In the SQS console, edit the queue’s Access policy; with the AWS CLI, `aws sqs set-queue-attributes --queue-url <url> --attributes file://policy.json` replaces it.',
    docsUrl:
      'https://docs.aws.amazon.com/AWSSimpleQueueService/latest/SQSDeveloperGuide/sqs-security-best-practices.html',
  },
  escalation_seen_acting: {
    description:
      'A principal that can escalate to administrator set off an event detection in the last day: the escalation path may be in use right now.',
    remediation:
      'Review the principal’s recent activity (the event’s signal); if it is not its owner acting, revoke its sessions (IAM console: the role’s Revoke sessions tab) or deactivate its keys (AWS CLI: `aws iam update-access-key --status Inactive`), then remove the first step of its path.',
    docsUrl: 'https://docs.aws.amazon.com/IAM/latest/UserGuide/id_roles_use_revoke-sessions.html',
    review: true,
  },
};

const TOXIC_CHECKS: Check[] = (Object.keys(TOXIC_RULES) as ToxicRule[]).map((rule) => {
  const { review, ...text } = TOXIC_TEXT[rule];
  return {
    id: `attack_path.${rule}`,
    scenario: 'attack_path',
    service: rule === 'exposed_imdsv1_admin_workload' ? 'ec2' : 'iam',
    severity: 'CRITICAL',
    title: TOXIC_RULES[rule],
    ...text,
    ...(review ? { review } : {}),
    evaluate: onPaths((p) => p.kind === 'toxic_combination' && p.rule === rule, TOXIC_SOURCES[rule]),
  };
});

export const ATTACK_PATH_CHECKS: readonly Check[] = [ESCALATION_CHECK, ...TOXIC_CHECKS];
