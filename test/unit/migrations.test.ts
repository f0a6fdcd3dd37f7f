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
      'audit_events',
      'cost_explorer_reads',
      'delivery_attempts',
      'email_outbox',
      'email_verifications',
      'event_batches',
      'exports',
      'invitations',
      'oauth_states',
      'open_signal_counts',
      'organization_accounts',
      'organizations',
      'password_resets',
      'rate_limits',
      'refresh_tokens',
      'scan_checkpoints',
      'scans',
      'score_history',
      'signal_acceptances',
      'signals',
      'slack_installations',
      'stripe_events',
      'stripe_subscriptions',
      'tenants',
      'users',
    ]);
    // Each step reverts the most recent migration; all of them leave nothing behind.
    while ((await migrateDown(database.db)).length > 0);
    expect(await tables()).toEqual([]);
    await migrateToLatest(database.db);
    expect(await tables()).toHaveLength(33);
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

    it('allows one owner per tenant and one user per e-mail', async () => {
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
      ).rejects.toThrow(/users_email_key/);
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

describe("the migration that names an alert rule's last source", () => {
  let previous: TestDatabase;
  beforeAll(async () => {
    previous = await createTestDatabase({ migrate: false });
  });
  afterAll(() => previous.drop());

  it('copies what last_scan_id held, scan or event batch, into last_source_id', async () => {
    const db = previous.db;
    await migrateToLatest(db);
    // The migrations after it first, then it.
    const lastSource = 'Down 20261129T000100_alert_rule_last_source: Success';
    let down: string[];
    do down = await migrateDown(db);
    while (down.length > 0 && !down.includes(lastSource));
    expect(down).toEqual([lastSource]);
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
