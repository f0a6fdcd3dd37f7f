import type { z } from 'zod';
import { accountDetail, connectAccountOutput, listAccountsOutput } from '../../core/schemas/accounts';
import { signupOutput, tokensOutput } from '../../core/schemas/auth';
import { plansOutput } from '../../core/schemas/billing';
import { accountChecksOutput, checkEntry } from '../../core/schemas/checks';
import { errorBody, messageBody } from '../../core/schemas/common';
import { meOutput, patchMeOutput } from '../../core/schemas/me';
import { listSignalsOutput, recoveryChecklistOutput, scoreHistoryOutput } from '../../core/schemas/signals';
import { CATALOG } from '../../domain/checks/catalog';
import { SERVICES } from '../../domain/checks/services';
import { createTestContext, type TestContext } from '../helpers/context';
import { scanResult } from '../helpers/scans';

// Every response matches its documented schema exactly (the same zod schemas the OpenAPI document will be
// built from): unknown fields are errors here, so a response cannot drift from its schema unnoticed.
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({ withWorker: true, config: { CLOUD_PROVIDER: 'sandbox' } });
});
afterAll(() => ctx.close());

function conforms(schema: z.ZodObject, body: unknown): void {
  const result = schema.strict().safeParse(body);
  if (!result.success) throw new Error(`response does not match its schema: ${JSON.stringify(result.error.issues)}`);
}

describe('response schemas', () => {
  it('hold for the whole account flow', async () => {
    const signup = await ctx.http
      .post('/auth/signup')
      .send({ email: 'schema@example.com', password: 'password123', name: 'Schema' })
      .expect(201);
    conforms(signupOutput, signup.body);
    const login = await ctx.http
      .post('/auth/login')
      .send({ email: 'schema@example.com', password: 'password123' })
      .expect(200);
    conforms(tokensOutput, login.body);
    const auth = { Authorization: `Bearer ${login.body.id_token}` };

    conforms(meOutput, (await ctx.http.get('/me').set(auth).expect(200)).body);
    conforms(patchMeOutput, (await ctx.http.patch('/me').set(auth).send({ name: 'Renamed' }).expect(200)).body);
    conforms(plansOutput, (await ctx.http.get('/billing/plans').expect(200)).body);

    conforms(
      connectAccountOutput,
      (await ctx.http.post('/accounts').set(auth).send({ aws_account_id: '123456789012' }).expect(201)).body,
    );
    const verified = await ctx.http.post('/accounts/123456789012/verify').set(auth).expect(200);
    await scanResult(ctx.temporal, verified.body.first_scan_execution_arn);

    conforms(listAccountsOutput, (await ctx.http.get('/accounts').set(auth).expect(200)).body);
    conforms(accountDetail, (await ctx.http.get('/accounts/123456789012').set(auth).expect(200)).body);
    const signals = (await ctx.http.get('/accounts/123456789012/signals').set(auth).expect(200)).body;
    expect(signals.count).toBeGreaterThan(0); // the sandbox account has findings
    conforms(listSignalsOutput, signals);
    conforms(
      scoreHistoryOutput,
      (await ctx.http.get('/accounts/123456789012/score-history').set(auth).expect(200)).body,
    );
    conforms(
      recoveryChecklistOutput,
      (await ctx.http.get('/accounts/123456789012/recovery-checklist').set(auth).expect(200)).body,
    );
    const checks = (await ctx.http.get('/accounts/123456789012/checks').set(auth).expect(200)).body;
    conforms(accountChecksOutput, checks);
    for (const entry of checks.checks) conforms(checkEntry, entry);
    // Each check with the service it judges, as the dashboard groups them, and the Prowler checks it matches.
    expect(
      checks.checks.map((c: { check_id: string; service: string; service_label: string; prowler_ids: string[] }) => [
        c.check_id,
        c.service,
        c.service_label,
        c.prowler_ids,
      ]),
    ).toEqual(CATALOG.map((c) => [c.id, c.service, SERVICES[c.service], [...(c.prowler ?? [])]]));
    conforms(messageBody, (await ctx.http.delete('/accounts/123456789012').set(auth).expect(200)).body);
  });

  it('hold for errors', async () => {
    conforms(errorBody, (await ctx.http.get('/me').expect(401)).body);
    conforms(errorBody, (await ctx.http.post('/auth/signup').send({}).expect(400)).body);
  });
});
