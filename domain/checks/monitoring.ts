import type { AlarmedMetric, Collected, Inventory, MetricFilter, Trail, Unread } from '../scans/inventory';
import { controlOfActivity, MONITORED_ACTIVITIES, type MonitoredActivity } from './cis-metric-filters';
import { withPart, withUnread } from './helpers';
import { trailLogs } from './trails';
import type { Check, CheckResult, FailingResource } from './types';

// CIS 5.1-5.15: alarms on what CloudTrail records. An activity is monitored when a multi-region trail that is
// logging delivers to a CloudWatch Logs log group, and that group has a metric filter catching the activity whose
// metric has an alarm with an action. One failing resource per activity left unwatched, each standing for its
// control, so that each control's status follows its own finding.

interface LogGroup {
  region: string;
  name: string;
  /** Whether the trail logs is unknown (its home region was not read): a filter on it proves nothing yet. */
  unsure: boolean;
}

/** `arn:aws:logs:<region>:<account>:log-group:<name>:*` → its region and name. */
function logGroupOf(arn: string): { region: string; name: string } | null {
  const parts = arn.split(':');
  return parts[2] === 'logs' && parts[5] === 'log-group' && parts[3] && parts[6]
    ? { region: parts[3], name: parts[6] }
    : null;
}

/**
 * The log groups of the multi-region trails that log (or may: their status is unknown). A trail whose latest delivery
 * to CloudWatch Logs failed feeds its group nothing: its filters watch nothing.
 */
function trailLogGroups(trails: readonly Trail[], now: string): LogGroup[] {
  return trails.flatMap((trail) => {
    const logs = trailLogs(trail, now);
    const group =
      trail.multiRegion && logs !== false && trail.cloudWatchLogsLogGroupArn && !trail.delivery?.cloudWatchLogsError
        ? logGroupOf(trail.cloudWatchLogsLogGroupArn)
        : null;
    return group ? [{ ...group, unsure: logs === null }] : [];
  });
}

const metricKey = (region: string, namespace: string, name: string) => `${region}|${namespace}|${name}`;

function monitors(
  group: LogGroup,
  activity: MonitoredActivity,
  filters: readonly MetricFilter[],
  alarmed: ReadonlySet<string>,
): boolean {
  return filters.some(
    (f) =>
      f.region === group.region &&
      f.logGroup === group.name &&
      activity.matches.test(f.pattern) &&
      f.metrics.some((m) => alarmed.has(metricKey(f.region, m.namespace, m.name))),
  );
}

const unreadRegions = (part: Collected<unknown>) =>
  new Set((part.unread ?? []).filter((u) => u.kind === 'region').map((u) => u.scope));

function evaluateMonitoring(
  trails: readonly Trail[],
  metricAlarms: Inventory['metricAlarms'],
  now: string,
): CheckResult {
  return withPart(metricAlarms, ({ filters, alarmedMetrics }) => {
    const groups = trailLogGroups(trails, now);
    const alarmed = new Set(alarmedMetrics.map((m: AlarmedMetric) => metricKey(m.region, m.namespace, m.name)));
    const unreadIn = unreadRegions(metricAlarms);
    const names = [...new Set(groups.map((g) => `${g.name} (${g.region})`))].join(', ');
    const resources: FailingResource[] = [];
    const unread: Unread[] = [];
    for (const activity of MONITORED_ACTIVITIES) {
      if (groups.some((g) => !g.unsure && monitors(g, activity, filters, alarmed))) continue;
      // A filter may exist where it could not be seen, or on a trail whose logging is unknown: neither fail nor pass.
      const hidden = groups.filter(
        (g) => unreadIn.has(g.region) || (g.unsure && monitors(g, activity, filters, alarmed)),
      );
      if (hidden.length > 0) {
        unread.push({
          kind: 'resource',
          scope: activity.resource,
          reason:
            `Whether ${activity.activity} are watched is unknown: the metric filters of ${hidden.map((g) => `${g.name} (${g.region})`).join(', ')} ` +
            'could not be read, or the logging of their trail is unknown.',
        });
        continue;
      }
      resources.push({
        resource: activity.resource,
        detail:
          groups.length === 0
            ? `No multi-region CloudTrail trail that is logging delivers to CloudWatch Logs, so nothing raises an alarm on ${activity.activity} (CIS ${activity.control}).`
            : `No metric filter with an alarm catches ${activity.activity} (CIS ${activity.control}) on ${names}; the recommended pattern is ${activity.recommended}`,
      });
    }
    if (resources.length === 0 && unread.length === MONITORED_ACTIVITIES.length) {
      return { status: 'not_evaluated', reason: unread[0]?.reason ?? 'Not read.', unread };
    }
    return withUnread(resources.length > 0 ? { status: 'fail', resources } : { status: 'pass' }, unread);
  });
}

export const MONITORING_CHECKS: readonly Check[] = [
  {
    id: 'detection.cis_metric_alarms_missing',
    service: 'cloudwatch',
    prowler: [
      'cloudwatch_log_metric_filter_unauthorized_api_calls',
      'cloudwatch_log_metric_filter_sign_in_without_mfa',
      'cloudwatch_log_metric_filter_root_usage',
      'cloudwatch_log_metric_filter_policy_changes',
      'cloudwatch_log_metric_filter_and_alarm_for_cloudtrail_configuration_changes_enabled',
      'cloudwatch_log_metric_filter_authentication_failures',
      'cloudwatch_log_metric_filter_disable_or_scheduled_deletion_of_kms_cmk',
      'cloudwatch_log_metric_filter_for_s3_bucket_policy_changes',
      'cloudwatch_log_metric_filter_and_alarm_for_aws_config_configuration_changes_enabled',
      'cloudwatch_log_metric_filter_security_group_changes',
      'cloudwatch_changes_to_network_acls_alarm_configured',
      'cloudwatch_changes_to_network_gateways_alarm_configured',
      'cloudwatch_changes_to_network_route_tables_alarm_configured',
      'cloudwatch_changes_to_vpcs_alarm_configured',
      'cloudwatch_log_metric_filter_aws_organizations_changes',
    ],
    scenario: 'detection',
    severity: 'LOW',
    title: 'CloudTrail activity without a CloudWatch alarm',
    description:
      'CIS section 5 asks for an alarm on each of 15 kinds of sensitive API activity (root use, sign-ins without ' +
      'MFA, IAM, CloudTrail, Config, KMS, S3 policy, network and Organizations changes, unauthorized calls), raised from ' +
      'the CloudWatch Logs log group of a multi-region trail. Without one, such a change is seen only when someone goes ' +
      'looking. One finding per kind of activity left unwatched. A trail counts only while its logs reach its bucket and ' +
      'its latest delivery to CloudWatch Logs did not fail: otherwise its log group receives nothing to alarm on.',
    remediation:
      'In the console: Make a multi-region trail deliver to CloudWatch Logs (CloudTrail > Trails > the trail > CloudWatch Logs > ' +
      'Edit > Enabled, with a new or existing log group); if it does but its delivery fails, give the trail a role ' +
      'that may write to the group (logs:CreateLogStream, logs:PutLogEvents). Then, for each finding, open CloudWatch > Log groups > that ' +
      'group > Metric filters > Create metric filter, paste the recommended pattern from the finding, name a metric in a ' +
      'namespace such as CISBenchmark, and create an alarm on that metric (Statistic Sum, threshold >= 1 in 5 minutes) ' +
      'that notifies an SNS topic someone reads. CLI: aws logs put-metric-filter and aws cloudwatch put-metric-alarm ' +
      '--alarm-actions <topic ARN>.',
    docsUrl: 'https://docs.aws.amazon.com/awscloudtrail/latest/userguide/cloudwatch-alarms-for-cloudtrail.html',
    controls: { 'cis-aws-7.0': MONITORED_ACTIVITIES.map((a) => a.control) },
    controlOfResource: controlOfActivity,
    evaluate: (inventory, ctx) =>
      withPart(inventory.cloudtrail, ({ trails }) => evaluateMonitoring(trails, inventory.metricAlarms, ctx.now)),
  },
];
