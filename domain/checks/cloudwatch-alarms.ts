import { failing, onPart } from './helpers';
import type { Check } from './types';

// CloudWatch alarms that tell nobody: an alarm whose actions are switched off, or that has no action for the ALARM
// state, changes colour in the console and does nothing else. The runaway bill, the stopped service or the spike of
// denied calls it was set up for is seen only by someone who happens to look.

export const CLOUDWATCH_ALARM_CHECKS: readonly Check[] = [
  {
    id: 'detection.cloudwatch_alarm_actions_disabled',
    service: 'cloudwatch',
    prowler: ['cloudwatch_alarm_actions_enabled'],
    scenario: 'detection',
    severity: 'MEDIUM',
    title: 'CloudWatch alarm with its actions switched off',
    description:
      "The alarm's actions are disabled (ActionsEnabled is false): when it goes into ALARM it notifies no topic, " +
      'scales nothing and stops nothing, whatever actions it lists. Actions are often disabled for maintenance and ' +
      'never enabled again.',
    remediation:
      'In the CloudWatch console open Alarms > All alarms, select the alarm > Actions > Enable actions. With the CLI, ' +
      "aws cloudwatch enable-alarm-actions --alarm-names NAME (in the alarm's region).",
    docsUrl: 'https://docs.aws.amazon.com/AmazonCloudWatch/latest/monitoring/AlarmThatSendsEmail.html',
    evaluate: onPart('metricAlarms', ({ silentAlarms }) =>
      failing(
        silentAlarms
          .filter((a) => !a.actionsEnabled)
          .map((a) => ({
            resource: a.arn,
            region: a.region,
            detail: `Alarm ${a.name} in ${a.region} has its actions disabled.`,
          })),
      ),
    ),
  },
  {
    id: 'detection.cloudwatch_alarm_without_alarm_actions',
    service: 'cloudwatch',
    prowler: ['cloudwatch_alarm_actions_alarm_state_configured'],
    scenario: 'detection',
    severity: 'MEDIUM',
    title: 'CloudWatch alarm with no action when it goes into ALARM',
    description:
      'The alarm lists no action for the ALARM state (AlarmActions is empty): it changes state in the console and ' +
      'tells nobody. An alarm kept only for a dashboard should say so in its name; one meant to warn needs an SNS ' +
      'topic, an Auto Scaling policy or an EC2 action.',
    remediation:
      'In the CloudWatch console open Alarms > the alarm > Actions > Edit > Notification, choose "In alarm" and an ' +
      'SNS topic someone reads, and update the alarm. With the CLI, aws cloudwatch put-metric-alarm with the ' +
      "alarm's current settings and --alarm-actions TOPIC_ARN.",
    docsUrl: 'https://docs.aws.amazon.com/AmazonCloudWatch/latest/monitoring/alarm-actions.html',
    evaluate: onPart('metricAlarms', ({ silentAlarms }) =>
      failing(
        silentAlarms
          .filter((a) => a.alarmActions === 0)
          .map((a) => ({
            resource: a.arn,
            region: a.region,
            detail: `Alarm ${a.name} in ${a.region} has no action for the ALARM state.`,
          })),
      ),
    ),
  },
];
