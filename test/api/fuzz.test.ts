import { spawn } from 'node:child_process';
import type { AddressInfo, Server } from 'node:net';
import { createHttpServer } from '../../api/http-server';
import { schemathesisBinary } from '../../scripts/tools';
import { createTestContext, signupAndLogin, type TestContext, type TestUser } from '../helpers/context';
import { scanResult } from '../helpers/scans';

// schemathesis fuzzes every operation of /openapi.json against the real service (real PostgreSQL, a real
// Temporal worker, the sandbox cloud, stripe-mock), as a tenant with an active account, findings, a rule and an alert.
// Checks: no 5xx, only documented status codes, responses matching their schemas. Bounded: a fixed number of
// examples per operation and a fixed seed, so the run takes the same time every time.

const MAX_EXAMPLES = '25';
const SEED = '20261122';

let ctx: TestContext;
let server: Server;
let owner: TestUser;

beforeAll(async () => {
  // Every integration configured (Stripe as stripe-mock, a Slack app), so no operation answers "not configured".
  ctx = await createTestContext({
    withWorker: true,
    config: {
      CLOUD_PROVIDER: 'sandbox',
      STRIPE_SECRET_KEY: 'sk_test_fuzz',
      STRIPE_WEBHOOK_SECRET: 'whsec_fuzz',
      STRIPE_API_BASE_URL: process.env.TEST_STRIPE_MOCK_URL as string,
      STRIPE_PRICE_SOLO: 'price_solo',
      STRIPE_PRICE_TEAM: 'price_team',
      STRIPE_PRICE_AGENCY: 'price_agency',
      STRIPE_PRICE_ENTERPRISE: 'price_enterprise',
      SLACK_CLIENT_ID: '1234.5678',
      SLACK_CLIENT_SECRET: 'fuzz-client-secret',
    },
  });
  server = createHttpServer(ctx.app).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  owner = await signupAndLogin(ctx);
  await ctx.db.updateTable('tenants').set({ plan: 'agency' }).where('id', '=', owner.tenantId).execute();
  await ctx.http
    .post('/alert-rules')
    .set(owner.auth)
    .send({ name: 'Any risk', min_srs: 100, channels: [{ type: 'email', to: ['fuzz@example.com'] }] })
    .expect(201);
  await ctx.http.post('/accounts').set(owner.auth).send({ aws_account_id: '123456789012' }).expect(201);
  const verified = await ctx.http.post('/accounts/123456789012/verify').set(owner.auth).expect(200);
  await scanResult(ctx.temporal, verified.body.first_scan_execution_arn);
});
afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await ctx?.close();
});

function run(binary: string, args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    // Run from the scratch directory: schemathesis keeps a cache in its working directory.
    const child = spawn(binary, args, { cwd: process.env.TEST_SCRATCH_DIR, env: { ...process.env, NO_COLOR: '1' } });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, output }));
  });
}

it('finds no server error, undocumented status or off-schema response in any operation', async () => {
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { code, output } = await run(schemathesisBinary(), [
    'run',
    `${base}/openapi.json`,
    '--url',
    base,
    '--header',
    `Authorization: Bearer ${owner.idToken}`,
    '--checks',
    'not_a_server_error,status_code_conformance,response_schema_conformance',
    '--max-examples',
    MAX_EXAMPLES,
    '--seed',
    SEED,
    '--workers',
    '1',
    '--generation-database',
    'none',
    '--no-shrink',
    '--request-timeout',
    '30',
  ]);
  if (code !== 0) throw new Error(`schemathesis found failures:\n${output.slice(-20_000)}`);
});
