import { findAccount } from '../../db/repositories/accounts';
import {
  type AttackPathFilter,
  analysisCoverage,
  findAttackPathAnalysis,
  listAttackPaths,
} from '../../db/repositories/attack-paths';
import type { AttackPathRow } from '../../db/tables/attack-paths';
import type { Unread } from '../../domain/scans/inventory';
import { requireAccount } from '../accounts/require-account';
import type { AppDeps, Caller } from '../deps';
import { AppError } from '../errors';
import type { z } from 'zod';
import {
  INCOMPLETE_ANALYSES_SHOWN,
  type listAttackPathsQuery,
  type searchAttackPathsQuery,
} from '../schemas/attack-paths';

// The attack paths the scans found (domain/attack-paths/): an account's with how its latest analysis went, and the
// tenant's across accounts, most severe first (toxic combinations first among equals), in keyset pages.

type Query = z.output<typeof listAttackPathsQuery>;
type Keyset = NonNullable<AttackPathFilter['after']>;

const ACCOUNT_ID = /^acc_[0-9A-Za-z_]{1,40}$/;

function encodeCursor(row: Pick<AttackPathRow, 'rank' | 'account_id' | 'fingerprint'>): string {
  return Buffer.from(JSON.stringify([row.rank, row.account_id, row.fingerprint])).toString('base64url');
}

function decodeCursor(token: string | undefined): Keyset | undefined {
  if (token === undefined) return undefined;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
    if (Array.isArray(parsed) && parsed.length === 3) {
      const [rank, accountId, fingerprint] = parsed as unknown[];
      if (
        Number.isInteger(rank) &&
        (rank as number) >= 0 &&
        (rank as number) < 100 &&
        typeof accountId === 'string' &&
        ACCOUNT_ID.test(accountId) &&
        typeof fingerprint === 'string' &&
        fingerprint.length > 0 &&
        fingerprint.length <= 2048
      )
        return { rank: rank as number, accountId, fingerprint };
    }
  } catch {
    // falls through to the 400 below
  }
  throw new AppError('invalid_cursor', 'next_token is not a valid cursor: pass the value from the previous response');
}

const pathOutput = (row: AttackPathRow & { aws_account_id: string }) => ({
  path_id: row.fingerprint,
  aws_account_id: row.aws_account_id,
  kind: row.kind,
  rule: row.rule,
  severity: row.severity,
  certainty: row.certainty,
  title: row.title,
  summary: row.summary,
  source: row.source,
  target: row.target,
  region: row.region,
  nodes: row.nodes,
  edges: row.edges,
  first_found_at: row.first_found_at.toISOString(),
  found_at: row.found_at.toISOString(),
});

async function page(deps: Pick<AppDeps, 'db'>, caller: Caller, query: Query, accountId?: string) {
  const rows = await listAttackPaths({
    db: deps.db,
    tenantId: caller.tenantId,
    filter: {
      kind: query.kind,
      severity: query.severity,
      accountId,
      after: decodeCursor(query.next_token),
      limit: query.limit,
    },
  });
  const shown = rows.slice(0, query.limit);
  const last = shown[shown.length - 1];
  return {
    paths: shown.map(pathOutput),
    count: shown.length,
    next_token: rows.length > query.limit && last ? encodeCursor(last) : null,
  };
}

/** The account's paths, one page, with how its latest analysis went. */
export async function listAccountAttackPaths(
  deps: Pick<AppDeps, 'db'>,
  caller: Caller,
  awsAccountId: string,
  query: Query,
) {
  const account = await requireAccount(deps.db, caller, awsAccountId);
  const [analysis, paths] = await Promise.all([
    findAttackPathAnalysis({ db: deps.db, tenantId: caller.tenantId, accountId: account.id }),
    page(deps, caller, query, account.id),
  ]);
  return {
    analysis: analysis
      ? {
          status: analysis.status,
          reason: analysis.reason,
          scan_id: analysis.scan_id,
          analyzed_at: analysis.analyzed_at.toISOString(),
          unread: (analysis.unread as Unread[]).map(({ scope, reason }) => ({ scope, reason })),
        }
      : { status: 'not_scanned' as const, reason: null, scan_id: null, analyzed_at: null, unread: [] },
    ...paths,
  };
}

/** How far the accounts in scope were analysed, beside their paths: an empty list is no all-clear on its own. */
async function analysesOf(deps: Pick<AppDeps, 'db'>, caller: Caller, accountId?: string) {
  const coverage = await analysisCoverage({
    db: deps.db,
    tenantId: caller.tenantId,
    accountId,
    limit: INCOMPLETE_ANALYSES_SHOWN,
  });
  return {
    complete: coverage.complete,
    incomplete_count: coverage.incompleteCount,
    incomplete: coverage.incomplete.map((a) => ({
      aws_account_id: a.aws_account_id,
      status: a.status === 'partial' || a.status === 'not_evaluated' ? a.status : ('not_scanned' as const),
      reason: a.reason,
    })),
  };
}

/** The tenant's paths across its accounts (or one, by `aws_account_id`: one that matches none is an empty page). */
export async function searchTenantAttackPaths(
  deps: Pick<AppDeps, 'db'>,
  caller: Caller,
  query: z.output<typeof searchAttackPathsQuery>,
) {
  if (query.aws_account_id === undefined) {
    const [analyses, paths] = await Promise.all([analysesOf(deps, caller), page(deps, caller, query)]);
    return { analyses, ...paths };
  }
  const account = await findAccount({ db: deps.db, tenantId: caller.tenantId, awsAccountId: query.aws_account_id });
  if (!account)
    return { analyses: { complete: 0, incomplete_count: 0, incomplete: [] }, paths: [], count: 0, next_token: null };
  const [analyses, paths] = await Promise.all([
    analysesOf(deps, caller, account.id),
    page(deps, caller, query, account.id),
  ]);
  return { analyses, ...paths };
}
