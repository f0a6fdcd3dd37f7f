import { computeSrs } from '../../domain/scoring/srs';
import { fireAlertRules } from '../../core/alerts/fire-alert-rules';
import { DISCONNECTED_MID_SCAN, saveScanResult, type ScanResult } from '../../core/scans/save-scan';
import { CATALOG } from '../../domain/checks/catalog';
import type { CheckOutcome, Evaluation, Finding } from '../../domain/checks/evaluate';
import type { Severity } from '../../domain/checks/types';
import type { Unread } from '../../domain/scans/inventory';
import { fullScoreHistory } from '../../db/repositories/score-history';
import { createTestDatabase, type TestDatabase } from '../helpers/database';

// Saving scans: the finding lifecycle of domain/signals/lifecycle.ts, the score, the daily history, and idempotency.
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
  await database.db
    .insertInto('accounts')
    .values({
      id,
      tenant_id: 'ten_1',
      aws_account_id: String(200000000000 + accounts),
      display_name: null,
      tags: [],
      external_id: `${'e'.repeat(32)}${accounts}`,
      role_name: 'SentinelReadOnly',
      workflow_id: `wf-${id}`,
      status: 'ACTIVE',
    })
    .execute();
  return id;
}

interface Coverage {
  /** Checks the scan could not evaluate at all. */
  notEvaluated?: string[];
  /** What checks could not read. */
  unread?: Record<string, Unread[]>;
  /** False: too little was read to score. */
  scored?: boolean;
}

/** An evaluation with the given findings; every catalog check (and any check a finding names) passed or failed. */
function evaluation(findings: Finding[], { notEvaluated = [], unread = {}, scored = true }: Coverage = {}): Evaluation {
  const ids = [...new Set([...CATALOG.map((c) => c.id), ...findings.map((f) => f.checkId), ...notEvaluated])];
  const outcomes = ids.map((checkId): CheckOutcome => {
    if (notEvaluated.includes(checkId))
      return { checkId, status: 'not_evaluated', failingResources: 0, reason: 'denied', unread: [] };
    const failing = findings.filter((f) => f.checkId === checkId).length;
    return {
      checkId,
      status: failing > 0 ? 'failed' : 'passed',
      failingResources: failing,
      reason: null,
      unread: unread[checkId] ?? [],
    };
  });
  const evaluated = outcomes.filter((o) => o.status !== 'not_evaluated').length;
  return { findings, outcomes, coverage: { evaluated, total: outcomes.length }, scored };
}

let scans = 0;
async function scan(
  accountId: string,
  at: string,
  findings: Finding[],
  extra: Partial<ScanResult> & { coverage?: Coverage } = {},
) {
  scans += 1;
  const scanId = `scan_${String(scans).padStart(4, '0')}`;
  await database.db
    .insertInto('scans')
    .values({
      id: scanId,
      tenant_id: 'ten_1',
      account_id: accountId,
      trigger: 'scheduled',
      status: 'running',
      started_at: new Date(at),
    })
    .execute();
  const { coverage, ...rest } = extra;
  const result: ScanResult = {
    scanId,
    tenantId: 'ten_1',
    accountId,
    observedAt: new Date(at),
    evaluation: evaluation(findings, coverage),
    ...rest,
  };
  return { scanId, saved: await saveScanResult({ db: database.db, result }), result };
}

function finding(
  checkId: string,
  resource: string,
  severity: Severity = 'HIGH',
  region = 'global',
  owner: string | null = null,
): Finding {
  return {
    checkId,
    resource,
    region,
    owner,
    severity,
    scenario: 'iam',
    title: checkId,
    description: `${checkId} on ${resource}`,
    fingerprint: `${checkId}|${resource}|${region}`,
  };
}

const signalsOf = (accountId: string) =>
  database.db
    .selectFrom('signals')
    .selectAll()
    .where('account_id', '=', accountId)
    .orderBy('detected_at')
    .orderBy('id')
    .execute();

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
    expect(rows.find((r) => r.fingerprint === b.fingerprint)?.resolved_at?.toISOString()).toBe(
      '2026-11-01T12:00:00.000Z',
    );

    await scan(account, '2026-11-01T18:00:00Z', [a, b]);
    rows = await signalsOf(account);
    const bSignals = rows.filter((r) => r.fingerprint === b.fingerprint);
    expect(bSignals).toHaveLength(2);
    expect(bSignals.filter((r) => r.resolved_at === null)).toHaveLength(1);
    expect(bSignals[1]!.detected_at.toISOString()).toBe('2026-11-01T18:00:00.000Z');
  });

  it('computes the SRS over open findings, one factor per check, weighed by its failing resources', async () => {
    const account = await newAccount();
    const { saved } = await scan(account, '2026-11-02T00:00:00Z', [
      finding('iam.root_mfa_disabled', 'root', 'CRITICAL'),
      finding('iam.user_no_mfa', 'alice', 'HIGH'),
      finding('iam.user_no_mfa', 'bob', 'HIGH'),
    ]);
    // Two users without MFA: HIGH's factor raised to 1 + log10(2) / 2 (domain/scoring/srs.ts): 42.6, where one
    // factor per check regardless of resources gave 44.
    expect(saved.srs).toBe(Math.round(100 * 0.55 * 0.8 ** (1 + Math.log10(2) / 2)));
    expect(saved.srs).toBe(43);
    const row = await database.db
      .selectFrom('accounts')
      .select(['current_srs', 'last_successful_scan_at'])
      .where('id', '=', account)
      .executeTakeFirstOrThrow();
    expect(row.current_srs).toBe(saved.srs);
    expect(row.last_successful_scan_at?.toISOString()).toBe('2026-11-02T00:00:00.000Z');
  });

  it("opens and resolves more findings at once than one statement's 65,535 parameters would hold", async () => {
    // A large account's first scan: 10,000 buckets failing one check, beyond what one insert of all of them could
    // bind (PostgreSQL counts a statement's parameters in 16 bits).
    const account = await newAccount();
    const many = Array.from({ length: 10_000 }, (_, i) => finding('exposure.s3_bucket_allows_http', `bucket-${i}`));
    const first = await scan(account, '2026-11-02T00:00:00Z', many);
    expect(first.saved.newFingerprints).toHaveLength(many.length);
    expect(await signalsOf(account)).toHaveLength(many.length);
    // All fixed by the next scan: every one of them resolved in the same save.
    await scan(account, '2026-11-02T06:00:00Z', []);
    const open = await database.db
      .selectFrom('signals')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('account_id', '=', account)
      .where('resolved_at', 'is', null)
      .executeTakeFirstOrThrow();
    expect(Number(open.n)).toBe(0);
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

  it('saves nothing and fires nothing for a scan that finishes after its account was disconnected', async () => {
    const account = await newAccount();
    const { saved: first } = await scan(account, '2026-11-04T00:00:00Z', [finding('iam.user_no_mfa', 'alice')]);
    await database.db
      .insertInto('alert_rules')
      .values({
        id: `rule_${account}`,
        tenant_id: 'ten_1',
        name: 'Any',
        min_srs: 100,
        channels: JSON.stringify([{ type: 'email', to: ['x@example.com'] }]),
        updated_at: new Date(),
      })
      .execute();
    const before = await signalsOf(account);
    await database.db.updateTable('accounts').set({ status: 'DISCONNECTED' }).where('id', '=', account).execute();

    const { scanId, saved } = await scan(account, '2026-11-05T00:00:00Z', [
      finding('iam.root_mfa_disabled', 'root', 'CRITICAL'),
    ]);
    expect(saved).toEqual({
      srs: null,
      newFingerprints: [],
      resolvedFingerprints: [],
      applied: false,
      discarded: DISCONNECTED_MID_SCAN,
    });
    expect(await signalsOf(account)).toEqual(before);
    const row = await database.db
      .selectFrom('scans')
      .select(['status', 'failure_reason'])
      .where('id', '=', scanId)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'failed', failure_reason: DISCONNECTED_MID_SCAN });
    const accountRow = await database.db
      .selectFrom('accounts')
      .select('current_srs')
      .where('id', '=', account)
      .executeTakeFirstOrThrow();
    expect(accountRow.current_srs).toBe(first.srs);
    expect(
      await fireAlertRules({
        db: database.db,
        tenantId: 'ten_1',
        accountId: account,
        source: { kind: 'scan', id: scanId },
      }),
    ).toEqual([]);
    const alerts = await database.db
      .selectFrom('alert_events')
      .select('id')
      .where('account_id', '=', account)
      .execute();
    expect(alerts).toEqual([]);
  });

  it("keeps one score-history point per day: the day's last scan", async () => {
    const account = await newAccount();
    await scan(account, '2026-11-04T01:00:00Z', [finding('iam.root_mfa_disabled', 'root', 'CRITICAL')]);
    await scan(account, '2026-11-04T23:00:00Z', []);
    await scan(account, '2026-11-05T01:00:00Z', [finding('iam.user_no_mfa', 'alice', 'HIGH')]);
    const history = await database.db
      .selectFrom('score_history')
      .select(['day', 'srs'])
      .where('account_id', '=', account)
      .orderBy('day')
      .execute();
    expect(history).toEqual([
      { day: '2026-11-04', srs: 100 },
      { day: '2026-11-05', srs: 80 },
    ]);
  });

  it('keeps with each score-history point whether its score read every core source', async () => {
    const account = await newAccount();
    // AWS Health needs Business support: an optional source, the score is complete without it.
    await scan(account, '2026-11-12T00:00:00Z', [], {
      coverage: { notEvaluated: ['suspension.health_abuse_event', 'suspension.health_credentials_exposed'] },
    });
    // An SCP denies a region of EC2, a core source: incomplete.
    await scan(account, '2026-11-13T00:00:00Z', [], {
      coverage: { unread: { 'exposure.sg_ssh_open': [{ kind: 'region', scope: 'ap-south-1', reason: 'SCP' }] } },
    });
    // A targeted rescan stands on the coverage of the last full scan, and so does its completeness.
    await scan(account, '2026-11-14T00:00:00Z', [], {
      targeted: true,
      coverage: { notEvaluated: CATALOG.map((c) => c.id).filter((id) => !id.startsWith('exposure.sg_')) },
    });
    // A full scan that reads everything again: complete.
    await scan(account, '2026-11-15T00:00:00Z', [finding('iam.root_mfa_disabled', 'root', 'CRITICAL')]);
    const history = await fullScoreHistory({ db: database.db, tenantId: 'ten_1', accountId: account });
    expect(history.map(({ day, srs, complete }) => ({ day, srs, complete }))).toEqual([
      { day: '2026-11-15', srs: 55, complete: true },
      { day: '2026-11-14', srs: 100, complete: false },
      { day: '2026-11-13', srs: 100, complete: false },
      { day: '2026-11-12', srs: 100, complete: true },
    ]);
    const row = await database.db
      .selectFrom('accounts')
      .select('score_complete')
      .where('id', '=', account)
      .executeTakeFirstOrThrow();
    expect(row.score_complete).toBe(true);
  });

  it('fires alerts that keep whether the score they fired on read every core source', async () => {
    const account = await newAccount();
    const ruleId = `rule_complete_${account}`;
    await database.db
      .insertInto('alert_rules')
      .values({
        id: ruleId,
        tenant_id: 'ten_1',
        name: 'Below 60',
        min_srs: 60,
        channels: JSON.stringify([{ type: 'email', to: ['x@example.com'] }]),
        updated_at: new Date(),
      })
      .execute();
    const scanAndFire = async (at: string, findings: Finding[], coverage?: Coverage) => {
      const { scanId } = await scan(account, at, findings, { coverage });
      await fireAlertRules({
        db: database.db,
        tenantId: 'ten_1',
        accountId: account,
        source: { kind: 'scan', id: scanId },
      });
    };
    const rootMfa = finding('iam.root_mfa_disabled', 'root', 'CRITICAL');
    // 55 crosses below 60 on a score that could not read a region of EC2 (core): incomplete.
    await scanAndFire('2026-11-16T00:00:00Z', [rootMfa], {
      unread: { 'exposure.sg_ssh_open': [{ kind: 'region', scope: 'ap-south-1', reason: 'SCP' }] },
    });
    // Fixed (100), then back below on a score without AWS Health only (optional): complete.
    await scanAndFire('2026-11-16T06:00:00Z', []);
    await scanAndFire('2026-11-16T12:00:00Z', [rootMfa], {
      notEvaluated: ['suspension.health_abuse_event', 'suspension.health_credentials_exposed'],
    });
    await database.db.updateTable('alert_rules').set({ enabled: false }).where('id', '=', ruleId).execute();
    const alerts = await database.db
      .selectFrom('alert_events')
      .select(['srs_at_trigger', 'srs_complete'])
      .where('rule_id', '=', ruleId)
      .orderBy('scan_id')
      .execute();
    expect(alerts).toEqual([
      { srs_at_trigger: 55, srs_complete: false },
      { srs_at_trigger: 55, srs_complete: true },
    ]);
  });

  it('does not resolve signals of checks it could not evaluate', async () => {
    const account = await newAccount();
    const contact = finding('suspension.security_contact_missing', 'account');
    await scan(account, '2026-11-06T00:00:00Z', [contact]);
    const { saved } = await scan(account, '2026-11-06T06:00:00Z', [], {
      coverage: { notEvaluated: ['suspension.security_contact_missing'] },
    });
    expect(saved.resolvedFingerprints).toEqual([]);
    expect((await signalsOf(account))[0]!.resolved_at).toBeNull();
  });

  it('on a failed scan records only its findings, resolves nothing and keeps last_successful_scan_at', async () => {
    const account = await newAccount();
    await scan(account, '2026-11-07T00:00:00Z', [finding('iam.user_no_mfa', 'alice')]);
    const { saved, scanId } = await scan(
      account,
      '2026-11-07T06:00:00Z',
      [finding('connectivity.role_unassumable', 'SentinelReadOnly', 'CRITICAL')],
      {
        failureReason: 'The role was deleted',
      },
    );
    expect(saved.resolvedFingerprints).toEqual([]);
    const scanRow = await database.db
      .selectFrom('scans')
      .selectAll()
      .where('id', '=', scanId)
      .executeTakeFirstOrThrow();
    expect(scanRow).toMatchObject({ status: 'failed', failure_reason: 'The role was deleted' });
    const row = await database.db
      .selectFrom('accounts')
      .select('last_successful_scan_at')
      .where('id', '=', account)
      .executeTakeFirstOrThrow();
    expect(row.last_successful_scan_at?.toISOString()).toBe('2026-11-07T00:00:00.000Z');
    expect((await signalsOf(account)).filter((s) => s.resolved_at === null)).toHaveLength(2);
  });

  it('keeps open the signals in a region, resource or owner the scan could not read, and resolves the rest', async () => {
    const account = await newAccount();
    const inDeniedRegion = finding('exposure.sg_ssh_open', 'sg-1', 'HIGH', 'eu-west-3');
    const elsewhere = finding('exposure.sg_ssh_open', 'sg-2', 'HIGH', 'us-east-1');
    const deniedBucket = finding('exposure.s3_bucket_public', 'logs', 'CRITICAL', 'us-east-1');
    const keyOfUnreadUser = finding(
      'iam.access_key_not_rotated',
      'AKIA1',
      'MEDIUM',
      'global',
      'arn:aws:iam::1:user/bob',
    );
    await scan(account, '2026-11-08T00:00:00Z', [inDeniedRegion, elsewhere, deniedBucket, keyOfUnreadUser]);

    const { saved } = await scan(account, '2026-11-08T06:00:00Z', [], {
      coverage: {
        unread: {
          'exposure.sg_ssh_open': [{ kind: 'region', scope: 'eu-west-3', reason: 'SCP' }],
          'exposure.s3_bucket_public': [{ kind: 'resource', scope: 'logs', reason: 'bucket policy' }],
          'iam.access_key_not_rotated': [{ kind: 'resource', scope: 'arn:aws:iam::1:user/bob', reason: 'throttled' }],
        },
      },
    });
    expect(saved.resolvedFingerprints).toEqual([elsewhere.fingerprint]);
    const open = (await signalsOf(account))
      .filter((s) => s.resolved_at === null)
      .map((s) => s.fingerprint)
      .sort();
    expect(open).toEqual([inDeniedRegion.fingerprint, deniedBucket.fingerprint, keyOfUnreadUser.fingerprint].sort());
    expect((await signalsOf(account)).find((s) => s.fingerprint === keyOfUnreadUser.fingerprint)?.owner).toBe(
      'arn:aws:iam::1:user/bob',
    );
  });

  it('records no score for a scan that read too little: the last score stands, no history point, coverage kept', async () => {
    const account = await newAccount();
    await scan(account, '2026-11-09T00:00:00Z', [finding('iam.user_no_mfa', 'alice')]);
    const lost = finding('connectivity.coverage_lost', 'scan-coverage', 'HIGH');
    const { saved, scanId } = await scan(account, '2026-11-09T06:00:00Z', [lost], {
      coverage: {
        notEvaluated: [...CATALOG.map((c) => c.id), 'iam.user_no_mfa'].filter((id) => !id.startsWith('connectivity.')),
        scored: false,
      },
    });
    expect(saved.srs).toBeNull();
    expect(saved.resolvedFingerprints).toEqual([]);
    const accountRow = await database.db
      .selectFrom('accounts')
      .selectAll()
      .where('id', '=', account)
      .executeTakeFirstOrThrow();
    expect(accountRow).toMatchObject({
      current_srs: 80,
      last_successful_scan_at: new Date('2026-11-09T00:00:00Z'),
      checks_scan_id: scanId,
      coverage_evaluated: 2,
      coverage_total: CATALOG.length + 1,
      score_complete: false, // the catalogue and the test's own iam.user_no_mfa
    });
    const scanRow = await database.db
      .selectFrom('scans')
      .selectAll()
      .where('id', '=', scanId)
      .executeTakeFirstOrThrow();
    expect(scanRow).toMatchObject({ status: 'failed', srs: null });
    expect(scanRow.failure_reason).toContain(`only 2 of ${CATALOG.length + 1} checks`);
    expect(scanRow.checks).toHaveLength(CATALOG.length + 1);
    const history = await database.db
      .selectFrom('score_history')
      .selectAll()
      .where('account_id', '=', account)
      .execute();
    expect(history.map((h) => h.scan_id)).not.toContain(scanId);
    expect(
      (await signalsOf(account))
        .filter((s) => s.resolved_at === null)
        .map((s) => s.check_id)
        .sort(),
    ).toEqual(['connectivity.coverage_lost', 'iam.user_no_mfa']);
  });

  it("stores the outcomes and marks a complete score; removes the scan's checkpoint", async () => {
    const account = await newAccount();
    scans += 1;
    const scanId = `scan_${String(scans).padStart(4, '0')}`;
    await database.db
      .insertInto('scans')
      .values({
        id: scanId,
        tenant_id: 'ten_1',
        account_id: account,
        trigger: 'scheduled',
        status: 'running',
        started_at: new Date('2026-11-10T00:00:00Z'),
      })
      .execute();
    await database.db
      .insertInto('scan_checkpoints')
      .values({ scan_id: scanId, reads: JSON.stringify({ regions: { status: 'ok', value: [] } }) })
      .execute();
    const result: ScanResult = {
      scanId,
      tenantId: 'ten_1',
      accountId: account,
      observedAt: new Date('2026-11-10T00:00:00Z'),
      evaluation: evaluation([]),
    };
    await saveScanResult({ db: database.db, result });
    const row = await database.db
      .selectFrom('accounts')
      .select(['score_complete', 'coverage_evaluated', 'coverage_total'])
      .where('id', '=', account)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ score_complete: true, coverage_evaluated: CATALOG.length, coverage_total: CATALOG.length });
    expect(
      await database.db.selectFrom('scan_checkpoints').selectAll().where('scan_id', '=', scanId).execute(),
    ).toEqual([]);
  });

  describe('accepted signals', () => {
    async function accept(signalId: string, accountId: string, expiresAt: Date | null, at = '2026-11-11T00:00:00Z') {
      const user = await database.db.selectFrom('users').select('id').where('id', '=', 'usr_1').executeTakeFirst();
      if (!user) {
        await database.db
          .insertInto('users')
          .values({ id: 'usr_1', tenant_id: 'ten_1', email: 'owner@example.com', name: 'O', role: 'owner' })
          .execute();
      }
      await database.db
        .insertInto('signal_acceptances')
        .values({
          id: `acpt_${signalId}`,
          tenant_id: 'ten_1',
          account_id: accountId,
          signal_id: signalId,
          accepted_by: 'usr_1',
          accepted_by_email: 'owner@example.com',
          reason: 'break-glass role',
          accepted_at: new Date(at),
          expires_at: expiresAt,
        })
        .execute();
    }

    it('do not count in the score while in force, and count again once expired; the first scan after expiry is noted', async () => {
      const account = await newAccount();
      const critical = finding('iam.root_mfa_disabled', 'root', 'CRITICAL');
      await scan(account, '2026-11-11T00:00:00Z', [critical]);
      const [signal] = await signalsOf(account);
      await accept(signal!.id, account, new Date('2026-11-12T00:00:00Z'));

      expect((await scan(account, '2026-11-11T06:00:00Z', [critical])).saved.srs).toBe(100);
      const expired = await scan(account, '2026-11-12T06:00:00Z', [critical]);
      expect(expired.saved.srs).toBe(55);
      const acceptance = await database.db
        .selectFrom('signal_acceptances')
        .selectAll()
        .where('signal_id', '=', signal!.id)
        .executeTakeFirstOrThrow();
      expect(acceptance.expiry_scan_id).toBe(expired.scanId);
      await scan(account, '2026-11-12T12:00:00Z', [critical]);
      expect(
        (
          await database.db
            .selectFrom('signal_acceptances')
            .select('expiry_scan_id')
            .where('signal_id', '=', signal!.id)
            .executeTakeFirstOrThrow()
        ).expiry_scan_id,
      ).toBe(expired.scanId);
    });

    it('stay open and listed while the finding is seen', async () => {
      const account = await newAccount();
      const gpu = finding('threat.gpu_instance_running', 'i-1', 'HIGH', 'us-east-1');
      await scan(account, '2026-11-13T00:00:00Z', [gpu]);
      const [signal] = await signalsOf(account);
      await accept(signal!.id, account, null, '2026-11-13T00:00:00Z');
      await scan(account, '2026-11-13T06:00:00Z', [gpu]);
      expect((await signalsOf(account)).map((s) => s.resolved_at)).toEqual([null]);
    });
  });

  describe('signals an event opened', () => {
    async function eventSignal(accountId: string, checkId: string, resource: string, at: string): Promise<string> {
      const id = `sig_ev${accountId}${checkId.length}${resource}`;
      await database.db
        .insertInto('signals')
        .values({
          id,
          tenant_id: 'ten_1',
          account_id: accountId,
          check_id: checkId,
          fingerprint: `${checkId}|${resource}|global`,
          scenario: 'threat',
          severity: 'HIGH',
          title: checkId,
          description: 'from an event',
          resource,
          region: 'global',
          owner: null,
          first_scan_id: null,
          detected_at: new Date(at),
        })
        .execute();
      return id;
    }
    const resolvedAt = async (id: string) =>
      (await database.db.selectFrom('signals').select('resolved_at').where('id', '=', id).executeTakeFirstOrThrow())
        .resolved_at;

    it('are settled by a scan that evaluated every check able to see the change: its own finding stands for the state', async () => {
      const account = await newAccount();
      await scan(account, '2026-11-20T00:00:00Z', []);
      const opened = await eventSignal(
        account,
        'event.security_group_admin_port_opened',
        'sg-1',
        '2026-11-20T01:00:00Z',
      );
      // A scan that could not read the SSH check leaves it open.
      await scan(account, '2026-11-20T02:00:00Z', [], { coverage: { notEvaluated: ['exposure.sg_ssh_open'] } });
      expect(await resolvedAt(opened)).toBeNull();
      // One that could, resolves it whatever it found; the group still open is the scan's own signal.
      await scan(account, '2026-11-20T03:00:00Z', [finding('exposure.sg_ssh_open', 'sg-1', 'HIGH', 'us-east-1')]);
      expect(await resolvedAt(opened)).toEqual(new Date('2026-11-20T03:00:00Z'));
      expect((await signalsOf(account)).filter((s) => s.resolved_at === null).map((s) => s.check_id)).toEqual([
        'exposure.sg_ssh_open',
      ]);
    });

    it('are not settled by a scan that began reading before the event, nor by one that could not read the resource', async () => {
      const account = await newAccount();
      await scan(account, '2026-11-22T00:00:00Z', []);
      const opened = await eventSignal(
        account,
        'event.security_group_admin_port_opened',
        'sg-7',
        '2026-11-22T01:00:00Z',
      );
      // Began reading a minute before the event was taken: it read the group as it was before.
      await scan(account, '2026-11-22T00:59:00Z', []);
      expect(await resolvedAt(opened)).toBeNull();
      // Could not read the group's region for one of the confirming checks.
      await scan(account, '2026-11-22T02:00:00Z', [], {
        coverage: { unread: { 'exposure.sg_rdp_open': [{ kind: 'region', scope: 'global', reason: 'SCP' }] } },
      });
      expect(await resolvedAt(opened)).toBeNull();
      await scan(account, '2026-11-22T03:00:00Z', []);
      expect(await resolvedAt(opened)).toEqual(new Date('2026-11-22T03:00:00Z'));
    });

    it('that no scan can see stay open for the review period, and count in the score meanwhile', async () => {
      const account = await newAccount();
      await scan(account, '2026-11-01T00:00:00Z', []);
      const opened = await eventSignal(account, 'event.root_console_sign_in', 'root', '2026-11-01T01:00:00Z');
      expect((await scan(account, '2026-11-07T00:00:00Z', [])).saved.srs).toBeLessThan(100);
      expect(await resolvedAt(opened)).toBeNull();
      // A failed scan resolves nothing, even past the review period.
      await scan(account, '2026-11-08T02:00:00Z', [], { failureReason: 'role gone' });
      expect(await resolvedAt(opened)).toBeNull();
      expect((await scan(account, '2026-11-08T03:00:00Z', [])).saved.srs).toBe(100);
      expect(await resolvedAt(opened)).toEqual(new Date('2026-11-08T03:00:00Z'));
    });

    it("a targeted rescan keeps what it did not read open and leaves the account's coverage to its last full scan", async () => {
      const account = await newAccount();
      const full = await scan(account, '2026-11-21T00:00:00Z', [finding('iam.root_mfa_disabled', 'root', 'CRITICAL')]);
      const before = await database.db
        .selectFrom('accounts')
        .selectAll()
        .where('id', '=', account)
        .executeTakeFirstOrThrow();
      const notRead = CATALOG.map((c) => c.id).filter((id) => !id.startsWith('exposure.sg_'));
      const targeted = await scan(account, '2026-11-21T01:00:00Z', [], {
        targeted: true,
        coverage: { notEvaluated: notRead },
      });
      expect((await signalsOf(account)).map((s) => [s.check_id, s.resolved_at])).toEqual([
        ['iam.root_mfa_disabled', null],
      ]);
      expect(targeted.saved.srs).toBe(full.saved.srs);
      const after = await database.db
        .selectFrom('accounts')
        .selectAll()
        .where('id', '=', account)
        .executeTakeFirstOrThrow();
      expect(after).toMatchObject({
        checks_scan_id: full.scanId,
        coverage_evaluated: before.coverage_evaluated,
        coverage_total: before.coverage_total,
        current_srs: full.saved.srs,
        last_successful_scan_at: before.last_successful_scan_at,
      });
    });

    it('the probable-compromise signal is opened by a scan whose spend spike completes an access event of the day', async () => {
      const account = await newAccount();
      const initial = await scan(account, '2026-11-24T00:00:00Z', [
        finding('billing.daily_spend_spike', 'daily-spend', 'HIGH'),
      ]);
      await database.db.updateTable('scans').set({ trigger: 'initial' }).where('id', '=', initial.scanId).execute();
      await database.db
        .insertInto('account_events')
        .values({
          account_id: account,
          event_id: `ev-${account}`,
          tenant_id: 'ten_1',
          source: 'aws.iam',
          detail_type: 'AWS API Call via CloudTrail',
          event_name: 'CreateAccessKey',
          region: 'us-east-1',
          event_time: new Date('2026-11-24T05:00:00Z'),
          actor: 'arn:aws:iam::1:user/mallory',
          source_ip: '198.51.100.7',
          detections: ['event.access_key_created'],
          detail: JSON.stringify({}),
        })
        .execute();
      const compound = () =>
        database.db
          .selectFrom('signals')
          .selectAll()
          .where('account_id', '=', account)
          .where('check_id', '=', 'event.probable_compromise')
          .execute();
      // A scan that opens nothing new: the spike of the first scan was there before Sentinel looked.
      await scan(account, '2026-11-24T06:00:00Z', [finding('billing.daily_spend_spike', 'daily-spend', 'HIGH')]);
      expect(await compound()).toEqual([]);
      // A GPU instance found now completes the pair.
      const { scanId, saved } = await scan(account, '2026-11-24T07:00:00Z', [
        finding('billing.daily_spend_spike', 'daily-spend', 'HIGH'),
        finding('threat.gpu_instance_running', 'i-0gpu', 'HIGH', 'us-east-1'),
      ]);
      const [opened, ...more] = await compound();
      expect(more).toEqual([]);
      expect(opened).toMatchObject({ severity: 'CRITICAL', first_scan_id: scanId, resolved_at: null });
      expect(opened!.description).toContain('by arn:aws:iam::1:user/mallory');
      expect(saved.srs).toBe(Math.round(100 * 0.8 * 0.8 * 0.55));
      // The next scan finding another indicator leaves the one signal open.
      await scan(account, '2026-11-24T08:00:00Z', [
        finding('billing.daily_spend_spike', 'daily-spend', 'HIGH'),
        finding('threat.gpu_instance_running', 'i-0gpu', 'HIGH', 'us-east-1'),
        finding('threat.gpu_instance_running', 'i-1gpu', 'HIGH', 'us-east-1'),
      ]);
      expect(await compound()).toHaveLength(1);
      // Accepted ("the ML team"), it no longer stands for the next: a scan completing the pattern again opens one.
      await database.db
        .insertInto('signal_acceptances')
        .values({
          id: `acpt-${account}`,
          tenant_id: 'ten_1',
          account_id: account,
          signal_id: opened!.id,
          accepted_by: null,
          accepted_by_email: 'o@example.com',
          reason: 'The ML team',
          accepted_at: new Date('2026-11-24T08:30:00Z'),
          expires_at: null,
        })
        .execute();
      const again = await scan(account, '2026-11-24T09:00:00Z', [
        finding('billing.daily_spend_spike', 'daily-spend', 'HIGH'),
        finding('threat.gpu_instance_running', 'i-0gpu', 'HIGH', 'us-east-1'),
        finding('threat.gpu_instance_running', 'i-1gpu', 'HIGH', 'us-east-1'),
        finding('threat.gpu_instance_running', 'i-2gpu', 'HIGH', 'us-east-1'),
      ]);
      const both = await compound();
      expect(both).toHaveLength(2);
      expect(both.find((s) => s.id !== opened!.id)).toMatchObject({ first_scan_id: again.scanId, resolved_at: null });
      // The accepted one counts in no score: the spike, three GPU instances (one check's factor, weighted by its
      // resources) and the new compound signal.
      const gpu = { checkId: 'threat.gpu_instance_running', severity: 'HIGH', scenario: 'threat' } as const;
      expect(again.saved.srs).toBe(
        computeSrs([
          { checkId: 'billing.daily_spend_spike', severity: 'HIGH', scenario: 'billing' },
          gpu,
          gpu,
          gpu,
          { checkId: 'event.probable_compromise', severity: 'CRITICAL', scenario: 'threat' },
        ]),
      );
    });

    it("alert once: a rule that alerted on the event takes the rescan's confirming finding as that alert's", async () => {
      const db = database.db;
      const account = await newAccount();
      const rule = async (id: string) => {
        await db
          .insertInto('alert_rules')
          .values({
            id,
            tenant_id: 'ten_1',
            name: id,
            min_srs: 10,
            scenarios: ['exposure'],
            channels: JSON.stringify([{ type: 'email', to: ['ops@example.com'] }]),
            updated_at: new Date(),
          })
          .execute();
      };
      const fire = (source: { kind: 'scan' | 'events'; id: string }) =>
        fireAlertRules({ db, tenantId: 'ten_1', accountId: account, source });
      // This test's rules' alerts (another test left a rule of its own to the tenant).
      const alerts = () =>
        db
          .selectFrom('alert_events')
          .select(['rule_id', 'scan_id', 'event_batch_id'])
          .where('account_id', '=', account)
          .where('rule_id', 'in', ['rule_told', 'rule_new'])
          .orderBy('fired_at')
          .orderBy('id')
          .execute();
      const incidentOpen = async (ruleId: string) =>
        (
          await db
            .selectFrom('alert_rule_states')
            .select('incident_open')
            .where('rule_id', '=', ruleId)
            .where('account_id', '=', account)
            .executeTakeFirstOrThrow()
        ).incident_open;
      const sshOpen = {
        ...finding('exposure.sg_ssh_open', 'sg-9', 'HIGH', 'us-east-1'),
        scenario: 'exposure' as const,
      };
      try {
        await rule('rule_told');
        await fire({ kind: 'scan', id: (await scan(account, '2026-11-24T00:00:00Z', [])).scanId });

        // The event opens its signal, and the rule alerts on it.
        await db
          .insertInto('event_batches')
          .values({
            id: 'batch_sg9',
            tenant_id: 'ten_1',
            account_id: account,
            groups: ['network'],
            signals_opened: 1,
            received_at: new Date('2026-11-24T01:00:00Z'),
          })
          .execute();
        await db
          .insertInto('signals')
          .values({
            id: 'sig_ev_sg9',
            tenant_id: 'ten_1',
            account_id: account,
            check_id: 'event.security_group_admin_port_opened',
            fingerprint: 'event.security_group_admin_port_opened|sg-9|us-east-1',
            scenario: 'exposure',
            severity: 'HIGH',
            title: 'opened',
            description: 'from an event',
            resource: 'sg-9',
            region: 'us-east-1',
            owner: null,
            first_scan_id: null,
            event_batch_id: 'batch_sg9',
            detected_at: new Date('2026-11-24T01:00:00Z'),
          })
          .execute();
        await fire({ kind: 'events', id: 'batch_sg9' });
        expect(await alerts()).toEqual([{ rule_id: 'rule_told', scan_id: null, event_batch_id: 'batch_sg9' }]);
        // A rule made after the event was told nothing of it.
        await rule('rule_new');

        // The rescan settles the event's signal and opens its own finding for the open group: the rule that alerted
        // stays quiet, and the new rule alerts on it.
        const rescan = await scan(account, '2026-11-24T01:02:00Z', [sshOpen]);
        await fire({ kind: 'scan', id: rescan.scanId });
        expect(await alerts()).toEqual([
          { rule_id: 'rule_told', scan_id: null, event_batch_id: 'batch_sg9' },
          { rule_id: 'rule_new', scan_id: rescan.scanId, event_batch_id: null },
        ]);
        // The group stays open: the first alert's incident stays open with it, and nothing fires.
        await fire({ kind: 'scan', id: (await scan(account, '2026-11-24T02:00:00Z', [sshOpen])).scanId });
        expect(await alerts()).toHaveLength(2);
        expect(await incidentOpen('rule_told')).toBe(true);
        // Closed: the incident the event opened resolves.
        await fire({ kind: 'scan', id: (await scan(account, '2026-11-24T03:00:00Z', [])).scanId });
        expect(await incidentOpen('rule_told')).toBe(false);
      } finally {
        await db.deleteFrom('alert_rule_states').where('account_id', '=', account).execute();
        await db.deleteFrom('alert_rules').where('id', 'in', ['rule_told', 'rule_new']).execute();
      }
    });

    it('a targeted rescan gives no score to an account its full scans could not score', async () => {
      const account = await newAccount();
      await scan(account, '2026-11-23T00:00:00Z', [], { coverage: { scored: false } });
      const notRead = CATALOG.map((c) => c.id).filter((id) => !id.startsWith('exposure.sg_'));
      const targeted = await scan(account, '2026-11-23T01:00:00Z', [], {
        targeted: true,
        coverage: { notEvaluated: notRead },
      });
      expect(targeted.saved.srs).toBeNull();
      const row = await database.db
        .selectFrom('accounts')
        .select(['current_srs', 'last_successful_scan_at'])
        .where('id', '=', account)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ current_srs: null, last_successful_scan_at: null });
      expect(
        await database.db.selectFrom('score_history').select('day').where('account_id', '=', account).execute(),
      ).toEqual([]);
    });
  });
});
