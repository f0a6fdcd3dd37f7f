import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CATALOG } from '../../../domain/checks/catalog';
import { describedDetection, FORWARDING_BLIND_ID } from '../../../domain/events/catalog';
import { PROBABLE_COMPROMISE } from '../../../domain/events/compound';
import { detectEvent, EVENT_DETECTIONS, parsePolicy, rescansOf } from '../../../domain/events/detections';
import { readsFailedCalls } from '../../../domain/events/playbook';
import { PLAYBOOK_EXPECTED } from '../../helpers/playbook-fixtures';
import { parseEnvelope, toAccountEvent } from '../../../domain/events/normalize';
import { decideOccurrences, OCCURRENCE_WINDOW_MINUTES, signalPrincipal } from '../../../domain/events/occurrences';
import { type AccountEvent, type DetectionContext, SERVICE_GROUP_NAMES } from '../../../domain/events/types';
import { billingReadPolicy, ROLE_NAME, scanReadPolicy } from '../../../domain/onboarding/role';
import {
  CLOUDTRAIL_API_CALL,
  FORWARDING_RULES,
  HEARTBEAT_RULE_NAME,
  HEARTBEAT_SCHEDULE,
} from '../../../domain/events/forwarding-rules';

const FIXTURES = join(__dirname, '../../fixtures/aws-events');
const CONTEXT: DetectionContext = {
  usedRegions: ['eu-west-1', 'us-east-1'],
  roleName: ROLE_NAME,
  eventKeyRotating: false,
};

type Body = Record<string, unknown> & { detail: Record<string, unknown> };
const raw = (name: string): Body => JSON.parse(readFileSync(join(FIXTURES, name), 'utf8'));

function eventFrom(body: unknown): AccountEvent {
  const parsed = parseEnvelope(body);
  if (!parsed.ok) throw new Error(parsed.reason);
  return toAccountEvent(parsed.envelope);
}

/** A fixture with its detail changed: each key is a dotted path into the detail; undefined deletes. */
function variant(name: string, changes: Record<string, unknown>): AccountEvent {
  const body = raw(name);
  const detail = structuredClone(body.detail);
  for (const [path, value] of Object.entries(changes)) {
    const keys = path.split('.');
    const last = keys.pop() as string;
    const parent = keys.reduce((node, key) => node[key] as Record<string, unknown>, detail);
    if (value === undefined) delete parent[last];
    else parent[last] = value;
  }
  return eventFrom({ ...body, detail });
}

const ids = (event: AccountEvent, context = CONTEXT) => detectEvent(event, context).map((d) => d.detection.id);
const findings = (event: AccountEvent, context = CONTEXT) => detectEvent(event, context).map((d) => d.finding);

const EXPECTED: Record<string, string[]> = {
  'root-console-sign-in.json': ['event.root_console_sign_in'],
  'console-sign-in-no-mfa.json': ['event.console_sign_in_without_mfa'],
  'console-sign-in-mfa.json': [],
  'root-api-call.json': ['event.root_api_call'],
  // Root's read-only calls are root use too (forwarded by the rule that receives read-only management events);
  // denied, they did nothing.
  'root-read-only-call.json': ['event.root_api_call'],
  'root-read-only-call-denied.json': [],
  'create-user.json': ['event.iam_user_created'],
  'create-access-key.json': ['event.access_key_created', 'event.access_key_created_for_another_user'],
  'create-login-profile.json': ['event.login_profile_created'],
  'attach-admin-policy.json': ['event.admin_policy_attached'],
  'put-inline-admin-policy.json': ['event.admin_policy_attached'],
  'attach-readonly-policy.json': [],
  'stop-logging.json': ['event.cloudtrail_logging_stopped'],
  'delete-trail.json': ['event.cloudtrail_trail_deleted'],
  'update-trail-weakened.json': ['event.cloudtrail_weakened'],
  'put-event-selectors-no-management.json': ['event.cloudtrail_weakened'],
  'guardduty-delete-detector.json': ['event.guardduty_disabled'],
  'guardduty-disassociate.json': ['event.guardduty_disabled'],
  'guardduty-update-detector-suspend.json': ['event.guardduty_disabled'],
  'guardduty-update-detector-frequency.json': [],
  'sg-open-ssh.json': ['event.security_group_admin_port_opened'],
  'sg-open-ipv6-postgres.json': ['event.security_group_database_port_opened'],
  'sg-open-https.json': [],
  // A rule changed: no signal, a rescan (rescansOf, below).
  'sg-modify-open-ssh.json': [],
  'sg-modify-private.json': [],
  'put-bucket-policy-public.json': ['event.s3_bucket_made_public'],
  'put-bucket-acl-public.json': ['event.s3_bucket_made_public'],
  'delete-public-access-block.json': ['event.s3_bucket_made_public'],
  'delete-account-public-access-block.json': ['event.s3_account_public_access_block_removed'],
  'put-bucket-public-access-block-off.json': ['event.s3_bucket_made_public'],
  'put-bucket-public-access-block-partial.json': [],
  'put-account-public-access-block-off.json': ['event.s3_account_public_access_block_removed'],
  'run-instances-gpu.json': ['event.gpu_instance_launched'],
  'run-instances-unused-region.json': ['event.instance_launched_in_unused_region'],
  // A GPU launch refused (a vCPU quota): what stolen keys try first.
  'run-instances-failed.json': ['event.gpu_instance_launch_attempted'],
  'delete-alternate-contact.json': ['event.alternate_contact_deleted'],
  'guardduty-finding-high.json': ['event.guardduty_high_severity_finding'],
  // Every severity is forwarded: a probe (LOW) and an unusual console sign-in (MEDIUM) are event.guardduty_finding's.
  'guardduty-finding-low.json': ['event.guardduty_finding'],
  'guardduty-finding-medium.json': ['event.guardduty_finding'],
  'guardduty-finding-critical.json': ['event.guardduty_high_severity_finding'],
  // GuardDuty scores an instance's credentials used from another AWS account MEDIUM; their type makes it CRITICAL.
  'guardduty-finding-exfiltration-inside-aws.json': ['event.guardduty_high_severity_finding'],
  // Archived (suppressed, or closed by someone), and a member's finding on its administrator's bus: nothing.
  'guardduty-finding-archived.json': [],
  'guardduty-finding-member-account.json': [],
  'eventbridge-delete-rule.json': ['event.event_forwarder_changed'],
  'eventbridge-disable-rule.json': ['event.event_forwarder_changed'],
  'eventbridge-remove-targets.json': ['event.event_forwarder_changed'],
  'eventbridge-put-rule-disabled.json': ['event.event_forwarder_changed'],
  'eventbridge-put-targets-redirect.json': ['event.event_forwarder_changed'],
  'eventbridge-deauthorize-connection.json': ['event.event_forwarder_changed'],
  'eventbridge-delete-connection.json': ['event.event_forwarder_changed'],
  'eventbridge-delete-api-destination.json': ['event.event_forwarder_changed'],
  'eventbridge-update-api-destination.json': ['event.event_forwarder_changed'],
  // Another rule, and the forwarder's own put back as the templates put it (a re-run): no tampering.
  'eventbridge-delete-rule-other.json': [],
  'eventbridge-put-rule-unchanged.json': [],
  'eventbridge-put-targets-sentinel.json': [],
  'iam-detach-scan-role-policy.json': ['event.sentinel_role_changed'],
  'iam-attach-deny-all-scan-role.json': ['event.sentinel_role_changed'],
  'iam-update-scan-role-trust.json': ['event.sentinel_role_changed'],
  'iam-delete-scan-role-policy.json': ['event.sentinel_role_changed'],
  'iam-put-scan-role-boundary.json': ['event.sentinel_role_changed'],
  'iam-put-forwarder-role-deny.json': ['event.sentinel_role_changed'],
  'iam-delete-forwarder-role.json': ['event.sentinel_role_changed'],
  'iam-detach-other-role-policy.json': [],
  'iam-put-forwarder-role-policy-unchanged.json': [],
  'enable-region.json': ['event.region_enabled'],
  'health-risk-credentials-compromised.json': ['event.health_risk_event'],
  'health-abuse-dos-report.json': ['event.health_abuse_event'],
  'health-ec2-scheduled-change.json': [],
};

describe('event detections on the fixtures', () => {
  it('has an expectation for every fixture', () => {
    expect(
      readdirSync(FIXTURES)
        .filter((f) => f.endsWith('.json'))
        .sort(),
    ).toEqual(Object.keys(EXPECTED).sort());
  });

  it.each(Object.entries(EXPECTED))('%s -> %j, each once', (name, expected) => {
    expect(ids(eventFrom(raw(name)))).toEqual(expected);
  });

  it('gives every detection at least one fixture that fires it, here or among the playbook fixtures', () => {
    const fired = new Set([...Object.values(EXPECTED), ...Object.values(PLAYBOOK_EXPECTED)].flat());
    expect(EVENT_DETECTIONS.map((d) => d.id).filter((id) => !fired.has(id))).toEqual([]);
  });

  const cloudTrailPositives = Object.entries(EXPECTED)
    .filter(([name, expected]) => expected.length > 0 && /via CloudTrail$/.test(String(raw(name)['detail-type'])))
    .map(([name]) => name);

  it.each(cloudTrailPositives)('fires nothing on %s when the call failed, but what reads refusals', (name) => {
    const denied = ids(variant(name, { errorCode: 'AccessDenied', errorMessage: 'not authorized' }));
    expect(denied.filter((id) => !readsFailedCalls(id))).toEqual([]);
  });

  it('names what each finding is about', () => {
    expect(findings(eventFrom(raw('root-console-sign-in.json')))).toEqual([
      { resource: 'root', detail: 'The root user signed in to the console with MFA.' },
    ]);
    expect(findings(eventFrom(raw('console-sign-in-no-mfa.json')))[0]?.resource).toBe(
      'arn:aws:iam::123456789012:user/bob',
    );
    expect(findings(eventFrom(raw('create-user.json')))[0]?.resource).toBe('arn:aws:iam::123456789012:user/svc-backup');
    expect(findings(eventFrom(raw('create-access-key.json')))).toEqual([
      {
        resource: 'AKIAI44QH8DHBEXAMPLE',
        detail: 'Access key AKIAI44QH8DHBEXAMPLE was created for IAM user svc-backup.',
      },
      {
        resource: 'arn:aws:iam::123456789012:user/svc-backup',
        detail: 'Access key AKIAI44QH8DHBEXAMPLE was created for IAM user svc-backup by another identity.',
      },
    ]);
    expect(findings(eventFrom(raw('create-login-profile.json')))[0]?.resource).toBe('svc-backup');
    expect(findings(eventFrom(raw('attach-admin-policy.json')))[0]?.resource).toBe('user/svc-backup');
    expect(findings(eventFrom(raw('put-inline-admin-policy.json')))).toEqual([
      {
        resource: 'role/lambda-exec',
        detail: 'Inline policy full granting administrator access was put on IAM role lambda-exec.',
      },
    ]);
    expect(findings(eventFrom(raw('stop-logging.json')))).toEqual([
      { resource: 'management-events', region: 'us-east-1', detail: 'Logging was stopped on trail management-events.' },
    ]);
    expect(findings(eventFrom(raw('update-trail-weakened.json')))[0]?.detail).toBe(
      'Trail management-events: made single-region, log file validation turned off.',
    );
    expect(findings(eventFrom(raw('guardduty-delete-detector.json')))[0]).toMatchObject({
      resource: '12abc34d567e8fa901bc2d34e56789f0',
      region: 'eu-west-1',
    });
    expect(findings(eventFrom(raw('sg-open-ssh.json')))).toEqual([
      {
        resource: 'sg-0a1b2c3d4e5f60718',
        region: 'us-east-1',
        detail: 'Security group sg-0a1b2c3d4e5f60718 now allows tcp port 22 from 0.0.0.0/0.',
        controls: { 'cis-aws-7.0': ['6.3'] },
      },
    ]);
    expect(findings(eventFrom(raw('sg-open-ipv6-postgres.json')))[0]?.detail).toContain('tcp port 5432 from ::/0');
    expect(findings(eventFrom(raw('put-bucket-policy-public.json')))[0]).toMatchObject({
      resource: 'example-reports-123456789012',
      region: 'eu-west-1',
    });
    expect(findings(eventFrom(raw('run-instances-gpu.json')))).toEqual([
      {
        resource: 'r-0a1b2c3d4e5f60718',
        region: 'us-east-1',
        detail: 'Instance(s) i-0a1b2c3d4e5f60718 (p4d.24xlarge) launched in us-east-1.',
      },
    ]);
    expect(findings(eventFrom(raw('run-instances-unused-region.json')))[0]).toMatchObject({
      resource: 'r-0b2c3d4e5f6071829',
      region: 'ap-southeast-3',
    });
    expect(findings(eventFrom(raw('delete-alternate-contact.json')))).toEqual([
      {
        resource: 'security-contact',
        detail: 'The security alternate contact was deleted.',
        controls: { 'cis-aws-7.0': ['2.2', '2.3'] },
      },
    ]);
    expect(findings(eventFrom(raw('guardduty-finding-high.json')))).toEqual([
      {
        resource: 'b6c7d8e9f0a1b2c3d4e5f6a7b8c9d0e1',
        region: 'us-east-1',
        detail:
          'Credentials for instance role app-server used from external IP address. ' +
          '(UnauthorizedAccess:IAMUser/InstanceCredentialExfiltration.OutsideAWS, GuardDuty severity 8: HIGH; rated ' +
          "CRITICAL for its type (an instance's credentials used elsewhere are stolen)).",
      },
    ]);
  });
});

describe("the root user's read-only calls", () => {
  it('are root use, named as reads: ListBuckets from the console, GetCallerIdentity with root keys', () => {
    expect(findings(eventFrom(raw('root-read-only-call.json')))).toEqual([
      { resource: 'root', detail: 'The root user called s3.amazonaws.com ListBuckets (read-only) in us-east-1.' },
    ]);
    const whoAmI = variant('root-read-only-call.json', {
      eventSource: 'sts.amazonaws.com',
      eventName: 'GetCallerIdentity',
      requestParameters: null,
    });
    expect(findings(whoAmI)).toEqual([
      {
        resource: 'root',
        detail: 'The root user called sts.amazonaws.com GetCallerIdentity (read-only) in us-east-1.',
      },
    ]);
    // A write says nothing more than the call.
    expect(findings(eventFrom(raw('root-api-call.json')))[0]?.detail).toBe(
      'The root user called iam.amazonaws.com UpdateAccountPasswordPolicy in us-east-1.',
    );
  });

  it("fire nothing when denied, nor when an AWS service made them on the root user's behalf", () => {
    expect(raw('root-read-only-call-denied.json').detail.readOnly).toBe(true);
    expect(ids(eventFrom(raw('root-read-only-call-denied.json')))).toEqual([]);
    // The same read, allowed: root use.
    expect(ids(variant('root-read-only-call-denied.json', { errorCode: undefined, errorMessage: undefined }))).toEqual([
      'event.root_api_call',
    ]);
    expect(ids(variant('root-read-only-call.json', { 'userIdentity.invokedBy': 'AWS Internal' }))).toEqual([]);
  });

  it("open one signal for a console session's dozens of reads: the rest are counted on it, as the bound says", () => {
    const signIn = new Date('2026-03-15T08:12:40Z').getTime();
    // Forty reads over the first 14 minutes of a root console session, then one more after the window.
    const minutes = [...Array.from({ length: 40 }, (_, i) => (i * 14) / 40), OCCURRENCE_WINDOW_MINUTES + 1];
    const occurrences = minutes.map((minute, i) => {
      const time = new Date(signIn + minute * 60_000).toISOString();
      const event = eventFrom({ ...raw('root-read-only-call.json'), id: `read-${i}`, time });
      const [found] = detectEvent(event, CONTEXT);
      expect(found?.detection.id).toBe('event.root_api_call');
      return {
        signalId: `sig-${i}`,
        detectionId: found!.detection.id,
        principal: signalPrincipal(found!.detection.id, event.actor),
        occurredAt: new Date(event.time),
      };
    });
    const decisions = decideOccurrences([], [], occurrences);
    expect(decisions.filter((d) => d.open)).toHaveLength(2);
    expect(decisions.slice(1, 40)).toEqual(Array(39).fill({ open: false, countedOn: 'sig-0' }));
    expect(decisions[40]).toEqual({ open: true, scope: null });
  });
});

describe('AWS Health events', () => {
  it('open a signal for the RISK and ABUSE service categories, named by the event ARN and region', () => {
    expect(findings(eventFrom(raw('health-risk-credentials-compromised.json')))).toEqual([
      {
        resource:
          'arn:aws:health:global::event/RISK/AWS_RISK_CREDENTIALS_COMPROMISED/AWS_RISK_CREDENTIALS_COMPROMISED_4f2c9a1e-7b3d-4e8a-9c6f-2d1b0a9e8f7c',
        region: 'global',
        detail: expect.stringMatching(
          /^AWS Health RISK event AWS_RISK_CREDENTIALS_COMPROMISED, status open\. Affected: AKIAIOSFODNN7LEAKED1\. AWS: "We have detected that the access key AKIAIOSFODNN7LEAKED1/,
        ),
      },
    ]);
    const [abuse] = findings(eventFrom(raw('health-abuse-dos-report.json')));
    expect(abuse).toMatchObject({
      region: 'global',
      resource: expect.stringContaining('/ABUSE/AWS_ABUSE_DOS_REPORT/'),
    });
    expect(abuse?.detail).toContain('Affected: arn:aws:ec2:eu-west-1:123456789012:instance/i-0f1e2d3c4b5a69788.');
    const event = eventFrom(raw('health-risk-credentials-compromised.json'));
    expect({ eventName: event.eventName, actor: event.actor, sourceIp: event.sourceIp }).toEqual({
      eventName: 'AWS_RISK_CREDENTIALS_COMPROMISED',
      actor: null,
      sourceIp: null,
    });
  });

  it.each([
    ['AWS_RISK_CREDENTIALS_COMPROMISE_SUSPECTED'],
    ['AWS_RISK_CREDENTIALS_EXPOSURE_SUSPECTED'],
    ['AWS_RISK_CREDENTIALS_EXPOSED'],
    ['AWS_RISK_IAM_QUARANTINE'],
    // A type AWS adds later is a risk by its category.
    ['AWS_RISK_SOMETHING_NEW'],
  ])('reads %s as a risk by its category, whatever the code says', (code) => {
    expect(ids(variant('health-risk-credentials-compromised.json', { eventTypeCode: code }))).toEqual([
      'event.health_risk_event',
    ]);
  });

  it.each([
    ['AWS_ABUSE_PHISHING_REPORT', 'AWS Health Abuse Event'],
    ['AWS_ABUSE_SPAM_REPORT', 'AWS Health Event'],
  ])('reads %s (%s) as abuse', (code, detailType) => {
    const body = raw('health-abuse-dos-report.json');
    const event = eventFrom({ ...body, 'detail-type': detailType, detail: { ...body.detail, eventTypeCode: code } });
    expect(ids(event)).toEqual(['event.health_abuse_event']);
  });

  it("opens nothing for other services' events, closed ones, another account's, or a call to the Health API", () => {
    expect(ids(eventFrom(raw('health-ec2-scheduled-change.json')))).toEqual([]);
    // Words in the code are not the category.
    expect(
      ids(variant('health-ec2-scheduled-change.json', { eventTypeCode: 'AWS_EC2_ABUSE_RISK_CREDENTIALS_EXPOSED' })),
    ).toEqual([]);
    expect(ids(variant('health-risk-credentials-compromised.json', { statusCode: 'closed' }))).toEqual([]);
    expect(ids(variant('health-abuse-dos-report.json', { statusCode: 'closed' }))).toEqual([]);
    expect(ids(variant('health-risk-credentials-compromised.json', { statusCode: 'upcoming' }))).toEqual([
      'event.health_risk_event',
    ]);
    expect(ids(variant('health-risk-credentials-compromised.json', { affectedAccount: '210987654321' }))).toEqual([]);
    const apiCall = eventFrom({
      ...raw('health-risk-credentials-compromised.json'),
      'detail-type': 'AWS API Call via CloudTrail',
    });
    expect(ids(apiCall)).toEqual([]);
  });

  it('keeps a long description short and lists five entities at most', () => {
    const entities = Array.from({ length: 7 }, (_, i) => ({ entityValue: `AKIAIOSFODNN7LEAKED${i}` }));
    const [finding] = findings(
      variant('health-risk-credentials-compromised.json', {
        affectedEntities: entities,
        eventDescription: [{ language: 'en_US', latestDescription: 'x'.repeat(1000) }],
      }),
    );
    expect(finding?.detail).toContain('AKIAIOSFODNN7LEAKED4 and 2 more.');
    expect(finding?.detail).toContain(`"${'x'.repeat(400)}..."`);
    expect(finding?.detail).not.toContain('x'.repeat(401));
  });
});

describe('event detection rules', () => {
  it('ignores root calls an AWS service made on its behalf', () => {
    expect(ids(variant('root-api-call.json', { 'userIdentity.invokedBy': 'cloudformation.amazonaws.com' }))).toEqual(
      [],
    );
  });

  it('counts a root call that creates a key as both root use and a new key', () => {
    const rootKey = variant('create-access-key.json', { userIdentity: raw('root-api-call.json').detail.userIdentity });
    expect(ids(rootKey)).toEqual([
      'event.root_api_call',
      'event.access_key_created',
      'event.access_key_created_for_another_user',
    ]);
  });

  it('ignores failed sign-ins and federated sign-ins without MFA', () => {
    expect(ids(variant('root-console-sign-in.json', { 'responseElements.ConsoleLogin': 'Failure' }))).toEqual([]);
    expect(
      ids(
        variant('console-sign-in-no-mfa.json', {
          userIdentity: {
            type: 'AssumedRole',
            arn: 'arn:aws:sts::123456789012:assumed-role/Admin/jane',
            principalId: 'AROAEXAMPLE:jane',
          },
        }),
      ),
    ).toEqual([]);
  });

  it('reads a key created for the caller itself', () => {
    const own = variant('create-access-key.json', {
      requestParameters: null,
      'responseElements.accessKey.userName': undefined,
    });
    expect(findings(own)[0]?.detail).toBe('Access key AKIAI44QH8DHBEXAMPLE was created for IAM user alice.');
  });

  it.each([
    [
      'a plain JSON string',
      JSON.stringify({ Statement: { Effect: 'Allow', Action: ['s3:*', '*:*'], Resource: ['*'] } }),
      true,
    ],
    [
      'a form-encoded string',
      encodeURIComponent('{"Statement":[{"Effect":"Allow","Action":"*","Resource":"*"}]}').replace(/%20/g, '+'),
      true,
    ],
    [
      'a scoped policy',
      JSON.stringify({ Statement: [{ Effect: 'Allow', Action: '*', Resource: 'arn:aws:s3:::b/*' }] }),
      false,
    ],
    ['a deny', JSON.stringify({ Statement: [{ Effect: 'Deny', Action: '*', Resource: '*' }] }), false],
    ['no JSON at all', '%E0%A4%A', false],
  ])('judges an inline policy given as %s', (_what, policyDocument, admin) => {
    const event = variant('put-inline-admin-policy.json', { 'requestParameters.policyDocument': policyDocument });
    expect(ids(event)).toEqual(admin ? ['event.admin_policy_attached'] : []);
  });

  it('parses policies defensively', () => {
    expect(parsePolicy('{"a":1}')).toEqual({ a: 1 });
    expect(parsePolicy('%7B%22a%22%3A1%7D')).toEqual({ a: 1 });
    expect(parsePolicy('[1]')).toBeNull();
    expect(parsePolicy(42)).toBeNull();
  });

  it('ignores UpdateTrail calls that do not weaken the trail', () => {
    expect(
      ids(
        variant('update-trail-weakened.json', {
          requestParameters: { name: 'management-events', isMultiRegionTrail: true, s3BucketName: 'other-bucket' },
        }),
      ),
    ).toEqual([]);
  });

  it.each([
    [
      'basic selectors recording all management events',
      { eventSelectors: [{ readWriteType: 'All', includeManagementEvents: true }] },
      false,
    ],
    [
      'basic selectors recording reads only',
      { eventSelectors: [{ readWriteType: 'ReadOnly', includeManagementEvents: true }] },
      true,
    ],
    [
      'advanced selectors for data events only',
      { advancedEventSelectors: [{ name: 'S3', fieldSelectors: [{ field: 'eventCategory', equals: ['Data'] }] }] },
      true,
    ],
    [
      'advanced selectors for management reads only',
      {
        advancedEventSelectors: [
          {
            fieldSelectors: [
              { field: 'eventCategory', equals: ['Management'] },
              { field: 'readOnly', equals: ['true'] },
            ],
          },
        ],
      },
      true,
    ],
    [
      'advanced selectors for management events',
      { advancedEventSelectors: [{ fieldSelectors: [{ field: 'eventCategory', equals: ['Management'] }] }] },
      false,
    ],
  ])('judges PutEventSelectors with %s', (_what, selectors, weakened) => {
    const event = variant('put-event-selectors-no-management.json', {
      requestParameters: { trailName: 'management-events', ...selectors },
    });
    expect(ids(event)).toEqual(weakened ? ['event.cloudtrail_weakened'] : []);
  });

  it('ignores DeleteDetector calls of other services', () => {
    expect(ids(variant('guardduty-delete-detector.json', { eventSource: 'frauddetector.amazonaws.com' }))).toEqual([]);
  });

  const withPermission = (permission: object) =>
    variant('sg-open-ssh.json', { 'requestParameters.ipPermissions.items': [permission] });
  const ipv4 = (cidrIp: string) => ({ items: [{ cidrIp }] });

  it.each([
    ['all traffic', { ipProtocol: '-1', ipRanges: ipv4('0.0.0.0/0') }, ['event.security_group_admin_port_opened']],
    [
      'every TCP port',
      { ipProtocol: 'tcp', fromPort: 0, toPort: 65535, ipRanges: ipv4('0.0.0.0/0') },
      ['event.security_group_admin_port_opened'],
    ],
    [
      'RDP over UDP',
      { ipProtocol: 'udp', fromPort: 3389, toPort: 3389, ipRanges: ipv4('0.0.0.0/0') },
      ['event.security_group_admin_port_opened'],
    ],
    [
      'SMB',
      { ipProtocol: '6', fromPort: 445, toPort: 445, ipRanges: ipv4('0.0.0.0/0') },
      ['event.security_group_admin_port_opened'],
    ],
    [
      'a range with Redis',
      { ipProtocol: 'tcp', fromPort: 6000, toPort: 7000, ipRanges: ipv4('0.0.0.0/0') },
      ['event.security_group_database_port_opened'],
    ],
    ['SSH from an office', { ipProtocol: 'tcp', fromPort: 22, toPort: 22, ipRanges: ipv4('203.0.113.0/24') }, []],
    ['MySQL over UDP', { ipProtocol: 'udp', fromPort: 3306, toPort: 3306, ipRanges: ipv4('0.0.0.0/0') }, []],
    [
      'another group as source',
      { ipProtocol: 'tcp', fromPort: 22, toPort: 22, groups: { items: [{ groupId: 'sg-1' }] } },
      [],
    ],
  ])('judges an ingress rule allowing %s', (_what, permission, expected) => {
    expect(ids(withPermission(permission))).toEqual(expected);
  });

  it('reads the single-rule form of AuthorizeSecurityGroupIngress', () => {
    const event = variant('sg-open-ssh.json', {
      requestParameters: { groupName: 'default', ipProtocol: 'tcp', fromPort: 3389, toPort: 3389, cidrIp: '0.0.0.0/0' },
    });
    expect(findings(event)).toEqual([
      {
        resource: 'default',
        region: 'us-east-1',
        detail: 'Security group default now allows tcp port 3389 from 0.0.0.0/0.',
        controls: { 'cis-aws-7.0': ['6.3'] },
      },
    ]);
  });

  const withStatement = (statement: object) =>
    variant('put-bucket-policy-public.json', { 'requestParameters.bucketPolicy.Statement': [statement] });

  it.each([
    [
      'Principal {AWS: "*"}',
      { Effect: 'Allow', Principal: { AWS: ['*'] }, Action: 's3:GetObject', Resource: '*' },
      true,
    ],
    [
      'a condition',
      {
        Effect: 'Allow',
        Principal: '*',
        Action: 's3:GetObject',
        Resource: '*',
        Condition: { StringEquals: { 'aws:SourceVpce': 'vpce-1' } },
      },
      false,
    ],
    [
      'its own account as principal',
      { Effect: 'Allow', Principal: { AWS: 'arn:aws:iam::123456789012:root' }, Action: 's3:GetObject', Resource: '*' },
      false,
    ],
    ['a public deny', { Effect: 'Deny', Principal: '*', Action: 's3:*', Resource: '*' }, false],
  ])('judges a bucket policy statement with %s', (_what, statement, isPublic) => {
    expect(ids(withStatement(statement))).toEqual(isPublic ? ['event.s3_bucket_made_public'] : []);
  });

  it.each([
    ['a canned public-read ACL', { bucketName: 'b', 'x-amz-acl': ['public-read'] }, true],
    ['a canned private ACL', { bucketName: 'b', 'x-amz-acl': ['private'] }, false],
    [
      'a grant header to AuthenticatedUsers',
      { bucketName: 'b', 'x-amz-grant-read': ['uri="http://acs.amazonaws.com/groups/global/AuthenticatedUsers"'] },
      true,
    ],
    [
      'a single grant to the owner',
      {
        bucketName: 'b',
        AccessControlPolicy: { AccessControlList: { Grant: { Grantee: { ID: 'abc' }, Permission: 'FULL_CONTROL' } } },
      },
      false,
    ],
  ])('judges PutBucketAcl with %s', (_what, requestParameters, isPublic) => {
    expect(ids(variant('put-bucket-acl-public.json', { requestParameters }))).toEqual(
      isPublic ? ['event.s3_bucket_made_public'] : [],
    );
  });

  it('judges the region of a launch only when the regions in use are known', () => {
    const event = eventFrom(raw('run-instances-unused-region.json'));
    expect(ids(event, { ...CONTEXT, usedRegions: null })).toEqual([]);
    expect(ids(event, { ...CONTEXT, usedRegions: ['ap-southeast-3'] })).toEqual([]);
    expect(ids(event, { ...CONTEXT, usedRegions: [] })).toEqual(['event.instance_launched_in_unused_region']);
  });

  it('counts a GPU launch in an unused region twice, once per detection', () => {
    const event = variant('run-instances-unused-region.json', {
      'responseElements.instancesSet.items.0.instanceType': 'g5.xlarge',
    });
    expect(ids(event)).toEqual(['event.instance_launched_in_unused_region', 'event.gpu_instance_launched']);
  });

  it("leaves to each member account its own GuardDuty findings and contacts, which its administrator's bus also sees", () => {
    expect(ids(variant('guardduty-finding-high.json', { accountId: '210987654321' }))).toEqual([]);
    expect(ids(variant('guardduty-finding-high.json', { accountId: '123456789012' }))).toEqual([
      'event.guardduty_high_severity_finding',
    ]);
    expect(ids(variant('delete-alternate-contact.json', { 'requestParameters.accountId': '210987654321' }))).toEqual(
      [],
    );
    expect(ids(variant('delete-alternate-contact.json', { 'requestParameters.accountId': '123456789012' }))).toEqual([
      'event.alternate_contact_deleted',
    ]);
  });

  it('reads administrator access as the scan does: IAMFullAccess, and inline iam:* or NotAction leaving IAM in', () => {
    const attach = (policyArn: string) =>
      ids(variant('attach-admin-policy.json', { 'requestParameters.policyArn': policyArn }));
    expect(attach('arn:aws:iam::aws:policy/IAMFullAccess')).toEqual(['event.admin_policy_attached']);
    expect(attach('arn:aws:iam::aws:policy/PowerUserAccess')).toEqual([]);
    const inline = (statement: object) =>
      ids(
        variant('put-inline-admin-policy.json', {
          'requestParameters.policyDocument': JSON.stringify({ Version: '2012-10-17', Statement: [statement] }),
        }),
      );
    expect(inline({ Effect: 'Allow', Action: 'iam:*', Resource: '*' })).toEqual(['event.admin_policy_attached']);
    expect(inline({ Effect: 'Allow', NotAction: 's3:DeleteBucket', Resource: '*' })).toEqual([
      'event.admin_policy_attached',
    ]);
    expect(inline({ Effect: 'Allow', NotAction: ['iam:*', 'organizations:*'], Resource: '*' })).toEqual([]);
    expect(inline({ Effect: 'Allow', Action: 's3:*', Resource: '*' })).toEqual([]);
  });

  const ipv6 = (cidrIpv6: string) => ({ items: [{ cidrIpv6 }] });
  it.each([
    ['SSH from ::/0', { ipProtocol: 'tcp', fromPort: 22, toPort: 22, ipv6Ranges: ipv6('::/0') }, ['6.4']],
    ['RDP from 0.0.0.0/0', { ipProtocol: 'tcp', fromPort: 3389, toPort: 3389, ipRanges: ipv4('0.0.0.0/0') }, ['6.3']],
    ['SMB from 0.0.0.0/0', { ipProtocol: 'tcp', fromPort: 445, toPort: 445, ipRanges: ipv4('0.0.0.0/0') }, ['6.1.2']],
    ['all traffic from ::/0', { ipProtocol: '-1', ipv6Ranges: ipv6('::/0') }, ['6.1.2', '6.4']],
    [
      'SSH from both',
      { ipProtocol: 'tcp', fromPort: 22, toPort: 22, ipRanges: ipv4('0.0.0.0/0'), ipv6Ranges: ipv6('::/0') },
      ['6.3', '6.4'],
    ],
  ])('names the CIS controls a group opened on %s breaks', (_what, permission, controls) => {
    expect(findings(withPermission(permission))[0]?.controls).toEqual({ 'cis-aws-7.0': controls });
  });

  it('names the CIS controls a weakened trail and a deleted contact break', () => {
    expect(findings(eventFrom(raw('update-trail-weakened.json')))[0]?.controls).toEqual({
      'cis-aws-7.0': ['4.1', '4.2'],
    });
    expect(
      findings(variant('update-trail-weakened.json', { 'requestParameters.isMultiRegionTrail': true }))[0]?.controls,
    ).toEqual({ 'cis-aws-7.0': ['4.2'] });
    expect(findings(eventFrom(raw('put-event-selectors-no-management.json')))[0]?.controls).toEqual({
      'cis-aws-7.0': ['4.1'],
    });
    expect(
      findings(variant('delete-alternate-contact.json', { 'requestParameters.alternateContactType': 'BILLING' }))[0]
        ?.controls,
    ).toEqual({ 'cis-aws-7.0': ['2.2'] });
  });

  it("names only controls of the finding's detection", () => {
    for (const name of Object.keys(EXPECTED)) {
      for (const { detection, finding } of detectEvent(eventFrom(raw(name)), CONTEXT)) {
        const named = finding.controls?.['cis-aws-7.0'] ?? [];
        expect([name, named.filter((id) => !detection.controls?.['cis-aws-7.0']?.includes(id))]).toEqual([name, []]);
      }
    }
  });

  it('reads a trail that stops recording global service events as weakened', () => {
    const event = variant('update-trail-weakened.json', {
      'requestParameters.isMultiRegionTrail': true,
      'requestParameters.enableLogFileValidation': true,
      'requestParameters.includeGlobalServiceEvents': false,
    });
    expect(findings(event)[0]?.detail).toBe(
      'Trail management-events: global service events (IAM, STS, sign-ins) no longer recorded.',
    );
  });

  it("follows the GuardDuty severity, raised by the finding's type, and ignores archived findings", () => {
    expect(findings(variant('guardduty-finding-high.json', { severity: 9.5 }))[0]?.detail).toContain(
      'GuardDuty severity 9.5: CRITICAL).',
    );
    // A probe is as serious as GuardDuty says: HIGH from 7.
    expect(ids(variant('guardduty-finding-low.json', { severity: 6.9 }))).toEqual(['event.guardduty_finding']);
    expect(ids(variant('guardduty-finding-low.json', { severity: 7 }))).toEqual([
      'event.guardduty_high_severity_finding',
    ]);
    // Stolen instance credentials are serious whatever GuardDuty's score.
    expect(ids(variant('guardduty-finding-high.json', { severity: 2 }))).toEqual([
      'event.guardduty_high_severity_finding',
    ]);
    expect(findings(variant('guardduty-finding-medium.json', { severity: 2 }))[0]?.detail).toContain(
      'GuardDuty severity 2: LOW; rated MEDIUM for its type',
    );
    expect(ids(variant('guardduty-finding-high.json', { severity: '8' }))).toEqual([]);
    expect(ids(variant('guardduty-finding-high.json', { 'service.archived': true }))).toEqual([]);
    expect(ids(variant('guardduty-finding-low.json', { 'service.archived': true }))).toEqual([]);
  });

  it('never throws on unexpected shapes', () => {
    // Objects whose toString is no function: String(value) would throw on them.
    const hostile = { toString: 1, valueOf: 1 };
    const shapes: unknown[] = [
      null,
      'x',
      5,
      [],
      [null],
      { items: 'x' },
      { items: [null, 5, { x: 1 }] },
      hostile,
      {
        ipProtocol: hostile,
        cidrIp: '0.0.0.0/0',
        ipPermissions: { items: [{ ipProtocol: hostile, ipRanges: { items: [{ cidrIp: '0.0.0.0/0' }] } }] },
        PublicAccessBlockConfiguration: hostile,
        enable: hostile,
        accountId: hostile,
        name: hostile,
        rule: 'sentinel-iam-changes',
        eventBusName: hostile,
        eventPattern: '{"detail":',
        targets: [hostile, { id: hostile, arn: hostile }],
        roleName: 'SentinelReadOnly',
        policyArn: hostile,
        policyDocument: hostile,
        RegionName: hostile,
        ModifySecurityGroupRulesRequest: {
          SecurityGroupRule: [
            hostile,
            { SecurityGroupRule: { IpProtocol: hostile, CidrIpv4: '0.0.0.0/0', FromPort: hostile } },
          ],
        },
      },
    ];
    const names = [
      'ConsoleLogin',
      'CreateUser',
      'CreateAccessKey',
      'CreateLoginProfile',
      'AttachUserPolicy',
      'PutRolePolicy',
      'StopLogging',
      'UpdateTrail',
      'PutEventSelectors',
      'DeleteDetector',
      'AuthorizeSecurityGroupIngress',
      'PutBucketPolicy',
      'PutBucketAcl',
      'RunInstances',
      'DeleteAlternateContact',
      'UpdateDetector',
      'PutBucketPublicAccessBlock',
      'PutAccountPublicAccessBlock',
      'ModifySecurityGroupRules',
      'DeleteRule',
      'PutRule',
      'PutTargets',
      'UpdateConnection',
      'DeleteApiDestination',
      'AttachRolePolicy',
      'DetachRolePolicy',
      'UpdateAssumeRolePolicy',
      'PutRolePermissionsBoundary',
      'EnableRegion',
      'constructor',
      '__proto__',
      'toString',
    ];
    const sources = ['iam', 'cloudtrail', 'guardduty', 'ec2', 's3', 'account', 'signin', 'events', 'health'];
    for (const detailType of [
      'AWS API Call via CloudTrail',
      'AWS Console Sign In via CloudTrail',
      'GuardDuty Finding',
      'AWS Health Event',
      'AWS Health Abuse Event',
    ]) {
      for (const eventName of names) {
        for (const shape of shapes) {
          for (const source of sources) {
            const detail = {
              eventName,
              eventSource: `${source}.amazonaws.com`,
              userIdentity: shape,
              requestParameters: shape,
              responseElements: shape,
              additionalEventData: shape,
              severity: 9,
              service: shape,
              resource: shape,
              eventDescription: shape,
              affectedEntities: shape,
              statusCode: shape,
              affectedAccount: shape,
            };
            const event: AccountEvent = {
              eventId: 'e',
              account: '123456789012',
              source: `aws.${source}`,
              detailType,
              region: 'us-east-1',
              time: '2026-03-15T00:00:00Z',
              eventName,
              actor: null,
              sourceIp: null,
              detail,
            };
            expect(() => detectEvent(event, CONTEXT)).not.toThrow();
            expect(() => rescansOf(event)).not.toThrow();
          }
        }
      }
    }
  });
});

describe('a security group rule changed (ModifySecurityGroupRules)', () => {
  const rule = 'requestParameters.ModifySecurityGroupRulesRequest.SecurityGroupRule.SecurityGroupRule';

  it('opens no signal, and asks for a rescan of the network group when the rule is now open to the internet', () => {
    expect(ids(eventFrom(raw('sg-modify-open-ssh.json')))).toEqual([]);
    expect(rescansOf(eventFrom(raw('sg-modify-open-ssh.json')))).toEqual(['network']);
    // Open on any port: the record does not say whether the rule is inbound, so the scan decides.
    expect(
      rescansOf(variant('sg-modify-open-ssh.json', { [`${rule}.FromPort`]: 443, [`${rule}.ToPort`]: 443 })),
    ).toEqual(['network']);
    expect(
      rescansOf(variant('sg-modify-open-ssh.json', { [`${rule}.CidrIpv4`]: undefined, [`${rule}.CidrIpv6`]: '::/0' })),
    ).toEqual(['network']);
  });

  it('reads the list form, and asks nothing for rules open to private ranges only, a failed call or another call', () => {
    expect(rescansOf(eventFrom(raw('sg-modify-private.json')))).toEqual([]);
    const body = raw('sg-modify-private.json');
    const updates = (
      body.detail.requestParameters as {
        ModifySecurityGroupRulesRequest: { SecurityGroupRule: { SecurityGroupRule: object }[] };
      }
    ).ModifySecurityGroupRulesRequest.SecurityGroupRule;
    updates[1]!.SecurityGroupRule = { IpProtocol: '-1', CidrIpv4: '0.0.0.0/0' };
    expect(rescansOf(eventFrom(body))).toEqual(['network']);
    expect(rescansOf(variant('sg-modify-open-ssh.json', { errorCode: 'UnauthorizedOperation' }))).toEqual([]);
    expect(rescansOf(eventFrom(raw('sg-open-ssh.json')))).toEqual([]);
  });
});

describe('event detection definitions', () => {
  const all = [...EVENT_DETECTIONS, PROBABLE_COMPROMISE, describedDetection(FORWARDING_BLIND_ID)];
  const checkIds = new Set(CATALOG.map((check) => check.id));

  it('have unique ids under event.', () => {
    expect(new Set(all.map((d) => d.id)).size).toBe(all.length);
    for (const { id } of all) expect(id).toMatch(/^event\.[a-z0-9_]+$/);
  });

  it.each(all.map((d) => [d.id, d] as const))('%s is documented', (_id, detection) => {
    expect(detection.title).not.toBe('');
    expect(detection.description).not.toBe('');
    expect(detection.remediation).not.toBe('');
    expect(detection.docsUrl).toMatch(/^https:\/\//);
    expect(detection.group === null || SERVICE_GROUP_NAMES.includes(detection.group)).toBe(true);
  });

  it.each(all.map((d) => [d.id, d.confirmedBy ?? []] as const))(
    '%s is confirmed only by real checks',
    (_id, confirmedBy) => {
      for (const id of confirmedBy) expect(checkIds.has(id)).toBe(true);
    },
  );

  it('names a service group for every detection a scan can confirm', () => {
    for (const d of all) if (d.confirmedBy?.length) expect(d.group).not.toBeNull();
  });
});

describe("changes to Sentinel's event forwarder", () => {
  it('names the rule, connection or API destination and the region', () => {
    expect(findings(eventFrom(raw('eventbridge-delete-rule.json')))).toEqual([
      {
        resource: 'rule/sentinel-cloudtrail-changes',
        region: 'eu-west-1',
        detail:
          'Rule sentinel-cloudtrail-changes was deleted in eu-west-1: events from eu-west-1 may no longer reach Sentinel.',
      },
    ]);
    expect(findings(eventFrom(raw('eventbridge-remove-targets.json')))[0]?.resource).toBe('rule/sentinel-iam-changes');
    expect(findings(eventFrom(raw('eventbridge-put-targets-redirect.json')))[0]?.detail).toContain(
      "was given a target other than Sentinel's API destination",
    );
    expect(findings(eventFrom(raw('eventbridge-deauthorize-connection.json')))[0]).toMatchObject({
      resource: 'connection/sentinel-events',
      region: 'us-east-1',
    });
    expect(findings(eventFrom(raw('eventbridge-update-api-destination.json')))[0]).toMatchObject({
      resource: 'api-destination/sentinel-events',
      region: 'eu-west-1',
    });
  });

  it('fires on an UpdateConnection, except while a rotated-out key is still accepted (the rotation updating it)', () => {
    const update = variant('eventbridge-delete-connection.json', { eventName: 'UpdateConnection' });
    expect(findings(update)[0]?.detail).toContain('Connection sentinel-events was updated');
    expect(ids(update, { ...CONTEXT, eventKeyRotating: true })).toEqual([]);
    // Rotation excuses only the key's update: a deletion during it is still one.
    expect(ids(eventFrom(raw('eventbridge-delete-connection.json')), { ...CONTEXT, eventKeyRotating: true })).toEqual([
      'event.event_forwarder_changed',
    ]);
  });

  it("reads a PutRule as tampering unless it puts Sentinel's own rule back as Sentinel defines it", () => {
    const putRule = (requestParameters: object) =>
      ids(variant('eventbridge-put-rule-disabled.json', { requestParameters }));
    const rootActivity = FORWARDING_RULES.find((r) => r.name === 'sentinel-root-activity')!;
    // Key order and spacing aside (Terraform may re-serialize the pattern), the same pattern, enabled: a re-run.
    const reordered = JSON.stringify({
      detail: { userIdentity: { type: ['Root'] } },
      'detail-type': [CLOUDTRAIL_API_CALL],
    });
    expect(putRule({ name: rootActivity.name, eventPattern: reordered })).toEqual([]);
    expect(putRule({ name: rootActivity.name, eventPattern: reordered, state: 'ENABLED' })).toEqual([]);
    expect(putRule({ name: rootActivity.name, eventPattern: reordered, state: 'DISABLED' })).toEqual([
      'event.event_forwarder_changed',
    ]);
    // A narrower pattern (root calls from one IP only) forwards less.
    const narrower = JSON.stringify({ ...rootActivity.pattern, detail: { sourceIPAddress: ['192.0.2.1'] } });
    expect(putRule({ name: rootActivity.name, eventPattern: narrower })).toEqual(['event.event_forwarder_changed']);
    // The heartbeat slowed down: Sentinel would call the region late.
    expect(putRule({ name: HEARTBEAT_RULE_NAME, scheduleExpression: 'rate(1 day)' })).toEqual([
      'event.event_forwarder_changed',
    ]);
    expect(putRule({ name: HEARTBEAT_RULE_NAME, scheduleExpression: HEARTBEAT_SCHEDULE })).toEqual([]);
    // Another rule, or a rule of Sentinel's name on another event bus: the customer's.
    expect(putRule({ name: 'orders-to-queue', eventPattern: narrower, state: 'DISABLED' })).toEqual([]);
    expect(putRule({ name: rootActivity.name, eventPattern: narrower, eventBusName: 'orders' })).toEqual([]);
  });

  it('reads a rule named by its ARN', () => {
    const arn = 'arn:aws:events:eu-west-1:123456789012:rule/sentinel-cloudtrail-changes';
    expect(findings(variant('eventbridge-delete-rule.json', { 'requestParameters.name': arn }))[0]?.resource).toBe(
      'rule/sentinel-cloudtrail-changes',
    );
  });

  it('ignores another connection, API destination or target list, and calls of other services', () => {
    expect(ids(variant('eventbridge-delete-connection.json', { 'requestParameters.name': 'crm-webhook' }))).toEqual([]);
    expect(
      ids(variant('eventbridge-delete-api-destination.json', { 'requestParameters.name': 'crm-webhook' })),
    ).toEqual([]);
    expect(ids(variant('eventbridge-remove-targets.json', { 'requestParameters.rule': 'orders-to-queue' }))).toEqual(
      [],
    );
    expect(ids(variant('eventbridge-delete-rule.json', { eventSource: 'scheduler.amazonaws.com' }))).toEqual([]);
  });

  it('reads a PutTargets adding a second target to a Sentinel rule as tampering', () => {
    const body = raw('eventbridge-put-targets-sentinel.json');
    const [sentinel] = (body.detail.requestParameters as { targets: object[] }).targets;
    const extra = { id: 'copy', arn: 'arn:aws:sqs:us-east-1:123456789012:copies' };
    expect(
      ids(variant('eventbridge-put-targets-sentinel.json', { 'requestParameters.targets': [sentinel, extra] })),
    ).toEqual(['event.event_forwarder_changed']);
  });
});

describe("changes to Sentinel's roles", () => {
  it('names the role and what the change costs Sentinel', () => {
    expect(findings(eventFrom(raw('iam-detach-scan-role-policy.json')))).toEqual([
      {
        resource: 'role/SentinelReadOnly',
        detail:
          "Sentinel's scan role SentinelReadOnly had arn:aws:iam::aws:policy/SecurityAudit detached: Sentinel's scans " +
          'may no longer read the account.',
      },
    ]);
    expect(findings(eventFrom(raw('iam-delete-forwarder-role.json')))).toEqual([
      {
        resource: 'role/SentinelEventForwarder-eu-west-1',
        detail:
          "Sentinel's event forwarder role SentinelEventForwarder-eu-west-1 was deleted: EventBridge may no longer " +
          'forward events to Sentinel.',
      },
    ]);
  });

  it("reads the account's own role name, not a fixed one", () => {
    const custom = { ...CONTEXT, roleName: 'security-audit-sentinel' };
    expect(ids(eventFrom(raw('iam-detach-scan-role-policy.json')), custom)).toEqual([]);
    expect(
      ids(
        variant('iam-detach-scan-role-policy.json', { 'requestParameters.roleName': 'security-audit-sentinel' }),
        custom,
      ),
    ).toEqual(['event.sentinel_role_changed']);
    // An account whose role is unknown still has its forwarder role watched.
    expect(ids(eventFrom(raw('iam-delete-forwarder-role.json')), { ...CONTEXT, roleName: null })).toEqual([
      'event.sentinel_role_changed',
    ]);
  });

  it('ignores what puts the role back as the templates give it, and changes to other roles', () => {
    expect(
      ids(
        variant('iam-attach-deny-all-scan-role.json', {
          'requestParameters.policyArn': 'arn:aws:iam::aws:policy/SecurityAudit',
        }),
      ),
    ).toEqual([]);
    // The scan role's billing policy put back, as the CLI script sends it.
    expect(
      ids(
        variant('iam-put-forwarder-role-deny.json', {
          requestParameters: {
            roleName: 'SentinelReadOnly',
            policyName: 'SentinelBillingRead',
            policyDocument: JSON.stringify(billingReadPolicy()),
          },
        }),
      ),
    ).toEqual([]);
    // The scan read policy put back as the script sends it; under the other policy's name, it is a change.
    const putScanRead = (policyName: string) =>
      variant('iam-put-forwarder-role-deny.json', {
        requestParameters: {
          roleName: 'SentinelReadOnly',
          policyName,
          policyDocument: JSON.stringify(scanReadPolicy()),
        },
      });
    expect(ids(putScanRead('SentinelScanRead'))).toEqual([]);
    expect(ids(putScanRead('SentinelBillingRead'))).toEqual(['event.sentinel_role_changed']);
    // The forwarder's policy name with another document is no re-run.
    expect(
      ids(
        variant('iam-put-forwarder-role-policy-unchanged.json', {
          'requestParameters.policyDocument': JSON.stringify({
            Version: '2012-10-17',
            Statement: [
              {
                Effect: 'Allow',
                Action: 'events:InvokeApiDestination',
                Resource: 'arn:aws:events:*:*:api-destination/other',
              },
            ],
          }),
        }),
      ),
    ).toEqual(['event.sentinel_role_changed']);
    expect(
      ids(variant('iam-delete-forwarder-role.json', { 'requestParameters.roleName': 'SentinelEventForwarderX' })),
    ).toEqual([]);
    expect(ids(variant('iam-put-scan-role-boundary.json', { eventName: 'DeleteRolePermissionsBoundary' }))).toEqual([]);
  });

  it('counts an admin policy put on a Sentinel role as both a grant and a change to the role', () => {
    const event = variant('put-inline-admin-policy.json', { 'requestParameters.roleName': 'SentinelEventForwarder' });
    expect(ids(event)).toEqual(['event.admin_policy_attached', 'event.sentinel_role_changed']);
  });
});

describe('a region enabled', () => {
  it('names the region, whichever case the request parameter takes', () => {
    expect(findings(eventFrom(raw('enable-region.json')))).toEqual([
      {
        resource: 'me-central-1',
        region: 'me-central-1',
        detail:
          "Region me-central-1 was enabled: Sentinel's event forwarder does not cover it until it is set up there.",
      },
    ]);
    expect(
      findings(variant('enable-region.json', { requestParameters: { regionName: 'af-south-1' } }))[0]?.resource,
    ).toBe('af-south-1');
  });

  it("leaves a member account's region, enabled by its management account, to the member", () => {
    expect(ids(variant('enable-region.json', { 'requestParameters.AccountId': '210987654321' }))).toEqual([]);
    expect(ids(variant('enable-region.json', { 'requestParameters.AccountId': '123456789012' }))).toEqual([
      'event.region_enabled',
    ]);
    expect(ids(variant('enable-region.json', { eventName: 'DisableRegion' }))).toEqual([]);
  });
});

describe('the forwarding rules', () => {
  it('forward every call the detections read', () => {
    const patternOf = (name: string) =>
      FORWARDING_RULES.find((r) => r.name === name)!.pattern as {
        detail: { eventName: string[] };
      };
    for (const name of Object.keys(EXPECTED)) {
      const body = raw(name);
      if (body['detail-type'] !== CLOUDTRAIL_API_CALL || EXPECTED[name]!.length === 0) continue;
      const detail = body.detail as { eventSource: string; eventName: string; userIdentity: { type: string } };
      const forwarded = FORWARDING_RULES.some((rule) => {
        const pattern = rule.pattern as {
          source?: string[];
          detail?: { eventSource?: string[]; eventName?: string[] };
        };
        return (
          (pattern.detail?.eventSource?.includes(detail.eventSource) &&
            pattern.detail.eventName?.includes(detail.eventName)) ||
          (rule.name === 'sentinel-root-activity' && detail.userIdentity.type === 'Root')
        );
      });
      expect({ name, forwarded }).toEqual({ name, forwarded: true });
    }
    expect(patternOf('sentinel-account-contacts').detail.eventName).toContain('EnableRegion');
    expect(FORWARDING_RULES.map((r) => r.name)).not.toContain(HEARTBEAT_RULE_NAME);
  });
});
