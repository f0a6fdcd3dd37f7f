import { type CompiledQuery, Kysely, PostgresDialect, sql } from 'kysely';
import { Pool } from 'pg';
import type { Database } from '../../db/database';
import { type EventFilter, listEventPage } from '../../db/repositories/account-events';
import { listSignalPage, listTenantSignalPage, type SignalFilter } from '../../db/repositories/signals';
import { createTestDatabase, type TestDatabase } from '../helpers/database';

// The filters of the signal and event lists read what they match (db/migrations/20261208T000410_filter_indexes.ts):
// each list's query, as its repository writes it, is run under EXPLAIN ANALYZE on an account of 12,000 rows where
// five match, and the plan must read the table through an index and throw away next to nothing. Before the indexes,
// the keyset order's index walked the account's whole range, filtering out some 12,000 rows per page. Two accounts
// of 12,000 rows stay under ANALYZE's sample of 30,000: the statistics the planner reads are exact, run after run.

const ROWS = 12_000;
const RARE = 5;

let database: TestDatabase;
let pool: Pool;
/** A Kysely on the test database that keeps the last query it compiled. */
let logged: Kysely<Database>;
let last: CompiledQuery | undefined;

beforeAll(async () => {
  database = await createTestDatabase();
  const db = database.db;
  await db.insertInto('tenants').values({ id: 'ten_1', name: 'T' }).execute();
  await db
    .insertInto('accounts')
    .values(
      [1, 2].map((n) => ({
        id: `acc_${n}`,
        tenant_id: 'ten_1',
        aws_account_id: String(123456789010 + n),
        display_name: null,
        tags: [],
        role_name: 'R',
        external_id: `${'e'.repeat(32)}${n}`,
        workflow_id: `w${n}`,
      })),
    )
    .execute();
  // No autovacuum mid-test: the statistics are the ANALYZE's below.
  await sql`alter table signals set (autovacuum_enabled = false)`.execute(db);
  await sql`alter table account_events set (autovacuum_enabled = false)`.execute(db);
  // Every 2,400th row is rare: of its severity, scenario, check, open; of its source, name, detection.
  for (const account of ['acc_1', 'acc_2']) {
    await sql`insert into signals (id, tenant_id, account_id, check_id, fingerprint, scenario, severity, title,
        description, resource, detected_at, resolved_at)
      select ${account} || '_sig_' || lpad(g::text, 6, '0'), 'ten_1', ${account},
        case when g % 2400 = 0 then 'x.rare' else 'x.common' end, 'fp' || g,
        case when g % 2400 = 0 then 'billing' else 'iam' end, case when g % 2400 = 0 then 'LOW' else 'HIGH' end,
        't', 'd', 'r' || g, timestamptz '2026-11-01' + g * interval '1 second',
        case when g % 2400 = 0 then null else timestamptz '2026-12-01' end
      from generate_series(1, ${ROWS}) as g`.execute(db);
    await sql`insert into account_events (account_id, event_id, tenant_id, source, detail_type, event_name, region,
        event_time, detections, detail)
      select ${account}, 'ev' || g, 'ten_1', case when g % 2400 = 0 then 'aws.rare' else 'aws.iam' end, 'AWS API Call',
        case when g % 2400 = 0 then 'RareCall' else 'GetUser' end, 'us-east-1',
        timestamptz '2026-12-01' + g * interval '1 second',
        case when g % 2400 = 0 then array['event.rare'] when g % 3 = 0 then array['event.common'] else '{}' end, '{}'
      from generate_series(1, ${ROWS}) as g`.execute(db);
  }
  await sql`analyze signals`.execute(db);
  await sql`analyze account_events`.execute(db);
  pool = new Pool({ connectionString: database.url, max: 2 });
  logged = new Kysely<Database>({
    dialect: new PostgresDialect({ pool }),
    log: (event) => {
      if (event.level === 'query') last = event.query;
    },
  });
});
afterAll(async () => {
  await logged.destroy();
  await database.drop();
});

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  Plans?: PlanNode[];
}

/** The plan's nodes, flattened. */
const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];

/** Runs `query` through the repository, then its SQL under EXPLAIN ANALYZE: how it read `table`. */
async function readOf(table: string, query: () => Promise<unknown[]>) {
  const rows = await query();
  const compiled = last as CompiledQuery;
  const { rows: explained } = await pool.query<{ 'QUERY PLAN': { Plan: PlanNode }[] }>(
    `explain (analyze, format json) ${compiled.sql}`,
    compiled.parameters as unknown[],
  );
  const nodes = nodesOf((explained[0]?.['QUERY PLAN'][0] as { Plan: PlanNode }).Plan).filter(
    (n) => n['Relation Name'] === table || n['Index Name']?.startsWith(`${table}_`),
  );
  const discarded = nodes.reduce(
    (sum, n) =>
      sum + ((n['Rows Removed by Filter'] ?? 0) + (n['Rows Removed by Index Recheck'] ?? 0)) * n['Actual Loops'],
    0,
  );
  const scans = nodes.map((n) => `${n['Node Type']}${n['Index Name'] ? ` ${n['Index Name']}` : ''}`);
  return { rows: rows.length, seqScans: scans.filter((s) => s.startsWith('Seq Scan')), discarded, scans };
}

/** A read that listed `rows`, scanned the table through indexes only and threw fewer than `most` rows away. */
function expectListed(read: Awaited<ReturnType<typeof readOf>>, rows: number, most: number): void {
  expect({ ...read, few: read.discarded < most }).toEqual({
    rows,
    seqScans: [],
    discarded: expect.any(Number),
    few: true,
    scans: expect.any(Array),
  });
}

const signalFilter = (filter: Partial<SignalFilter>): SignalFilter => ({
  tenantId: 'ten_1',
  awsAccountId: '123456789011',
  status: 'all',
  limit: 51,
  ...filter,
});

describe("an account's signal list, filtered", () => {
  it.each([
    ['severity', { severity: 'LOW' as const }],
    ['scenario', { scenario: 'billing' as const }],
    ['check', { checkId: 'x.rare' }],
    ['status open', { status: 'open' as const }],
    ['status open and check', { status: 'open' as const, checkId: 'x.rare' }],
  ])('by %s reads the rows it lists through an index', async (_name, filter) => {
    const read = await readOf('signals', () =>
      listSignalPage({ db: logged, filter: signalFilter(filter), now: new Date(), mitre: {} }),
    );
    expectListed(read, RARE, RARE * 4);
  });

  it.each([
    ['severity', { severity: 'LOW' as const }],
    ['scenario', { scenario: 'billing' as const }],
    ['check', { checkId: 'x.rare' }],
    ['status open', { status: 'open' as const }],
  ])('of the whole tenant, by %s, reads the rows it lists through an index', async (_name, filter) => {
    const { awsAccountId: _, ...tenantWide } = signalFilter(filter);
    const read = await readOf('signals', () =>
      listTenantSignalPage({ db: logged, filter: tenantWide, now: new Date(), mitre: {} }),
    );
    expectListed(read, 2 * RARE, 2 * RARE * 4);
  });
});

describe("an account's event list, filtered", () => {
  const eventFilter = (filter: Partial<EventFilter>): EventFilter => ({ accountId: 'acc_1', limit: 51, ...filter });

  it.each([
    ['source', { source: 'aws.rare' }, RARE],
    ['event name', { eventName: 'RareCall' }, RARE],
    ['one detection', { detection: 'event.rare' }, RARE],
    ['any detection', { detection: 'any' }, 51],
  ])('by %s reads the rows it lists through an index', async (_name, filter, rows) => {
    const read = await readOf('account_events', () => listEventPage({ db: logged, filter: eventFilter(filter) }));
    expectListed(read, rows, RARE * 4);
  });

  it("by one detection lists only that account's events of it", async () => {
    const page = await listEventPage({ db: logged, filter: eventFilter({ detection: 'event.rare' }) });
    expect(page.map((e) => e.detections)).toEqual(Array(RARE).fill(['event.rare']));
    const other = await listEventPage({
      db: logged,
      filter: { accountId: 'acc_2', detection: 'event.rare', limit: 51 },
    });
    expect(other).toHaveLength(RARE);
    expect(await listEventPage({ db: logged, filter: eventFilter({ detection: 'event.none' }) })).toEqual([]);
  });
});
