import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import {
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  sql,
  type UnknownRow,
} from 'kysely';
import type { Browser } from 'playwright-core';
import request from 'supertest';
import { createApp } from '../../api/app';
import { SANDBOX_PARTIAL_ACCOUNT_ID } from '../../cloud/sandbox/inventory';
import { findRescanChecksSinceFullScan } from '../../db/repositories/scans';
import { CATALOG, checkById } from '../../domain/checks/catalog';
import { frameworkById } from '../../domain/compliance/frameworks';
import { CONTROL_STATUSES } from '../../domain/compliance/types';
import { eventDetection } from '../../domain/events/catalog';
import { waitFor } from '../helpers/patience';
import { createTestContext, signupAndLogin, type TestContext, type TestUser } from '../helpers/context';
import { scanResult } from '../helpers/scans';
import { callerFor } from '../trpc/caller';
import { launchChromium } from '../web/browser';

// The compliance endpoints and the report on a scanned sandbox account: each control's status follows its checks'
// outcomes and the open signals (accepted risk apart), before and after the first scan, across the tenant, with the
// report opened in Chromium and read back from its DOM. What a check could not read makes its controls partial, never
// passed; an event fails the controls it breaks at once, before any scan.

const AWS_ID = '123456789012';
const FRESH_ID = '210987654321';
/** A sandbox account whose baseline opens RDP to 0.0.0.0/0 (and to no IPv6 source). */
const RDP_ID = '123456789014';
const GONE_ID = '333344445555';
const NAME = '<b>Prod</b> & "payments"';
const CIS = frameworkById('cis-aws-7.0');
const SHOTS = path.resolve(__dirname, '..', '..', 'test-results', 'screenshots');

interface Control {
  id: string;
  status: string;
  check_ids: string[];
  notes: string[];
  unread: { check_id: string; kind: string; scope: string; reason: string }[];
  attestation: string | null;
  failing_resources: { signal_id: string; check_id: string; resource: string; region: string; accepted: boolean }[];
}
interface OpenSignal {
  signal_id: string;
  check_id: string;
  resource: string;
  description: string;
}
interface Compliance {
  scan_id: string | null;
  scanned_at: string | null;
  summary: Record<string, number>;
  controls: Control[];
}

let ctx: TestContext;
let owner: TestUser;

beforeAll(async () => {
  ctx = await createTestContext({ withWorker: true, config: { CLOUD_PROVIDER: 'sandbox' } });
  owner = await signupAndLogin(ctx);
  await ctx.db.updateTable('tenants').set({ plan: 'team' }).where('id', '=', owner.tenantId).execute();
  await ctx.http.post('/accounts').set(owner.auth).send({ aws_account_id: AWS_ID, display_name: NAME }).expect(201);
  const verified = await ctx.http.post(`/accounts/${AWS_ID}/verify`).set(owner.auth).expect(200);
  await scanResult(ctx.temporal, verified.body.first_scan_execution_arn);
  await ctx.http.post('/accounts').set(owner.auth).send({ aws_account_id: RDP_ID }).expect(201);
  const rdpVerified = await ctx.http.post(`/accounts/${RDP_ID}/verify`).set(owner.auth).expect(200);
  await scanResult(ctx.temporal, rdpVerified.body.first_scan_execution_arn);
  await ctx.http.post('/accounts').set(owner.auth).send({ aws_account_id: FRESH_ID }).expect(201);
  await ctx.http.post('/accounts').set(owner.auth).send({ aws_account_id: GONE_ID }).expect(201);
  await ctx.http.delete(`/accounts/${GONE_ID}`).set(owner.auth).expect(200);
});
afterAll(() => ctx.close());

const compliance = async (awsId: string, user = owner): Promise<Compliance> =>
  (await ctx.http.get(`/accounts/${awsId}/compliance`).query({ framework: 'cis-aws-7.0' }).set(user.auth).expect(200))
    .body;
const checks = async () =>
  (await ctx.http.get(`/accounts/${AWS_ID}/checks`).set(owner.auth).expect(200)).body.checks as {
    check_id: string;
    status: string;
  }[];
const openSignalsOf = async (checkId: string, awsId = AWS_ID) =>
  (
    await ctx.http
      .get(`/accounts/${awsId}/signals`)
      .query({ status: 'open', check_id: checkId, limit: 200 })
      .set(owner.auth)
      .expect(200)
  ).body.signals as OpenSignal[];
/**
 * Whether an open signal is evidence against a control, told from what the signal itself says: a CIS 5.x alarm by
 * its resource, a group open on an administration port by the source it is open to (6.3 IPv4, 6.4 IPv6).
 */
const ADMIN_PORT_CHECKS = ['exposure.sg_ssh_open', 'exposure.sg_rdp_open', 'exposure.sg_all_ports_open'];
function standsFor(signal: OpenSignal, controlId: string): boolean {
  const controlOfResource = checkById(signal.check_id)?.controlOfResource;
  if (controlOfResource) return controlOfResource(signal.resource) === controlId;
  if (ADMIN_PORT_CHECKS.includes(signal.check_id) && (controlId === '6.3' || controlId === '6.4')) {
    return signal.description.includes(controlId === '6.3' ? 'from 0.0.0.0/0' : 'from ::/0');
  }
  return true;
}
const mappedChecks = (controlId: string) =>
  CATALOG.filter((c) => c.controls?.['cis-aws-7.0']?.includes(controlId)).map((c) => c.id);

describe('GET /compliance/frameworks', () => {
  it('lists CIS AWS Foundations v7.0 with how many controls the checks evaluate', async () => {
    const res = await ctx.http.get('/compliance/frameworks').set(owner.auth).expect(200);
    const evaluated = CIS.controls.filter((c) => mappedChecks(c.id).length > 0).length;
    expect(res.body.frameworks).toEqual([
      {
        framework: 'cis-aws-7.0',
        name: 'CIS Amazon Web Services Foundations Benchmark',
        version: '7.0.0',
        url: CIS.url,
        controls: 70,
        automated_controls: 34,
        evaluated_controls: evaluated,
        manual_controls: 70 - evaluated,
      },
    ]);
  });
});

describe('GET /accounts/{account_id}/compliance', () => {
  it("gives every control, in order, the status its checks' outcomes and open signals make", async () => {
    const body = await compliance(AWS_ID);
    const outcome = new Map((await checks()).map((c) => [c.check_id, c.status]));

    expect(body).toMatchObject({
      framework: 'cis-aws-7.0',
      version: '7.0.0',
      aws_account_id: AWS_ID,
      scan_id: expect.any(String),
    });
    expect(body.controls.map((c) => c.id)).toEqual(CIS.controls.map((c) => c.id));
    for (const control of body.controls) {
      expect([control.id, control.check_ids]).toEqual([control.id, mappedChecks(control.id)]);
      // A failed check fails a control only through an open signal that stands for it (nothing is accepted yet).
      const statuses = await Promise.all(
        control.check_ids.map(async (id) =>
          outcome.get(id) === 'failed'
            ? (await openSignalsOf(id)).some((s) => standsFor(s, control.id))
              ? 'failed'
              : 'passed'
            : outcome.get(id),
        ),
      );
      const expected =
        statuses.length === 0
          ? 'manual'
          : statuses.includes('failed')
            ? 'failed'
            : statuses.includes('not_evaluated')
              ? 'not_evaluated'
              : 'passed';
      expect([control.id, control.status]).toEqual([control.id, expected]);
      expect([control.id, control.attestation === null]).toEqual([control.id, expected !== 'manual']);
    }
    const counted = Object.fromEntries(
      CONTROL_STATUSES.map((s) => [s, body.controls.filter((c) => c.status === s).length]),
    );
    expect(body.summary).toEqual(counted);
    // The sandbox account fails some controls and passes others: the test would see a wrong status either way.
    expect(body.summary.failed).toBeGreaterThan(0);
    expect(body.summary.passed).toBeGreaterThan(0);
  });

  it('fails CIS 6.3 and passes 6.4 for an administration port open to IPv4 sources only', async () => {
    const rdp = await openSignalsOf('exposure.sg_rdp_open', RDP_ID);
    expect(rdp.map((s) => s.description)).toEqual([expect.stringContaining('tcp port 3389 from 0.0.0.0/0.')]);
    const byId = new Map((await compliance(RDP_ID)).controls.map((c) => [c.id, c]));
    expect(byId.get('6.3')).toMatchObject({
      status: 'failed',
      failing_resources: expect.arrayContaining([expect.objectContaining({ signal_id: rdp[0]?.signal_id })]),
    });
    expect(byId.get('6.4')).toMatchObject({ status: 'passed', failing_resources: [] });
  });

  it("shows each failing check's open signals as the evidence", async () => {
    const failed = (await compliance(AWS_ID)).controls.filter((c) => c.status === 'failed');
    for (const control of failed) {
      const expected = (await Promise.all(control.check_ids.map((id) => openSignalsOf(id))))
        .flat()
        .filter((s) => standsFor(s, control.id))
        .map((s) => s.signal_id)
        .sort();
      expect([control.id, control.failing_resources.map((f) => f.signal_id).sort()]).toEqual([control.id, expected]);
      expect(control.failing_resources.every((f) => !f.accepted && control.check_ids.includes(f.check_id))).toBe(true);
    }
  });

  it('makes a control whose every failure is accepted risk `accepted`, not passed, until the acceptance is undone', async () => {
    const outcome = new Map((await checks()).map((c) => [c.check_id, c.status]));
    const target = (await compliance(AWS_ID)).controls.find(
      (c) => c.status === 'failed' && c.check_ids.every((id) => outcome.get(id) !== 'not_evaluated'),
    );
    if (!target) throw new Error('the sandbox account fails no control');
    for (const f of target.failing_resources) {
      await ctx.http
        .post(`/accounts/${AWS_ID}/signals/${f.signal_id}/accept`)
        .set(owner.auth)
        .send({ reason: 'Known and watched' })
        .expect(200);
    }

    const accepted = (await compliance(AWS_ID)).controls.find((c) => c.id === target.id);
    expect(accepted).toMatchObject({ status: 'accepted' });
    expect(accepted?.failing_resources.every((f) => f.accepted)).toBe(true);

    for (const f of target.failing_resources)
      await ctx.http.delete(`/accounts/${AWS_ID}/signals/${f.signal_id}/accept`).set(owner.auth).expect(200);
    expect((await compliance(AWS_ID)).controls.find((c) => c.id === target.id)?.status).toBe('failed');
  });

  it('before the first scan, leaves every control with checks not evaluated and says why', async () => {
    const body = await compliance(FRESH_ID);

    expect(body).toMatchObject({ scan_id: null, scanned_at: null });
    for (const control of body.controls) {
      if (control.check_ids.length === 0) expect(control.status).toBe('manual');
      else
        expect(control).toMatchObject({
          status: 'not_evaluated',
          notes: control.check_ids.map((id) => `${id}: the account has not been scanned yet`),
        });
    }
  });

  it.each([
    ['no framework', {}, 'framework'],
    ['an unknown framework', { framework: 'iso-27001' }, 'framework'],
    ['an unknown parameter', { framework: 'cis-aws-7.0', format: 'pdf' }, 'format'],
  ])('rejects %s with 400', async (_label, query, field) => {
    const res = await ctx.http.get(`/accounts/${AWS_ID}/compliance`).query(query).set(owner.auth).expect(400);
    expect(res.body).toMatchObject({ code: 'validation_failed', error: expect.stringContaining(field) });
  });

  it("is 404 for another tenant's account, which its own tenant view does not list", async () => {
    const other = await signupAndLogin(ctx);
    const res = await ctx.http
      .get(`/accounts/${AWS_ID}/compliance`)
      .query({ framework: 'cis-aws-7.0' })
      .set(other.auth)
      .expect(404);
    expect(res.body.code).toBe('not_found');
    await ctx.http
      .get(`/accounts/${AWS_ID}/compliance/report`)
      .query({ framework: 'cis-aws-7.0' })
      .set(other.auth)
      .expect(404);
    expect(
      (await ctx.http.get('/compliance').query({ framework: 'cis-aws-7.0' }).set(other.auth).expect(200)).body.accounts,
    ).toEqual([]);
  });
});

describe('GET /compliance', () => {
  it("gives each monitored account its summary, the same as the account's own view; disconnected ones are left out", async () => {
    const res = await ctx.http.get('/compliance').query({ framework: 'cis-aws-7.0' }).set(owner.auth).expect(200);

    const [scanned, rdp, fresh] = [await compliance(AWS_ID), await compliance(RDP_ID), await compliance(FRESH_ID)];
    expect(res.body).toEqual({
      framework: 'cis-aws-7.0',
      name: CIS.name,
      version: '7.0.0',
      accounts: expect.arrayContaining([
        {
          aws_account_id: AWS_ID,
          display_name: NAME,
          status: 'ACTIVE',
          scan_id: scanned.scan_id,
          scanned_at: scanned.scanned_at,
          summary: scanned.summary,
        },
        {
          aws_account_id: RDP_ID,
          display_name: null,
          status: 'ACTIVE',
          scan_id: rdp.scan_id,
          scanned_at: rdp.scanned_at,
          summary: rdp.summary,
        },
        {
          aws_account_id: FRESH_ID,
          display_name: null,
          status: 'PENDING',
          scan_id: null,
          scanned_at: null,
          summary: fresh.summary,
        },
      ]),
    });
    expect(res.body.accounts).toHaveLength(3);
  });
});

describe('GET /accounts/{account_id}/compliance/report', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('is a self-contained HTML attachment that Chromium renders with every control, its evidence and the summary', async () => {
    const res = await ctx.http
      .get(`/accounts/${AWS_ID}/compliance/report`)
      .query({ framework: 'cis-aws-7.0' })
      .set(owner.auth)
      .expect(200);
    const body = await compliance(AWS_ID);

    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(
      new RegExp(`^attachment; filename="sentinel-cis-aws-7.0-${AWS_ID}-\\d{4}-\\d{2}-\\d{2}\\.html"$`),
    );
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    const html = res.text;
    // Self-contained: nothing to fetch, nothing to run.
    expect(html).not.toMatch(/<script|<link|src="http/i);

    const context = await browser.newContext({ viewport: { width: 1200, height: 900 }, javaScriptEnabled: false });
    const page = await context.newPage();
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    await page.setContent(html);

    // The tenant's name is text, never markup.
    expect(await page.locator('#account').textContent()).toBe(`${NAME} (${AWS_ID})`);
    expect(await page.locator('#account b').count()).toBe(0);
    expect(await page.locator('#scanned-at').textContent()).toBe(
      `${(body.scanned_at as string).slice(0, 16).replace('T', ' ')} UTC`,
    );
    for (const [status, n] of Object.entries(body.summary)) {
      expect([status, await page.locator(`[data-summary="${status}"] .n`).textContent()]).toEqual([status, String(n)]);
    }
    const rows = await page
      .locator('tr.control')
      .evaluateAll((trs) => trs.map((tr) => [tr.getAttribute('data-control'), tr.getAttribute('data-status')]));
    expect(rows).toEqual(body.controls.map((c) => [c.id, c.status]));
    const failed = body.controls.find((c) => c.status === 'failed') as Control;
    const row = page.locator(`tr[data-control="${failed.id}"]`);
    for (const f of failed.failing_resources)
      expect(await row.locator('.evidence').textContent()).toContain(f.resource);
    const remediation = CATALOG.find((c) => c.id === failed.failing_resources[0]?.check_id)?.remediation as string;
    expect(await row.locator('.remediation').textContent()).toContain(remediation);
    const manual = body.controls.find((c) => c.status === 'manual') as Control;
    expect(await page.locator(`tr[data-control="${manual.id}"] .attest`).textContent()).toContain(
      manual.attestation as string,
    );

    // The chart: one bar per section, its segments' widths in proportion to the controls they stand for.
    const sections = new Set(CIS.controls.map((c) => c.section)).size;
    const chart = page.locator('svg.chart');
    expect(await chart.locator('title').count()).toBeGreaterThanOrEqual(sections);
    const box = await chart.boundingBox();
    expect(box?.width).toBeGreaterThan(500);
    // (Page code as a string: this file is type-checked for Node, without the DOM's globals.)
    expect(
      await page.evaluate(
        `getComputedStyle(document.querySelector('tr[data-control="${failed.id}"] .status')).backgroundColor`,
      ),
    ).toBe('rgb(207, 34, 46)');
    mkdirSync(SHOTS, { recursive: true });
    const shot = await page.screenshot({ path: path.join(SHOTS, 'compliance-report.png'), fullPage: true });
    // A PNG's IHDR: the full page is as wide as the viewport and as tall as 70 controls make it.
    expect(shot.readUInt32BE(16)).toBe(1200);
    expect(shot.readUInt32BE(20)).toBeGreaterThan(3000);
    expect(requests.filter((url) => !url.startsWith('data:') && url !== 'about:blank')).toEqual([]);
    await context.close();
  });
});

describe('what a control does not know, and what events tell it', () => {
  /** The sandbox account an SCP denies two regions and a bucket policy one bucket. */
  const PARTIAL_ID = SANDBOX_PARTIAL_ACCOUNT_ID;
  /** A sandbox account whose baseline logs with a multi-region trail (CIS 4.1 passes). */
  const EVENTS_ID = '123456789015';
  const FIXTURES = path.join(__dirname, '../fixtures/aws-events');
  let tenant: TestUser;
  let eventKey: string;
  let sequence = 0;

  beforeAll(async () => {
    tenant = await signupAndLogin(ctx);
    await ctx.db.updateTable('tenants').set({ plan: 'team' }).where('id', '=', tenant.tenantId).execute();
    await ctx.http.post('/accounts').set(tenant.auth).send({ aws_account_id: PARTIAL_ID }).expect(201);
    const partial = await ctx.http.post(`/accounts/${PARTIAL_ID}/verify`).set(tenant.auth).expect(200);
    await scanResult(ctx.temporal, partial.body.first_scan_execution_arn);
    const connected = await ctx.http.post('/accounts').set(tenant.auth).send({ aws_account_id: EVENTS_ID }).expect(201);
    eventKey = connected.body.event_forwarding.api_key;
    const verified = await ctx.http.post(`/accounts/${EVENTS_ID}/verify`).set(tenant.auth).expect(200);
    await scanResult(ctx.temporal, verified.body.first_scan_execution_arn);
  });

  const checksOf = async (awsId: string) =>
    (await ctx.http.get(`/accounts/${awsId}/checks`).set(tenant.auth).expect(200)).body.checks as {
      check_id: string;
      status: string;
      unread: string[];
      reason: string | null;
    }[];
  const byId = (body: Compliance) => new Map(body.controls.map((c) => [c.id, c]));

  /** A fixture of test/fixtures/aws-events as a new event of the events account, happening now. */
  function event(name: string): Record<string, unknown> {
    sequence += 1;
    const fixture = JSON.parse(readFileSync(path.join(FIXTURES, `${name}.json`), 'utf8')) as Record<string, unknown>;
    return { ...fixture, id: `${name}-${sequence}-${Date.now()}`, account: EVENTS_ID, time: new Date().toISOString() };
  }

  it('is partial, never passed, where its checks could not read a region or a resource, and names what', async () => {
    const body = await compliance(PARTIAL_ID, tenant);
    const checks = new Map((await checksOf(PARTIAL_ID)).map((c) => [c.check_id, c]));
    const denied = [...new Set([...checks.values()].flatMap((c) => c.unread))];
    expect(denied.length).toBeGreaterThanOrEqual(2);

    // CIS 4.1's checks read every region they may and passed; the denied ones are named, with why.
    const trail = byId(body).get('4.1') as Control;
    expect(trail.check_ids.map((id) => checks.get(id)?.status)).toEqual(['passed', 'passed']);
    expect(trail).toMatchObject({ status: 'partial', failing_resources: [] });
    expect(new Set(trail.unread.map((u) => u.scope))).toEqual(
      new Set(trail.check_ids.flatMap((id) => checks.get(id)?.unread ?? [])),
    );
    expect(trail.unread.every((u) => u.kind === 'region' && /AccessDenied/.test(u.reason))).toBe(true);

    for (const control of body.controls) {
      const unread = control.check_ids.flatMap((id) => checks.get(id)?.unread ?? []);
      // Passed means every check behind it read everything and passed.
      if (control.status === 'passed') expect([control.id, unread]).toEqual([control.id, []]);
      if (control.status === 'partial') {
        expect([control.id, control.unread.length > 0, control.failing_resources]).toEqual([control.id, true, []]);
        for (const u of control.unread) {
          expect([control.id, control.check_ids.includes(u.check_id)]).toEqual([control.id, true]);
          expect([control.id, checks.get(u.check_id)?.unread]).toEqual([control.id, expect.arrayContaining([u.scope])]);
        }
      }
    }
    // The bucket the scan could not read leaves CIS 3.1.1 (HTTP denied to every bucket) partial.
    expect(byId(body).get('3.1.1')).toMatchObject({
      status: 'partial',
      unread: [expect.objectContaining({ kind: 'resource', scope: expect.stringContaining('backups') })],
    });
    expect(body.summary.partial).toBe(body.controls.filter((c) => c.status === 'partial').length);
    expect(body.summary.partial).toBeGreaterThan(0);
    expect(body.summary.passed).toBeGreaterThan(0);
  });

  it('says the same through REST, tRPC, the tenant summary and the report', async () => {
    const body = await compliance(PARTIAL_ID, tenant);
    const trpc = callerFor(ctx, tenant);
    const cis = { framework: 'cis-aws-7.0' } as const;
    expect(await trpc.compliance.account({ account_id: PARTIAL_ID, query: cis })).toEqual(body);
    const tenantView = (await ctx.http.get('/compliance').query(cis).set(tenant.auth).expect(200)).body;
    expect(await trpc.compliance.tenant(cis)).toEqual(tenantView);
    expect(
      tenantView.accounts.find((a: { aws_account_id: string }) => a.aws_account_id === PARTIAL_ID)?.summary,
    ).toEqual(body.summary);

    const html = (
      await ctx.http.get(`/accounts/${PARTIAL_ID}/compliance/report`).query(cis).set(tenant.auth).expect(200)
    ).text;
    expect((await trpc.compliance.report({ account_id: PARTIAL_ID, query: cis })).html).toBe(html);
    const cards = Object.fromEntries(
      [...html.matchAll(/data-summary="([a-z_]+)"[^>]*><div class="n">(\d+)<\/div>/g)].map((m) => [m[1], Number(m[2])]),
    );
    expect(cards).toEqual(body.summary);
    const rows = [...html.matchAll(/<tr class="control" data-control="([^"]+)" data-status="([a-z_]+)"/g)].map((m) => [
      m[1],
      m[2],
    ]);
    expect(rows).toEqual(body.controls.map((c) => [c.id, c.status]));
    const trailRow = html.slice(html.indexOf('data-control="4.1"'), html.indexOf('data-control="4.2"'));
    expect(trailRow).toContain('>Partial</span>');
    for (const u of byId(body).get('4.1')?.unread ?? []) expect(trailRow).toContain(u.scope);
  });

  it('fails the controls an event breaks at once, with its signal as evidence, before the next scan', async () => {
    const before = await compliance(EVENTS_ID, tenant);
    expect(byId(before).get('4.1')?.status).toBe('passed');
    const ssh4 = byId(before).get('6.4') as Control;

    await ctx.http
      .post('/ingest/aws/events')
      .set('Content-Type', 'application/json')
      .set('X-Sentinel-Event-Key', eventKey)
      .send(JSON.stringify([event('stop-logging'), event('sg-open-ssh')]))
      .expect(202);

    const after = await compliance(EVENTS_ID, tenant);
    // No scan ran in between: the events alone changed it.
    expect(after.scan_id).toBe(before.scan_id);
    const stopped = {
      check_id: 'event.cloudtrail_logging_stopped',
      resource: 'management-events',
      region: 'us-east-1',
      accepted: false,
    };
    expect(byId(after).get('4.1')).toMatchObject({
      status: 'failed',
      failing_resources: [expect.objectContaining(stopped)],
    });
    // SSH opened to 0.0.0.0/0 breaks CIS 6.3; 6.4 (::/0) is as the scan left it.
    expect(byId(after).get('6.3')).toMatchObject({
      status: 'failed',
      failing_resources: expect.arrayContaining([
        expect.objectContaining({
          check_id: 'event.security_group_admin_port_opened',
          resource: 'sg-0a1b2c3d4e5f60718',
        }),
      ]),
    });
    expect(byId(after).get('6.4')).toEqual(ssh4);
    expect(after.summary.failed).toBe(after.controls.filter((c) => c.status === 'failed').length);
    expect(after.summary.failed).toBeGreaterThan(before.summary.failed as number);

    // The report shows the event as the evidence, with what to do about it.
    const html = (
      await ctx.http
        .get(`/accounts/${EVENTS_ID}/compliance/report`)
        .query({ framework: 'cis-aws-7.0' })
        .set(tenant.auth)
        .expect(200)
    ).text;
    const trailRow = html.slice(html.indexOf('data-control="4.1"'), html.indexOf('data-control="4.2"'));
    expect(trailRow).toContain('data-status="failed"');
    expect(trailRow).toContain('event.cloudtrail_logging_stopped');
    const remediation = eventDetection('event.cloudtrail_logging_stopped')?.remediation as string;
    expect(trailRow).toContain(remediation.replaceAll('&', '&amp;').replaceAll('>', '&gt;').replaceAll("'", '&#39;'));

    // Accepted, the event's risk is the tenant's decision: the control is accepted, never passed.
    const signalId = byId(after)
      .get('4.1')
      ?.failing_resources.find((f) => f.check_id === stopped.check_id)?.signal_id as string;
    await ctx.http
      .post(`/accounts/${EVENTS_ID}/signals/${signalId}/accept`)
      .set(tenant.auth)
      .send({ reason: 'Maintenance window' })
      .expect(200);
    expect(byId(await compliance(EVENTS_ID, tenant)).get('4.1')?.status).toBe('accepted');
    await ctx.http.delete(`/accounts/${EVENTS_ID}/signals/${signalId}/accept`).set(tenant.auth).expect(200);
    expect(byId(await compliance(EVENTS_ID, tenant)).get('4.1')?.status).toBe('failed');
  });

  it('follows the targeted rescan the events asked for: what it read settles their signals', async () => {
    const before = await compliance(EVENTS_ID, tenant);
    const openEventSignals = async () =>
      (
        await ctx.http
          .get(`/accounts/${EVENTS_ID}/signals`)
          .query({ status: 'open', limit: 200 })
          .set(tenant.auth)
          .expect(200)
      ).body.signals.filter((s: { check_id: string }) => s.check_id.startsWith('event.')).length;
    // The rescan waits for the events to quiet down (a minute), then reads the logging and network groups.
    await waitFor(async () => (await openEventSignals()) === 0);

    const after = await compliance(EVENTS_ID, tenant);
    // The full scan still stands for the account; the rescan's outcomes are newer for what it read.
    expect(after.scan_id).toBe(before.scan_id);
    const account = await ctx.db
      .selectFrom('accounts')
      .select('id')
      .where('tenant_id', '=', tenant.tenantId)
      .where('aws_account_id', '=', EVENTS_ID)
      .executeTakeFirstOrThrow();
    const rescans = await ctx.db
      .selectFrom('scans')
      .select('id')
      .where('account_id', '=', account.id)
      .where('trigger', '=', 'event')
      .execute();
    expect(rescans).toHaveLength(1);
    expect(
      (await findRescanChecksSinceFullScan({ db: ctx.db, tenantId: tenant.tenantId, accountIds: [account.id] })).map(
        (r) => r.id,
      ),
    ).toEqual(rescans.map((r) => r.id));
    expect(byId(after).get('4.1')).toMatchObject({ status: 'passed', failing_resources: [] });
    expect(
      byId(after)
        .get('6.3')
        ?.failing_resources.filter((f) => f.check_id.startsWith('event.')),
    ).toEqual([]);
  });
});

describe('an account with thousands of open signals', () => {
  const BIG_ID = '444455556666';
  let tenant: TestUser;
  let counter: RowCounter;
  let app: ReturnType<typeof request>;
  /** A check that evidences one CIS control and no other, whatever its resource. */
  const single = CATALOG.find(
    (c) => !c.controlOfResource && c.controls?.['cis-aws-7.0']?.length === 1,
  ) as (typeof CATALOG)[number];
  const singleControl = single.controls?.['cis-aws-7.0']?.[0] as string;
  const OPENED = 'event.security_group_admin_port_opened';
  const SINGLE = 2_500;
  const NAMED = 1_200;
  const UNNAMED = 700;

  beforeAll(async () => {
    tenant = await signupAndLogin(ctx);
    await ctx.db
      .insertInto('accounts')
      .values({
        id: 'acc_big',
        tenant_id: tenant.tenantId,
        aws_account_id: BIG_ID,
        display_name: null,
        tags: [],
        status: 'ACTIVE',
        external_id: `acc_big-${'x'.repeat(40)}`,
        role_name: 'SentinelReadOnly',
        workflow_id: 'wf-acc_big',
      })
      .execute();
    // Open signals written straight into the table: the check's (every one accepted but the first), and the event
    // detection's, some naming the one control of its three they break (6.3), the others naming none (all three).
    const insert = (prefix: string, checkId: string, count: number, controls: string | null) =>
      sql`insert into signals (id, tenant_id, account_id, check_id, fingerprint, scenario, severity, title, description,
            resource, region, detected_at, controls)
          select ${prefix} || lpad(g::text, 5, '0'), ${tenant.tenantId}, 'acc_big', ${checkId}, ${prefix} || g, 'exposure',
            'HIGH', 't', 'd', 'res-' || lpad(g::text, 5, '0'), 'eu-west-1', now(), ${controls}::jsonb
          from generate_series(1, ${count}) as g`.execute(ctx.db);
    await insert('sig_single_', single.id, SINGLE, null);
    await insert('sig_named_', OPENED, NAMED, JSON.stringify({ 'cis-aws-7.0': ['6.3'] }));
    await insert('sig_unnamed_', OPENED, UNNAMED, null);
    await sql`insert into signal_acceptances (id, tenant_id, account_id, signal_id, accepted_by, accepted_by_email, reason,
          accepted_at)
        select 'acpt_' || id, tenant_id, account_id, id, ${tenant.userId}, ${tenant.email}, 'known', now()
        from signals where account_id = 'acc_big' and id like 'sig_single_%' and id <> 'sig_single_00001'`.execute(
      ctx.db,
    );
    counter = new RowCounter();
    app = request(createApp({ ...ctx, db: ctx.db.withPlugin(counter) }));
  });

  const read = async (path: string, query: Record<string, string>) => {
    counter.rows = 0;
    const res = await app.get(path).query(query).set(tenant.auth).expect(200);
    return { body: res.body, text: res.text, rows: counter.rows };
  };

  it('counts every open signal per control exactly, lists 20 of each, and reads a bounded number of rows', async () => {
    const { body, rows } = await read(`/accounts/${BIG_ID}/compliance`, { framework: 'cis-aws-7.0' });
    const control = (id: string) =>
      (body as Compliance).controls.find((c) => c.id === id) as Control & {
        failing_resources_total: number;
      };
    expect(control(singleControl)).toMatchObject({ status: 'failed', failing_resources_total: SINGLE });
    expect(control('6.3')).toMatchObject({ status: 'failed', failing_resources_total: NAMED + UNNAMED });
    expect(control('6.4')).toMatchObject({ status: 'failed', failing_resources_total: UNNAMED });
    expect(control('6.1.2')).toMatchObject({ status: 'failed', failing_resources_total: UNNAMED });
    for (const id of [singleControl, '6.3', '6.4', '6.1.2']) expect(control(id).failing_resources).toHaveLength(20);
    // The first by region and resource: the one not accepted comes first, then the accepted ones.
    expect(control(singleControl).failing_resources.slice(0, 2)).toEqual([
      {
        signal_id: 'sig_single_00001',
        check_id: single.id,
        resource: 'res-00001',
        region: 'eu-west-1',
        accepted: false,
      },
      {
        signal_id: 'sig_single_00002',
        check_id: single.id,
        resource: 'res-00002',
        region: 'eu-west-1',
        accepted: true,
      },
    ]);
    expect(control('6.4').failing_resources.every((f) => f.signal_id.startsWith('sig_unnamed_'))).toBe(true);
    // The whole request, authentication included, read a few rows per group of signals: not the 4,400 signals.
    expect(rows).toBeLessThan(150);

    // Once the last one is accepted, the control is no longer failed (not evaluated: the account was never scanned).
    await ctx.http
      .post(`/accounts/${BIG_ID}/signals/sig_single_00001/accept`)
      .set(tenant.auth)
      .send({ reason: 'known' })
      .expect(200);
    const after = await read(`/accounts/${BIG_ID}/compliance`, { framework: 'cis-aws-7.0' });
    expect((after.body as Compliance).controls.find((c) => c.id === singleControl)).toMatchObject({
      status: 'not_evaluated',
      failing_resources_total: SINGLE,
    });
  });

  it('gives the report and the tenant summary from the same bounded read', async () => {
    const report = await read(`/accounts/${BIG_ID}/compliance/report`, { framework: 'cis-aws-7.0' });
    expect(report.rows).toBeLessThan(150);
    // Each control lists its first 20 pieces of evidence and says how many more there are.
    const row = new RegExp(
      `data-control="${singleControl.replace(/\./g, '\\.')}"[^]*?<div class="evidence">([^]*?)</div>`,
    );
    const evidence = report.text.match(row)?.[1];
    expect(evidence?.match(/<li>/g)).toHaveLength(20);
    expect(evidence).toContain(`Evidence</strong> (${SINGLE})`);
    expect(evidence).toContain(`and ${SINGLE - 20} more open findings`);
    const tenantView = await read('/compliance', { framework: 'cis-aws-7.0' });
    expect(tenantView.rows).toBeLessThan(100);
    const [account] = (tenantView.body as { accounts: { aws_account_id: string; summary: Record<string, number> }[] })
      .accounts;
    const own = (await read(`/accounts/${BIG_ID}/compliance`, { framework: 'cis-aws-7.0' })).body as Compliance;
    expect(account).toMatchObject({ aws_account_id: BIG_ID, summary: own.summary });
  });
});

/** Counts the rows every query returns: what the API read from PostgreSQL. */
class RowCounter implements KyselyPlugin {
  rows = 0;

  transformQuery({ node }: PluginTransformQueryArgs): RootOperationNode {
    return node;
  }

  async transformResult({ result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    this.rows += result.rows.length;
    return result;
  }
}
