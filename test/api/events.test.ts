import { readdirSync, readFileSync } from 'node:fs';
import { Client, Connection } from '@temporalio/client';
import { sql } from 'kysely';
import request from 'supertest';
import { createApp } from '../../api/app';
import { eventDispatchesSettled } from '../../core/events/dispatch-after-answer';
import { createLogger } from '../../config/logger';
import { eventDispatchWorkflow } from '../../workflows/left-over-batches';
import path from 'node:path';
import { sha256 } from '../../security/crypto';
import { detectEvent, EVENT_DETECTIONS } from '../../domain/events/detections';
import { isOccurrenceDetection, signalPrincipal } from '../../domain/events/occurrences';
import { parseEnvelope, toAccountEvent } from '../../domain/events/normalize';
import { EVENTS_PER_ACCOUNT_PER_MINUTE } from '../../domain/tenancy/limits';
import { waitFor } from '../helpers/patience';
import { type AlertPeers, ROUTING_KEY, startAlertPeers } from '../helpers/alerts';
import {
  addUserWithRole,
  createTestContext,
  signupAndLogin,
  type TestContext,
  type TestUser,
} from '../helpers/context';
import { scanResult } from '../helpers/scans';
import { ROLE_NAME } from '../../domain/onboarding/role';
import { PLAYBOOK_EXPECTED, playbookFixture } from '../helpers/playbook-fixtures';

// POST /ingest/aws/events, GET /accounts/{account_id}/events and POST .../event-key on a verified sandbox account,
// with real EventBridge envelopes (test/fixtures/aws-events): each detection opens its signal once, alerts reach
// SMTP, Slack and PagerDuty, and what is not an event of this account is refused with nothing stored.

const FIXTURES = path.join(__dirname, '../fixtures/aws-events');
const AWS_ID = '123456789012';
const OTHER_AWS_ID = '210987654321';
const HEADER = 'X-Sentinel-Event-Key';

/** Every fixture and the detections it must set off, and nothing else (the others set off none). */
const EXPECTED: Record<string, string[]> = {
  'root-console-sign-in': ['event.root_console_sign_in'],
  'console-sign-in-no-mfa': ['event.console_sign_in_without_mfa'],
  'root-api-call': ['event.root_api_call'],
  'root-read-only-call': ['event.root_api_call'],
  'create-user': ['event.iam_user_created'],
  'create-access-key': ['event.access_key_created', 'event.access_key_created_for_another_user'],
  'run-instances-failed': ['event.gpu_instance_launch_attempted'],
  'create-login-profile': ['event.login_profile_created'],
  'attach-admin-policy': ['event.admin_policy_attached'],
  'put-inline-admin-policy': ['event.admin_policy_attached'],
  'stop-logging': ['event.cloudtrail_logging_stopped'],
  'delete-trail': ['event.cloudtrail_trail_deleted'],
  'update-trail-weakened': ['event.cloudtrail_weakened'],
  'guardduty-delete-detector': ['event.guardduty_disabled'],
  'guardduty-disassociate': ['event.guardduty_disabled'],
  'guardduty-update-detector-suspend': ['event.guardduty_disabled'],
  'sg-open-ssh': ['event.security_group_admin_port_opened'],
  'sg-open-ipv6-postgres': ['event.security_group_database_port_opened'],
  'put-bucket-policy-public': ['event.s3_bucket_made_public'],
  'put-bucket-acl-public': ['event.s3_bucket_made_public'],
  'delete-public-access-block': ['event.s3_bucket_made_public'],
  'delete-account-public-access-block': ['event.s3_account_public_access_block_removed'],
  'put-bucket-public-access-block-off': ['event.s3_bucket_made_public'],
  'put-account-public-access-block-off': ['event.s3_account_public_access_block_removed'],
  'put-event-selectors-no-management': ['event.cloudtrail_weakened'],
  'run-instances-gpu': ['event.gpu_instance_launched'],
  'run-instances-unused-region': ['event.instance_launched_in_unused_region'],
  'delete-alternate-contact': ['event.alternate_contact_deleted'],
  'guardduty-finding-high': ['event.guardduty_high_severity_finding'],
  'guardduty-finding-low': ['event.guardduty_finding'],
  'guardduty-finding-medium': ['event.guardduty_finding'],
  'guardduty-finding-critical': ['event.guardduty_high_severity_finding'],
  'guardduty-finding-exfiltration-inside-aws': ['event.guardduty_high_severity_finding'],
  'eventbridge-delete-rule': ['event.event_forwarder_changed'],
  'eventbridge-disable-rule': ['event.event_forwarder_changed'],
  'eventbridge-remove-targets': ['event.event_forwarder_changed'],
  'eventbridge-put-rule-disabled': ['event.event_forwarder_changed'],
  'eventbridge-put-targets-redirect': ['event.event_forwarder_changed'],
  'eventbridge-deauthorize-connection': ['event.event_forwarder_changed'],
  'eventbridge-delete-connection': ['event.event_forwarder_changed'],
  'eventbridge-delete-api-destination': ['event.event_forwarder_changed'],
  'eventbridge-update-api-destination': ['event.event_forwarder_changed'],
  'iam-detach-scan-role-policy': ['event.sentinel_role_changed'],
  'iam-attach-deny-all-scan-role': ['event.sentinel_role_changed'],
  'iam-update-scan-role-trust': ['event.sentinel_role_changed'],
  'iam-delete-scan-role-policy': ['event.sentinel_role_changed'],
  'iam-put-scan-role-boundary': ['event.sentinel_role_changed'],
  'iam-put-forwarder-role-deny': ['event.sentinel_role_changed'],
  'iam-delete-forwarder-role': ['event.sentinel_role_changed'],
  'enable-region': ['event.region_enabled'],
  'health-risk-credentials-compromised': ['event.health_risk_event'],
  'health-abuse-dos-report': ['event.health_abuse_event'],
};

let ctx: TestContext;
let peers: AlertPeers;
let owner: TestUser;
let member: TestUser;
let viewer: TestUser;
let key: string;
let otherKey: string;
let sequence = 0;
let usedRegion: string;

function fixture(name: string): Record<string, unknown> {
  return JSON.parse(readFileSync(path.join(FIXTURES, `${name}.json`), 'utf8')) as Record<string, unknown>;
}

/**
 * A fixture as a new event: a fresh id, of the given account, happening now. A GPU launch happens in a region the
 * account uses (else it would be an unused region's launch too).
 */
function event(name: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  sequence += 1;
  const region = name === 'run-instances-gpu' ? { region: usedRegion } : {};
  return {
    ...fixture(name),
    id: `${name}-${sequence}-${Date.now()}`,
    account: AWS_ID,
    time: new Date().toISOString(),
    ...region,
    ...overrides,
  };
}

const ingest = (body: unknown, withKey: string | null = key) => {
  const req = ctx.http.post('/ingest/aws/events').set('Content-Type', 'application/json');
  if (withKey !== null) req.set(HEADER, withKey);
  return req.send(typeof body === 'string' ? body : JSON.stringify(body));
};

/** An UpdateConnection of the forwarder's connection: what a key's rotation does in every region. */
function updateConnection(): Record<string, unknown> {
  const deletion = fixture('eventbridge-delete-connection');
  return event('eventbridge-delete-connection', {
    detail: { ...(deletion.detail as object), eventName: 'UpdateConnection' },
  });
}

const newestDetections = async () =>
  (await ctx.http.get(`/accounts/${AWS_ID}/events`).query({ limit: 1 }).set(owner.auth).expect(200)).body.events[0]
    .detections;

async function signalsOf(checkId: string, status: 'open' | 'all' = 'all') {
  const res = await ctx.http
    .get(`/accounts/${AWS_ID}/signals`)
    .query({ check_id: checkId, status, limit: 200 })
    .set(owner.auth)
    .expect(200);
  return res.body.signals as {
    signal_id: string;
    check_id: string;
    description: string;
    resource: string;
    region: string;
    resolved_at: string | null;
  }[];
}

const storedEvents = async () =>
  Number(
    (
      await ctx.db
        .selectFrom('account_events')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

beforeAll(async () => {
  peers = await startAlertPeers();
  ctx = await createTestContext({
    withWorker: true,
    config: { CLOUD_PROVIDER: 'sandbox', ...peers.config, SLACK_WEBHOOK_URL_PREFIX: `${peers.slack.url}/` },
  });
  owner = await signupAndLogin(ctx);
  member = await addUserWithRole(ctx, owner.tenantId, 'member');
  viewer = await addUserWithRole(ctx, owner.tenantId, 'viewer');
  await ctx.db.updateTable('tenants').set({ plan: 'team' }).where('id', '=', owner.tenantId).execute();
  await ctx.db.updateTable('users').set({ email_verified_at: new Date() }).where('id', '=', owner.userId).execute();
  const connected = await ctx.http.post('/accounts').set(owner.auth).send({ aws_account_id: AWS_ID }).expect(201);
  key = connected.body.event_forwarding.api_key;
  otherKey = (await ctx.http.post('/accounts').set(owner.auth).send({ aws_account_id: OTHER_AWS_ID }).expect(201)).body
    .event_forwarding.api_key;
  const verified = await ctx.http.post(`/accounts/${AWS_ID}/verify`).set(owner.auth).expect(200);
  await scanResult(ctx.temporal, verified.body.first_scan_execution_arn);
  const account = await ctx.db
    .selectFrom('accounts')
    .select('used_regions')
    .where('aws_account_id', '=', AWS_ID)
    .executeTakeFirstOrThrow();
  expect(account.used_regions?.length).toBeGreaterThan(0);
  usedRegion = account.used_regions![0]!;
});
afterAll(async () => {
  await ctx?.close();
  await peers?.close();
});

describe('the event key', () => {
  it('is shown once at connect, with the endpoint and header, and stored only hashed', async () => {
    expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const rows = await ctx.db.selectFrom('account_event_keys').selectAll().execute();
    expect(rows.map((r) => r.key_hash)).toContain(sha256(key));
    expect(JSON.stringify(rows)).not.toContain(key);
  });

  it("is the only credential: none, a wrong one or another account's is refused, and nothing is stored", async () => {
    const before = await storedEvents();
    expect((await ingest(event('root-console-sign-in'), null).expect(401)).body.code).toBe('unauthorized');
    expect((await ingest(event('root-console-sign-in'), 'x'.repeat(43)).expect(401)).body.code).toBe('unauthorized');
    // Another account's key, or an event of another account with this one: 403, naming both accounts.
    const refused = await ingest(event('root-console-sign-in'), otherKey).expect(403);
    expect(refused.body).toMatchObject({ code: 'forbidden' });
    expect(refused.body.error).toContain(OTHER_AWS_ID);
    await ingest([event('create-user'), event('create-user', { account: OTHER_AWS_ID })]).expect(403);
    expect(await storedEvents()).toBe(before);
  });

  it('rotates (member, not viewer): the new key works, the old one for 24 hours and no longer', async () => {
    await ctx.http.post(`/accounts/${AWS_ID}/event-key`).set(viewer.auth).expect(403);
    const rotated = await ctx.http.post(`/accounts/${AWS_ID}/event-key`).set(member.auth).expect(200);
    const next = rotated.body.event_forwarding.api_key as string;
    expect(next).not.toBe(key);
    expect(rotated.body.event_forwarding).toMatchObject({
      api_key_header: HEADER,
      endpoint: expect.stringMatching(/\/ingest\/aws\/events$/),
    });
    const expires = Date.parse(rotated.body.previous_key_expires_at);
    expect(expires - Date.now()).toBeGreaterThan(23.9 * 3_600_000);
    expect(expires - Date.now()).toBeLessThanOrEqual(24 * 3_600_000);

    await ingest(event('sg-open-https'), next).expect(202);
    await ingest(event('sg-open-https'), key).expect(202);
    // Updating each region's connection with the new key is the rotation itself, not tampering with the forwarder.
    await ingest(updateConnection(), next).expect(202);
    expect(await newestDetections()).toEqual([]);
    // A day later the old key is refused, and the new key's rollout is over.
    await ctx.db
      .updateTable('account_event_keys')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('key_hash', '=', sha256(key))
      .execute();
    await sql`update account_event_keys set created_at = now() - interval '25 hours' where key_hash = ${sha256(next)}`.execute(
      ctx.db,
    );
    await ingest(event('sg-open-https'), key).expect(401);
    // No rotation under way: an update of the connection is one to tell.
    await ingest(updateConnection(), next).expect(202);
    expect(await newestDetections()).toEqual(['event.event_forwarder_changed']);
    key = next;
    const audit = await ctx.http.get('/audit-log').set(owner.auth).expect(200);
    expect(JSON.stringify(audit.body)).toContain('account.event_key_rotated');
  });

  it('stops a leaked key at once with revoke_previous, and ends it at the second rotation without', async () => {
    const rotate = (body?: unknown) => {
      const req = ctx.http.post(`/accounts/${AWS_ID}/event-key`).set(member.auth);
      return body === undefined ? req : req.send(body as object);
    };
    const leaked = key;
    for (const body of [{ revoke_previous: 'yes' }, { revoke: true }, []]) {
      expect((await rotate(body).expect(400)).body.code).toBe('validation_failed');
    }
    await ingest(event('sg-open-https'), leaked).expect(202);

    // revoke_previous: the leaked key is refused from this answer on; the new one works.
    const revoked = await rotate({ revoke_previous: true }).expect(200);
    const fresh = revoked.body.event_forwarding.api_key as string;
    expect(Date.parse(revoked.body.previous_key_expires_at)).toBeLessThanOrEqual(Date.now());
    expect((await ingest(event('sg-open-https'), leaked).expect(401)).body.code).toBe('unauthorized');
    await ingest(event('sg-open-https'), fresh).expect(202);
    // The connections updated with the new key are still the rotation, though no old key works any more.
    await ingest(updateConnection(), fresh).expect(202);
    expect(await newestDetections()).toEqual([]);

    // Without it: one rotation leaves the key it replaced its 24 hours, a second one ends that key at once.
    const second = (await rotate().expect(200)).body.event_forwarding.api_key as string;
    await ingest(event('sg-open-https'), fresh).expect(202);
    const third = (await rotate({}).expect(200)).body.event_forwarding.api_key as string;
    expect((await ingest(event('sg-open-https'), fresh).expect(401)).body.code).toBe('unauthorized');
    await ingest(event('sg-open-https'), second).expect(202);
    await ingest(event('sg-open-https'), third).expect(202);
    const working = await sql<{
      n: string;
    }>`select count(*) as n from account_event_keys k join accounts a on a.id = k.account_id
      where a.aws_account_id = ${AWS_ID} and (k.expires_at is null or k.expires_at > now())`.execute(ctx.db);
    expect(Number(working.rows[0]!.n)).toBe(2);
    key = third;

    const { events } = (await ctx.http.get('/audit-log').query({ action: 'account.event_key_rotated' }).set(owner.auth))
      .body as { events: { actor: { user_id: string }; target: string; details: Record<string, unknown> }[] };
    expect(events.slice(0, 3).map((e) => e.details.revoke_previous)).toEqual([false, false, true]);
    expect(events[2]).toMatchObject({ actor: { user_id: member.userId }, target: `account:${AWS_ID}` });
  });
  it('ends the keys of an earlier connection when the account is connected again', async () => {
    const first = await ctx.http.post('/accounts').set(owner.auth).send({ aws_account_id: '975397539753' }).expect(201);
    await ctx.http.delete('/accounts/975397539753').set(owner.auth).expect(200);
    // The disconnect itself ends the key, whatever connects the account later (test/api/organizations.test.ts).
    const ended = await ctx.db
      .selectFrom('account_event_keys')
      .select('expires_at')
      .where('key_hash', '=', sha256(first.body.event_forwarding.api_key))
      .executeTakeFirstOrThrow();
    expect(ended.expires_at!.getTime()).toBeLessThanOrEqual(Date.now());
    await ctx.http
      .post('/accounts')
      .set(owner.auth)
      .send({ aws_account_id: '975397539753', event_forwarding: false })
      .expect(201);
    const probe = (key: string) =>
      ctx.http.post('/ingest/aws/events').set('Content-Type', 'application/json').set(HEADER, key).send('[]');
    expect((await probe(first.body.event_forwarding.api_key)).status).toBe(401);
    await ctx.http.delete('/accounts/975397539753').set(owner.auth).expect(200);
    const third = await ctx.http.post('/accounts').set(owner.auth).send({ aws_account_id: '975397539753' }).expect(201);
    expect((await probe(first.body.event_forwarding.api_key)).status).toBe(401);
    expect((await probe(third.body.event_forwarding.api_key)).status).toBe(400);
  });
});

describe('POST /ingest/aws/events', () => {
  it("opens each detection's signal once per resource (a state) or principal (an occurrence), with the actor, source IP and time, and nothing for the others", async () => {
    const names = readdirSync(FIXTURES).map((f) => f.replace(/\.json$/, ''));
    expect(names.length).toBeGreaterThanOrEqual(Object.keys(EXPECTED).length + 4);
    for (const name of names) {
      const body = event(name);
      const res = await ingest(body).expect(202);
      expect(res.body).toMatchObject({ accepted: 1, duplicates: 0 });
      const listed = await ctx.http.get(`/accounts/${AWS_ID}/events`).query({ limit: 1 }).set(owner.auth).expect(200);
      expect({ name, detections: listed.body.events[0].detections }).toEqual({
        name,
        detections: EXPECTED[name] ?? [],
      });
    }
    // A state detection: one signal per resource it found (fixtures naming the same trail or bucket find its signal
    // open and open no second one). An occurrence detection: one per principal, as every fixture happens now, within
    // one window (domain/events/occurrences.ts), naming a resource one of its fixtures found.
    const found = new Map<string, { resources: Set<string>; principals: Set<string | null> }>();
    for (const name of Object.keys(EXPECTED)) {
      const parsed = parseEnvelope(event(name));
      if (!parsed.ok) throw new Error(parsed.reason);
      const accountEvent = toAccountEvent(parsed.envelope);
      for (const { detection, finding } of detectEvent(accountEvent, {
        usedRegions: [usedRegion],
        roleName: ROLE_NAME,
        eventKeyRotating: false,
      })) {
        const seen = found.get(detection.id) ?? { resources: new Set(), principals: new Set() };
        seen.resources.add(`${finding.resource}|${finding.region ?? 'global'}`);
        seen.principals.add(signalPrincipal(detection.id, accountEvent.actor));
        found.set(detection.id, seen);
      }
    }
    for (const [id, { resources, principals }] of found) {
      const opened = (await signalsOf(id)).map((o) => `${o.resource}|${o.region}`).sort();
      if (isOccurrenceDetection(id)) {
        expect({ id, signals: opened.length }).toEqual({ id, signals: principals.size });
        for (const resource of opened)
          expect({ id, resource, found: resources.has(resource) }).toMatchObject({ found: true });
      } else {
        expect({ id, resources: opened }).toEqual({ id, resources: [...resources].sort() });
      }
    }
    // Every detection that reads a single event has a fixture that sets it off, here or among the playbook's.
    const fired = [...Object.values(EXPECTED), ...Object.values(PLAYBOOK_EXPECTED)].flat();
    expect(EVENT_DETECTIONS.map((d) => d.id).filter((id) => !fired.includes(id))).toEqual([]);
    const [signIn] = await signalsOf('event.root_console_sign_in');
    const source = fixture('root-console-sign-in') as { detail: { sourceIPAddress: string } };
    expect(signIn!.description).toContain(source.detail.sourceIPAddress);
    expect(signIn!.description).toContain('root');
  });

  it("opens each playbook detection's signal from its CloudTrail record, with its MITRE ATT&CK ids, and nothing for the benign variants", async () => {
    for (const [name, expected] of Object.entries(PLAYBOOK_EXPECTED)) {
      sequence += 1;
      const body = {
        ...playbookFixture(name),
        id: `playbook-${sequence}-${Date.now()}`,
        account: AWS_ID,
        time: new Date().toISOString(),
      };
      await ingest(body).expect(202);
      expect({ name, detections: await newestDetections() }).toEqual({ name, detections: expected });
    }
    const [shared] = await signalsOf('event.ebs_snapshot_shared');
    const listed = await ctx.http
      .get(`/accounts/${AWS_ID}/signals`)
      .query({ check_id: 'event.ebs_snapshot_shared', limit: 1 })
      .set(owner.auth)
      .expect(200);
    expect(shared?.resource).toBe('snap-0123456789abcdef0');
    expect(listed.body.signals[0].mitre).toEqual([
      {
        tactic: 'TA0010',
        tactic_name: 'Exfiltration',
        technique: 'T1537',
        technique_name: 'Transfer Data to Cloud Account',
      },
    ]);
    const csv = await ctx.http.get(`/accounts/${AWS_ID}/export`).set(owner.auth).expect(200);
    expect(csv.text).toContain('TA0010/T1537');
  });

  it('opens a CRITICAL signal for an AWS Health RISK event, and none for an EC2 maintenance event', async () => {
    const risk = fixture('health-risk-credentials-compromised') as { detail: Record<string, unknown> };
    const eventArn = `arn:aws:health:global::event/RISK/AWS_RISK_CREDENTIALS_COMPROMISED/ingest-${Date.now()}`;
    const opened = await ingest(
      event('health-risk-credentials-compromised', { detail: { ...risk.detail, eventArn } }),
    ).expect(202);
    expect(opened.body).toEqual({ accepted: 1, duplicates: 0, signals_opened: 1 });
    const res = await ctx.http
      .get(`/accounts/${AWS_ID}/signals`)
      .query({ check_id: 'event.health_risk_event', status: 'open', limit: 200 })
      .set(owner.auth)
      .expect(200);
    const signal = (
      res.body.signals as { resource: string; region: string; severity: string; description: string }[]
    ).find((s) => s.resource === eventArn);
    expect(signal).toMatchObject({ region: 'global', severity: 'CRITICAL' });
    expect(signal!.description).toContain('AWS_RISK_CREDENTIALS_COMPROMISED');
    // AWS's next update of the same event is that event: no second signal.
    const update = event('health-risk-credentials-compromised', { detail: { ...risk.detail, eventArn } });
    expect((await ingest(update).expect(202)).body).toEqual({ accepted: 1, duplicates: 0, signals_opened: 0 });
    // An EC2 scheduled change, even of an account that forwards every Health event: stored, nothing opened.
    const maintenance = event('health-ec2-scheduled-change');
    expect((await ingest(maintenance).expect(202)).body).toEqual({ accepted: 1, duplicates: 0, signals_opened: 0 });
    const listed = await ctx.http
      .get(`/accounts/${AWS_ID}/events`)
      .query({ event_name: 'AWS_EC2_INSTANCE_REBOOT_MAINTENANCE_SCHEDULED', limit: 5 })
      .set(owner.auth)
      .expect(200);
    expect(listed.body.events.map((e: { detections: string[] }) => e.detections)).toContainEqual([]);
  });

  it('takes a security group rule changed open to the internet as a reason to rescan, not as a signal', async () => {
    const account = await ctx.db
      .selectFrom('accounts')
      .select('id')
      .where('aws_account_id', '=', AWS_ID)
      .executeTakeFirstOrThrow();
    const batches = () =>
      ctx.db
        .selectFrom('event_batches')
        .select(['id', 'groups', 'signals_opened', 'dispatched_at'])
        .where('account_id', '=', account.id)
        .orderBy('id')
        .execute();
    const before = (await batches()).map((b) => b.id);
    // Narrowed to private ranges: nothing to act on.
    expect((await ingest(event('sg-modify-private')).expect(202)).body).toEqual({
      accepted: 1,
      duplicates: 0,
      signals_opened: 0,
    });
    expect((await batches()).map((b) => b.id)).toEqual(before);
    // Open to the internet: no signal (the rule may be outbound), a batch that asks the account's workflow to rescan
    // the network group, acted on after the answer.
    expect((await ingest(event('sg-modify-open-ssh')).expect(202)).body).toEqual({
      accepted: 1,
      duplicates: 0,
      signals_opened: 0,
    });
    const added = (await batches()).filter((b) => !before.includes(b.id));
    expect(added).toEqual([expect.objectContaining({ groups: ['network'], signals_opened: 0 })]);
    await waitFor(async () => (await batches()).find((b) => b.id === added[0]!.id)?.dispatched_at != null);
  });

  it("opens a HIGH signal at once when Sentinel's own forwarder or scan role is tampered with", async () => {
    // Someone no earlier event named, so no open signal of theirs counts this occurrence.
    const intruder = {
      type: 'IAMUser',
      principalId: 'AIDATAMPEREXAMPLE0001',
      arn: `arn:aws:iam::${AWS_ID}:user/tamper-${Date.now()}`,
      accountId: AWS_ID,
      userName: 'tamper',
    };
    for (const [name, checkId, resource] of [
      ['eventbridge-delete-rule', 'event.event_forwarder_changed', 'rule/sentinel-cloudtrail-changes'],
      ['iam-detach-scan-role-policy', 'event.sentinel_role_changed', `role/${ROLE_NAME}`],
    ] as const) {
      const body = event(name, { detail: { ...(fixture(name).detail as object), userIdentity: intruder } });
      expect((await ingest(body).expect(202)).body).toEqual({ accepted: 1, duplicates: 0, signals_opened: 1 });
      const res = await ctx.http
        .get(`/accounts/${AWS_ID}/signals`)
        .query({ check_id: checkId, status: 'open', limit: 200 })
        .set(owner.auth)
        .expect(200);
      const opened = (res.body.signals as { description: string; severity: string; resource: string }[]).filter((o) =>
        o.description.includes(intruder.arn),
      );
      expect(opened).toEqual([expect.objectContaining({ severity: 'HIGH', resource })]);
    }
    // Put back as the templates put it (the CLI script run again): nothing to tell.
    const rerun = event('eventbridge-put-rule-unchanged', {
      detail: { ...(fixture('eventbridge-put-rule-unchanged').detail as object), userIdentity: intruder },
    });
    expect((await ingest(rerun).expect(202)).body).toEqual({ accepted: 1, duplicates: 0, signals_opened: 0 });
  });

  it('ignores a redelivered event: 202, a duplicate, no second signal', async () => {
    const body = event('create-access-key', {
      detail: {
        ...(fixture('create-access-key').detail as object),
        responseElements: { accessKey: { accessKeyId: 'AKIAREDELIVERED00001', userName: 'mallory', status: 'Active' } },
      },
    });
    expect((await ingest(body).expect(202)).body).toMatchObject({
      accepted: 1,
      duplicates: 0,
      signals_opened: expect.any(Number),
    });
    expect((await ingest(body).expect(202)).body).toEqual({ accepted: 0, duplicates: 1, signals_opened: 0 });
    expect((await ingest([body, body]).expect(202)).body).toEqual({ accepted: 0, duplicates: 2, signals_opened: 0 });
    const stored = await ctx.db
      .selectFrom('account_events')
      .select('event_id')
      .where('event_id', '=', body.id as string)
      .execute();
    expect(stored).toHaveLength(1);
  });

  it('answers 400 naming the problem for what is not an EventBridge event, and stores nothing', async () => {
    const before = await storedEvents();
    expect((await ingest('{"id": ').expect(400)).body.code).toBe('invalid_json');
    const noType = event('create-user');
    delete noType['detail-type'];
    const res = await ingest(noType).expect(400);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.error).toContain('detail-type');
    const badBatch = await ingest([event('create-user'), { ...event('create-user'), account: 'twelve' }]).expect(400);
    expect(badBatch.body.error).toContain('events[1]');
    await ingest([]).expect(400);
    await ingest('42').expect(400);
    expect((await ingest(Array.from({ length: 101 }, () => event('sg-open-https'))).expect(400)).body.code).toBe(
      'batch_too_large',
    );
    expect(await storedEvents()).toBe(before);
  });
});

describe('alerts on event signals', () => {
  it('reach e-mail, Slack and PagerDuty at once; an accepted signal alerts nobody again', async () => {
    const slackBefore = peers.slack.requests.length;
    const pagerBefore = peers.pagerduty.requests.length;
    const mailBefore = peers.smtp.messages.length;
    await ctx.http
      .post('/alert-rules')
      .set(owner.auth)
      .send({
        name: 'Threats now',
        min_srs: 0,
        scenarios: ['threat'],
        channels: [
          { type: 'email', to: [owner.email] },
          { type: 'slack', webhook_url: `${peers.slack.url}/services/T000/B000/events` },
          { type: 'pagerduty', routing_key: ROUTING_KEY },
        ],
      })
      .expect(201);

    const finding = event('guardduty-finding-high', {
      detail: { ...(fixture('guardduty-finding-high').detail as object), id: `finding-${Date.now()}` },
    });
    expect((await ingest(finding).expect(202)).body.signals_opened).toBeGreaterThanOrEqual(1);
    await waitFor(
      async () =>
        peers.slack.requests.length > slackBefore &&
        peers.pagerduty.requests.length > pagerBefore &&
        peers.smtp.messages.length > mailBefore,
    );
    const alerts = (await ctx.http.get('/alerts').set(owner.auth).expect(200)).body.alerts as {
      scenarios_triggered: string[];
    }[];
    expect(alerts[0]!.scenarios_triggered).toContain('threat');
    const slackText = JSON.stringify(peers.slack.requests[peers.slack.requests.length - 1]!.json);
    expect(slackText).toContain('GuardDuty');

    // Accepted: the same finding again opens nothing and alerts nobody.
    const [open] = (await signalsOf('event.guardduty_high_severity_finding', 'open')).filter((s) =>
      s.description.includes(finding.id as string),
    );
    await ctx.http
      .post(`/accounts/${AWS_ID}/signals/${open!.signal_id}/accept`)
      .set(owner.auth)
      .send({ reason: 'Red-team exercise' })
      .expect(200);
    const slackNow = peers.slack.requests.length;
    const again = await ingest({ ...finding, id: `${finding.id as string}-again` }).expect(202);
    expect(again.body.signals_opened).toBe(0);
    await new Promise((r) => setTimeout(r, 2_000));
    expect(peers.slack.requests.length).toBe(slackNow);
  });
});

describe('the compound detection', () => {
  // On the second account (connected, not verified: its events are taken already), which has seen nothing yet.
  const compoundSignals = async () =>
    ctx.db
      .selectFrom('signals')
      .innerJoin('accounts', 'accounts.id', 'signals.account_id')
      .select(['signals.severity', 'signals.description'])
      .where('accounts.aws_account_id', '=', OTHER_AWS_ID)
      .where('signals.check_id', '=', 'event.probable_compromise')
      .execute();
  const other = (name: string) => event(name, { account: OTHER_AWS_ID });

  it('opens one CRITICAL probable-compromise signal when a new access key and a GPU launch come within a day, listing both', async () => {
    await ingest(other('create-access-key'), otherKey).expect(202);
    expect(await compoundSignals()).toEqual([]);
    await ingest(other('run-instances-gpu'), otherKey).expect(202);
    const [compound, ...more] = await compoundSignals();
    expect(more).toEqual([]);
    expect(compound!.severity).toBe('CRITICAL');
    expect(compound!.description).toMatch(/Access key created/);
    expect(compound!.description).toMatch(/GPU or high-end instance launched/);
    // Further indicators while it is open: still one.
    await ingest(other('create-user'), otherKey).expect(202);
    expect(await compoundSignals()).toHaveLength(1);
  });
});

describe('GET /accounts/{account_id}/events', () => {
  it('lists newest first with filters and pages, says when the last event came; viewers may read, other tenants may not', async () => {
    const page = await ctx.http.get(`/accounts/${AWS_ID}/events`).query({ limit: 3 }).set(viewer.auth).expect(200);
    expect(page.body.events).toHaveLength(3);
    const times = page.body.events.map((e: { time: string }) => Date.parse(e.time));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(Date.now() - Date.parse(page.body.last_event_received_at)).toBeLessThan(5 * 60_000);
    const next = await ctx.http
      .get(`/accounts/${AWS_ID}/events`)
      .query({ limit: 3, next_token: page.body.next_token })
      .set(viewer.auth)
      .expect(200);
    const ids = new Set(page.body.events.map((e: { event_id: string }) => e.event_id));
    expect(next.body.events.some((e: { event_id: string }) => ids.has(e.event_id))).toBe(false);

    const detected = await ctx.http
      .get(`/accounts/${AWS_ID}/events`)
      .query({ detection: 'any', limit: 200 })
      .set(owner.auth)
      .expect(200);
    expect(detected.body.events.length).toBeGreaterThan(0);
    expect(detected.body.events.every((e: { detections: string[] }) => e.detections.length > 0)).toBe(true);
    const signIns = await ctx.http
      .get(`/accounts/${AWS_ID}/events`)
      .query({ detection: 'event.root_console_sign_in' })
      .set(owner.auth)
      .expect(200);
    expect(signIns.body.events.map((e: { detections: string[] }) => e.detections)).toEqual([
      ['event.root_console_sign_in'],
    ]);
    const iam = await ctx.http
      .get(`/accounts/${AWS_ID}/events`)
      .query({ source: 'aws.iam', event_name: 'CreateUser' })
      .set(owner.auth)
      .expect(200);
    expect(
      iam.body.events.every(
        (e: { source: string; event_name: string }) => e.source === 'aws.iam' && e.event_name === 'CreateUser',
      ),
    ).toBe(true);
    await ctx.http.get(`/accounts/${AWS_ID}/events`).query({ next_token: 'garbage' }).set(owner.auth).expect(400);
    await ctx.http.get(`/accounts/${AWS_ID}/events`).query({ limit: 500 }).set(owner.auth).expect(400);

    const stranger = await signupAndLogin(ctx);
    await ctx.http.get(`/accounts/${AWS_ID}/events`).set(stranger.auth).expect(404);
    await ctx.http.post(`/accounts/${AWS_ID}/event-key`).set(stranger.auth).expect(404);
  });
});

describe('rate limit and bursts', () => {
  it("refuses events past the account's minute with 429 and Retry-After, storing none of them; every batch is acted on", async () => {
    await ctx.db.deleteFrom('rate_limits').execute();
    const before = await storedEvents();
    let sent = 0;
    while (sent + 100 <= EVENTS_PER_ACCOUNT_PER_MINUTE) {
      await ingest(
        Array.from({ length: 100 }, () =>
          event('sg-open-ssh', {
            detail: {
              ...(fixture('sg-open-ssh').detail as object),
              requestParameters: {
                groupId: `sg-burst${sent}`,
                ipPermissions: (fixture('sg-open-ssh').detail as { requestParameters: { ipPermissions: unknown } })
                  .requestParameters.ipPermissions,
              },
            },
          }),
        ),
      ).expect(202);
      sent += 100;
    }
    const refused = await ingest(Array.from({ length: 100 }, () => event('sg-open-https'))).expect(429);
    expect(refused.body.code).toBe('rate_limited');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(await storedEvents()).toBe(before + EVENTS_PER_ACCOUNT_PER_MINUTE);
    // Every batch was acted on (right after its request was answered).
    await waitFor(
      async () =>
        (await ctx.db.selectFrom('event_batches').select('id').where('dispatched_at', 'is', null).execute()).length ===
        0,
    );
    await ctx.db.deleteFrom('rate_limits').execute();
  });
});

describe('a batch the ingesting process could not finish', () => {
  it("is acted on by the event-dispatch schedule's run: its alert arrives late, not never", async () => {
    // An API process whose Temporal is out of reach: it stores and answers, but cannot start deliveries.
    const unreachable = new Client({ connection: Connection.lazy({ address: '127.0.0.1:1' }) });
    const warnings: string[] = [];
    const log = createLogger({
      level: 'warn',
      name: 'test',
      destination: { write: (line: string) => warnings.push(line) },
    });
    const unreachableDeps = { ...ctx, log, temporal: unreachable };
    const http = request(createApp(unreachableDeps));
    const slackBefore = peers.slack.requests.length;
    const finding = event('guardduty-finding-high', {
      detail: { ...(fixture('guardduty-finding-high').detail as object), id: `left-over-${Date.now()}` },
    });
    const res = await http
      .post('/ingest/aws/events')
      .set('Content-Type', 'application/json')
      .set(HEADER, key)
      .send(JSON.stringify(finding))
      .expect(202);
    expect(res.body.signals_opened).toBeGreaterThanOrEqual(1);
    // A second request while the account's run is going: no second run of its own.
    const again = event('guardduty-finding-high', {
      detail: { ...(fixture('guardduty-finding-high').detail as object), id: `left-over-again-${Date.now()}` },
    });
    await http
      .post('/ingest/aws/events')
      .set('Content-Type', 'application/json')
      .set(HEADER, key)
      .send(JSON.stringify(again))
      .expect(202);
    const leftOver = () => ctx.db.selectFrom('event_batches').select('id').where('dispatched_at', 'is', null).execute();
    // The process's one attempt is over (given up past its deadline, as a stopping process waits for), and said so.
    await eventDispatchesSettled(unreachableDeps);
    expect(warnings.filter((w) => w.includes('the event-dispatch schedule will'))).toHaveLength(1);
    expect(await leftOver()).toHaveLength(2);
    expect(peers.slack.requests.length).toBe(slackBefore);

    // Older than 30 seconds, the schedule's next run takes it (started here as the schedule starts it).
    await ctx.db
      .updateTable('event_batches')
      .set({ received_at: new Date(Date.now() - 60_000) })
      .where('dispatched_at', 'is', null)
      .execute();
    const run = await ctx.temporal.workflow.start(eventDispatchWorkflow, {
      taskQueue: ctx.config.temporal.taskQueue,
      workflowId: `event-dispatch-test-${Date.now()}`,
    });
    expect(await run.result()).toEqual({ accounts: 1, failed: 0 });
    expect(await leftOver()).toEqual([]);
    await waitFor(async () =>
      peers.slack.requests.slice(slackBefore).some((r) => JSON.stringify(r.json).includes('GuardDuty')),
    );
    await unreachable.connection.close();
  });
});
