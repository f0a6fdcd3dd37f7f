import { sql } from 'kysely';
import { signUpTenants } from './accounts';
import { measure, type ThroughputRow } from './api';
import type { BenchEnvironment } from './environment';

// The fleet reads of an Enterprise tenant at its plan's limit: 250 accounts and 100,000 signals (seeded in SQL, the
// way scans would have left them), read by GET /accounts (its one page of 250), GET /overview and GET /signals (the
// first page across every account), each under the same load as the API throughput part.

export interface FleetResult {
  accounts: number;
  signals: number;
  /** Of the signals: open and not accepted, as the overview counts them. */
  openSignals: number;
  seedSeconds: number;
  rows: ThroughputRow[];
}

const SCENARIOS = ['iam', 'exposure', 'detection', 'threat', 'billing', 'suspension', 'connectivity'];
const SEVERITIES = ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW'];

/**
 * Seeds the tenant's accounts, each with a scan, 30 days of score history and its share of the signals: detected
 * over 90 days (one in 40 within the last day), a third resolved an hour after their detection, or within the last day
 * (one in 120), one in 50 of the open ones accepted.
 */
async function seedFleet(
  env: BenchEnvironment,
  tenantId: string,
  awsAccountIds: string[],
  signals: number,
): Promise<void> {
  const { db } = env;
  await sql`
    insert into accounts (id, tenant_id, aws_account_id, display_name, tags, status, external_id, role_name, workflow_id, current_srs,
                          coverage_evaluated, coverage_total, score_complete, connected_at, last_scan_at, last_successful_scan_at, created_at)
    select 'acc_fleet' || lpad(g::text, 4, '0'), ${tenantId}, (${awsAccountIds}::text[])[g], 'Fleet account ' || g,
           case when g % 3 = 0 then array['prod'] else array['dev', 'eu'] end,
           case when g % 25 = 0 then 'DISCONNECTED' when g % 40 = 0 then 'PENDING' else 'ACTIVE' end,
           rpad('fleet-external-' || g, 40, 'x'), 'SentinelReadOnly', 'fleet-workflow-' || g, (g * 37) % 101,
           case when g % 10 = 0 then 50 else 67 end, 67, g % 10 <> 0, now() - interval '90 days', now() - interval '1 hour',
           now() - interval '1 hour', now() - interval '90 days' + make_interval(secs => g)
    from generate_series(1, ${awsAccountIds.length}) g`.execute(db);
  await sql`
    insert into scans (id, tenant_id, account_id, trigger, status, srs, failure_reason, started_at, finished_at)
    select 'scan_fleet' || lpad(g::text, 4, '0'), ${tenantId}, 'acc_fleet' || lpad(g::text, 4, '0'), 'scheduled',
           case when g % 20 = 0 then 'failed' else 'succeeded' end, (g * 37) % 101,
           case when g % 20 = 0 then 'The role could not be assumed' end, now() - interval '1 hour', now() - interval '55 minutes'
    from generate_series(1, ${awsAccountIds.length}) g`.execute(db);
  await sql`
    insert into score_history (account_id, day, srs, scan_id, recorded_at)
    select 'acc_fleet' || lpad(g::text, 4, '0'), (now() at time zone 'utc')::date - d, (g * 37 + d * 3) % 101,
           'scan_fleet' || lpad(g::text, 4, '0'), now()
    from generate_series(1, ${awsAccountIds.length}) g, generate_series(0, 29) d`.execute(db);
  await sql`
    insert into signals (id, tenant_id, account_id, check_id, fingerprint, scenario, severity, title, description, resource, region,
                         first_scan_id, detected_at, resolved_at)
    select 'sig_fleet' || lpad(g::text, 8, '0'), ${tenantId}, 'acc_fleet' || lpad((g % ${awsAccountIds.length} + 1)::text, 4, '0'),
           'iam.user_admin_access', 'fleet|' || g, (${SCENARIOS}::text[])[g % 7 + 1], (${SEVERITIES}::text[])[g % 4 + 1], 'Fleet signal',
           'Seeded for the benchmark', 'resource-' || g, 'global', 'scan_fleet' || lpad((g % ${awsAccountIds.length} + 1)::text, 4, '0'),
           case when g % 40 = 0 then now() - make_interval(secs => g % 86000) else now() - make_interval(secs => 86400 + g * 77) end,
           case when g % 120 = 0 then now() - make_interval(secs => g % 86000)
                when g % 3 = 0 then now() - make_interval(secs => 86400 + g * 77) + interval '1 hour' end
    from generate_series(1, ${signals}) g`.execute(db);
  await sql`
    insert into signal_acceptances (id, tenant_id, account_id, signal_id, accepted_by, accepted_by_email, reason, accepted_at)
    select 'acpt_' || s.id, s.tenant_id, s.account_id, s.id, null, 'risk@example.com', 'Seeded for the benchmark', now()
    from signals s where s.tenant_id = ${tenantId} and s.resolved_at is null and right(s.id, 3)::int % 50 = 0`.execute(
    db,
  );
  // As autovacuum leaves a table after a bulk insert: statistics, and the visibility map index-only scans read.
  await sql`vacuum analyze`.execute(db);
}

export async function benchFleet(
  env: BenchEnvironment,
  {
    seconds,
    poolMax,
    signals,
    apiNodeArgs,
  }: {
    seconds: number;
    poolMax: number;
    signals: number;
    apiNodeArgs?: string[];
  },
): Promise<FleetResult> {
  const services = await env.startServices({ taskQueue: 'bench-fleet', poolMax, apiNodeArgs });
  try {
    await services.worker.stop(); // nothing runs on the fleet's seeded rows: one process less on the cores
    const [tenant] = await signUpTenants({
      db: env.db,
      url: services.url,
      prefix: 'fleet',
      count: 250,
      firstId: 600_000_000_000,
    });
    if (!tenant) throw new Error('no fleet tenant');
    const started = Date.now();
    await seedFleet(env, tenant.tenantId, tenant.awsAccountIds, signals);
    const seedSeconds = (Date.now() - started) / 1000;
    const overview = (await (await fetch(`${services.url}/overview`, { headers: tenant.auth })).json()) as {
      open_signals: { total: number };
    };
    const api = { seconds, serverPid: services.api.pid, headers: tenant.auth };
    const rows = [
      await measure({ ...api, name: 'GET /accounts (250 accounts, one page)', url: `${services.url}/accounts` }),
      await measure({ ...api, name: 'GET /overview', url: `${services.url}/overview` }),
      await measure({ ...api, name: 'GET /signals (first page of 50, every account)', url: `${services.url}/signals` }),
    ];
    return {
      accounts: tenant.awsAccountIds.length,
      signals,
      openSignals: overview.open_signals.total,
      seedSeconds,
      rows,
    };
  } finally {
    await services.stop();
  }
}
