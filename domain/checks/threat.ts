import type { GuardDutyRegion, Instance, Unread } from '../scans/inventory';
import { failing, onPart, withPart, withUnread } from './helpers';
import { EVENT_REVIEW_DAYS } from '../events/types';
import { NEW_INSTANCE_DAYS, regionsInUse, UNKNOWN_BASELINE } from './region-baseline';
import type { Check, CheckResult, EvaluationContext } from './types';

// Threat checks: signs that someone is already inside — GuardDuty findings, mining-shaped compute, instances in
// regions outside the account's baseline, identities and keys that appeared since the previous scan.

/** Instance families built around GPUs, ML accelerators or FPGAs: what crypto-miners launch. */
const ACCELERATED_FAMILIES = new Set(['p', 'g', 'gr', 'inf', 'trn', 'dl', 'f']);
const LARGE_SIZE_XLARGE = 24;

/** Instances that run or are about to: a stopped instance mines nothing. */
const isActive = (instance: Instance) => instance.state === 'running' || instance.state === 'pending';

/**
 * The high-end rule: an accelerated family (the letters before the generation digit, e.g. `p` in p4d.24xlarge),
 * or a bare-metal size, or a size of 24xlarge and up.
 */
export function isHighEnd(type: string): boolean {
  const [family = '', size = ''] = type.split('.');
  const series = /^([a-z]+)\d/.exec(family)?.[1];
  const xlarge = /^(\d+)xlarge$/.exec(size)?.[1];
  return (
    (series !== undefined && ACCELERATED_FAMILIES.has(series)) ||
    size.startsWith('metal') ||
    (xlarge !== undefined && Number(xlarge) >= LARGE_SIZE_XLARGE)
  );
}

/**
 * Where identities created since the previous scan start on an account's first scan, which has no previous scan: the
 * last 24 hours, the window this check has always had, so that a first scan says what it said before (users and
 * keys older than that were there before Sentinel and are the account's history, judged by the IAM checks).
 */
export const FIRST_SCAN_IDENTITY_HOURS = 24;

/** Where "created since the previous scan" starts: that scan's collection time, or the first scan's window. */
export function identityWindowStart(ctx: EvaluationContext): string {
  return ctx.previousScanAt ?? new Date(Date.parse(ctx.now) - FIRST_SCAN_IDENTITY_HOURS * 3_600_000).toISOString();
}

/** Created after the window's start. ISO 8601 times are compared as instants, whatever their offset. */
const createdSince = (createdAt: string, start: string) => Date.parse(createdAt) > Date.parse(start);

/**
 * GuardDuty's high-severity findings. A region without an enabled detector has none to read, which is not "no
 * findings": it is unread here (detection.guardduty_disabled reports it), and with no enabled detector anywhere the
 * check is not evaluated. Findings kept by a suspended detector still describe the account and still fail.
 */
function guardDutyFindings(regions: readonly GuardDutyRegion[]): CheckResult {
  const resources = regions.flatMap((region) =>
    region.highSeverityFindings.map((finding) => ({
      resource: finding.id,
      region: region.region,
      detail: `${finding.title} (${finding.type}, severity ${finding.severity}) in ${region.region}.`,
    })),
  );
  const off = regions.filter((region) => !region.detectorEnabled);
  const reason = (where: string) =>
    `GuardDuty has no enabled detector ${where}, so it reports no findings there: that is no sign that there is no threat.`;
  const unread = off.map(
    ({ region }): Unread => ({ kind: 'region', scope: region, reason: reason('in this region'), absent: true }),
  );
  if (resources.length === 0 && off.length === regions.length)
    return { status: 'not_evaluated', reason: reason('in any region'), absent: true };
  return withUnread(failing(resources), unread);
}

export const THREAT_CHECKS: readonly Check[] = [
  {
    id: 'threat.guardduty_high_severity_finding',
    service: 'guardduty',
    prowler: ['guardduty_no_high_severity_findings'],
    scenario: 'threat',
    severity: 'CRITICAL',
    title: 'GuardDuty high-severity finding',
    description:
      'GuardDuty reports a finding of severity 7 or more: an active threat such as compromised credentials, ' +
      'a backdoored instance or crypto-mining. Only regions with an enabled GuardDuty detector are evaluated: where ' +
      'GuardDuty is off there is no finding to read, which is no sign of safety (the finding "GuardDuty off in an ' +
      'enabled region" reports those regions).',
    remediation:
      'Open the finding in the GuardDuty console and follow the remediation for its type: isolate affected ' +
      'instances (restrictive security group, snapshot for forensics), revoke and rotate exposed credentials, and review ' +
      'CloudTrail for what the actor did. Archive the finding only once resolved. With the CLI: aws guardduty get-findings --detector-id <detector> --finding-ids <finding>, then aws guardduty archive-findings once it is resolved.',
    docsUrl: 'https://docs.aws.amazon.com/guardduty/latest/ug/guardduty_remediate.html',
    evaluate: onPart('guardduty', ({ regions }) => guardDutyFindings(regions)),
  },
  {
    id: 'threat.gpu_instance_running',
    service: 'ec2',
    scenario: 'threat',
    severity: 'HIGH',
    title: 'GPU or high-end instance running',
    description:
      'A running instance is of an accelerated family (p, g, gr, inf, trn, dl, f: GPUs, ML chips, FPGAs) or of a ' +
      `bare-metal or ${LARGE_SIZE_XLARGE}xlarge-and-larger size: the pattern of crypto-mining on stolen credentials, ` +
      'and thousands of dollars a day.',
    remediation:
      'Confirm with the team that the instance is expected. If not, stop it, snapshot its volumes for ' +
      'investigation, find in CloudTrail which credentials ran RunInstances and revoke them, and check every region ' +
      'for more. Ask AWS Support about charges from unauthorized use. In the console: EC2 > Instances > the instance > Instance state > Stop. With the CLI: aws ec2 stop-instances --instance-ids <instance> --region <region>, and aws cloudtrail lookup-events --lookup-attributes AttributeKey=EventName,AttributeValue=RunInstances.',
    docsUrl: 'https://docs.aws.amazon.com/ec2/latest/instancetypes/ac.html',
    evaluate: onPart('instances', ({ instances }) =>
      failing(
        instances
          .filter((instance) => isActive(instance) && isHighEnd(instance.type))
          .map((instance) => ({
            resource: instance.id,
            region: instance.region,
            detail: `Instance ${instance.id} (${instance.type}) is ${instance.state} in ${instance.region}.`,
          })),
      ),
    ),
  },
  {
    id: 'threat.instance_in_unused_region',
    service: 'ec2',
    scenario: 'threat',
    severity: 'HIGH',
    title: 'Instance in a region the account does not use',
    description:
      "A running instance is in a region outside the account's baseline: the regions where the first complete scan " +
      `found instances launched more than ${NEW_INSTANCE_DAYS} days before it, databases, file systems or a ` +
      "CloudTrail trail's home, and those a member accepted since. However long the instance has run, its region " +
      'stays outside until a member accepts it. Attackers launch in far-away regions hoping nobody looks there.',
    remediation:
      'Confirm the launch was intended. If it was, accept the signal: its region joins the baseline. If not, ' +
      'terminate the instance after snapshotting it, revoke the credentials that launched it (CloudTrail ' +
      'RunInstances event), and disable unused opt-in regions or deny them with a service control policy. In the console: EC2 > Instances in that region > Instance state > Terminate. With the CLI: aws ec2 terminate-instances --instance-ids <instance> --region <region>.',
    docsUrl: 'https://docs.aws.amazon.com/accounts/latest/reference/manage-acct-regions.html',
    // An instance gone before anyone looked is still a launch to review.
    review: true,
    evaluate: (inventory, ctx) => {
      const baseline = ctx.regionBaseline ?? UNKNOWN_BASELINE;
      // Before the baseline is learned this inventory's trails say where the account works: without them, a home
      // region could be mistaken for an unused one.
      const judge = (instances: readonly Instance[]) => {
        const used = regionsInUse(baseline, inventory);
        return failing(
          instances
            .filter((instance) => isActive(instance) && !used.has(instance.region))
            .map((instance) => ({
              resource: instance.id,
              region: instance.region,
              detail: `Instance ${instance.id} (${instance.type}) was launched at ${instance.launchedAt} in ${instance.region}.`,
            })),
        );
      };
      return withPart(inventory.instances, ({ instances }) =>
        baseline.learnedAt !== null ? judge(instances) : withPart(inventory.cloudtrail, () => judge(instances)),
      );
    },
  },
  {
    id: 'threat.iam_user_created_recently',
    service: 'iam',
    scenario: 'threat',
    severity: 'MEDIUM',
    title: 'IAM user created since the previous scan',
    description:
      'An IAM user was created after the previous scan that read every user (on the first scan: in the last ' +
      `${FIRST_SCAN_IDENTITY_HOURS} hours), however long ago that scan was. Creating users for persistence is one of ` +
      'the first things an intruder does with stolen credentials. The signal stays open until a member reviews it ' +
      `(accepts it, or acknowledges the alert about it), or for ${EVENT_REVIEW_DAYS} days, even once the user is gone.`,
    remediation:
      'Confirm who created the user (CloudTrail CreateUser event) and why. If nobody did it on purpose, delete ' +
      "the user's keys, password and policies, delete the user, and rotate the credentials that created it. In the console: IAM > Users > the user > Delete. With the CLI: aws cloudtrail lookup-events --lookup-attributes AttributeKey=EventName,AttributeValue=CreateUser, then aws iam delete-user --user-name <user> once its keys, password and policies are removed.",
    docsUrl: 'https://docs.aws.amazon.com/IAM/latest/UserGuide/id_users.html',
    review: true,
    evaluate: onPart('iamPrincipals', ({ users }, ctx) =>
      failing(
        users
          .filter((user) => createdSince(user.createdAt, identityWindowStart(ctx)))
          .map((user) => ({ resource: user.arn, detail: `IAM user ${user.name} was created at ${user.createdAt}.` })),
      ),
    ),
  },
  {
    id: 'threat.access_key_created_recently',
    service: 'iam',
    scenario: 'threat',
    severity: 'MEDIUM',
    title: 'Access key created since the previous scan',
    description:
      'An active access key was created after the previous scan that read every key (on the first scan: in the ' +
      `last ${FIRST_SCAN_IDENTITY_HOURS} hours), however long ago that scan was; new keys on existing users are a ` +
      'common way to keep access after a compromise. The signal stays open until a member reviews it (accepts it, ' +
      `or acknowledges the alert about it), or for ${EVENT_REVIEW_DAYS} days, even once the key is gone.`,
    remediation:
      "Confirm the key's owner created it (CloudTrail CreateAccessKey event). If not, deactivate and delete it " +
      'and investigate the identity that created it. In the console: IAM > Users > the user > Security credentials > Actions > Deactivate, then Delete. With the CLI: aws iam update-access-key --user-name <user> --access-key-id <key> --status Inactive, then aws iam delete-access-key.',
    docsUrl: 'https://docs.aws.amazon.com/IAM/latest/UserGuide/id_credentials_access-keys.html',
    review: true,
    evaluate: onPart('iamPrincipals', ({ users }, ctx) =>
      failing(
        users.flatMap((user) =>
          user.accessKeys
            .filter((key) => key.status === 'Active' && createdSince(key.createdAt, identityWindowStart(ctx)))
            .map((key) => ({
              resource: key.id,
              owner: user.arn,
              detail: `Access key ${key.id} of IAM user ${user.name} was created at ${key.createdAt}.`,
            })),
        ),
      ),
    ),
  },
];
