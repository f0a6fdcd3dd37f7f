import type { Db } from '../../db/client';
import type { AccountStatus, ScanStatus } from '../../domain/accounts/status';
import type { Scenario, Severity } from '../../domain/checks/types';
import { SCENARIOS, SEVERITIES } from '../../domain/checks/types';

// Seeding a tenant's fleet straight into the database, for the suites that read it back through the API (GET
// /accounts pages, GET /signals, GET /overview): hundreds of accounts and thousands of signals in a few statements,
// with every value chosen by the suite so it can compute the answer on its own.

export interface SeedAccount {
  id: string;
  awsAccountId: string;
  displayName: string | null;
  tags: string[];
  status: AccountStatus;
  currentSrs: number | null;
  coverage: { evaluated: number; total: number } | null;
  scoreComplete: boolean | null;
  createdAt: Date;
}

export interface SeedScan {
  id: string;
  accountId: string;
  status: ScanStatus;
  startedAt: Date;
  finishedAt: Date | null;
  failureReason: string | null;
}

export interface SeedSignal {
  id: string;
  accountId: string;
  severity: Severity;
  scenario: Scenario;
  checkId: string;
  detectedAt: Date;
  resolvedAt: Date | null;
}

export interface SeedAcceptance {
  id: string;
  signalId: string;
  accountId: string;
  expiresAt: Date | null;
  revokedAt: Date | null;
}

export interface SeedScorePoint {
  accountId: string;
  day: string;
  srs: number;
  scanId: string;
  /** Whether the point's score read every core source; null (the default) when not known. */
  complete?: boolean | null;
}

/** A deterministic pseudo-random generator (mulberry32): the same seed gives the same fleet on every run. */
export function random(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: readonly T[]) => items[Math.floor(next() * items.length)] as T,
    chance: (p: number) => next() < p,
  };
}

export const randomSeverity = (r: ReturnType<typeof random>) => r.pick(SEVERITIES);
export const randomScenario = (r: ReturnType<typeof random>) => r.pick(SCENARIOS);

async function inBatches<T>(rows: T[], insert: (batch: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < rows.length; i += 500) await insert(rows.slice(i, i + 500));
}

/** Inserts the tenant's accounts, scans, signals, acceptances and score history as given. */
export async function seedFleet(
  db: Db,
  tenantId: string,
  fleet: {
    accounts: SeedAccount[];
    scans?: SeedScan[];
    signals?: SeedSignal[];
    acceptances?: SeedAcceptance[];
    history?: SeedScorePoint[];
  },
): Promise<void> {
  await inBatches(fleet.accounts, (batch) =>
    db
      .insertInto('accounts')
      .values(
        batch.map((a) => ({
          id: a.id,
          tenant_id: tenantId,
          aws_account_id: a.awsAccountId,
          display_name: a.displayName,
          tags: a.tags,
          status: a.status,
          external_id: `ext-${a.id}`.padEnd(40, 'x'),
          role_name: 'SentinelReadOnly',
          workflow_id: `wf-${a.id}`,
          current_srs: a.currentSrs,
          coverage_evaluated: a.coverage?.evaluated ?? null,
          coverage_total: a.coverage?.total ?? null,
          score_complete: a.scoreComplete,
          created_at: a.createdAt,
        })),
      )
      .execute(),
  );
  await inBatches(fleet.scans ?? [], (batch) =>
    db
      .insertInto('scans')
      .values(
        batch.map((s) => ({
          id: s.id,
          tenant_id: tenantId,
          account_id: s.accountId,
          trigger: 'scheduled' as const,
          status: s.status,
          started_at: s.startedAt,
          finished_at: s.finishedAt,
          failure_reason: s.failureReason,
        })),
      )
      .execute(),
  );
  await inBatches(fleet.signals ?? [], (batch) =>
    db
      .insertInto('signals')
      .values(
        batch.map((s) => ({
          id: s.id,
          tenant_id: tenantId,
          account_id: s.accountId,
          check_id: s.checkId,
          fingerprint: `${s.checkId}|${s.id}|global`,
          scenario: s.scenario,
          severity: s.severity,
          title: `Title of ${s.id}`,
          description: 'Seeded',
          resource: `resource-${s.id}`,
          region: 'global',
          first_scan_id: null,
          detected_at: s.detectedAt,
          resolved_at: s.resolvedAt,
        })),
      )
      .execute(),
  );
  await inBatches(fleet.acceptances ?? [], (batch) =>
    db
      .insertInto('signal_acceptances')
      .values(
        batch.map((a) => ({
          id: a.id,
          tenant_id: tenantId,
          account_id: a.accountId,
          signal_id: a.signalId,
          accepted_by: null,
          accepted_by_email: 'risk@example.com',
          reason: 'Seeded acceptance',
          accepted_at: new Date(Date.now() - 86_400_000 * 3),
          expires_at: a.expiresAt,
          revoked_at: a.revokedAt,
        })),
      )
      .execute(),
  );
  await inBatches(fleet.history ?? [], (batch) =>
    db
      .insertInto('score_history')
      .values(
        batch.map((p) => ({
          account_id: p.accountId,
          day: p.day,
          srs: p.srs,
          complete: p.complete ?? null,
          scan_id: p.scanId,
          recorded_at: new Date(),
        })),
      )
      .execute(),
  );
}
