import { saveScanResult, type ScanResult } from '../../db/repositories/scan-results';
import type { Finding } from '../../domain/checks/evaluate';
import type { Severity } from '../../domain/checks/types';
import { createTestDatabase, type TestDatabase } from '../helpers/database';

// Saving scans: the finding lifecycle of DESIGN.md, the score, the daily history, and idempotency.
let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
  await database.db.insertInto('tenants').values({ id: 'ten_1', name: 'T' }).execute();
});
afterAll(() => database.drop());

let accounts = 0;
async function newAccount(): Promise<string> {
  accounts += 1;
  const id = `acc_${accounts}`;
  await database.db.insertInto('accounts').values({
    id, tenant_id: 'ten_1', aws_account_id: String(200000000000 + accounts), display_name: null, tags: [],
    external_id: `${'e'.repeat(32)}${accounts}`, role_name: 'SentinelReadOnly', workflow_id: `wf-${id}`, status: 'ACTIVE',
  }).execute();
  return id;
}

let scans = 0;
async function scan(accountId: string, at: string, findings: Finding[], extra: Partial<ScanResult> = {}) {
  scans += 1;
  const scanId = `scan_${String(scans).padStart(4, '0')}`;
  await database.db.insertInto('scans').values({
    id: scanId, tenant_id: 'ten_1', account_id: accountId, trigger: 'scheduled', status: 'running', started_at: new Date(at),
  }).execute();
  const result: ScanResult = { scanId, tenantId: 'ten_1', accountId, observedAt: new Date(at), findings, notEvaluatedCheckIds: [], ...extra };
  return { scanId, saved: await saveScanResult({ db: database.db, result }), result };
}

function finding(checkId: string, resource: string, severity: Severity = 'HIGH', region = 'global'): Finding {
  return {
    checkId, resource, region, severity, scenario: 'iam', title: checkId, description: `${checkId} on ${resource}`,
    fingerprint: `${checkId}|${resource}|${region}`,
  };
}

const signalsOf = (accountId: string) =>
  database.db.selectFrom('signals').selectAll().where('account_id', '=', accountId).orderBy('detected_at').orderBy('id').execute();

describe('saveScanResult', () => {
  it('opens signals, keeps them while seen, resolves them when gone and opens a new one when they return', async () => {
    const account = await newAccount();
    const a = finding('iam.user_no_mfa', 'alice');
    const b = finding('exposure.ssh_open', 'sg-1', 'HIGH', 'us-east-1');

    const first = await scan(account, '2026-11-01T00:00:00Z', [a, b]);
    expect(first.saved.newFingerprints.sort()).toEqual([a.fingerprint, b.fingerprint].sort());
    await scan(account, '2026-11-01T06:00:00Z', [a, b]);
    let rows = await signalsOf(account);
    expect(rows).toHaveLength(2);
    expect(rows.every((r) => r.detected_at.toISOString() === '2026-11-01T00:00:00.000Z')).toBe(true);

    const third = await scan(account, '2026-11-01T12:00:00Z', [a]);
    expect(third.saved.resolvedFingerprints).toEqual([b.fingerprint]);
    rows = await signalsOf(account);
    expect(rows.find((r) => r.fingerprint === b.fingerprint)?.resolved_at?.toISOString()).toBe('2026-11-01T12:00:00.000Z');

    await scan(account, '2026-11-01T18:00:00Z', [a, b]);
    rows = await signalsOf(account);
    const bSignals = rows.filter((r) => r.fingerprint === b.fingerprint);
    expect(bSignals).toHaveLength(2);
    expect(bSignals.filter((r) => r.resolved_at === null)).toHaveLength(1);
    expect(bSignals[1]!.detected_at.toISOString()).toBe('2026-11-01T18:00:00.000Z');
  });

  it('computes the SRS over open findings, one factor per check', async () => {
    const account = await newAccount();
    const { saved } = await scan(account, '2026-11-02T00:00:00Z', [
      finding('iam.root_mfa_disabled', 'root', 'CRITICAL'),
      finding('iam.user_no_mfa', 'alice', 'HIGH'),
      finding('iam.user_no_mfa', 'bob', 'HIGH'),
    ]);
    expect(saved.srs).toBe(Math.round(100 * 0.55 * 0.8));
    const row = await database.db.selectFrom('accounts').select(['current_srs', 'last_successful_scan_at']).where('id', '=', account).executeTakeFirstOrThrow();
    expect(row.current_srs).toBe(saved.srs);
    expect(row.last_successful_scan_at?.toISOString()).toBe('2026-11-02T00:00:00.000Z');
  });

  it('changes nothing when the same scan is saved twice', async () => {
    const account = await newAccount();
    const { result, saved } = await scan(account, '2026-11-03T00:00:00Z', [finding('iam.user_no_mfa', 'alice')]);
    const before = await signalsOf(account);
    const again = await saveScanResult({ db: database.db, result });
    expect(again.applied).toBe(false);
    expect(again.srs).toBe(saved.srs);
    expect(again.newFingerprints).toEqual(saved.newFingerprints);
    expect(await signalsOf(account)).toEqual(before);
  });

  it('keeps one score-history point per day: the day\'s last scan', async () => {
    const account = await newAccount();
    await scan(account, '2026-11-04T01:00:00Z', [finding('iam.root_mfa_disabled', 'root', 'CRITICAL')]);
    await scan(account, '2026-11-04T23:00:00Z', []);
    await scan(account, '2026-11-05T01:00:00Z', [finding('iam.user_no_mfa', 'alice', 'HIGH')]);
    const history = await database.db.selectFrom('score_history').select(['day', 'srs']).where('account_id', '=', account).orderBy('day').execute();
    expect(history).toEqual([{ day: '2026-11-04', srs: 100 }, { day: '2026-11-05', srs: 80 }]);
  });

  it('does not resolve signals of checks it could not evaluate', async () => {
    const account = await newAccount();
    const contact = finding('suspension.security_contact_missing', 'account');
    await scan(account, '2026-11-06T00:00:00Z', [contact]);
    const { saved } = await scan(account, '2026-11-06T06:00:00Z', [], { notEvaluatedCheckIds: ['suspension.security_contact_missing'] });
    expect(saved.resolvedFingerprints).toEqual([]);
    expect((await signalsOf(account))[0]!.resolved_at).toBeNull();
  });

  it('on a failed scan records only its findings, resolves nothing and keeps last_successful_scan_at', async () => {
    const account = await newAccount();
    await scan(account, '2026-11-07T00:00:00Z', [finding('iam.user_no_mfa', 'alice')]);
    const { saved, scanId } = await scan(account, '2026-11-07T06:00:00Z', [finding('connectivity.role_unassumable', 'SentinelReadOnly', 'CRITICAL')], {
      failureReason: 'The role was deleted',
    });
    expect(saved.resolvedFingerprints).toEqual([]);
    const scanRow = await database.db.selectFrom('scans').selectAll().where('id', '=', scanId).executeTakeFirstOrThrow();
    expect(scanRow).toMatchObject({ status: 'failed', failure_reason: 'The role was deleted' });
    const row = await database.db.selectFrom('accounts').select('last_successful_scan_at').where('id', '=', account).executeTakeFirstOrThrow();
    expect(row.last_successful_scan_at?.toISOString()).toBe('2026-11-07T00:00:00.000Z');
    expect((await signalsOf(account)).filter((s) => s.resolved_at === null)).toHaveLength(2);
  });
});
