import { CloudWatchClient, type MetricAlarm, paginateDescribeAlarms } from '@aws-sdk/client-cloudwatch';
import { CloudWatchLogsClient, paginateDescribeMetricFilters } from '@aws-sdk/client-cloudwatch-logs';
import type { AlarmedMetric, MetricFilter } from '../../../domain/scans/inventory';
import { settleAll } from './concurrency';
import { foldPages, type ReadContext, regionalPart } from './reader';

// CIS 5.x monitoring: in every enabled region, the log groups' metric filters (DescribeMetricFilters, paged) and
// the metric alarms (DescribeAlarms, paged). Only the filters' patterns and metrics are kept, and of the alarms
// only the metrics of those that act when they go into ALARM: an alarm nobody is told about monitors nothing.

interface Slice {
  filters: MetricFilter[];
  alarmedMetrics: AlarmedMetric[];
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
    const [filters, alarmedMetrics] = await settleAll([
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
        [] as AlarmedMetric[],
        (into, page) => {
          for (const alarm of page.MetricAlarms ?? []) {
            if (alarm.ActionsEnabled === false || (alarm.AlarmActions ?? []).length === 0) continue;
            for (const metric of metricsOf(alarm)) into.push({ region, ...metric });
          }
          return into;
        },
      ),
    ]);
    return { filters, alarmedMetrics };
  },
  assemble: (slices) => ({
    filters: slices.flatMap((s) => s.filters),
    alarmedMetrics: slices.flatMap((s) => s.alarmedMetrics),
  }),
});
