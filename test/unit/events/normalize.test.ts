import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseEnvelope, toAccountEvent } from '../../../domain/events/normalize';
import type { AwsEventEnvelope } from '../../../domain/events/types';

const FIXTURES = join(__dirname, '../../fixtures/aws-events');
const raw = (name: string): Record<string, unknown> => JSON.parse(readFileSync(join(FIXTURES, name), 'utf8'));

function envelopeOf(body: unknown): AwsEventEnvelope {
  const parsed = parseEnvelope(body);
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.envelope;
}

const eventOf = (name: string) => toAccountEvent(envelopeOf(raw(name)));

describe('parseEnvelope', () => {
  it.each(readdirSync(FIXTURES).filter((f) => f.endsWith('.json')))('accepts %s', (name) => {
    const body = raw(name);
    expect(parseEnvelope(body)).toEqual({ ok: true, envelope: body });
  });

  it('defaults absent resources to none, and an absent version to 0', () => {
    const { resources: _r, version: _v, ...body } = raw('create-user.json');
    const envelope = envelopeOf(body);
    expect(envelope.resources).toEqual([]);
    expect(envelope.version).toBe('0');
  });

  it.each([
    ['a null body', null, 'JSON object'],
    ['an array', [raw('create-user.json')], 'JSON object'],
    ['a string', 'hello', 'JSON object'],
    ['a number', 42, 'JSON object'],
  ])('rejects %s', (_what, body, reason) => {
    const parsed = parseEnvelope(body);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.reason).toContain(reason);
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['no id', { id: undefined }, '`id`'],
    ['an empty id', { id: '' }, '`id`'],
    ['a numeric id', { id: 7 }, '`id`'],
    ['an id of 129 characters', { id: 'x'.repeat(129) }, '`id` must be 1 to 128 printable ASCII'],
    ['an id with a space', { id: 'an id' }, '`id`'],
    ['no source', { source: undefined }, '`source`'],
    ['no detail-type', { 'detail-type': undefined }, '`detail-type`'],
    ['an 11-digit account', { account: '12345678901' }, '`account`'],
    ['a numeric account', { account: 123456789012 }, '`account`'],
    ['an account with letters', { account: '12345678901a' }, '`account`'],
    ['a time that is no timestamp', { time: 'yesterday' }, '`time`'],
    ['a time that is no date', { time: '2026-13-45T99:00:00Z' }, '`time`'],
    ['a date without time', { time: '2026-03-15' }, '`time`'],
    ['the 30th of February, which JavaScript would roll over into March', { time: '2026-02-30T10:00:00Z' }, '`time`'],
    ['year 0000', { time: '0000-01-01T00:00:00Z' }, '`time`'],
    ['a NUL character in the detail', { detail: { eventName: 'Create\u0000User' } }, 'NUL'],
    ['an unpaired surrogate in a key of the detail', { detail: { ['key\uD800']: 1 } }, 'surrogate'],
    ['no region', { region: undefined }, '`region`'],
    ['a region that is no AWS region name', { region: 'eu-west-1; drop' }, '`region` must be an AWS region name'],
    ['a region of 5,000 characters', { region: `us-east-${'1'.repeat(5000)}` }, '`region`'],
    ['a numeric region', { region: 1 }, '`region`'],
    ['resources that are no array', { resources: 'arn:aws:s3:::b' }, '`resources`'],
    ['resources holding a number', { resources: ['arn:aws:s3:::b', 3] }, '`resources`'],
    ['no detail', { detail: undefined }, '`detail`'],
    ['a detail that is an array', { detail: [] }, '`detail`'],
    ['a detail that is null', { detail: null }, '`detail`'],
    ['a numeric version', { version: 0 }, '`version`'],
  ])('rejects an envelope with %s, naming the field', (_what, change, reason) => {
    const parsed = parseEnvelope({ ...raw('create-user.json'), ...change });
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.reason).toContain(reason);
  });

  it.each(['us-east-1', 'us-gov-west-1', 'cn-northwest-1', 'ap-southeast-5', 'eu-central-2', 'il-central-1'])(
    'accepts the region %s',
    (region) => {
      expect(parseEnvelope({ ...raw('create-user.json'), region }).ok).toBe(true);
    },
  );

  it('accepts fractional seconds and offsets in the time, and a detail with any paired surrogates (emoji)', () => {
    expect(parseEnvelope({ ...raw('create-user.json'), time: '2026-03-15T10:02:11.123+02:00' }).ok).toBe(true);
    expect(
      parseEnvelope({ ...raw('create-user.json'), time: '2028-02-29T10:00:00Z', detail: { note: 'ok \u{1F600}' } }).ok,
    ).toBe(true);
  });

  it('keeps the time to the millisecond, in UTC: what pages of events are keyed by', () => {
    const parsed = parseEnvelope({ ...raw('create-user.json'), time: '2026-03-15T10:02:11.123456+02:00' });
    if (!parsed.ok) throw new Error(parsed.reason);
    expect(toAccountEvent(parsed.envelope).time).toBe('2026-03-15T08:02:11.123Z');
  });

  it('never throws on garbage', () => {
    const garbage: unknown[] = [
      undefined,
      true,
      0,
      '',
      [],
      {},
      { detail: {} },
      Object.create(null),
      { id: { toString: 1 } },
      new Date(0),
    ];
    for (const body of garbage) expect(() => parseEnvelope(body)).not.toThrow();
  });
});

describe('toAccountEvent', () => {
  it('keeps the envelope fields, the CloudTrail event name, the caller ARN and source IP', () => {
    expect(eventOf('create-access-key.json')).toEqual({
      eventId: 'c4b3a291-8f7e-4d6c-9b5a-4f3e2d1c0b06',
      account: '123456789012',
      source: 'aws.iam',
      detailType: 'AWS API Call via CloudTrail',
      region: 'us-east-1',
      time: '2026-03-15T10:03:40.000Z',
      eventName: 'CreateAccessKey',
      actor: 'arn:aws:iam::123456789012:user/alice',
      sourceIp: '203.0.113.24',
      detail: raw('create-access-key.json').detail,
    });
  });

  it('names the root user root, in sign-ins and API calls', () => {
    expect(eventOf('root-console-sign-in.json')).toMatchObject({
      eventName: 'ConsoleLogin',
      actor: 'root',
      sourceIp: '198.51.100.7',
    });
    expect(eventOf('root-api-call.json').actor).toBe('root');
  });

  it('falls back to the principal id when the identity has no ARN', () => {
    const body = raw('create-user.json');
    const detail = {
      ...(body.detail as object),
      userIdentity: { type: 'AWSAccount', principalId: 'AIDAEXAMPLEPRINCIPAL' },
    };
    expect(toAccountEvent(envelopeOf({ ...body, detail })).actor).toBe('AIDAEXAMPLEPRINCIPAL');
  });

  it('reads a GuardDuty finding: its type, the access key user, the API caller IP', () => {
    expect(eventOf('guardduty-finding-high.json')).toMatchObject({
      eventName: 'UnauthorizedAccess:IAMUser/InstanceCredentialExfiltration.OutsideAWS',
      actor: 'app-server',
      sourceIp: '192.0.2.55',
    });
  });

  it('reads the prober IP of a port-probe finding, which names no user', () => {
    expect(eventOf('guardduty-finding-low.json')).toMatchObject({
      eventName: 'Recon:EC2/PortProbeUnprotectedPort',
      actor: null,
      sourceIp: '198.51.100.99',
    });
  });

  it("reads an AWS Health event's type code, and names nobody: AWS itself tells", () => {
    expect(eventOf('health-abuse-dos-report.json')).toMatchObject({
      eventName: 'AWS_ABUSE_DOS_REPORT',
      actor: null,
      sourceIp: null,
    });
    // A call to the Health API comes through CloudTrail with the same source: its caller is the actor.
    const read = raw('root-read-only-call.json');
    const call = {
      ...read,
      source: 'aws.health',
      detail: { ...(read.detail as object), eventSource: 'health.amazonaws.com', eventName: 'DescribeEvents' },
    };
    expect(toAccountEvent(envelopeOf(call))).toMatchObject({
      eventName: 'DescribeEvents',
      actor: 'root',
      sourceIp: '203.0.113.24',
    });
  });

  it('gives nulls for other events and never throws on unexpected shapes', () => {
    const body = {
      ...raw('create-user.json'),
      'detail-type': 'EC2 Instance State-change Notification',
      source: 'aws.ec2',
    };
    const odd = [
      { 'instance-id': 'i-1', state: 'running' },
      { eventName: 5, userIdentity: 'root', sourceIPAddress: ['1.2.3.4'] },
      { userIdentity: null, requestParameters: 'x' },
    ];
    for (const detail of odd) {
      expect(toAccountEvent(envelopeOf({ ...body, detail }))).toMatchObject({
        eventName: null,
        actor: null,
        sourceIp: null,
      });
    }
    const findings = [
      { type: 3, resource: 'x', service: { action: 5 } },
      { service: { action: { a: null, b: { portProbeDetails: 'x' } } } },
    ];
    for (const detail of findings) {
      expect(toAccountEvent(envelopeOf({ ...raw('guardduty-finding-high.json'), detail }))).toMatchObject({
        eventName: null,
        actor: null,
        sourceIp: null,
      });
    }
  });
});
