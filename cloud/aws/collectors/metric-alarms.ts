import { CloudWatchClient, type MetricAlarm, paginateDescribeAlarms } from '@aws-sdk/client-cloudwatch';
import { CloudWatchLogsClient, paginateDescribeMetricFilters } from '@aws-sdk/client-cloudwatch-logs';
import type { AlarmedMetric, MetricFilter, SilentAlarm } from '../../../domain/scans/inventory';
import { settleAll } from './concurrency';
import { foldPages, type ReadContext, regionalPart } from './reader';

// CIS 5.x monitoring: in every enabled region, the log groups' metric filters (DescribeMetricFilters, paged) and
// the metric alarms (DescribeAlarms, paged). Only the filters' patterns and metrics are kept; of the alarms, the
// metrics of those that act when they go into ALARM (an alarm nobody is told about monitors nothing), and the
// names of those that tell nobody, which the alarm checks report.

interface Slice {
  filters: MetricFilter[];
  alarmedMetrics: AlarmedMetric[];
  silentAlarms: SilentAlarm[];
}

/** The metrics an alarm watches: its own metric, or each metric of its metric math expression. */
function metricsOf(alarm: MetricAlarm): { name: string; namespace: string }[] {
  if (alarm.MetricName && alarm.Namespace) return [{ name: alarm.MetricName, namespace: alarm.Namespace }];
  return (alarm.Metrics ?? []).flatMap(({ MetricStat }) => {
    const metric = MetricStat?.Metric;
    return metric?.MetricName && metric.Namespace ? [{ name: metric.MetricName, namespace: metric.Namespace }] : [];
  });
}

export const metricAlarmsPart = regionalPart({
  part: 'metricAlarms',
  async read({ session }: ReadContext, region: string): Promise<Slice> {
    const logs = session.client((config) => new CloudWatchLogsClient(config), region);
    const cloudwatch = session.client((config) => new CloudWatchClient(config), region);
    const [filters, alarms] = await settleAll([
      foldPages(paginateDescribeMetricFilters({ client: logs }, {}), [] as MetricFilter[], (into, page) => {
        for (const f of page.metricFilters ?? []) {
          into.push({
            name: f.filterName ?? '',
            region,
            logGroup: f.logGroupName ?? '',
            pattern: f.filterPattern ?? '',
            metrics: (f.metricTransformations ?? []).map((m) => ({
              name: m.metricName ?? '',
              namespace: m.metricNamespace ?? '',
            })),
          });
        }
        return into;
      }),
      foldPages(
        paginateDescribeAlarms({ client: cloudwatch }, { AlarmTypes: ['MetricAlarm'] }),
        { alarmedMetrics: [] as AlarmedMetric[], silentAlarms: [] as SilentAlarm[] },
        (into, page) => {
          for (const alarm of page.MetricAlarms ?? []) {
            const actionsEnabled = alarm.ActionsEnabled !== false;
            const alarmActions = (alarm.AlarmActions ?? []).length;
            if (actionsEnabled && alarmActions > 0) {
              for (const metric of metricsOf(alarm)) into.alarmedMetrics.push({ region, ...metric });
            } else {
              const name = alarm.AlarmName ?? '';
              into.silentAlarms.push({ name, arn: alarm.AlarmArn ?? name, region, actionsEnabled, alarmActions });
            }
          }
          return into;
        },
      ),
    ]);
    return { filters, ...alarms };
  },
  assemble: (slices) => ({
    filters: slices.flatMap((s) => s.filters),
    alarmedMetrics: slices.flatMap((s) => s.alarmedMetrics),
    silentAlarms: slices.flatMap((s) => s.silentAlarms),
  }),
});
