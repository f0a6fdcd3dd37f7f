import type { GuardDutyRegion, Instance, Inventory, Unread } from '../scans/inventory';
import { daysSince, failing, onPart, onParts, withUnread } from './helpers';
import type { Check, CheckResult } from './types';

// Threat checks: signs that someone is already inside — GuardDuty findings, mining-shaped compute, activity in
// regions the account does not use, identities and keys that appeared in the last day.

/** Instance families built around GPUs, ML accelerators or FPGAs: what crypto-miners launch. */
const ACCELERATED_FAMILIES = new Set(['p', 'g', 'gr', 'inf', 'trn', 'dl', 'f']);
const LARGE_SIZE_XLARGE = 24;
const NEW_INSTANCE_DAYS = 7;
const RECENT_IDENTITY_DAYS = 1;

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

const isNew = (instance: Instance, now: string) => daysSince(instance.launchedAt, now) <= NEW_INSTANCE_DAYS;

/**
 * The regions an account uses: where it has an instance older than NEW_INSTANCE_DAYS, and its trails' home regions.
 * An instance new elsewhere is suspect (here, and for the RunInstances event detection).
 */
export function regionsInUse(
  instances: readonly Instance[],
  trails: readonly { homeRegion: string }[],
  now: string,
): Set<string> {
  return new Set([
    ...instances
      .filter((instance) => instance.state !== 'terminated' && !isNew(instance, now))
      .map((instance) => instance.region),
    ...trails.map((trail) => trail.homeRegion),
  ]);
}

/** The account's regions in use as an inventory shows them; null when its instances or trails could not be read. */
export function inventoryRegionsInUse(inventory: Inventory, now: string): string[] | null {
  const { instances, cloudtrail } = inventory;
  if (instances.status !== 'ok' || cloudtrail.status !== 'ok' || instances.unread?.length || cloudtrail.unread?.length)
    return null;
  return [...regionsInUse(instances.value.instances, cloudtrail.value.trails, now)].sort();
}

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
      'CloudTrail for what the actor did. Archive the finding only once resolved.',
    docsUrl: 'https://docs.aws.amazon.com/guardduty/latest/ug/guardduty_remediate.html',
    evaluate: onPart('guardduty', ({ regions }) => guardDutyFindings(regions)),
  },
  {
    id: 'threat.gpu_instance_running',
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
      'for more. Ask AWS Support about charges from unauthorized use.',
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
    scenario: 'threat',
    severity: 'HIGH',
    title: 'New instance in a region the account does not use',
    description:
      `An instance launched in the last ${NEW_INSTANCE_DAYS} days runs in a region where the account has no ` +
      `instance older than ${NEW_INSTANCE_DAYS} days and which is not the home region of any CloudTrail trail. Attackers ` +
      'launch in far-away regions hoping nobody looks there.',
    remediation:
      'Confirm the launch was intended. If not, terminate the instance after snapshotting it, revoke the ' +
      'credentials that launched it (CloudTrail RunInstances event), and disable unused opt-in regions or deny them ' +
      'with a service control policy.',
    docsUrl: 'https://docs.aws.amazon.com/accounts/latest/reference/manage-acct-regions.html',
    // Needs both parts: without the trails, a home region could be mistaken for an unused one.
    evaluate: onParts(['instances', 'cloudtrail'], ({ instances }, { trails }, ctx) => {
      const used = regionsInUse(instances, trails, ctx.now);
      return failing(
        instances
          .filter((instance) => isActive(instance) && isNew(instance, ctx.now) && !used.has(instance.region))
          .map((instance) => ({
            resource: instance.id,
            region: instance.region,
            detail: `Instance ${instance.id} (${instance.type}) was launched at ${instance.launchedAt} in ${instance.region}.`,
          })),
      );
    }),
  },
  {
    id: 'threat.iam_user_created_recently',
    scenario: 'threat',
    severity: 'MEDIUM',
    title: 'IAM user created in the last 24 hours',
    description:
      'A new IAM user appeared in the last 24 hours. Creating users for persistence is one of the first things ' +
      'an intruder does with stolen credentials.',
    remediation:
      'Confirm who created the user (CloudTrail CreateUser event) and why. If nobody did it on purpose, delete ' +
      "the user's keys, password and policies, delete the user, and rotate the credentials that created it.",
    docsUrl: 'https://docs.aws.amazon.com/IAM/latest/UserGuide/id_users.html',
    evaluate: onPart('iamPrincipals', ({ users }, ctx) =>
      failing(
        users
          .filter((user) => daysSince(user.createdAt, ctx.now) <= RECENT_IDENTITY_DAYS)
          .map((user) => ({ resource: user.arn, detail: `IAM user ${user.name} was created at ${user.createdAt}.` })),
      ),
    ),
  },
  {
    id: 'threat.access_key_created_recently',
    scenario: 'threat',
    severity: 'MEDIUM',
    title: 'Access key created in the last 24 hours',
    description:
      'An active access key was created in the last 24 hours; new keys on existing users are a common way to ' +
      'keep access after a compromise.',
    remediation:
      "Confirm the key's owner created it (CloudTrail CreateAccessKey event). If not, deactivate and delete it " +
      'and investigate the identity that created it.',
    docsUrl: 'https://docs.aws.amazon.com/IAM/latest/UserGuide/id_credentials_access-keys.html',
    evaluate: onPart('iamPrincipals', ({ users }, ctx) =>
      failing(
        users.flatMap((user) =>
          user.accessKeys
            .filter((key) => key.status === 'Active' && daysSince(key.createdAt, ctx.now) <= RECENT_IDENTITY_DAYS)
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
