import request from 'supertest';
import { createApp } from '../../api/app';
import { createDb } from '../../db/client';
import {
  ALERT_RULES_PER_TENANT,
  EMAIL_VERIFICATION_RESENDS_PER_HOUR,
  INVITATION_EMAILS_PER_ADDRESS,
} from '../../domain/tenancy/limits';
import { createTestContext, signupAndLogin, type TestContext } from '../helpers/context';

// Limits hold at their edge when two API instances, each with a pool of its own, take requests at once: the
// counts live in PostgreSQL (rate_limits, or a count under the tenant's lock), never in a process.

let ctx: TestContext;
let secondDb: ReturnType<typeof createDb>;
let apps: ReturnType<typeof createApp>[];
beforeAll(async () => {
  ctx = await createTestContext();
  secondDb = createDb({ url: ctx.config.database.url, maxConnections: 5 });
  apps = [ctx.app, createApp({ ...ctx, db: secondDb })];
});
afterAll(async () => {
  await secondDb?.destroy();
  await ctx?.close();
});

/** `count` requests at once, alternating between the two instances; answers their statuses, sorted. */
async function race(
  count: number,
  send: (http: ReturnType<typeof request>, i: number) => request.Test,
): Promise<number[]> {
  const answers = await Promise.all(Array.from({ length: count }, (_, i) => send(request(apps[i % 2]!), i)));
  return answers.map((r) => r.status).sort();
}

describe('limits raced from two API instances', () => {
  it(`alert rules per tenant: ${ALERT_RULES_PER_TENANT}, then 403 plan_limit_exceeded`, async () => {
    const owner = await signupAndLogin(ctx);
    const rule = (i: number) => ({ name: `Rule ${i}`, min_srs: 50, channels: [{ type: 'email', to: [owner.email] }] });
    for (let i = 0; i < ALERT_RULES_PER_TENANT - 3; i += 1)
      await ctx.http.post('/alert-rules').set(owner.auth).send(rule(i)).expect(201);
    const statuses = await race(8, (http, i) =>
      http
        .post('/alert-rules')
        .set(owner.auth)
        .send(rule(100 + i)),
    );
    expect(statuses).toEqual([201, 201, 201, 403, 403, 403, 403, 403]);
    const rows = await ctx.db.selectFrom('alert_rules').select('id').where('tenant_id', '=', owner.tenantId).execute();
    expect(rows).toHaveLength(ALERT_RULES_PER_TENANT);
  });

  it(`invitation e-mails to one address: ${INVITATION_EMAILS_PER_ADDRESS} a day, invites and resends together`, async () => {
    const owner = await signupAndLogin(ctx);
    const invited = await ctx.http
      .post('/users/invite')
      .set(owner.auth)
      .send({ email: 'raced-invitee@example.com', name: 'Ray' })
      .expect(201);
    const statuses = await race(6, (http) => http.post(`/users/${invited.body.user_id}/resend-invite`).set(owner.auth));
    expect(statuses).toEqual([
      ...Array(INVITATION_EMAILS_PER_ADDRESS - 1).fill(200),
      ...Array(7 - INVITATION_EMAILS_PER_ADDRESS).fill(429),
    ]);
  });

  it(`verification links: ${EMAIL_VERIFICATION_RESENDS_PER_HOUR} an hour per user`, async () => {
    const user = await signupAndLogin(ctx.http); // not verified
    const statuses = await race(7, (http) => http.post('/me/verify-email').set(user.auth));
    expect(statuses).toEqual([
      ...Array(EMAIL_VERIFICATION_RESENDS_PER_HOUR).fill(202),
      ...Array(7 - EMAIL_VERIFICATION_RESENDS_PER_HOUR).fill(429),
    ]);
  });
});
