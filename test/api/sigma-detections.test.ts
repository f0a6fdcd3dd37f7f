import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { z } from 'zod';
import { errorBody, messageBody } from '../../core/schemas/common';
import { listDetectionsOutput, tenantDetection } from '../../core/schemas/detections';
import { ROLE_NAME } from '../../domain/onboarding/role';
import { SIGMA_DETECTIONS_PER_TENANT } from '../../domain/tenancy/limits';
import {
  addUserWithRole,
  createTestContext,
  signupAndLogin,
  type TestContext,
  type TestUser,
} from '../helpers/context';

// A tenant's own detections: Sigma rules uploaded, listed, enabled or disabled and deleted, with their validation,
// roles, cap and tenant isolation; and run on the events its accounts forward (POST /ingest/aws/events), where a match
// is named in the event's detections and opens a signal like a built-in detection's.

const SIGMA = path.join(__dirname, '../fixtures/sigma');
const sigmahq = (file: string) => readFileSync(path.join(SIGMA, file), 'utf8');

let ctx: TestContext;
let owner: TestUser;
let admin: TestUser;
let member: TestUser;
let viewer: TestUser;
let other: TestUser;

beforeAll(async () => {
  ctx = await createTestContext({ withWorker: true, config: { CLOUD_PROVIDER: 'sandbox' } });
  owner = await signupAndLogin(ctx);
  admin = await addUserWithRole(ctx, owner.tenantId, 'admin');
  member = await addUserWithRole(ctx, owner.tenantId, 'member');
  viewer = await addUserWithRole(ctx, owner.tenantId, 'viewer');
  other = await signupAndLogin(ctx);
});
afterAll(() => ctx.close());

function conforms(schema: z.ZodObject, body: unknown): void {
  const result = schema.strict().safeParse(body);
  if (!result.success) throw new Error(`response does not match its schema: ${JSON.stringify(result.error.issues)}`);
}

type Detection = z.infer<typeof tenantDetection>;

async function upload(name: string, sigma: string, user: TestUser = admin): Promise<Detection> {
  const res = await ctx.http.post('/detections').set(user.auth).send({ name, sigma }).expect(201);
  conforms(tenantDetection, res.body);
  return res.body as Detection;
}

const rowsOf = (tenantId: string) =>
  ctx.db.selectFrom('tenant_detections').selectAll().where('tenant_id', '=', tenantId).execute();

describe('POST /detections', () => {
  it("stores an admin's rule with its title, level and severity, and audits it", async () => {
    const created = await upload('Config off', sigmahq('aws_config_disable_recording.yml'));
    expect(created).toMatchObject({
      detection_id: expect.stringMatching(/^det_[0-9A-Z]{26}$/),
      name: 'Config off',
      title: 'AWS Config Disabling Channel/Recorder',
      level: 'high',
      severity: 'HIGH',
      enabled: true,
      created_by: admin.userId,
    });
    expect(created.check_id).toBe(`sigma.${created.detection_id}`);
    expect(created.sigma).toBe(sigmahq('aws_config_disable_recording.yml'));
    const audit = await ctx.http.get('/audit-log').set(owner.auth).expect(200);
    expect(JSON.stringify(audit.body)).toContain(`detection:${created.detection_id}`);
  });

  it('refuses what the rule asks that cannot run with a 400 naming each problem, and stores nothing', async () => {
    const before = (await rowsOf(owner.tenantId)).length;
    const res = await ctx.http
      .post('/detections')
      .set(admin.auth)
      .send({ name: 'Login profile', sigma: sigmahq('aws_update_login_profile.yml') })
      .expect(400);
    conforms(errorBody, res.body);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.error).toContain("the modifier 'fieldref' of 'userIdentity.arn|fieldref' is not supported");
    expect(res.body.details).toEqual([{ field: 'sigma', message: expect.stringContaining("'fieldref'") }]);

    const aggregation = `title: Many
logsource:
    product: windows
    service: security
detection:
    sel:
        eventName|base64offset: x
    condition: sel | count() > 5
`;
    const refused = await ctx.http
      .post('/detections')
      .set(admin.auth)
      .send({ name: 'Many', sigma: aggregation })
      .expect(400);
    expect(refused.body.details.map((d: { message: string }) => d.message)).toEqual([
      "logsource product 'windows' is not supported: it must be aws",
      "logsource service 'security' is not supported: it must be cloudtrail",
      expect.stringContaining("the modifier 'base64offset'"),
      "aggregations in the condition ('| count() ...') are not supported",
    ]);
    expect((await rowsOf(owner.tenantId)).length).toBe(before);
  });

  it('refuses a body that is not a name and a rule text', async () => {
    for (const body of [{ name: 'x' }, { sigma: 'title: x' }, { name: '', sigma: 'x' }, { name: 'x', sigma: 42 }]) {
      const res = await ctx.http.post('/detections').set(admin.auth).send(body).expect(400);
      expect(res.body.code).toBe('validation_failed');
    }
    const yamlError = await ctx.http
      .post('/detections')
      .set(admin.auth)
      .send({ name: 'Broken', sigma: 'title: [unclosed' })
      .expect(400);
    expect(yamlError.body.error).toContain('the rule is not valid YAML');
  });

  it('keeps one name per tenant: 409, while another tenant may use it', async () => {
    const sigma = sigmahq('aws_guardduty_disruption.yml');
    await upload('GuardDuty IP sets', sigma);
    const res = await ctx.http
      .post('/detections')
      .set(owner.auth)
      .send({ name: 'GuardDuty IP sets', sigma })
      .expect(409);
    expect(res.body).toMatchObject({ code: 'conflict', error: expect.stringContaining('GuardDuty IP sets') });
    await upload('GuardDuty IP sets', sigma, other);
  });

  it('is for admins and owners: a member or viewer gets 403', async () => {
    const sigma = sigmahq('aws_guardduty_disruption.yml');
    for (const user of [member, viewer]) {
      const res = await ctx.http.post('/detections').set(user.auth).send({ name: 'Mine', sigma }).expect(403);
      expect(res.body.code).toBe('forbidden');
    }
    await upload('By the owner', sigma, owner);
  });

  it(`caps a tenant at ${SIGMA_DETECTIONS_PER_TENANT} detections`, async () => {
    const tenant = await signupAndLogin(ctx);
    const sigma = sigmahq('aws_snapshot_backup_exfiltration.yml');
    const rows = Array.from({ length: SIGMA_DETECTIONS_PER_TENANT - 1 }, (_, i) => ({
      id: `det_CAP${String(i).padStart(23, '0')}`,
      tenant_id: tenant.tenantId,
      name: `Rule ${i}`,
      sigma,
      title: 'AWS Snapshot Backup Exfiltration',
      level: 'medium' as const,
      created_by: tenant.userId,
    }));
    await ctx.db.insertInto('tenant_detections').values(rows).execute();
    await upload('The last one', sigma, tenant);
    const res = await ctx.http.post('/detections').set(tenant.auth).send({ name: 'One too many', sigma }).expect(403);
    expect(res.body).toMatchObject({ code: 'plan_limit_exceeded' });
    expect(res.body.error).toContain(String(SIGMA_DETECTIONS_PER_TENANT));
    expect(await rowsOf(tenant.tenantId)).toHaveLength(SIGMA_DETECTIONS_PER_TENANT);
  });
});

describe('GET /detections', () => {
  it("lists the tenant's detections to any member, oldest first, and none of another tenant's", async () => {
    const mine = await ctx.http.get('/detections').set(viewer.auth).expect(200);
    conforms(listDetectionsOutput, mine.body);
    const names = mine.body.detections.map((d: Detection) => d.name);
    expect(names).toEqual(['Config off', 'GuardDuty IP sets', 'By the owner']);
    expect(mine.body.count).toBe(3);
    const theirs = await ctx.http.get('/detections').set(other.auth).expect(200);
    expect(theirs.body.detections.map((d: Detection) => d.name)).toEqual(['GuardDuty IP sets']);
  });
});

describe('PATCH /detections/{detection_id}', () => {
  it('disables and enables a detection (admins), audited', async () => {
    const created = await upload('Toggle', sigmahq('aws_securityhub_finding_evasion.yml'));
    const off = await ctx.http
      .patch(`/detections/${created.detection_id}`)
      .set(admin.auth)
      .send({ enabled: false })
      .expect(200);
    conforms(tenantDetection, off.body);
    expect(off.body.enabled).toBe(false);
    expect(Date.parse(off.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(created.updated_at));
    const on = await ctx.http
      .patch(`/detections/${created.detection_id}`)
      .set(owner.auth)
      .send({ enabled: true })
      .expect(200);
    expect(on.body.enabled).toBe(true);
    const audit = await ctx.http.get('/audit-log').set(owner.auth).query({ action: 'detection.updated' }).expect(200);
    expect(JSON.stringify(audit.body)).toContain(`detection:${created.detection_id}`);
  });

  it('refuses a member, a body without enabled, and an id of another tenant or none (404)', async () => {
    const created = await upload('Guarded', sigmahq('aws_cloudtrail_disable_logging.yml'));
    const url = `/detections/${created.detection_id}`;
    expect((await ctx.http.patch(url).set(member.auth).send({ enabled: false }).expect(403)).body.code).toBe(
      'forbidden',
    );
    for (const body of [{}, { enabled: 'no' }, { enabled: false, name: 'x' }]) {
      expect((await ctx.http.patch(url).set(admin.auth).send(body).expect(400)).body.code).toBe('validation_failed');
    }
    const res = await ctx.http.patch(url).set(other.auth).send({ enabled: false }).expect(404);
    conforms(errorBody, res.body);
    await ctx.http
      .patch('/detections/det_01NOTHING0000000000000000')
      .set(admin.auth)
      .send({ enabled: false })
      .expect(404);
    await ctx.http.patch('/detections/%27%3B--').set(admin.auth).send({ enabled: false }).expect(404);
    const row = await ctx.db
      .selectFrom('tenant_detections')
      .select('enabled')
      .where('id', '=', created.detection_id)
      .executeTakeFirstOrThrow();
    expect(row.enabled).toBe(true);
  });
});

describe('DELETE /detections/{detection_id}', () => {
  it("deletes an admin's detection, not another tenant's, and audits it", async () => {
    const created = await upload('Short-lived', sigmahq('aws_root_account_usage.yml'));
    const url = `/detections/${created.detection_id}`;
    await ctx.http.delete(url).set(member.auth).expect(403);
    await ctx.http.delete(url).set(other.auth).expect(404);
    const res = await ctx.http.delete(url).set(admin.auth).expect(200);
    conforms(messageBody, res.body);
    await ctx.http.delete(url).set(admin.auth).expect(404);
    const names = (await rowsOf(owner.tenantId)).map((r) => r.name);
    expect(names).not.toContain('Short-lived');
    const audit = await ctx.http.get('/audit-log').set(owner.auth).query({ action: 'detection.deleted' }).expect(200);
    expect(JSON.stringify(audit.body)).toContain(`detection:${created.detection_id}`);
  });
});

describe('POST /ingest/aws/events with Sigma rules', () => {
  const AWS_ID = '123456789012';
  const OTHER_AWS_ID = '210987654321';
  const PLAYBOOK = path.join(__dirname, '../fixtures/aws-playbook-events');
  let tenant: TestUser;
  let neighbour: TestUser;
  let key: string;
  let neighbourKey: string;
  let configOff: Detection;
  let sequence = 0;

  /** A playbook fixture as a new event of `account`, happening now. */
  function event(file: string, account = AWS_ID, detail: Record<string, unknown> = {}): Record<string, unknown> {
    sequence += 1;
    const envelope = JSON.parse(readFileSync(path.join(PLAYBOOK, file), 'utf8')) as Record<string, unknown>;
    return {
      ...envelope,
      id: `sigma-${sequence}-${Date.now()}`,
      account,
      time: new Date().toISOString(),
      detail: { ...(envelope.detail as object), recipientAccountId: account, ...detail },
    };
  }

  const ingest = (body: unknown, withKey = key) =>
    ctx.http
      .post('/ingest/aws/events')
      .set('Content-Type', 'application/json')
      .set('X-Sentinel-Event-Key', withKey)
      .send(JSON.stringify(body))
      .expect(202);

  async function detectionsOf(eventId: string, user = tenant, awsId = AWS_ID): Promise<string[]> {
    const res = await ctx.http.get(`/accounts/${awsId}/events`).query({ limit: 200 }).set(user.auth).expect(200);
    const found = (res.body.events as { event_id: string; detections: string[] }[]).find((e) => e.event_id === eventId);
    if (!found) throw new Error(`event ${eventId} not listed`);
    return found.detections;
  }

  async function signalsOf(checkId: string, user = tenant, awsId = AWS_ID) {
    const res = await ctx.http
      .get(`/accounts/${awsId}/signals`)
      .query({ check_id: checkId, status: 'all', limit: 200 })
      .set(user.auth)
      .expect(200);
    return res.body.signals as { check_id: string; title: string; severity: string; description: string }[];
  }

  beforeAll(async () => {
    tenant = await signupAndLogin(ctx);
    neighbour = await signupAndLogin(ctx);
    key = (await ctx.http.post('/accounts').set(tenant.auth).send({ aws_account_id: AWS_ID }).expect(201)).body
      .event_forwarding.api_key;
    neighbourKey = (
      await ctx.http.post('/accounts').set(neighbour.auth).send({ aws_account_id: OTHER_AWS_ID }).expect(201)
    ).body.event_forwarding.api_key;
    configOff = await upload('Config off', sigmahq('aws_config_disable_recording.yml'), tenant);
  });

  it("names a matching event's rule among its detections and opens its signal, with the rule's title and level", async () => {
    const stopped = event('config-stop-recorder.json');
    const answer = await ingest(stopped);
    expect(answer.body.signals_opened).toBe(2);
    expect(await detectionsOf(stopped.id as string)).toEqual(
      expect.arrayContaining(['event.config_recording_stopped', configOff.check_id]),
    );
    const [signal, ...more] = await signalsOf(configOff.check_id);
    expect(more).toEqual([]);
    expect(signal).toMatchObject({
      check_id: configOff.check_id,
      title: 'AWS Config Disabling Channel/Recorder',
      severity: 'HIGH',
      description: expect.stringContaining("matched the Sigma rule 'Config off'"),
    });
  });

  it('opens nothing for an event the rule does not match', async () => {
    const deleted = event('logs-delete-log-group.json');
    await ingest(deleted);
    expect(await detectionsOf(deleted.id as string)).not.toContain(configOff.check_id);
    expect(await signalsOf(configOff.check_id)).toHaveLength(1);
  });

  it('a rule that asks for a successful call is not set off by a failed one', async () => {
    const flowLogs = await upload('Flow logs', sigmahq('aws_cloudtrail_vpc_flow_logs_deleted.yml'), tenant);
    const denied = event('ec2-delete-flow-logs.json', AWS_ID, { errorCode: 'Client.UnauthorizedOperation' });
    await ingest(denied);
    expect(await detectionsOf(denied.id as string)).not.toContain(flowLogs.check_id);
    const done = event('ec2-delete-flow-logs.json');
    await ingest(done);
    expect(await detectionsOf(done.id as string)).toContain(flowLogs.check_id);
    expect(await signalsOf(flowLogs.check_id)).toHaveLength(1);
  });

  it('a disabled rule opens nothing, and runs again once enabled', async () => {
    const url = `/detections/${configOff.detection_id}`;
    await ctx.http.patch(url).set(tenant.auth).send({ enabled: false }).expect(200);
    // By another principal, so that nothing is counted on the open signal's window either.
    const other = { userIdentity: { type: 'IAMUser', arn: 'arn:aws:iam::123456789012:user/carol', userName: 'carol' } };
    const quiet = event('config-stop-recorder.json', AWS_ID, other);
    await ingest(quiet);
    expect(await detectionsOf(quiet.id as string)).toEqual(['event.config_recording_stopped']);
    expect(await signalsOf(configOff.check_id)).toHaveLength(1);

    await ctx.http.patch(url).set(tenant.auth).send({ enabled: true }).expect(200);
    const again = event('config-stop-recorder.json', AWS_ID, {
      userIdentity: { type: 'IAMUser', arn: 'arn:aws:iam::123456789012:user/dave', userName: 'dave' },
    });
    await ingest(again);
    expect(await detectionsOf(again.id as string)).toContain(configOff.check_id);
    expect(await signalsOf(configOff.check_id)).toHaveLength(2);
  });

  it("another tenant's rule never runs on this tenant's events", async () => {
    const theirs = await upload('IP sets', sigmahq('aws_guardduty_disruption.yml'), neighbour);
    const mine = event('guardduty-create-ipset.json');
    await ingest(mine);
    expect(await detectionsOf(mine.id as string)).toEqual(['event.guardduty_trusted_ip_list_added']);
    expect(await signalsOf(theirs.check_id)).toEqual([]);
    // Their own account's event does set it off.
    const theirEvent = event('guardduty-create-ipset.json', OTHER_AWS_ID);
    await ingest(theirEvent, neighbourKey);
    expect(await detectionsOf(theirEvent.id as string, neighbour, OTHER_AWS_ID)).toContain(theirs.check_id);
    expect(await signalsOf(theirs.check_id, neighbour, OTHER_AWS_ID)).toHaveLength(1);
  });

  it("never runs on the calls of Sentinel's own role", async () => {
    const scan = event('config-stop-recorder.json', AWS_ID, {
      userIdentity: {
        type: 'AssumedRole',
        arn: `arn:aws:sts::${AWS_ID}:assumed-role/${ROLE_NAME}/sentinel-scan`,
        accountId: AWS_ID,
        sessionContext: { sessionIssuer: { type: 'Role', arn: `arn:aws:iam::${AWS_ID}:role/${ROLE_NAME}` } },
      },
    });
    const before = (await signalsOf(configOff.check_id)).length;
    await ingest(scan);
    expect(await detectionsOf(scan.id as string)).toEqual([]);
    expect(await signalsOf(configOff.check_id)).toHaveLength(before);
  });

  it('a deleted rule opens nothing; its signals stay', async () => {
    const rule = await upload('Snapshots', sigmahq('aws_snapshot_backup_exfiltration.yml'), tenant);
    const shared = event('ec2-share-snapshot.json');
    await ingest(shared);
    expect(await detectionsOf(shared.id as string)).toContain(rule.check_id);
    await ctx.http.delete(`/detections/${rule.detection_id}`).set(tenant.auth).expect(200);
    const sharedAgain = event('ec2-share-snapshot.json', AWS_ID, {
      userIdentity: { type: 'IAMUser', arn: 'arn:aws:iam::123456789012:user/erin', userName: 'erin' },
    });
    await ingest(sharedAgain);
    expect(await detectionsOf(sharedAgain.id as string)).not.toContain(rule.check_id);
    expect(await signalsOf(rule.check_id)).toHaveLength(1);
  });
});
