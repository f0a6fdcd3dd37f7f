import { type Kysely, sql } from 'kysely';
import type { AttackPath, AttackPathKind } from '../../domain/attack-paths/types';
import type { Severity } from '../../domain/checks/types';
import type { Unread } from '../../domain/scans/inventory';
import type { Database } from '../database';
import { insertChunks } from '../statement-limits';
import type { AttackPathsTable } from '../tables/attack-paths';

type Conn = Kysely<Database>;

/** A path as the scan stores it: the row but for when it was first found, which the table keeps. */
export type AttackPathWrite = Omit<AttackPathsTable, 'first_found_at' | 'found_at' | 'nodes' | 'edges'> & {
  found_at: Date;
  nodes: unknown[];
  edges: unknown[];
};

/** The account's stored escalation paths as the analysis made them (few: one per principal and method at most). */
export async function escalationPathsOf({ db, accountId }: { db: Conn; accountId: string }): Promise<AttackPath[]> {
  const rows = await db
    .selectFrom('attack_paths')
    .select(['fingerprint', 'kind', 'rule', 'severity', 'certainty', 'title', 'summary', 'source', 'target', 'region'])
    .select(['nodes', 'edges'])
    .where('account_id', '=', accountId)
    .where('kind', '=', 'escalation')
    .execute();
  return rows.map(({ region, ...row }) => ({ ...row, ...(region ? { region } : {}) }));
}

/**
 * Stores a scan's analysis of an account: how it went, and its paths. A path found again keeps when it was first
 * found. `replace`: the analysis read everything it needs, so a path it did not find again is gone; otherwise
 * (partial) those stay, with the older scan that found them.
 */
export async function saveAttackPaths({
  db,
  analysis,
  paths,
  replace,
}: {
  db: Conn;
  analysis: {
    account_id: string;
    tenant_id: string;
    scan_id: string;
    status: 'complete' | 'partial' | 'not_evaluated';
    reason: string | null;
    unread: Unread[];
    analyzed_at: Date;
  };
  paths: AttackPathWrite[];
  replace: boolean;
}): Promise<void> {
  const row = { ...analysis, unread: JSON.stringify(analysis.unread) };
  await db
    .insertInto('attack_path_analyses')
    .values(row)
    .onConflict((oc) => oc.column('account_id').doUpdateSet(row))
    .execute();
  await upsertAttackPaths({ db, paths });
  if (replace)
    await db
      .deleteFrom('attack_paths')
      .where('account_id', '=', analysis.account_id)
      .where('scan_id', '<>', analysis.scan_id)
      .execute();
}

/**
 * Writes paths, a path found again keeping when it was first found: a scan's, and those found between full scans (an
 * event joining a stored escalation path: core/events/live-attack-paths.ts), whose `scan_id` is the event batch's
 * and which the next full scan that reads everything replaces with what it finds.
 */
export async function upsertAttackPaths({ db, paths }: { db: Conn; paths: readonly AttackPathWrite[] }): Promise<void> {
  const all = paths.map((p) => ({
    ...p,
    nodes: JSON.stringify(p.nodes),
    edges: JSON.stringify(p.edges),
    first_found_at: p.found_at,
  }));
  // A large account's exposures alone run into thousands of rows.
  for (const rows of insertChunks(all)) {
    await db
      .insertInto('attack_paths')
      .values(rows)
      .onConflict((oc) =>
        oc.columns(['account_id', 'fingerprint']).doUpdateSet((eb) => ({
          kind: eb.ref('excluded.kind'),
          rule: eb.ref('excluded.rule'),
          severity: eb.ref('excluded.severity'),
          rank: eb.ref('excluded.rank'),
          certainty: eb.ref('excluded.certainty'),
          title: eb.ref('excluded.title'),
          summary: eb.ref('excluded.summary'),
          source: eb.ref('excluded.source'),
          target: eb.ref('excluded.target'),
          region: eb.ref('excluded.region'),
          nodes: eb.ref('excluded.nodes'),
          edges: eb.ref('excluded.edges'),
          found_at: eb.ref('excluded.found_at'),
          scan_id: eb.ref('excluded.scan_id'),
        })),
      )
      .execute();
  }
}

/** How the account's latest analysis went; undefined before its first. */
export async function findAttackPathAnalysis({
  db,
  tenantId,
  accountId,
}: {
  db: Conn;
  tenantId: string;
  accountId: string;
}) {
  return db
    .selectFrom('attack_path_analyses')
    .select(['scan_id', 'status', 'reason', 'unread', 'analyzed_at'])
    .where('tenant_id', '=', tenantId)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
}

export interface AttackPathFilter {
  kind?: AttackPathKind;
  severity?: Severity;
  /** Only this account's (by our id). */
  accountId?: string;
  /** The keyset of the last row of the previous page. */
  after?: { rank: number; accountId: string; fingerprint: string };
  limit: number;
}

/** The tenant's paths, most severe first (toxic combinations first among equals), one page. */
export async function listAttackPaths({
  db,
  tenantId,
  filter,
}: {
  db: Conn;
  tenantId: string;
  filter: AttackPathFilter;
}) {
  let query = db
    .selectFrom('attack_paths')
    .innerJoin('accounts', 'accounts.id', 'attack_paths.account_id')
    .selectAll('attack_paths')
    .select('accounts.aws_account_id')
    .where('attack_paths.tenant_id', '=', tenantId)
    .where('accounts.tenant_id', '=', tenantId);
  if (filter.accountId) query = query.where('attack_paths.account_id', '=', filter.accountId);
  if (filter.kind) query = query.where('attack_paths.kind', '=', filter.kind);
  if (filter.severity) query = query.where('attack_paths.severity', '=', filter.severity);
  const after = filter.after;
  if (after)
    query = query.where((eb) =>
      eb(
        eb.refTuple('attack_paths.rank', 'attack_paths.account_id', 'attack_paths.fingerprint'),
        '>',
        eb.tuple(after.rank, after.accountId, after.fingerprint),
      ),
    );
  return query
    .orderBy('attack_paths.rank')
    .orderBy('attack_paths.account_id')
    .orderBy('attack_paths.fingerprint')
    .limit(filter.limit + 1)
    .execute();
}

/**
 * How far the tenant's connected accounts (or one) were analysed: how many latest analyses read everything, and the
 * accounts whose did not or that none has looked at yet (`status` null), those first, then the ones not evaluated,
 * then the partial ones, at most `limit` of them.
 */
export async function analysisCoverage({
  db,
  tenantId,
  accountId,
  limit,
}: {
  db: Conn;
  tenantId: string;
  accountId?: string;
  limit: number;
}) {
  let accounts = db
    .selectFrom('accounts')
    .leftJoin('attack_path_analyses as analysis', 'analysis.account_id', 'accounts.id')
    .where('accounts.tenant_id', '=', tenantId)
    .where('accounts.status', '<>', 'DISCONNECTED');
  if (accountId) accounts = accounts.where('accounts.id', '=', accountId);
  const notComplete = sql<boolean>`analysis.status is distinct from 'complete'`;
  const [counts, incomplete] = await Promise.all([
    accounts
      .select([
        sql<string>`count(*) filter (where analysis.status = 'complete')`.as('complete'),
        sql<string>`count(*) filter (where ${notComplete})`.as('incomplete'),
      ])
      .executeTakeFirstOrThrow(),
    accounts
      .select(['accounts.aws_account_id', 'analysis.status', 'analysis.reason'])
      .where(notComplete)
      .orderBy(sql`case analysis.status when 'not_evaluated' then 1 when 'partial' then 2 else 0 end`)
      .orderBy('accounts.aws_account_id')
      .limit(limit)
      .execute(),
  ]);
  return { complete: Number(counts.complete), incompleteCount: Number(counts.incomplete), incomplete };
}

/** The account's paths for its panic export and checklist: every one, most severe first. */
export async function allAttackPathsOf({ db, tenantId, accountId }: { db: Conn; tenantId: string; accountId: string }) {
  return db
    .selectFrom('attack_paths')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('account_id', '=', accountId)
    .orderBy('rank')
    .orderBy('fingerprint')
    .execute();
}
