import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Registry, collectDefaultMetrics } from 'prom-client';
import { parse as parseYaml } from 'yaml';
import { SENTINEL_METRIC_NAMES, registry } from '../../observability/metrics';

// ops/: the Grafana dashboard and the Prometheus rules must parse, and every metric they query must be one the
// processes expose, so a renamed or misspelled metric fails here instead of drawing an empty panel or an alert that
// can never fire.

const OPS = path.join(__dirname, '../../ops');
const SCRAPE_JOBS = ['sentinel-api', 'sentinel-worker'];

// The Temporal SDK's metrics on the worker's /metrics, as @temporalio/worker 1.24.0 exports them with
// `prometheus: { bindAddress, useSecondsForDurations: true }` (worker/temporal-metrics.ts). Verified in the sdk-core
// sources of that release (node_modules/@temporalio/core-bridge/sdk-core): names in
// crates/sdk-core/src/telemetry/metrics.rs and crates/common/src/telemetry/metrics.rs; the `temporal_` prefix is
// the default `metricPrefix` (@temporalio/worker lib/runtime-options.js); crates/common/src/telemetry/prometheus_meter.rs
// appends `_total` to counters and the unit to histograms only when `countersTotalSuffix` / `unitSuffix` are set,
// both false by default, so counters have no `_total` and duration histograms keep their name, in seconds. Checked
// against the /metrics of a 1.24.0 worker run with these options. Labels: namespace, task_queue, service_name;
// worker_type on the slot gauges, poller_type on num_pollers, activity_type / workflow_type / failure_reason on the
// failure counters.
const TEMPORAL_METRICS: Record<string, 'counter' | 'gauge' | 'histogram'> = {
  temporal_worker_task_slots_available: 'gauge',
  temporal_worker_task_slots_used: 'gauge',
  temporal_sticky_cache_size: 'gauge',
  temporal_num_pollers: 'gauge',
  temporal_sticky_cache_hit: 'counter',
  temporal_sticky_cache_miss: 'counter',
  temporal_activity_execution_failed: 'counter',
  temporal_workflow_task_execution_failed: 'counter',
  temporal_workflow_task_queue_poll_succeed: 'counter',
  temporal_activity_task_received: 'counter',
  temporal_workflow_completed: 'counter',
  temporal_workflow_failed: 'counter',
  temporal_worker_start: 'counter',
  temporal_workflow_task_schedule_to_start_latency: 'histogram',
  temporal_workflow_task_execution_latency: 'histogram',
  temporal_workflow_task_replay_latency: 'histogram',
  temporal_workflow_endtoend_latency: 'histogram',
  temporal_activity_schedule_to_start_latency: 'histogram',
  temporal_activity_execution_latency: 'histogram',
};

// --- PromQL -------------------------------------------------------------------------------------------------------

const FUNCTIONS = new Set([
  'abs',
  'absent',
  'absent_over_time',
  'acos',
  'acosh',
  'asin',
  'asinh',
  'atan',
  'atanh',
  'avg_over_time',
  'ceil',
  'changes',
  'clamp',
  'clamp_max',
  'clamp_min',
  'cos',
  'cosh',
  'count_over_time',
  'day_of_month',
  'day_of_week',
  'day_of_year',
  'days_in_month',
  'deg',
  'delta',
  'deriv',
  'double_exponential_smoothing',
  'end',
  'exp',
  'floor',
  'histogram_avg',
  'histogram_count',
  'histogram_fraction',
  'histogram_quantile',
  'histogram_stddev',
  'histogram_stdvar',
  'histogram_sum',
  'holt_winters',
  'hour',
  'idelta',
  'increase',
  'info',
  'irate',
  'label_join',
  'label_replace',
  'last_over_time',
  'ln',
  'log10',
  'log2',
  'mad_over_time',
  'max_over_time',
  'min_over_time',
  'minute',
  'month',
  'pi',
  'predict_linear',
  'present_over_time',
  'quantile_over_time',
  'rad',
  'rate',
  'resets',
  'round',
  'scalar',
  'sgn',
  'sin',
  'sinh',
  'sort',
  'sort_by_label',
  'sort_by_label_desc',
  'sort_desc',
  'sqrt',
  'start',
  'stddev_over_time',
  'stdvar_over_time',
  'sum_over_time',
  'tan',
  'tanh',
  'time',
  'timestamp',
  'vector',
  'year',
]);
const AGGREGATIONS = new Set([
  'avg',
  'bottomk',
  'count',
  'count_values',
  'group',
  'limit_ratio',
  'limitk',
  'max',
  'min',
  'quantile',
  'stddev',
  'stdvar',
  'sum',
  'topk',
]);
/** Keywords followed by a parenthesised list of label names. */
const LABEL_LIST_KEYWORDS = new Set(['by', 'without', 'on', 'ignoring', 'group_left', 'group_right']);
const KEYWORDS = new Set(['and', 'or', 'unless', 'bool', 'offset', 'atan2', 'inf', 'nan']);

/** Index just past the quoted string that starts at `start`. */
function skipString(expr: string, start: number): number {
  const quote = expr[start];
  let i = start + 1;
  while (i < expr.length && expr[i] !== quote) i += quote !== '`' && expr[i] === '\\' ? 2 : 1;
  if (i >= expr.length) throw new Error(`unterminated string in: ${expr}`);
  return i + 1;
}

/** Index just past the bracketed group (`{}`, `[]` or `()`) that starts at `start`, strings inside skipped. */
function skipGroup(expr: string, start: number): number {
  const open = expr[start];
  const close = open === '{' ? '}' : open === '[' ? ']' : ')';
  let depth = 0;
  for (let i = start; i < expr.length; i++) {
    const c = expr[i];
    if (c === '"' || c === "'" || c === '`') {
      i = skipString(expr, i) - 1;
      continue;
    }
    if (c === open) depth++;
    else if (c === close && --depth === 0) return i + 1;
  }
  throw new Error(`unbalanced ${open} in: ${expr}`);
}

function nextNonSpace(expr: string, from: number): number {
  let i = from;
  while (i < expr.length && /\s/.test(expr[i] ?? '')) i++;
  return i;
}

/**
 * The metric names a PromQL expression selects, in order. Skips string literals, label matchers (`{...}`), range
 * and subquery brackets (`[...]`), label lists after by / without / on / ignoring / group_left / group_right,
 * function and aggregation names, keywords, numbers and durations, comments and Grafana variables (`$x`, `${x}`).
 * An unknown name followed by `(` is an error (a misspelled function), and so is a `__name__` matcher (a metric
 * name this could not see).
 */
function metricNames(expr: string): string[] {
  const names: string[] = [];
  let i = 0;
  while (i < expr.length) {
    const c = expr[i] ?? '';
    const rest = expr.slice(i);
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === '#') {
      const eol = expr.indexOf('\n', i);
      i = eol === -1 ? expr.length : eol;
      continue;
    }
    if (c === '"' || c === "'" || c === '`') {
      i = skipString(expr, i);
      continue;
    }
    if (c === '{') {
      const end = skipGroup(expr, i);
      if (/\b__name__\b/.test(expr.slice(i, end))) throw new Error(`__name__ matcher in: ${expr}`);
      i = end;
      continue;
    }
    if (c === '[') {
      i = skipGroup(expr, i);
      continue;
    }
    if (c === '$') {
      const variable = /^\$(\{[^}]*\}|\w+)/.exec(rest);
      i += variable ? variable[0].length : 1;
      continue;
    }
    const number = /^(?:0x[0-9a-f]+|(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?)[a-z0-9_]*/i.exec(rest);
    if (number) {
      i += number[0].length;
      continue;
    }
    const ident = /^[a-zA-Z_:][a-zA-Z0-9_:]*/.exec(rest);
    if (!ident) {
      i++;
      continue;
    } // operators, commas, parentheses, '@'
    const word = ident[0];
    i += word.length;
    const lower = word.toLowerCase();
    const after = nextNonSpace(expr, i);
    if (LABEL_LIST_KEYWORDS.has(lower)) {
      if (expr[after] === '(') i = skipGroup(expr, after);
      continue;
    }
    if (KEYWORDS.has(lower)) continue;
    if (expr[after] === '(') {
      if (FUNCTIONS.has(word) || AGGREGATIONS.has(word)) continue;
      throw new Error(`unknown function ${word} in: ${expr}`);
    }
    if (AGGREGATIONS.has(word) && /^(by|without)\b/i.test(expr.slice(after))) continue; // sum by (x) (...)
    names.push(word);
  }
  return names;
}

// --- The files ----------------------------------------------------------------------------------------------------

interface Target {
  refId?: string;
  expr?: string;
  datasource?: { type?: string; uid?: string };
}
interface Panel {
  id?: number;
  type?: string;
  title?: string;
  gridPos?: { x: number; y: number; w: number; h: number };
  datasource?: { type?: string; uid?: string };
  targets?: Target[];
  panels?: Panel[];
}
interface Dashboard {
  title?: string;
  uid?: string;
  schemaVersion?: number;
  panels?: Panel[];
  templating?: { list?: { name?: string; type?: string; query?: string }[] };
}
interface Rule {
  alert?: string;
  record?: string;
  expr?: unknown;
  for?: unknown;
  labels?: Record<string, unknown>;
  annotations?: Record<string, unknown>;
}
interface RuleFile {
  groups?: { name?: string; rules?: Rule[] }[];
}

function read(file: string): string {
  return readFileSync(path.join(OPS, file), 'utf8');
}

const dashboard = JSON.parse(read('grafana/sentinel.json')) as Dashboard;
/** Every panel, those inside collapsed rows too. */
const allPanels = (dashboard.panels ?? []).flatMap((panel) => [panel, ...(panel.panels ?? [])]);
const queryPanels = allPanels.filter((panel) => panel.type !== 'row');
const dashboardExprs = queryPanels.flatMap((panel) =>
  (panel.targets ?? []).map((target) => ({
    where: `dashboard panel "${panel.title}" ${target.refId}`,
    expr: target.expr ?? '',
  })),
);

const rules = parseYaml(read('prometheus/alerts.yml')) as RuleFile;
const allRules = (rules.groups ?? []).flatMap((group) => group.rules ?? []);
const alerts = new Map(allRules.filter((rule) => rule.alert).map((rule) => [rule.alert, rule]));
const ruleExprs = allRules.map((rule) => ({
  where: `rule ${rule.alert ?? rule.record}`,
  expr: String(rule.expr ?? ''),
}));

const REQUIRED_ALERTS = [
  'SentinelScanFailureRateHigh',
  'SentinelDeliveryFailures',
  'SentinelApiHigh5xxRatio',
  'SentinelWorkerDown',
  'SentinelWorkerAbsent',
  'SentinelApiDown',
  'SentinelApiAbsent',
];

/** Every series name the processes expose: Sentinel's, prom-client's defaults, Temporal's, and Prometheus's `up`. */
async function knownSeries(): Promise<{ series: Set<string>; histograms: Set<string> }> {
  const sentinel = (await registry.getMetricsAsJSON()).filter((metric) => SENTINEL_METRIC_NAMES.includes(metric.name));
  const defaults = new Registry();
  collectDefaultMetrics({ register: defaults });
  const metrics = [
    ...sentinel.map((metric) => ({ name: metric.name, type: String(metric.type) })),
    ...(await defaults.getMetricsAsJSON()).map((metric) => ({ name: metric.name, type: String(metric.type) })),
    ...Object.entries(TEMPORAL_METRICS).map(([name, type]) => ({ name, type })),
    { name: 'up', type: 'gauge' },
  ];
  const series = new Set<string>();
  const histograms = new Set<string>();
  for (const { name, type } of metrics) {
    if (type === 'histogram') {
      histograms.add(name);
      for (const suffix of ['_bucket', '_sum', '_count']) series.add(name + suffix);
    } else {
      series.add(name);
    }
  }
  expect(sentinel.map((metric) => metric.name).sort()).toEqual([...SENTINEL_METRIC_NAMES].sort());
  return { series, histograms };
}

describe('PromQL metric name extraction', () => {
  it('finds metric names and nothing else', () => {
    expect(
      metricNames(
        'histogram_quantile(0.95, sum by (le, route) (rate(foo_seconds_bucket{job="a",status=~"5..|4\\"x"}[$__rate_interval])))',
      ),
    ).toEqual(['foo_seconds_bucket']);
    expect(
      metricNames('sum without (instance) (a_total offset 1h30m) / on(job) group_left(version) b > bool 0.5e-3'),
    ).toEqual(['a_total', 'b']);
    expect(
      metricNames('absent(up{job="x"}) or sum(rate(c[5m:1m])) by (job) unless d{e=\'by (f)\'} and 1 - Inf'),
    ).toEqual(['up', 'c', 'd']);
    expect(metricNames('label_replace(g, "dst", "$1", "src", "(.*)") * ${factor} # h is a comment\n+ i')).toEqual([
      'g',
      'i',
    ]);
    expect(metricNames('topk(5, count by (reason) (j_total))')).toEqual(['j_total']);
  });

  it('rejects what it cannot read', () => {
    expect(() => metricNames('histogram_quantil(0.5, x_bucket)')).toThrow(/unknown function histogram_quantil/);
    expect(() => metricNames('{__name__=~"sentinel_.*"}')).toThrow(/__name__/);
    expect(() => metricNames('rate(x{job="a}[5m])')).toThrow(/unterminated|unbalanced/);
  });
});

describe('ops/grafana/sentinel.json', () => {
  it('is an importable dashboard with a Prometheus data source variable', () => {
    expect(dashboard.title).toBe('Sentinel');
    expect(dashboard.uid).toBeTruthy();
    expect(dashboard.schemaVersion).toBeGreaterThanOrEqual(36);
    expect(dashboard.templating?.list).toContainEqual(
      expect.objectContaining({
        name: 'DS_PROMETHEUS',
        type: 'datasource',
        query: 'prometheus',
      }),
    );
    expect(queryPanels.length).toBeGreaterThan(20);
  });

  it('gives every panel a unique id, a place on the grid and a Prometheus target', () => {
    const ids = allPanels.map((panel) => panel.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const panel of allPanels) {
      expect(panel.gridPos).toBeDefined();
      expect((panel.gridPos?.x ?? 0) + (panel.gridPos?.w ?? 0)).toBeLessThanOrEqual(24);
    }
    for (const panel of queryPanels) {
      const where = `panel "${panel.title}"`;
      expect({ where, datasource: panel.datasource }).toEqual({
        where,
        datasource: { type: 'prometheus', uid: '${DS_PROMETHEUS}' },
      });
      const targets = panel.targets ?? [];
      expect({ where, targets: targets.length > 0 }).toEqual({ where, targets: true });
      expect(new Set(targets.map((target) => target.refId)).size).toBe(targets.length);
      for (const target of targets) {
        expect({ where, type: target.datasource?.type, expr: Boolean(target.expr?.trim()) }).toEqual({
          where,
          type: 'prometheus',
          expr: true,
        });
      }
    }
  });

  it('shows every metric Sentinel defines, and whether both jobs are up', () => {
    const used = new Set(
      dashboardExprs.flatMap(({ expr }) => metricNames(expr)).map((name) => name.replace(/_(bucket|sum|count)$/, '')),
    );
    for (const name of [...SENTINEL_METRIC_NAMES, 'up'])
      expect({ name, shown: used.has(name) }).toEqual({ name, shown: true });
    const up = dashboardExprs
      .filter(({ expr }) => metricNames(expr).includes('up'))
      .map(({ expr }) => expr)
      .join(' ');
    for (const job of SCRAPE_JOBS) expect(up).toContain(job);
  });
});

describe('ops/prometheus/alerts.yml', () => {
  it('parses into groups of rules', () => {
    expect(Array.isArray(rules.groups)).toBe(true);
    for (const group of rules.groups ?? []) {
      expect(group.name).toBeTruthy();
      expect((group.rules ?? []).length).toBeGreaterThan(0);
    }
    const names = allRules.map((rule) => rule.alert);
    expect(new Set(names).size).toBe(names.length);
  });

  it('has the required alerts', () => {
    for (const name of REQUIRED_ALERTS) expect({ name, present: alerts.has(name) }).toEqual({ name, present: true });
    expect(alerts.get('SentinelWorkerDown')?.expr).toMatch(/up\{job="sentinel-worker"\}\s*==\s*0/);
    expect(alerts.get('SentinelWorkerAbsent')?.expr).toMatch(/absent\(up\{job="sentinel-worker"\}\)/);
    expect(alerts.get('SentinelApiDown')?.expr).toMatch(/up\{job="sentinel-api"\}\s*==\s*0/);
    expect(alerts.get('SentinelApiAbsent')?.expr).toMatch(/absent\(up\{job="sentinel-api"\}\)/);
  });

  it('gives every alert an expression, a duration, a severity, a summary, a description and the runbook', () => {
    for (const rule of allRules) {
      expect(rule).toEqual(
        expect.objectContaining({
          alert: expect.stringMatching(/^Sentinel[A-Za-z0-9]+$/),
          expr: expect.stringMatching(/\S/),
          for: expect.stringMatching(/^(\d+[smhd])+$/),
          labels: expect.objectContaining({ severity: expect.stringMatching(/^(critical|warning|info)$/) }),
          annotations: expect.objectContaining({
            summary: expect.stringMatching(/\S/),
            description: expect.stringMatching(/\S/),
            runbook: 'docs/operations.md#metrics',
          }),
        }),
      );
    }
  });
});

describe('ops/prometheus/prometheus.yml', () => {
  it('scrapes both jobs and loads alerts.yml', () => {
    const config = parseYaml(read('prometheus/prometheus.yml')) as {
      rule_files?: string[];
      scrape_configs?: { job_name?: string; static_configs?: { targets?: string[] }[] }[];
    };
    expect(config.rule_files).toContain('alerts.yml');
    expect((config.scrape_configs ?? []).map((scrape) => scrape.job_name).sort()).toEqual(SCRAPE_JOBS);
    const targets = (config.scrape_configs ?? []).flatMap((scrape) =>
      (scrape.static_configs ?? []).flatMap((s) => s.targets ?? []),
    );
    expect(targets).toEqual(expect.arrayContaining(['127.0.0.1:9464', '127.0.0.1:9465']));
  });
});

describe('metric names in ops/', () => {
  const expressions = [...dashboardExprs, ...ruleExprs];

  it('are all ones the API or the worker exposes', async () => {
    const { series, histograms } = await knownSeries();
    const unknown = expressions.flatMap(({ where, expr }) =>
      metricNames(expr)
        .filter((name) => !series.has(name))
        .map(
          (name) => `${where}: ${name}${histograms.has(name) ? ' (a histogram: query _bucket, _sum or _count)' : ''}`,
        ),
    );
    expect(unknown).toEqual([]);
    const selectNothing = expressions.filter(({ expr }) => metricNames(expr).length === 0).map(({ where }) => where);
    expect(selectNothing).toEqual([]);
  });

  it('select only the scrape jobs of prometheus.yml', () => {
    for (const { where, expr } of expressions) {
      for (const [, values] of expr.matchAll(/\bjob\s*=~?\s*"([^"]*)"/g)) {
        for (const job of (values ?? '').split('|'))
          expect({ where, job, known: SCRAPE_JOBS.includes(job) }).toEqual({ where, job, known: true });
      }
    }
  });
});
