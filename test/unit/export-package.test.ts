import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PACKAGE_FILES, type PackageSource, writeExportPackage } from '../../exports/package';
import { accountRecord, type SignalSource } from '../../exports/records';
import { parseCsvTable } from '../helpers/csv';
import { unzip } from '../helpers/zip';

const dir = mkdtempSync(path.join(tmpdir(), 'sentinel-package-'));
const at = new Date('2026-11-21T10:00:00Z');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function signal(i: number): SignalSource {
  return {
    id: `sig_${String(i).padStart(4, '0')}`,
    check_id: 'iam.root_mfa_disabled',
    scenario: 'iam',
    severity: 'CRITICAL',
    title: i === 2 ? '=HYPERLINK("http://evil.example")' : `Signal ${i}`,
    description: 'multi\r\nline, "quoted"',
    resource: `arn:aws:iam::${i}`,
    region: 'global',
    detected_at: new Date(at.getTime() + i),
    resolved_at: i % 2 ? null : at,
    acceptances: i === 3 ? ACCEPTANCES : [],
  };
}

// Signal 3's risk was accepted twice: the first acceptance was replaced, the second is in force.
const ACCEPTANCES = [
  {
    id: 'acpt_1',
    signal_id: 'sig_0003',
    accepted_by_email: 'ops@example.com',
    reason: '=break-glass, "approved"',
    accepted_at: new Date('2026-11-01T00:00:00Z'),
    expires_at: null,
    revoked_at: new Date('2026-11-02T00:00:00Z'),
    revoked_by_email: 'cto@example.com',
  },
  {
    id: 'acpt_2',
    signal_id: 'sig_0003',
    accepted_by_email: 'cto@example.com',
    reason: 'until the migration',
    accepted_at: new Date('2026-11-02T00:00:00Z'),
    expires_at: new Date('2026-12-01T00:00:00Z'),
    revoked_at: null,
    revoked_by_email: null,
  },
];

// What the audit log held about the account: its connection, and a risk accepted by a name that looks like a formula.
const ACTIVITY = [
  {
    id: 'aud_1',
    action: 'account.connected',
    actor_email: 'ops@example.com',
    target: 'account:123456789012',
    client_address: '203.0.113.7',
    details: {},
    created_at: new Date('2026-11-01T00:00:00Z'),
  },
  {
    id: 'aud_2',
    action: 'signal.risk_accepted',
    actor_email: 'cto@example.com',
    target: 'signal:sig_0003',
    client_address: null,
    details: { aws_account_id: '123456789012', reason: '=break-glass' },
    created_at: new Date('2026-11-02T00:00:00Z'),
  },
];

function source(signalPages: PackageSource['signalPages']): PackageSource {
  return {
    exportId: 'exp_test',
    exportedAt: at,
    account: accountRecord({
      id: 'acc_1',
      tenant_id: 'ten_1',
      aws_account_id: '123456789012',
      display_name: 'Prod',
      tags: ['a', 'b, "c"'],
      status: 'ACTIVE',
      external_id: 'e'.repeat(40),
      role_name: 'SentinelReadOnly',
      workflow_id: 'wf',
      current_srs: 55,
      first_scan_id: null,
      used_regions: null,
      region_baseline: null,
      region_baseline_learned_at: null,
      identities_scanned_at: null,
      connected_at: at,
      last_scan_at: at,
      last_successful_scan_at: at,
      disconnected_at: null,
      created_at: at,
      updated_at: at,
      checks_scan_id: null,
      coverage_evaluated: null,
      coverage_total: null,
      score_complete: null,
      organization_id: null,
    }),
    counts: { signals: 5, openSignals: 3 },
    signalPages,
    scoreHistory: [{ date: '2026-11-21', srs: 55, complete: true, scan_id: 'scan_1' }],
    checklist: [{ step: 1, title: 'Enable MFA', description: '+ do it now', docs_url: 'https://docs.aws.amazon.com/' }],
    acceptances: ACCEPTANCES,
    activity: ACTIVITY,
    attackPaths: [],
  };
}

const entries = (file: string) => unzip(readFileSync(file));

describe('export package', () => {
  it('writes every file; signals spread over pages come out as one JSON array and one CSV table', async () => {
    const file = path.join(dir, 'ok.zip');
    await writeExportPackage(
      source(async function* pages() {
        yield [signal(1), signal(2)];
        yield [signal(3)];
        yield [signal(4), signal(5)];
      }),
      file,
    );
    const files = await entries(file);
    expect([...files.keys()]).toEqual([...PACKAGE_FILES]);
    const findings = JSON.parse(files.get('findings.json') as string);
    expect(findings.map((f: { signal_id: string }) => f.signal_id)).toEqual([
      'sig_0001',
      'sig_0002',
      'sig_0003',
      'sig_0004',
      'sig_0005',
    ]);
    expect(findings[1]).toMatchObject({
      title: '=HYPERLINK("http://evil.example")',
      status: 'resolved',
      aws_account_id: '123456789012',
    });
    const csv = parseCsvTable(files.get('findings.csv') as string);
    expect(csv.map((r) => r.signal_id)).toEqual(findings.map((f: { signal_id: string }) => f.signal_id));
    expect(csv[1]).toMatchObject({
      title: `'=HYPERLINK("http://evil.example")`,
      // One record per line in the CSV; the JSON keeps the line break.
      description: 'multi line, "quoted"',
    });
    expect(parseCsvTable(files.get('recovery-checklist.csv') as string)[0]!.description).toBe("'+ do it now");
    const account = JSON.parse(files.get('account.json') as string);
    expect(account.account).not.toHaveProperty('external_id');
    expect(account.counts).toEqual({
      signals: 5,
      open_signals: 3,
      score_history_days: 1,
      checklist_steps: 1,
      accepted_risks: 2,
      activity_events: 2,
      attack_paths: 0,
    });
    // The account's activity from the audit log, oldest first, details as JSON text in the CSV.
    expect(JSON.parse(files.get('account-activity.json') as string)).toEqual([
      {
        event_id: 'aud_1',
        action: 'account.connected',
        actor_email: 'ops@example.com',
        target: 'account:123456789012',
        client_address: '203.0.113.7',
        details: {},
        created_at: '2026-11-01T00:00:00.000Z',
      },
      {
        event_id: 'aud_2',
        action: 'signal.risk_accepted',
        actor_email: 'cto@example.com',
        target: 'signal:sig_0003',
        client_address: null,
        details: { aws_account_id: '123456789012', reason: '=break-glass' },
        created_at: '2026-11-02T00:00:00.000Z',
      },
    ]);
    const activityCsv = parseCsvTable(files.get('account-activity.csv') as string);
    expect(activityCsv.map((r) => [r.action, r.details])).toEqual([
      ['account.connected', '{}'],
      ['signal.risk_accepted', '{"aws_account_id":"123456789012","reason":"=break-glass"}'],
    ]);
    // The same record as one CSV row, every column of the JSON record, the tags as a JSON array.
    const accountCsv = parseCsvTable(files.get('account.csv') as string);
    expect(accountCsv).toEqual([
      {
        ...account.account,
        tags: '["a","b, \\"c\\""]',
        current_srs: '55',
        score_complete: '',
        disconnected_at: '',
      },
    ]);
    expect(Object.keys(accountCsv[0]!).sort()).toEqual(Object.keys(account.account).sort());
    // Each score-history day says whether its score read every core source of the account.
    expect(JSON.parse(files.get('score-history.json') as string)).toEqual([
      { date: '2026-11-21', srs: 55, complete: true, scan_id: 'scan_1' },
    ]);
    expect(parseCsvTable(files.get('score-history.csv') as string)).toEqual([
      { date: '2026-11-21', srs: '55', complete: 'true', scan_id: 'scan_1' },
    ]);
  });

  it('exports every acceptance: on its signal (in force or not) and in accepted-risks, who, when, why, until when', async () => {
    const file = path.join(dir, 'accepted.zip');
    await writeExportPackage(
      source(async function* pages() {
        yield [signal(2), signal(3)];
      }),
      file,
    );
    const files = await entries(file);
    const expected = [
      {
        acceptance_id: 'acpt_1',
        signal_id: 'sig_0003',
        status: 'ended',
        accepted_by: 'ops@example.com',
        reason: '=break-glass, "approved"',
        accepted_at: '2026-11-01T00:00:00.000Z',
        expires_at: null,
        ended_at: '2026-11-02T00:00:00.000Z',
        ended_by: 'cto@example.com',
      },
      {
        acceptance_id: 'acpt_2',
        signal_id: 'sig_0003',
        status: 'in_force',
        accepted_by: 'cto@example.com',
        reason: 'until the migration',
        accepted_at: '2026-11-02T00:00:00.000Z',
        expires_at: '2026-12-01T00:00:00.000Z',
        ended_at: null,
        ended_by: null,
      },
    ];
    expect(JSON.parse(files.get('accepted-risks.json') as string)).toEqual(expected);
    const csv = parseCsvTable(files.get('accepted-risks.csv') as string);
    expect(csv.map((r) => r.acceptance_id)).toEqual(['acpt_1', 'acpt_2']);
    expect(csv[0]!.reason).toBe(`'=break-glass, "approved"`);
    const findings = JSON.parse(files.get('findings.json') as string);
    expect(findings.map((f: { accepted: boolean }) => f.accepted)).toEqual([false, true]);
    expect(findings[1].acceptances).toEqual(expected);
    const findingsCsv = parseCsvTable(files.get('findings.csv') as string);
    expect(findingsCsv.map((r) => r.accepted)).toEqual(['false', 'true']);
    expect(JSON.parse(findingsCsv[1]!.acceptances as string)).toEqual(expected);
  });

  it('exports the attack paths: the graph in JSON, the chain readable in one CSV cell', async () => {
    const file = path.join(dir, 'paths.zip');
    const at = new Date('2026-12-01T00:00:00.000Z');
    await writeExportPackage(
      {
        ...source(async function* pages() {}),
        attackPaths: [
          {
            fingerprint: 'toxic:exposed_admin_workload:i-1',
            kind: 'toxic_combination',
            rule: 'exposed_admin_workload',
            severity: 'CRITICAL',
            certainty: 'certain',
            title: '=An internet-reachable workload runs as an administrator',
            summary: 'web-1 answers the internet and runs as admin.',
            source: 'internet',
            target: 'administrator',
            region: 'eu-west-1',
            nodes: [{ id: 'internet' }, { id: 'i-1' }, { id: 'administrator' }],
            edges: [
              { from: 'internet', to: 'i-1', label: 'tcp/443' },
              { from: 'i-1', to: 'administrator', label: 'runs as admin' },
            ],
            first_found_at: at,
            found_at: at,
          },
        ],
      },
      file,
    );
    const files = await entries(file);
    const [path0] = JSON.parse(files.get('attack-paths.json') as string);
    expect(path0).toMatchObject({
      path_id: 'toxic:exposed_admin_workload:i-1',
      steps: 'internet -[tcp/443]-> i-1 ; i-1 -[runs as admin]-> administrator',
      first_found_at: '2026-12-01T00:00:00.000Z',
    });
    expect(path0.edges).toHaveLength(2);
    const [row] = parseCsvTable(files.get('attack-paths.csv') as string);
    // A formula-looking cell is defused in the CSV, as every other table's.
    expect(row!.title).toBe("'=An internet-reachable workload runs as an administrator");
    expect(JSON.parse(row!.edges!)).toEqual(path0.edges);
    expect(JSON.parse(files.get('account.json') as string).counts.attack_paths).toBe(1);
    expect(files.get('README.txt')).toContain('attack-paths.json, attack-paths.csv  (1 paths)');
  });

  it('writes an empty JSON array and a header-only CSV for an account without signals', async () => {
    const file = path.join(dir, 'empty.zip');
    await writeExportPackage(
      source(async function* pages() {}),
      file,
    );
    const files = await entries(file);
    expect(JSON.parse(files.get('findings.json') as string)).toEqual([]);
    expect(parseCsvTable(files.get('findings.csv') as string)).toEqual([]);
  });

  it('rejects when a source fails mid-way instead of writing a truncated package', async () => {
    const failure = new Error('connection lost');
    await expect(
      writeExportPackage(
        source(async function* pages() {
          yield [signal(1)];
          throw failure;
        }),
        path.join(dir, 'broken.zip'),
      ),
    ).rejects.toBe(failure);
  });
});
