import { sql } from 'kysely';
import { migrateDown, migrateToLatest } from '../../db/migrate';
import { createTestDatabase, type TestDatabase } from '../helpers/database';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase({ migrate: false });
});
afterAll(() => database.drop());

async function tables(): Promise<string[]> {
  const rows = await sql<{
    table_name: string;
  }>`select table_name from information_schema.tables where table_schema = 'public' and table_name not like 'kysely_%' order by table_name`.execute(
    database.db,
  );
  return rows.rows.map((r) => r.table_name);
}

describe('migrations', () => {
  it('create the whole data model, and down removes it again', async () => {
    await migrateToLatest(database.db);
    expect(await tables()).toEqual([
      'account_event_keys',
      'account_events',
      'accounts',
      'alert_deliveries',
      'alert_events',
      'alert_recipients',
      'alert_rule_states',
      'alert_rules',
      'attack_path_analyses',
      'attack_paths',
      'audit_events',
      'cost_explorer_reads',
      'delivery_attempts',
      'detection_windows',
      'email_outbox',
      'email_verifications',
      'event_batches',
      'event_forwarding_regions',
      'exports',
      'invitations',
      'oauth_states',
      'open_signal_counts',
      'organization_accounts',
      'organizations',
      'password_resets',
      'principal_api_uses',
      'rate_limits',
      'refresh_tokens',
      'scan_checkpoints',
      'scans',
      'score_history',
      'sessions',
      'sign_in_sources',
      'signal_acceptances',
      'signals',
      'slack_installations',
      'stripe_events',
      'stripe_subscriptions',
      'tenant_detections',
      'tenants',
      'trusted_principals',
      'users',
    ]);
    // Each step reverts the most recent migration; all of them leave nothing behind.
    while ((await migrateDown(database.db)).length > 0);
    expect(await tables()).toEqual([]);
    await migrateToLatest(database.db);
    expect(await tables()).toHaveLength(42);
  });

  describe('constraints protect the data', () => {
    const db = () => database.db;
    beforeAll(async () => {
      await db().insertInto('tenants').values({ id: 'ten_1', name: 'T' }).execute();
      await db()
        .insertInto('users')
        .values({ id: 'usr_1', tenant_id: 'ten_1', email: 'o@example.com', name: 'O', role: 'owner' })
        .execute();
    });

    it('rejects an unknown plan, role or account status', async () => {
      // Values the column types refuse too: the database must refuse them whatever the code says.
      await expect(
        db()
          .insertInto('tenants')
          .values({ id: 'ten_x', name: 'T', plan: 'free' as never })
          .execute(),
      ).rejects.toThrow(/check/);
      await expect(
        db()
          .insertInto('users')
          .values({ id: 'usr_x', tenant_id: 'ten_1', email: 'x@example.com', name: 'X', role: 'god' as never })
          .execute(),
      ).rejects.toThrow(/check/);
    });

    it('allows one owner per tenant, one user per e-mail in a tenant and one account (a password) per e-mail', async () => {
      await expect(
        db()
          .insertInto('users')
          .values({ id: 'usr_2', tenant_id: 'ten_1', email: 'p@example.com', name: 'P', role: 'owner' })
          .execute(),
      ).rejects.toThrow(/users_one_owner_per_tenant/);
      await expect(
        db()
          .insertInto('users')
          .values({ id: 'usr_3', tenant_id: 'ten_1', email: 'o@example.com', name: 'P', role: 'member' })
          .execute(),
      ).rejects.toThrow(/users_tenant_email_key/);
      // Invited by several tenants at once; signing in to one account only.
      await db().insertInto('tenants').values({ id: 'ten_e', name: 'E' }).execute();
      const invitee = { tenant_id: 'ten_e', email: 'o@example.com', name: 'P', role: 'member' as const };
      await db()
        .insertInto('users')
        .values({ ...invitee, id: 'usr_e1' })
        .execute();
      await db().updateTable('users').set({ password_hash: 'scrypt$x' }).where('id', '=', 'usr_1').execute();
      await expect(
        db().updateTable('users').set({ password_hash: 'scrypt$y' }).where('id', '=', 'usr_e1').execute(),
      ).rejects.toThrow(/users_account_email_key/);
      await db().deleteFrom('users').where('id', '=', 'usr_e1').execute();
      await db().deleteFrom('tenants').where('id', '=', 'ten_e').execute();
      await db().updateTable('users').set({ password_hash: null }).where('id', '=', 'usr_1').execute();
    });

    it('keeps one row per tenant and AWS account, with a 12-digit id and a long ExternalId', async () => {
      const account = {
        tenant_id: 'ten_1',
        aws_account_id: '123456789012',
        display_name: null,
        tags: [],
        role_name: 'R',
      };
      await db()
        .insertInto('accounts')
        .values({ ...account, id: 'acc_1', external_id: 'e'.repeat(32), workflow_id: 'w1' })
        .execute();
      await expect(
        db()
          .insertInto('accounts')
          .values({ ...account, id: 'acc_2', external_id: 'f'.repeat(32), workflow_id: 'w2' })
          .execute(),
      ).rejects.toThrow(/accounts_tenant_aws_account_unique/);
      await expect(
        db()
          .insertInto('accounts')
          .values({ ...account, aws_account_id: '1234', id: 'acc_3', external_id: 'g'.repeat(32), workflow_id: 'w3' })
          .execute(),
      ).rejects.toThrow(/check/);
      await expect(
        db()
          .insertInto('accounts')
          .values({ ...account, aws_account_id: '123456789013', id: 'acc_4', external_id: 'short', workflow_id: 'w4' })
          .execute(),
      ).rejects.toThrow(/check/);
    });

    it('bounds min_srs to 0-100 and requires at least one channel', async () => {
      const rule = {
        tenant_id: 'ten_1',
        name: 'R',
        channels: JSON.stringify([{ type: 'email', to: ['a@example.com'] }]),
      };
      await expect(
        db()
          .insertInto('alert_rules')
          .values({ ...rule, id: 'rule_1', min_srs: 101 })
          .execute(),
      ).rejects.toThrow(/check/);
      await expect(
        db()
          .insertInto('alert_rules')
          .values({ ...rule, id: 'rule_2', channels: '[]' })
          .execute(),
      ).rejects.toThrow(/check/);
      await db()
        .insertInto('alert_rules')
        .values({ ...rule, id: 'rule_3' })
        .execute();
    });

    it('keeps one acceptance in force per signal, with a reason of 1-500 characters and an expiry after it', async () => {
      await db()
        .insertInto('scans')
        .values({
          id: 'scan_1',
          tenant_id: 'ten_1',
          account_id: 'acc_1',
          trigger: 'manual',
          status: 'succeeded',
          started_at: new Date(),
        })
        .execute();
      await db()
        .insertInto('signals')
        .values({
          id: 'sig_1',
          tenant_id: 'ten_1',
          account_id: 'acc_1',
          check_id: 'c',
          fingerprint: 'f',
          scenario: 'iam',
          severity: 'LOW',
          title: 't',
          description: 'd',
          resource: 'r',
          first_scan_id: 'scan_1',
          detected_at: new Date(),
        })
        .execute();
      const at = new Date('2026-11-01T00:00:00Z');
      const acceptance = {
        tenant_id: 'ten_1',
        account_id: 'acc_1',
        signal_id: 'sig_1',
        accepted_by: 'usr_1',
        accepted_by_email: 'o@example.com',
        reason: 'ok',
        accepted_at: at,
        expires_at: null,
      };
      await db()
        .insertInto('signal_acceptances')
        .values({ ...acceptance, id: 'acpt_1' })
        .execute();
      await expect(
        db()
          .insertInto('signal_acceptances')
          .values({ ...acceptance, id: 'acpt_2' })
          .execute(),
      ).rejects.toThrow(/signal_acceptances_one_in_force/);
      await db().updateTable('signal_acceptances').set({ revoked_at: at }).where('id', '=', 'acpt_1').execute();
      await expect(
        db()
          .insertInto('signal_acceptances')
          .values({ ...acceptance, id: 'acpt_3', reason: '' })
          .execute(),
      ).rejects.toThrow(/check/);
      await expect(
        db()
          .insertInto('signal_acceptances')
          .values({ ...acceptance, id: 'acpt_4', expires_at: at })
          .execute(),
      ).rejects.toThrow(/check/);
      await db()
        .insertInto('signal_acceptances')
        .values({ ...acceptance, id: 'acpt_5' })
        .execute();
    });

    it('gives a scoped acceptance an expiry, and a principal exactly when the scope is by principal', async () => {
      const at = new Date('2026-11-01T00:00:00Z');
      const scoped = {
        tenant_id: 'ten_1',
        account_id: 'acc_1',
        signal_id: 'sig_1',
        accepted_by: 'usr_1',
        accepted_by_email: 'o@example.com',
        reason: 'ok',
        accepted_at: at,
        revoked_at: at,
        scope: 'principal' as const,
        scope_principal: 'root',
        scope_signal_id: 'sig_1',
      };
      await expect(
        db()
          .insertInto('signal_acceptances')
          .values({ ...scoped, id: 'acpt_s1', expires_at: null })
          .execute(),
      ).rejects.toThrow(/signal_acceptances_scope_expires/);
      const expires_at = new Date(at.getTime() + 86_400_000);
      await expect(
        db()
          .insertInto('signal_acceptances')
          .values({ ...scoped, id: 'acpt_s2', expires_at, scope_principal: null })
          .execute(),
      ).rejects.toThrow(/signal_acceptances_scope_principal/);
      await expect(
        db()
          .insertInto('signal_acceptances')
          .values({ ...scoped, id: 'acpt_s3', expires_at, scope: 'detection' })
          .execute(),
      ).rejects.toThrow(/signal_acceptances_scope_principal/);
      await expect(
        db()
          .insertInto('signal_acceptances')
          .values({ ...scoped, id: 'acpt_s4', expires_at, scope: 'everything' as never })
          .execute(),
      ).rejects.toThrow(/check/);
      await db()
        .insertInto('signal_acceptances')
        .values({ ...scoped, id: 'acpt_s5', expires_at })
        .execute();
    });

    it('keeps the Cost Explorer parts a scan reuses, and only those', async () => {
      const read = (part: string) =>
        db()
          .insertInto('cost_explorer_reads')
          .values({
            account_id: 'acc_1',
            part: part as never,
            value: JSON.stringify({ monitors: [] }),
            read_at: new Date(),
          })
          .execute();
      for (const part of ['costs', 'anomalies', 'anomalyMonitors']) await read(part);
      await expect(read('budgets')).rejects.toThrow(/cost_explorer_reads_part_check/);
    });

    it("keeps one row per account and region of the forwarder, a region's heartbeats set together, gone with the account", async () => {
      await db()
        .insertInto('accounts')
        .values({
          id: 'acc_fwd',
          tenant_id: 'ten_1',
          aws_account_id: '123456789099',
          display_name: null,
          tags: [],
          role_name: 'R',
          external_id: 'h'.repeat(32),
          workflow_id: 'w_fwd',
        })
        .execute();
      const region = (name: string, first: Date | null, last: Date | null) =>
        db()
          .insertInto('event_forwarding_regions')
          .values({
            account_id: 'acc_fwd',
            region: name,
            tenant_id: 'ten_1',
            first_heartbeat_at: first,
            last_heartbeat_at: last,
          })
          .execute();
      const [before, after] = [new Date('2026-11-30T10:00:00Z'), new Date('2026-11-30T10:05:00Z')];
      await region('us-east-1', before, after);
      await region('eu-west-1', null, null);
      await expect(region('us-east-1', before, after)).rejects.toThrow(/event_forwarding_regions_pk/);
      await expect(region('ap-south-1', before, null)).rejects.toThrow(/event_forwarding_regions_heartbeats/);
      await expect(region('ap-south-1', after, before)).rejects.toThrow(/event_forwarding_regions_heartbeats/);
      await db().deleteFrom('accounts').where('id', '=', 'acc_fwd').execute();
      expect(await db().selectFrom('event_forwarding_regions').selectAll().execute()).toEqual([]);
    });

    it('gives a trusted principal a reason of 1-500 characters, an expiry after its creation and detections or all', async () => {
      const at = new Date('2026-12-01T00:00:00Z');
      const entry = {
        tenant_id: 'ten_1',
        account_id: null,
        principal: 'arn:aws:iam::123456789012:role/terraform',
        detections: ['event.iam_user_created'],
        reason: 'Terraform applies from CI',
        expires_at: new Date(at.getTime() + 86_400_000),
        created_by: 'usr_1',
        created_by_email: 'o@example.com',
        created_at: at,
      };
      const insert = (id: string, values: Partial<typeof entry> & Record<string, unknown>) =>
        db()
          .insertInto('trusted_principals')
          .values({ ...entry, ...values, id } as never)
          .execute();
      await expect(insert('trp_1', { reason: '' })).rejects.toThrow(/check/);
      await expect(insert('trp_2', { reason: 'x'.repeat(501) })).rejects.toThrow(/check/);
      await expect(insert('trp_3', { expires_at: at })).rejects.toThrow(/trusted_principals_expiry_after_creation/);
      await expect(insert('trp_4', { expires_at: null } as never)).rejects.toThrow(/null/);
      await expect(insert('trp_5', { detections: [] })).rejects.toThrow(/check/);
      await expect(insert('trp_6', { tenant_id: 'ten_none' })).rejects.toThrow(/foreign key/);
      await insert('trp_7', {});
      await insert('trp_8', { detections: null } as never);
      // An event keeps the detections a trusted principal suppressed, and by which; none for nearly every event.
      const columns = await sql<{
        column_name: string;
        is_nullable: string;
      }>`select column_name, is_nullable from information_schema.columns
        where table_name = 'account_events' and column_name = 'suppressed'`.execute(db());
      expect(columns.rows).toEqual([{ column_name: 'suppressed', is_nullable: 'YES' }]);
    });

    it('keeps one detection name per tenant, a known level and a bounded rule, gone with the tenant', async () => {
      await db().insertInto('tenants').values({ id: 'ten_det', name: 'D' }).execute();
      const detection = (id: string, tenantId: string, fields: Record<string, unknown> = {}) => ({
        id,
        tenant_id: tenantId,
        name: 'Config off',
        sigma: 'title: x',
        title: 'x',
        level: 'high' as const,
        created_by: null,
        ...fields,
      });
      await db().insertInto('tenant_detections').values(detection('det_1', 'ten_det')).execute();
      await expect(
        db().insertInto('tenant_detections').values(detection('det_2', 'ten_det')).execute(),
      ).rejects.toThrow(/tenant_detections_name_key/);
      // Another tenant may use the name.
      await db().insertInto('tenant_detections').values(detection('det_3', 'ten_1')).execute();
      await expect(
        db()
          .insertInto('tenant_detections')
          .values(detection('det_4', 'ten_det', { name: 'Other', level: 'severe' }))
          .execute(),
      ).rejects.toThrow(/check constraint/);
      await expect(
        db()
          .insertInto('tenant_detections')
          .values(detection('det_5', 'ten_det', { name: 'Big', sigma: 'x'.repeat(65_537) }))
          .execute(),
      ).rejects.toThrow(/check constraint/);
      await db().deleteFrom('tenants').where('id', '=', 'ten_det').execute();
      expect((await db().selectFrom('tenant_detections').select('id').execute()).map((r) => r.id)).toEqual(['det_3']);
      await db().deleteFrom('tenant_detections').execute();
    });

    it('refuses a user of a tenant that does not exist', async () => {
      await expect(
        db()
          .insertInto('users')
          .values({ id: 'usr_9', tenant_id: 'ten_missing', email: 'z@example.com', name: 'Z', role: 'member' })
          .execute(),
      ).rejects.toThrow(/foreign key/);
    });
  });
});

/** Reverts migrations, latest first, down to and including `name`, whatever migrations came after it. */
/** An account row of tenant ten_1, as the earlier migrations' schema takes it. */
const accountRow = (id: string, n: number) => ({
  id,
  tenant_id: 'ten_1',
  aws_account_id: String(123456789000 + n),
  display_name: null,
  tags: [],
  role_name: 'R',
  external_id: `${'e'.repeat(32)}${n}`,
  workflow_id: `w${n}`,
});

async function revertThrough(db: TestDatabase['db'], name: string): Promise<void> {
  const reverted: string[] = [];
  while (reverted.at(-1) !== `Down ${name}: Success`) {
    const step = await migrateDown(db);
    if (step.length === 0) break;
    reverted.push(...step);
  }
  expect(reverted.at(-1)).toBe(`Down ${name}: Success`);
}

describe("the migration that names an alert rule's last source", () => {
  let previous: TestDatabase;
  beforeAll(async () => {
    previous = await createTestDatabase({ migrate: false });
  });
  afterAll(() => previous.drop());

  it('copies what last_scan_id held, scan or event batch, into last_source_id', async () => {
    const db = previous.db;
    await migrateToLatest(db);
    // Back to the schema before it, whatever migrations came after it.
    const reverted: string[] = [];
    while (reverted.at(-1) !== 'Down 20261129T000100_alert_rule_last_source: Success') {
      const step = await migrateDown(db);
      if (step.length === 0) break;
      reverted.push(...step);
    }
    expect(reverted.at(-1)).toBe('Down 20261129T000100_alert_rule_last_source: Success');
    await db.insertInto('tenants').values({ id: 'ten_1', name: 'T' }).execute();
    await db
      .insertInto('accounts')
      .values({
        id: 'acc_1',
        tenant_id: 'ten_1',
        aws_account_id: '123456789012',
        display_name: null,
        tags: [],
        role_name: 'R',
        external_id: 'e'.repeat(32),
        workflow_id: 'w1',
      })
      .execute();
    await db
      .insertInto('alert_rules')
      .values({
        id: 'rul_1',
        tenant_id: 'ten_1',
        name: 'R',
        channels: JSON.stringify([{ type: 'email', to: ['a@example.com'] }]),
        updated_at: new Date(),
      })
      .execute();
    // A row as the previous release writes it: no last_source_id column yet.
    await sql`insert into alert_rule_states (rule_id, account_id, rule_version, below_threshold, findings_digest, last_scan_id, updated_at)
      values ('rul_1', 'acc_1', 1, false, 'd', 'evb_01', now())`.execute(db);
    await migrateToLatest(db);
    const row = await db
      .selectFrom('alert_rule_states')
      .select(['last_source_id', 'last_scan_id'])
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ last_source_id: 'evb_01', last_scan_id: 'evb_01' });
  });
});

/** Reverts migrations, newest first, through `name`; false if it was not applied. */
describe('the migration that keeps whether a score read every core source', () => {
  let previous: TestDatabase;
  beforeAll(async () => {
    previous = await createTestDatabase({ migrate: false });
  });
  afterAll(() => previous.drop());

  /** A scan's check outcomes as stored: every one passed, but those given not evaluated or with a region unread. */
  const outcomes = ({ notEvaluated = [], unread = [] }: { notEvaluated?: string[]; unread?: string[] }) =>
    JSON.stringify(
      ['iam.root_mfa_disabled', 'exposure.sg_ssh_open', 'suspension.health_abuse_event', 'billing.cost_anomaly'].map(
        (checkId) => ({
          checkId,
          status: notEvaluated.includes(checkId) ? 'not_evaluated' : 'passed',
          failingResources: 0,
          reason: null,
          unread: unread.includes(checkId) ? [{ kind: 'region', scope: 'ap-south-1', reason: 'SCP' }] : [],
        }),
      ),
    );

  it('fills accounts and score-history points from the outcomes their scans kept, counting core sources only', async () => {
    const db = previous.db;
    await migrateToLatest(db);
    // Back to the schema before it, whatever migrations came after it.
    await revertThrough(db, '20261129T000700_score_completeness');
    await db.insertInto('tenants').values({ id: 'ten_1', name: 'T' }).execute();
    const account = accountRow;
    await db
      .insertInto('accounts')
      .values([account('acc_1', 1), account('acc_2', 2)])
      .execute();
    const scan = (id: string, accountId: string, trigger: 'scheduled' | 'event', checks: string | null) => ({
      id,
      tenant_id: 'ten_1',
      account_id: accountId,
      trigger,
      status: 'succeeded' as const,
      started_at: new Date('2026-11-20T00:00:00Z'),
      checks,
    });
    await db
      .insertInto('scans')
      .values([
        // Without AWS Health and Cost Explorer (optional): complete, where it used to be incomplete.
        scan(
          'scan_1',
          'acc_1',
          'scheduled',
          outcomes({ notEvaluated: ['suspension.health_abuse_event', 'billing.cost_anomaly'] }),
        ),
        // A region of EC2 (core) unread: incomplete.
        scan('scan_2', 'acc_2', 'scheduled', outcomes({ unread: ['exposure.sg_ssh_open'] })),
        // A targeted rescan: its outcomes say nothing of the account's coverage.
        scan('scan_3', 'acc_1', 'event', outcomes({ notEvaluated: ['exposure.sg_ssh_open'] })),
        // Saved before scans kept their outcomes: not known.
        scan('scan_4', 'acc_2', 'scheduled', null),
      ])
      .execute();
    await db
      .updateTable('accounts')
      .set({ checks_scan_id: 'scan_1', score_complete: false })
      .where('id', '=', 'acc_1')
      .execute();
    await db
      .updateTable('accounts')
      .set({ checks_scan_id: 'scan_2', score_complete: false })
      .where('id', '=', 'acc_2')
      .execute();
    const point = (accountId: string, day: string, scanId: string) => ({
      account_id: accountId,
      day,
      srs: 90,
      scan_id: scanId,
      recorded_at: new Date(`${day}T00:00:00Z`),
    });
    await db
      .insertInto('score_history')
      .values([
        point('acc_1', '2026-11-20', 'scan_1'),
        point('acc_1', '2026-11-21', 'scan_3'),
        point('acc_2', '2026-11-20', 'scan_2'),
        point('acc_2', '2026-11-19', 'scan_4'),
      ])
      .execute();

    await migrateToLatest(db);
    expect(await db.selectFrom('accounts').select(['id', 'score_complete']).orderBy('id').execute()).toEqual([
      { id: 'acc_1', score_complete: true },
      { id: 'acc_2', score_complete: false },
    ]);
    expect(
      await db
        .selectFrom('score_history')
        .select(['account_id', 'day', 'complete'])
        .orderBy('account_id')
        .orderBy('day')
        .execute(),
    ).toEqual([
      { account_id: 'acc_1', day: '2026-11-20', complete: true },
      { account_id: 'acc_1', day: '2026-11-21', complete: null },
      { account_id: 'acc_2', day: '2026-11-19', complete: null },
      { account_id: 'acc_2', day: '2026-11-20', complete: false },
    ]);
    expect(await db.selectFrom('alert_events').select('srs_complete').execute()).toEqual([]);

    // Down gives score_complete its former meaning back: every check read, optional sources included.
    await revertThrough(db, '20261129T000700_score_completeness');
    expect(await db.selectFrom('accounts').select(['id', 'score_complete']).orderBy('id').execute()).toEqual([
      { id: 'acc_1', score_complete: false },
      { id: 'acc_2', score_complete: false },
    ]);
  });
});

describe('the migration that makes the regions in use a baseline', () => {
  let previous: TestDatabase;
  beforeAll(async () => {
    previous = await createTestDatabase({ migrate: false });
  });
  afterAll(() => previous.drop());

  it("takes each account's used regions as its baseline, and starts its identity window at its last successful scan", async () => {
    const db = previous.db;
    await migrateToLatest(db);
    await revertThrough(db, '20261130T000200_region_baseline');
    await db.insertInto('tenants').values({ id: 'ten_1', name: 'T' }).execute();
    const scannedAt = new Date('2026-11-20T06:00:00Z');
    const account = accountRow;
    // Rows as the previous release leaves them: a scanned account with its regions in use, one never scanned.
    await db
      .insertInto('accounts')
      .values([
        { ...account('acc_1', 1), last_scan_at: scannedAt, last_successful_scan_at: scannedAt },
        account('acc_2', 2),
      ])
      .execute();
    await sql`update accounts set used_regions = '{eu-west-1,us-east-1}' where id = 'acc_1'`.execute(db);

    await migrateToLatest(db);
    const rows = await db
      .selectFrom('accounts')
      .select(['id', 'region_baseline', 'region_baseline_learned_at', 'identities_scanned_at', 'used_regions'])
      .orderBy('id')
      .execute();
    expect(rows).toEqual([
      {
        id: 'acc_1',
        region_baseline: ['eu-west-1', 'us-east-1'],
        region_baseline_learned_at: scannedAt,
        identities_scanned_at: scannedAt,
        used_regions: ['eu-west-1', 'us-east-1'],
      },
      {
        id: 'acc_2',
        region_baseline: null,
        region_baseline_learned_at: null,
        identities_scanned_at: null,
        used_regions: null,
      },
    ]);

    await revertThrough(db, '20261130T000200_region_baseline');
    const columns = await sql<{ column_name: string }>`select column_name from information_schema.columns
      where table_name = 'accounts' and column_name in ('region_baseline', 'region_baseline_learned_at', 'identities_scanned_at', 'used_regions')`.execute(
      db,
    );
    expect(columns.rows.map((c) => c.column_name)).toEqual(['used_regions']);
  });
});

describe('the migration that ends the event keys a disconnect or a second rotation should have ended', () => {
  let previous: TestDatabase;
  beforeAll(async () => {
    previous = await createTestDatabase({ migrate: false });
  });
  afterAll(() => previous.drop());

  it("ends a disconnected account's keys, and of each account's rotated-out keys keeps only the newest", async () => {
    const db = previous.db;
    await migrateToLatest(db);
    await revertThrough(db, '20261208T000300_event_key_revocation');
    await db.insertInto('tenants').values({ id: 'ten_1', name: 'T' }).execute();
    await db
      .insertInto('accounts')
      .values([accountRow('acc_1', 1), { ...accountRow('acc_2', 2), status: 'DISCONNECTED' }])
      .execute();
    const hours = (n: number) => new Date(Date.now() + n * 3_600_000);
    const key = (keyHash: string, accountId: string, createdAt: Date, expiresAt: Date | null) => ({
      key_hash: keyHash,
      tenant_id: 'ten_1',
      account_id: accountId,
      created_at: createdAt,
      expires_at: expiresAt,
    });
    await db
      .insertInto('account_event_keys')
      .values([
        key('older', 'acc_1', hours(-3), hours(21)),
        key('replaced', 'acc_1', hours(-2), hours(22)),
        key('current', 'acc_1', hours(-1), null),
        key('gone', 'acc_1', hours(-48), hours(-20)),
        key('disconnected', 'acc_2', hours(-5), null),
        key('disconnected-rotated', 'acc_2', hours(-6), hours(18)),
      ])
      .execute();

    await migrateToLatest(db);
    const rows = await db.selectFrom('account_event_keys').select(['key_hash', 'expires_at']).execute();
    const works = Object.fromEntries(
      rows.map((r) => [r.key_hash, r.expires_at === null || r.expires_at.getTime() > Date.now()]),
    );
    expect(works).toEqual({
      older: false,
      replaced: true,
      current: true,
      gone: false,
      disconnected: false,
      'disconnected-rotated': false,
    });
  });
});

describe('the migration that dates each event no later than its arrival', () => {
  let previous: TestDatabase;
  beforeAll(async () => {
    previous = await createTestDatabase({ migrate: false });
  });
  afterAll(() => previous.drop());

  it('takes the arrival as the time of events stored with a later one, and of the signals they opened', async () => {
    const db = previous.db;
    await migrateToLatest(db);
    await revertThrough(db, '20261208T000100_event_times_at_arrival');
    await db.insertInto('tenants').values({ id: 'ten_1', name: 'T' }).execute();
    await db.insertInto('accounts').values(accountRow('acc_1', 1)).execute();
    const arrived = new Date('2026-12-01T10:00:00Z');
    const claimed = new Date('2030-01-01T00:00:00Z');
    const earlier = new Date('2026-12-01T09:58:00Z');
    const event = (id: string, time: Date) => ({
      account_id: 'acc_1',
      event_id: id,
      tenant_id: 'ten_1',
      source: 'aws.iam',
      detail_type: 'AWS API Call via CloudTrail',
      region: 'us-east-1',
      event_time: time,
      detail: JSON.stringify({ eventTime: time.toISOString() }),
    });
    await db
      .insertInto('account_events')
      .values([event('future', claimed), event('on-time', earlier)])
      .execute();
    await sql`update account_events set received_at = ${arrived}`.execute(db);
    const signal = (id: string, occurredAt: Date) => ({
      id,
      tenant_id: 'ten_1',
      account_id: 'acc_1',
      check_id: 'event.iam_user_created',
      fingerprint: `event.iam_user_created|${id}`,
      scenario: 'iam' as const,
      severity: 'MEDIUM' as const,
      title: 't',
      description: 'd',
      resource: 'r',
      detected_at: arrived,
      occurred_at: occurredAt,
    });
    await db
      .insertInto('signals')
      .values([signal('sig_future', claimed), signal('sig_on_time', earlier)])
      .execute();

    await migrateToLatest(db);
    expect(
      await db.selectFrom('account_events').select(['event_id', 'event_time', 'detail']).orderBy('event_id').execute(),
    ).toEqual([
      { event_id: 'future', event_time: arrived, detail: { eventTime: claimed.toISOString() } },
      { event_id: 'on-time', event_time: earlier, detail: { eventTime: earlier.toISOString() } },
    ]);
    expect(await db.selectFrom('signals').select(['id', 'occurred_at']).orderBy('id').execute()).toEqual([
      { id: 'sig_future', occurred_at: arrived },
      { id: 'sig_on_time', occurred_at: earlier },
    ]);
  });
});

describe('the migration that keeps the state of the detections with memory', () => {
  let previous: TestDatabase;
  beforeAll(async () => {
    previous = await createTestDatabase({ migrate: false });
  });
  afterAll(() => previous.drop());

  it('keeps windows and uses per account, one row per key, refuses an empty window, and goes with its account', async () => {
    const db = previous.db;
    await migrateToLatest(db);
    await db.insertInto('tenants').values({ id: 'ten_1', name: 'T' }).execute();
    await db.insertInto('accounts').values(accountRow('acc_1', 1)).execute();
    const window = {
      account_id: 'acc_1',
      tenant_id: 'ten_1',
      detection_id: 'event.console_sign_in_failures',
      key: '198.51.100.23',
      window_start: new Date('2026-12-01T10:00:00Z'),
      count: 1,
      updated_at: new Date('2026-12-01T10:01:00Z'),
    };
    await db.insertInto('detection_windows').values(window).execute();
    await expect(db.insertInto('detection_windows').values(window).execute()).rejects.toThrow(/duplicate key/);
    await expect(
      db
        .insertInto('detection_windows')
        .values({ ...window, key: 'other', count: 0 })
        .execute(),
    ).rejects.toThrow(/check/);
    const use = {
      account_id: 'acc_1',
      tenant_id: 'ten_1',
      principal: 'arn:aws:iam::123456789012:user/alice',
      api: 'iam.amazonaws.com:CreateAccessKey',
      last_used_at: new Date('2026-12-01T10:00:00Z'),
    };
    await db.insertInto('principal_api_uses').values(use).execute();
    await expect(db.insertInto('principal_api_uses').values(use).execute()).rejects.toThrow(/duplicate key/);
    expect(await db.selectFrom('detection_windows').select(['distinct_values', 'signalled']).execute()).toEqual([
      { distinct_values: [], signalled: false },
    ]);
    await db.deleteFrom('accounts').where('id', '=', 'acc_1').execute();
    expect(await db.selectFrom('detection_windows').selectAll().execute()).toEqual([]);
    expect(await db.selectFrom('principal_api_uses').selectAll().execute()).toEqual([]);
    await revertThrough(db, '20261215T000200_detection_windows');
    const left = await sql<{ n: string }>`select count(*) as n from information_schema.tables
      where table_name in ('detection_windows', 'principal_api_uses')`.execute(db);
    expect(left.rows[0]?.n).toBe('0');
  });
});
