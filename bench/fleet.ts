import { sql } from 'kysely';
import { signUpTenants } from './accounts';
import { measure, type ThroughputRow } from './api';
import { type BenchEnvironment, tenantAuth } from './environment';

// The fleet reads of an Enterprise tenant at its plan's limit (250 accounts and 100,000 signals) and of an agency on a
// custom plan ten times that (2,500 accounts, 1,000,000 signals), seeded in SQL the way scans would have left them,
// read by GET /accounts (its first page), GET /overview and GET /signals (the first page across every account), each
// under the same load as the API throughput part. The first overview of each tenant is timed on its own: the API
// process keeps an overview until a change to it, so that first read is what the database costs.

export interface FleetTenantResult {
  accounts: number;
  signals: number;
  /** Of the signals: open and not accepted, as the overview counts them. */
  openSignals: number;
  seedSeconds: number;
  /** The first GET /overview after seeding, read from the database (ms). */
  firstOverviewMs: number;
  rows: ThroughputRow[];
}

export interface FleetResult {
  /** The Enterprise tenant at its limit, then the agency. */
  tenants: FleetTenantResult[];
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
  key: string,
): Promise<void> {
  const { db } = env;
  // Ids of the tenant's own (`key`), so that two tenants' seeds never meet.
  const account = (g: string) => sql.raw(`'acc_${key}' || lpad((${g})::text, 5, '0')`);
  const scan = (g: string) => sql.raw(`'scan_${key}' || lpad((${g})::text, 5, '0')`);
  await sql`
    insert into accounts (id, tenant_id, aws_account_id, display_name, tags, status, external_id, role_name, workflow_id, current_srs,
                          coverage_evaluated, coverage_total, score_complete, connected_at, last_scan_at, last_successful_scan_at, created_at)
    select ${account('g')}, ${tenantId}, (${awsAccountIds}::text[])[g], 'Fleet account ' || g,
           case when g % 3 = 0 then array['prod'] else array['dev', 'eu'] end,
           case when g % 25 = 0 then 'DISCONNECTED' when g % 40 = 0 then 'PENDING' else 'ACTIVE' end,
           rpad(${`${key}-external-`} || g, 40, 'x'), 'SentinelReadOnly', ${`${key}-workflow-`} || g, (g * 37) % 101,
           case when g % 10 = 0 then 50 else 67 end, 67, g % 10 <> 0, now() - interval '90 days', now() - interval '1 hour',
           now() - interval '1 hour', now() - interval '90 days' + make_interval(secs => g)
    from generate_series(1, ${awsAccountIds.length}) g`.execute(db);
  await sql`
    insert into scans (id, tenant_id, account_id, trigger, status, srs, failure_reason, started_at, finished_at)
    select ${scan('g')}, ${tenantId}, ${account('g')}, 'scheduled',
           case when g % 20 = 0 then 'failed' else 'succeeded' end, (g * 37) % 101,
           case when g % 20 = 0 then 'The role could not be assumed' end, now() - interval '1 hour', now() - interval '55 minutes'
    from generate_series(1, ${awsAccountIds.length}) g`.execute(db);
  await sql`
    insert into score_history (account_id, day, srs, scan_id, recorded_at)
    select ${account('g')}, (now() at time zone 'utc')::date - d, (g * 37 + d * 3) % 101,
           ${scan('g')}, now()
    from generate_series(1, ${awsAccountIds.length}) g, generate_series(0, 29) d`.execute(db);
  await sql`
    insert into signals (id, tenant_id, account_id, check_id, fingerprint, scenario, severity, title, description, resource, region,
                         first_scan_id, detected_at, resolved_at)
    select ${`sig_${key}`} || lpad(g::text, 8, '0'), ${tenantId}, ${account(`g % ${awsAccountIds.length} + 1`)},
           'iam.user_admin_access', 'fleet|' || g, (${SCENARIOS}::text[])[g % 7 + 1], (${SEVERITIES}::text[])[g % 4 + 1], 'Fleet signal',
           'Seeded for the benchmark', 'resource-' || g, 'global', ${scan(`g % ${awsAccountIds.length} + 1`)},
           case when g % 40 = 0 then now() - make_interval(secs => g % 86000) else now() - make_interval(secs => 86400 + g * 77 % 7700000) end,
           case when g % 120 = 0 then now() - make_interval(secs => g % 86000)
                when g % 3 = 0 then now() - make_interval(secs => 86400 + g * 77 % 7700000) + interval '1 hour' end
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

/** The agency's size: ten times the Enterprise plan's accounts, and as many signals per account. */
const AGENCY_FACTOR = 10;

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
    const [enterprise] = await signUpTenants({
      db: env.db,
      url: services.url,
      prefix: 'fleet',
      count: 250,
      firstId: 600_000_000_000,
    });
    // A custom plan: the plan's limit binds connecting through the API, not these seeded rows.
    const agencyAuth = await tenantAuth(services.url, 'fleet-agency@example.com');
    const agencyUser = await env.db
      .selectFrom('users')
      .select('tenant_id')
      .where('email', '=', 'fleet-agency@example.com')
      .executeTakeFirstOrThrow();
    const agency = {
      tenantId: agencyUser.tenant_id,
      auth: agencyAuth,
      awsAccountIds: Array.from({ length: 250 * AGENCY_FACTOR }, (_, i) => String(610_000_000_000 + i)),
    };
    if (!enterprise) throw new Error('no fleet tenant');
    const tenants: FleetTenantResult[] = [];
    for (const [tenant, key, tenantSignals, label, suffix] of [
      [enterprise, 'fleet', signals, '250 accounts, one page', ''],
      [agency, 'agency', signals * AGENCY_FACTOR, '2,500 accounts, first page', ', 2,500 accounts'],
    ] as const) {
      const started = Date.now();
      await seedFleet(env, tenant.tenantId, tenant.awsAccountIds, tenantSignals, key);
      const seedSeconds = (Date.now() - started) / 1000;
      const asked = performance.now();
      const overview = (await (await fetch(`${services.url}/overview`, { headers: tenant.auth })).json()) as {
        open_signals: { total: number };
      };
      const firstOverviewMs = performance.now() - asked;
      const api = { seconds, serverPid: services.api.pid, headers: tenant.auth };
      // The Enterprise tenant's rows keep their names of earlier runs, so that figures compare from run to run.
      const rows = [
        await measure({ ...api, name: `GET /accounts (${label})`, url: `${services.url}/accounts` }),
        await measure({ ...api, name: `GET /overview${suffix}`, url: `${services.url}/overview` }),
        await measure({
          ...api,
          name: `GET /signals (first page of 50, every account)${suffix}`,
          url: `${services.url}/signals`,
        }),
      ];
      tenants.push({
        accounts: tenant.awsAccountIds.length,
        signals: tenantSignals,
        openSignals: overview.open_signals.total,
        seedSeconds,
        firstOverviewMs,
        rows,
      });
    }
    return { tenants };
  } finally {
    await services.stop();
  }
}
