import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CATALOG } from '../../../domain/checks/catalog';
import { describedDetection, FORWARDING_BLIND_ID } from '../../../domain/events/catalog';
import { PROBABLE_COMPROMISE } from '../../../domain/events/compound';
import { detectEvent, EVENT_DETECTIONS, parsePolicy, rescansOf } from '../../../domain/events/detections';
import { parseEnvelope, toAccountEvent } from '../../../domain/events/normalize';
import { type AccountEvent, type DetectionContext, SERVICE_GROUP_NAMES } from '../../../domain/events/types';

const FIXTURES = join(__dirname, '../../fixtures/aws-events');
const CONTEXT: DetectionContext = { usedRegions: ['eu-west-1', 'us-east-1'] };

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
  'create-user.json': ['event.iam_user_created'],
  'create-access-key.json': ['event.access_key_created'],
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
  'run-instances-failed.json': [],
  'delete-alternate-contact.json': ['event.alternate_contact_deleted'],
  'guardduty-finding-high.json': ['event.guardduty_high_severity_finding'],
  'guardduty-finding-low.json': [],
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

  it('gives every detection at least one fixture that fires it', () => {
    const fired = new Set(Object.values(EXPECTED).flat());
    expect(EVENT_DETECTIONS.map((d) => d.id).filter((id) => !fired.has(id))).toEqual([]);
  });

  const cloudTrailPositives = Object.entries(EXPECTED)
    .filter(([name, expected]) => expected.length > 0 && raw(name)['detail-type'] !== 'GuardDuty Finding')
    .map(([name]) => name);

  it.each(cloudTrailPositives)('fires nothing on %s when the call failed', (name) => {
    expect(ids(variant(name, { errorCode: 'AccessDenied', errorMessage: 'not authorized' }))).toEqual([]);
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
          '(UnauthorizedAccess:IAMUser/InstanceCredentialExfiltration.OutsideAWS, GuardDuty severity 8: HIGH).',
      },
    ]);
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
    expect(ids(rootKey)).toEqual(['event.root_api_call', 'event.access_key_created']);
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
      'an account principal',
      { Effect: 'Allow', Principal: { AWS: 'arn:aws:iam::111122223333:root' }, Action: 's3:GetObject', Resource: '*' },
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
    expect(ids(event, { usedRegions: null })).toEqual([]);
    expect(ids(event, { usedRegions: ['ap-southeast-3'] })).toEqual([]);
    expect(ids(event, { usedRegions: [] })).toEqual(['event.instance_launched_in_unused_region']);
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

  it('follows the GuardDuty severity, and ignores archived findings', () => {
    expect(findings(variant('guardduty-finding-high.json', { severity: 9.5 }))[0]?.detail).toContain(
      'GuardDuty severity 9.5: CRITICAL',
    );
    expect(ids(variant('guardduty-finding-high.json', { severity: 6.9 }))).toEqual([]);
    expect(ids(variant('guardduty-finding-high.json', { severity: '8' }))).toEqual([]);
    expect(ids(variant('guardduty-finding-high.json', { 'service.archived': true }))).toEqual([]);
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
      'constructor',
      '__proto__',
      'toString',
    ];
    const sources = ['iam', 'cloudtrail', 'guardduty', 'ec2', 's3', 'account', 'signin'];
    for (const detailType of [
      'AWS API Call via CloudTrail',
      'AWS Console Sign In via CloudTrail',
      'GuardDuty Finding',
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
