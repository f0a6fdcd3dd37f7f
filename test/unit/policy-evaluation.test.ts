import { isAdministrator, permissionOracle } from '../../domain/attack-paths/effective-permissions';
import { allOf, anyOf, evaluateRequest, type RequestInput } from '../../domain/attack-paths/policy-evaluation';
import type { Decision } from '../../domain/attack-paths/types';
import type { IamAuthorization, PolicyJson } from '../../domain/scans/iam-authorization';

// The evaluator against the IAM User Guide's "Policy evaluation logic" pages and their examples (the explicit and
// implicit deny of "The difference between explicit and implicit denies", Carlos's bucket of "Policy evaluation for
// requests within a single account", Shirley's boundary of "Permissions boundaries for IAM entities", the HRBucket
// NotResource of "IAM JSON policy elements: NotResource"), then the oracle over a hand-built account.

const OWN = '111122223333';
const OTHER = '444455556666';
const user = (name: string, account = OWN) => `arn:aws:iam::${account}:user/${name}`;
const role = (name: string, account = OWN) => `arn:aws:iam::${account}:role/${name}`;
const doc = (...Statement: Record<string, unknown>[]): PolicyJson => ({ Version: '2012-10-17', Statement });
const policy = (name: string, ...statements: Record<string, unknown>[]) => ({
  policy: name,
  document: doc(...statements),
});
const allow = (Action: string | string[], Resource: string | string[] = '*', extra: Record<string, unknown> = {}) => ({
  Effect: 'Allow',
  Action,
  Resource,
  ...extra,
});
const deny = (Action: string | string[], Resource: string | string[] = '*', extra: Record<string, unknown> = {}) => ({
  Effect: 'Deny',
  Action,
  Resource,
  ...extra,
});

function decision(input: RequestInput): Decision {
  return evaluateRequest(input).decision;
}

describe('policy evaluation, by the IAM User Guide', () => {
  // "The difference between explicit and implicit denies": AllowGetList and DenyReports.
  const iamReader = policy(
    'arn:aws:iam::111122223333:policy/iam-reader',
    { Sid: 'AllowGetList', Effect: 'Allow', Action: ['iam:Get*', 'iam:List*'], Resource: '*' },
    { Sid: 'DenyReports', Effect: 'Deny', Action: 'iam:*Report', Resource: '*' },
  );

  it.each([
    ['iam:GetUser', 'allowed'],
    ['iam:ListRoles', 'allowed'],
    // Explicit deny: DenyReports beats the Allow of iam:Get*, and denies what nothing allows too.
    ['iam:GetCredentialReport', 'denied'],
    ['iam:GenerateCredentialReport', 'denied'],
    // Implicit deny: nothing allows it.
    ['iam:CreatePolicy', 'denied'],
  ])('explicit and implicit denies: %s is %s', (action, expected) => {
    expect(decision({ principal: user('maria'), action, resource: '*', identity: [iamReader] })).toBe(expected);
  });

  it('names the statements that decide', () => {
    expect(
      evaluateRequest({
        principal: user('maria'),
        action: 'iam:GetCredentialReport',
        resource: '*',
        identity: [iamReader],
      }),
    ).toEqual({
      decision: 'denied',
      allowedBy: [],
      deniedBy: [{ policy: 'arn:aws:iam::111122223333:policy/iam-reader', sid: 'DenyReports', index: 1 }],
      undecided: [],
    });
    expect(
      evaluateRequest({ principal: user('maria'), action: 'iam:GetUser', resource: '*', identity: [iamReader] }),
    ).toEqual({
      decision: 'allowed',
      allowedBy: [{ policy: 'arn:aws:iam::111122223333:policy/iam-reader', sid: 'AllowGetList', index: 0 }],
      deniedBy: [],
      undecided: [],
    });
  });

  it('an explicit Deny in any policy type wins over an Allow in another', () => {
    const everything = policy('admin', allow('*'));
    const noDelete = policy('no-delete', deny('s3:DeleteBucket'));
    expect(
      decision({
        principal: user('a'),
        action: 's3:DeleteBucket',
        resource: 'arn:aws:s3:::logs',
        identity: [everything, noDelete],
      }),
    ).toBe('denied');
    expect(
      decision({
        principal: user('a'),
        action: 's3:DeleteBucket',
        resource: 'arn:aws:s3:::logs',
        identity: [everything],
        serviceControlPolicies: [
          [policy('scp:p-full', allow('*')), policy('scp:p-no-delete', deny('s3:DeleteBucket'))],
        ],
      }),
    ).toBe('denied');
    expect(
      decision({
        principal: user('a'),
        action: 's3:DeleteBucket',
        resource: 'arn:aws:s3:::logs',
        identity: [everything],
        resourcePolicy: policy(
          'resource:arn:aws:s3:::logs',
          deny('s3:DeleteBucket', 'arn:aws:s3:::logs', { Principal: '*' }),
        ),
      }),
    ).toBe('denied');
  });

  it('NotAction with Allow allows every action but those named', () => {
    const notIam = policy('power-user', { Effect: 'Allow', NotAction: 'iam:*', Resource: '*' });
    expect(
      decision({ principal: user('a'), action: 's3:GetObject', resource: 'arn:aws:s3:::b/k', identity: [notIam] }),
    ).toBe('allowed');
    expect(decision({ principal: user('a'), action: 'IAM:CreateUser', resource: '*', identity: [notIam] })).toBe(
      'denied',
    );
  });

  it('NotResource: the HRBucket Deny leaves only the Payroll folder', () => {
    const hr = [
      policy('s3-all', allow('s3:*')),
      policy('hr-payroll', {
        Effect: 'Deny',
        Action: 's3:*',
        NotResource: ['arn:aws:s3:::HRBucket/Payroll', 'arn:aws:s3:::HRBucket/Payroll/*'],
      }),
    ];
    const get = (resource: string) =>
      decision({ principal: user('hr'), action: 's3:GetObject', resource, identity: hr });
    expect(get('arn:aws:s3:::HRBucket/Payroll/2024.csv')).toBe('allowed');
    expect(get('arn:aws:s3:::HRBucket/Benefits/plan.pdf')).toBe('denied');
    expect(get('arn:aws:s3:::OtherBucket/x')).toBe('denied');
  });

  it('a permissions boundary limits the identity policies (Shirley: S3, CloudWatch and EC2 only)', () => {
    const boundary = policy(
      'boundary:arn:aws:iam::111122223333:policy/shirley-boundary',
      allow(['s3:*', 'cloudwatch:*', 'ec2:*']),
    );
    const identity = [policy('inline:shirley/get-user', allow('iam:GetUser', user('ShirleyRodriguez')))];
    const ask = (action: string, resource: string) =>
      decision({ principal: user('ShirleyRodriguez'), action, resource, identity, boundary });
    expect(ask('iam:GetUser', user('ShirleyRodriguez'))).toBe('denied');
    // The boundary grants nothing by itself.
    expect(ask('s3:GetObject', 'arn:aws:s3:::b/k')).toBe('denied');
    expect(
      decision({
        principal: user('ShirleyRodriguez'),
        action: 'iam:GetUser',
        resource: user('ShirleyRodriguez'),
        identity,
      }),
    ).toBe('allowed');
  });

  it('service control policies limit: every level must allow', () => {
    const identity = [policy('admin', allow('*'))];
    const root = [policy('scp:p-FullAWSAccess', allow('*'))];
    const ou = [policy('scp:p-ec2-only', allow(['ec2:*', 'sts:*']))];
    const ask = (action: string) =>
      decision({ principal: user('a'), action, resource: '*', identity, serviceControlPolicies: [root, ou, root] });
    expect(ask('ec2:RunInstances')).toBe('allowed');
    expect(ask('iam:CreateUser')).toBe('denied');
    // A level with no SCP at all allows nothing (AWS always attaches one; an empty level is taken literally).
    expect(
      decision({
        principal: user('a'),
        action: 'ec2:RunInstances',
        resource: '*',
        identity,
        serviceControlPolicies: [[]],
      }),
    ).toBe('denied');
    // SCPs grant nothing.
    expect(
      decision({ principal: user('a'), action: 'ec2:RunInstances', resource: '*', serviceControlPolicies: [root] }),
    ).toBe('denied');
  });

  describe('resource policies in the same account', () => {
    const bucket = 'arn:aws:s3:::amzn-s3-demo-bucket-carlossalazar-logs';
    const carlos = user('carlossalazar');
    // Carlos's identity policy lists and reads; the bucket's policy lets him write.
    const identity = [
      policy('inline:carlos/s3-read', allow(['s3:GetBucketLocation', 's3:GetObject', 's3:ListAllMyBuckets'])),
    ];
    const bucketPolicy = (principal: unknown) =>
      policy(`resource:${bucket}`, allow('s3:PutObject', `${bucket}/*`, { Principal: principal }));

    it('grant a principal they name without an identity policy: either side suffices', () => {
      const ask = (action: string, resourcePolicy = bucketPolicy({ AWS: carlos })) =>
        decision({ principal: carlos, action, resource: `${bucket}/log.txt`, identity, resourcePolicy });
      expect(ask('s3:PutObject')).toBe('allowed');
      expect(ask('s3:GetObject')).toBe('allowed');
      expect(ask('s3:DeleteObject')).toBe('denied');
      // Naming the account only delegates to the identity policies.
      expect(ask('s3:PutObject', bucketPolicy({ AWS: `arn:aws:iam::${OWN}:root` }))).toBe('denied');
      expect(ask('s3:PutObject', bucketPolicy('*'))).toBe('allowed');
    });

    it("grant a user past its boundary; a role's ARN stays bounded, its session does not", () => {
      const boundary = policy('boundary:b', allow('ec2:*'));
      const builder = role('builder');
      const ask = (principal: string, named: unknown) =>
        decision({
          principal,
          action: 's3:PutObject',
          resource: `${bucket}/x`,
          boundary,
          resourcePolicy: bucketPolicy(named),
        });
      expect(ask(carlos, { AWS: carlos })).toBe('allowed');
      expect(ask(builder, { AWS: builder })).toBe('denied');
      expect(ask(builder, { AWS: `arn:aws:sts::${OWN}:assumed-role/builder/ci` })).toBe('allowed');
    });

    it("a role's trust policy must allow itself: an identity policy alone does not assume a role", () => {
      const target = role('deploy');
      const assume = [policy('inline:carlos/assume', allow('sts:AssumeRole', target))];
      const trust = (principal: unknown) => ({
        ...policy(`resource:${target}`, { Effect: 'Allow', Principal: principal, Action: 'sts:AssumeRole' }),
        required: true,
      });
      const ask = (identityPolicies: typeof assume, resourcePolicy: ReturnType<typeof trust>) =>
        decision({
          principal: carlos,
          action: 'sts:AssumeRole',
          resource: target,
          identity: identityPolicies,
          resourcePolicy,
        });
      // Trusted by ARN: no identity permission needed in the same account.
      expect(ask([], trust({ AWS: carlos }))).toBe('allowed');
      // Trusting the account delegates to the identity policies.
      expect(ask(assume, trust({ AWS: `arn:aws:iam::${OWN}:root` }))).toBe('allowed');
      expect(ask([], trust({ AWS: `arn:aws:iam::${OWN}:root` }))).toBe('denied');
      // Trusting a service only: even an administrator cannot assume it.
      expect(ask([policy('admin', allow('*'))], trust({ Service: 'lambda.amazonaws.com' }))).toBe('denied');
    });

    it('a KMS key policy that names the account enables IAM policies; one that does not, does not', () => {
      const key = `arn:aws:kms:us-east-1:${OWN}:key/1234abcd-12ab-34cd-56ef-1234567890ab`;
      const decrypt = [policy('inline:carlos/kms', allow('kms:Decrypt', key))];
      const keyPolicy = (principal: unknown) => ({
        ...policy(`resource:${key}`, allow('kms:*', '*', { Principal: principal })),
        required: true,
      });
      const ask = (resourcePolicy: ReturnType<typeof keyPolicy>) =>
        decision({ principal: carlos, action: 'kms:Decrypt', resource: key, identity: decrypt, resourcePolicy });
      expect(ask(keyPolicy({ AWS: `arn:aws:iam::${OWN}:root` }))).toBe('allowed');
      expect(ask(keyPolicy({ AWS: role('key-admin') }))).toBe('denied');
    });

    it('a Deny with NotPrincipal applies to all but the principals it names with their account', () => {
      const everything = [policy('admin', allow('*'))];
      const denyOthers = (names: string[]) =>
        policy(`resource:${bucket}`, {
          Effect: 'Deny',
          NotPrincipal: { AWS: names },
          Action: 's3:*',
          Resource: `${bucket}/*`,
        });
      const ask = (names: string[], boundary: RequestInput['boundary'] = null) =>
        decision({
          principal: carlos,
          action: 's3:GetObject',
          resource: `${bucket}/x`,
          identity: everything,
          resourcePolicy: denyOthers(names),
          boundary,
        });
      expect(ask([carlos, `arn:aws:iam::${OWN}:root`])).toBe('allowed');
      expect(ask([carlos])).toBe('denied');
      expect(ask([user('someone-else'), `arn:aws:iam::${OWN}:root`])).toBe('denied');
      // AWS applies it to every principal that has a boundary, whoever it names.
      expect(ask([carlos, `arn:aws:iam::${OWN}:root`], policy('boundary:b', allow('*')))).toBe('denied');
    });
  });

  describe('across accounts', () => {
    const bucket = 'arn:aws:s3:::partner-exchange';
    const partner = user('importer', OTHER);
    const read = [policy('inline:importer/read', allow('s3:GetObject', `${bucket}/*`))];
    const shared = (principal: unknown) =>
      policy(`resource:${bucket}`, allow('s3:GetObject', `${bucket}/*`, { Principal: principal }));
    const ask = (identity: RequestInput['identity'], resourcePolicy: RequestInput['resourcePolicy']) =>
      decision({
        principal: partner,
        action: 's3:GetObject',
        resource: `${bucket}/f`,
        resourceAccount: OWN,
        identity,
        resourcePolicy,
      });

    it('need both the identity policy and the resource policy', () => {
      expect(ask(read, shared({ AWS: OTHER }))).toBe('allowed');
      expect(ask(read, shared({ AWS: partner }))).toBe('allowed');
      expect(ask([], shared({ AWS: partner }))).toBe('denied');
      expect(ask(read, shared({ AWS: '999988887777' }))).toBe('denied');
      expect(ask(read, null)).toBe('possible');
    });

    it("another account's principal, whose policies Sentinel has not read, is possible where the resource lets it in", () => {
      expect(ask(null, shared({ AWS: OTHER }))).toBe('possible');
      expect(ask(null, shared({ AWS: '999988887777' }))).toBe('denied');
    });
  });

  describe('resource control policies, on the resources of their account', () => {
    const bucket = 'arn:aws:s3:::exchange';
    const queue = `arn:aws:sqs:us-east-1:${OWN}:orders`;
    const partner = user('importer', OTHER);
    const reader = role('reader');
    // What AWS attaches at every level once RCPs are enabled; an RCP names only `"Principal": "*"`.
    const full = policy('rcp:p-RCPFullAWSAccess', allow('*', '*', { Principal: '*' }));
    const rcp = (name: string, ...statements: Record<string, unknown>[]) =>
      policy(`rcp:${name}`, ...statements.map((statement) => ({ Principal: '*', ...statement })));
    // The data perimeter of AWS's examples: nobody outside the organization, AWS services aside.
    const perimeter = rcp(
      'p-perimeter',
      deny('s3:GetObject', '*', {
        Condition: {
          StringNotEqualsIfExists: { 'aws:PrincipalOrgID': 'o-exampleorgid' },
          BoolIfExists: { 'aws:PrincipalIsAWSService': 'false' },
        },
      }),
    );
    const noReads = rcp('p-no-reads', deny('s3:GetObject'));
    const read = [policy('inline:read', allow(['s3:GetObject', 'sqs:*'], '*'))];
    const shared = policy(`resource:${bucket}`, allow('s3:GetObject', `${bucket}/*`, { Principal: { AWS: OTHER } }));
    const fromOutside = (resourceControlPolicies: RequestInput['resourceControlPolicies']) =>
      evaluateRequest({
        principal: partner,
        action: 's3:GetObject',
        resource: `${bucket}/f`,
        resourceAccount: OWN,
        identity: read,
        resourcePolicy: shared,
        resourceControlPolicies,
      });
    const fromInside = (
      action: string,
      resource: string,
      resourceControlPolicies: RequestInput['resourceControlPolicies'],
    ) => evaluateRequest({ principal: reader, action, resource, identity: read, resourceControlPolicies }).decision;

    it("keep another account's principal out although the bucket's policy lets it in", () => {
      expect(fromOutside(null).decision).toBe('allowed');
      expect(fromOutside([[full], [full]]).decision).toBe('allowed');
      expect(fromOutside([[full], [full, noReads]])).toEqual({
        decision: 'denied',
        allowedBy: [],
        deniedBy: [{ policy: 'rcp:p-no-reads', index: 0 }],
        undecided: [],
      });
      // The perimeter's Deny turns on the caller's organization, which the documents do not tell: possible, the Deny
      // named with what leaves it undecided.
      expect(fromOutside([[full], [full, perimeter]])).toEqual({
        decision: 'possible',
        allowedBy: [
          { policy: 'rcp:p-RCPFullAWSAccess', index: 0 },
          { policy: 'inline:read', index: 0 },
          { policy: `resource:${bucket}`, index: 0 },
        ],
        deniedBy: [{ policy: 'rcp:p-perimeter', index: 0 }],
        undecided: ['aws:PrincipalOrgID', 'aws:PrincipalIsAWSService'],
      });
    });

    it("limit the account's own principals too; a Deny under a condition that would spare them leaves them possible", () => {
      expect(fromInside('s3:GetObject', `${bucket}/f`, [[full]])).toBe('allowed');
      expect(fromInside('s3:GetObject', `${bucket}/f`, [[full, noReads]])).toBe('denied');
      // Inside the organization the perimeter would not apply, but whether the principal is, no document says.
      expect(
        evaluateRequest({
          principal: reader,
          action: 's3:GetObject',
          resource: `${bucket}/f`,
          identity: read,
          resourceControlPolicies: [[full, perimeter]],
        }),
      ).toMatchObject({ decision: 'possible', deniedBy: [{ policy: 'rcp:p-perimeter', index: 0 }] });
    });

    it('need an Allow at every level: a level that allows nothing of SQS denies it', () => {
      // AWS keeps RCPFullAWSAccess at every level; a level without it is taken literally.
      const noLogs = rcp('p-no-logs', deny('logs:*'));
      expect(fromInside('sqs:SendMessage', queue, [[full], [full, noLogs], [full]])).toBe('allowed');
      expect(fromInside('sqs:SendMessage', queue, [[full], [noLogs], [full]])).toBe('denied');
      expect(fromInside('sqs:SendMessage', queue, [[full], []])).toBe('denied');
    });

    it('grant nothing', () => {
      expect(
        decision({ principal: reader, action: 'sqs:SendMessage', resource: queue, resourceControlPolicies: [[full]] }),
      ).toBe('denied');
    });

    it.each([
      ['ec2:RunInstances', '*', 'allowed'],
      ['iam:PassRole', role('app'), 'allowed'],
      ['lambda:InvokeFunction', `arn:aws:lambda:us-east-1:${OWN}:function:f`, 'allowed'],
      // Every action at once: RCPs cannot deny all of it.
      ['*', '*', 'allowed'],
      ['s3:GetObject', `${bucket}/f`, 'denied'],
      ['sts:AssumeRole', role('app'), 'denied'],
      ['kms:Decrypt', `arn:aws:kms:us-east-1:${OWN}:key/k`, 'denied'],
      ['SecretsManager:GetSecretValue', `arn:aws:secretsmanager:us-east-1:${OWN}:secret:s`, 'denied'],
      ['dynamodb:GetItem', `arn:aws:dynamodb:us-east-1:${OWN}:table/t`, 'denied'],
      ['logs:GetLogEvents', '*', 'denied'],
      ['ecr:BatchGetImage', '*', 'denied'],
      ['aoss:APIAccessAll', '*', 'denied'],
      ['cognito-identity:GetId', '*', 'denied'],
    ])(
      'an RCP that denies everything weighs on %s only if RCPs cover its service: %s',
      (action, resource, expected) => {
        expect(
          decision({
            principal: reader,
            action,
            resource,
            identity: [policy('admin', allow('*'))],
            resourceControlPolicies: [[full, rcp('p-nothing', deny('*'))]],
          }),
        ).toBe(expected);
      },
    );

    it('that could not be read leave the request possible, never denied; not weighed, they change nothing', () => {
      const unread = { policy: 'rcp:p-unreadable', document: null };
      expect(fromInside('s3:GetObject', `${bucket}/f`, [[unread]])).toBe('possible');
      expect(fromInside('s3:GetObject', `${bucket}/f`, null)).toBe('allowed');
      expect(fromInside('s3:GetObject', `${bucket}/f`, undefined)).toBe('allowed');
    });
  });

  describe('wildcards', () => {
    it.each([
      ['iam:Create*', 'iam:CreateUser', 'allowed'],
      ['iam:Create*', 'iam:createaccesskey', 'allowed'],
      ['IAM:CREATE*', 'iam:CreateRole', 'allowed'],
      ['iam:Create*', 'iam:DeleteUser', 'denied'],
      ['s3:Get?bject', 's3:GetObject', 'allowed'],
      ['s3:Get?bject', 's3:GetObjectAcl', 'denied'],
      ['s3:Get?bject', 's3:Getbject', 'denied'],
      ['*', 'anything:AtAll', 'allowed'],
    ])('action %s on %s is %s (without regard to case)', (pattern, action, expected) => {
      expect(decision({ principal: user('a'), action, resource: '*', identity: [policy('p', allow(pattern))] })).toBe(
        expected,
      );
    });

    it.each([
      ['arn:aws:s3:::bucket/*', 'arn:aws:s3:::bucket/a/b/c', 'allowed'],
      ['arn:aws:s3:::bucket/*', 'arn:aws:s3:::bucket-two/a', 'denied'],
      ['arn:aws:s3:::bucket/*', 'arn:aws:s3:::Bucket/a', 'denied'],
      ['arn:aws:s3:::bucket/log-20??.txt', 'arn:aws:s3:::bucket/log-2024.txt', 'allowed'],
      ['arn:aws:s3:::bucket/log-20??.txt', 'arn:aws:s3:::bucket/log-202.txt', 'denied'],
      ['arn:aws:iam::*:role/deploy-*', role('deploy-prod'), 'allowed'],
      ['arn:aws:iam::*:role/deploy-*', role('Deploy-prod'), 'denied'],
      // `*` as the request's resource is every resource: only `*` names it.
      ['arn:aws:s3:::*', '*', 'denied'],
      ['*', '*', 'allowed'],
    ])('resource %s covers %s: %s (exactly, case and all)', (pattern, resource, expected) => {
      expect(
        decision({
          principal: user('a'),
          action: 's3:GetObject',
          resource,
          identity: [policy('p', allow('s3:GetObject', pattern))],
        }),
      ).toBe(expected);
    });
  });

  describe('what Sentinel cannot decide', () => {
    it('an Allow under a condition is possible, naming the condition keys', () => {
      const mfa = policy(
        'mfa-admin',
        allow('*', '*', { Condition: { Bool: { 'aws:MultiFactorAuthPresent': 'true' } } }),
      );
      expect(
        evaluateRequest({ principal: user('a'), action: 'ec2:RunInstances', resource: '*', identity: [mfa] }),
      ).toEqual({
        decision: 'possible',
        allowedBy: [{ policy: 'mfa-admin', index: 0 }],
        deniedBy: [],
        undecided: ['aws:MultiFactorAuthPresent'],
      });
      // An unconditioned Allow elsewhere makes it certain.
      expect(
        decision({
          principal: user('a'),
          action: 'ec2:RunInstances',
          resource: '*',
          identity: [mfa, policy('ec2', allow('ec2:*'))],
        }),
      ).toBe('allowed');
    });

    it('a Deny under a condition does not deny for certain: what it covers is possible, with the Deny named', () => {
      const identity = [
        policy('admin', allow('*')),
        policy('regions', deny('*', '*', { Condition: { StringNotEquals: { 'aws:RequestedRegion': ['eu-west-1'] } } })),
      ];
      expect(evaluateRequest({ principal: user('a'), action: 'ec2:RunInstances', resource: '*', identity })).toEqual({
        decision: 'possible',
        allowedBy: [{ policy: 'admin', index: 0 }],
        deniedBy: [{ policy: 'regions', index: 0 }],
        undecided: ['aws:RequestedRegion'],
      });
      // It grants nothing either: with no Allow it stays denied.
      expect(
        decision({ principal: user('a'), action: 'ec2:RunInstances', resource: '*', identity: identity.slice(1) }),
      ).toBe('denied');
      // And an unconditioned Deny still decides.
      expect(
        decision({
          principal: user('a'),
          action: 'ec2:RunInstances',
          resource: '*',
          identity: [...identity, policy('no-ec2', deny('ec2:*'))],
        }),
      ).toBe('denied');
    });

    describe('an unread document', () => {
      const unread = { policy: 'arn:aws:iam::111122223333:policy/unreadable', document: null };

      it('makes an answer the read documents leave denied possible: it may have allowed', () => {
        expect(
          evaluateRequest({ principal: user('a'), action: 's3:GetObject', resource: '*', identity: [unread] }),
        ).toEqual({
          decision: 'possible',
          allowedBy: [],
          deniedBy: [],
          undecided: ['unread: arn:aws:iam::111122223333:policy/unreadable'],
        });
      });

      it('makes an answer the read documents allow possible: it may deny', () => {
        expect(
          decision({
            principal: user('a'),
            action: 's3:GetObject',
            resource: '*',
            identity: [policy('read', allow('s3:*')), unread],
          }),
        ).toBe('possible');
        expect(
          decision({
            principal: user('a'),
            action: 's3:GetObject',
            resource: '*',
            identity: [policy('read', allow('s3:*'))],
            serviceControlPolicies: [[unread]],
          }),
        ).toBe('possible');
      });

      it('changes nothing a read explicit Deny, or a read boundary that allows none of it, decides', () => {
        expect(
          decision({
            principal: user('a'),
            action: 's3:GetObject',
            resource: '*',
            identity: [unread, policy('no-s3', deny('s3:*'))],
          }),
        ).toBe('denied');
        expect(
          decision({
            principal: user('a'),
            action: 's3:GetObject',
            resource: '*',
            identity: [unread],
            boundary: policy('boundary:b', allow('ec2:*')),
          }),
        ).toBe('denied');
      });
    });

    describe('policy variables', () => {
      const home = policy('home', allow('s3:*', 'arn:aws:s3:::amzn-s3-demo-bucket/home/${aws:username}/*'));

      it("take the user's name", () => {
        const ask = (principal: string, resource: string) =>
          decision({ principal, action: 's3:PutObject', resource, identity: [home] });
        expect(ask(user('alice'), 'arn:aws:s3:::amzn-s3-demo-bucket/home/alice/notes.txt')).toBe('allowed');
        expect(ask(user('alice'), 'arn:aws:s3:::amzn-s3-demo-bucket/home/bob/notes.txt')).toBe('denied');
        // A role's requests carry no aws:username: the pattern matches nothing.
        expect(ask(role('alice'), 'arn:aws:s3:::amzn-s3-demo-bucket/home/alice/notes.txt')).toBe('denied');
      });

      it('leave the statement possible when their value is not known', () => {
        const team = policy('team', allow('s3:*', 'arn:aws:s3:::projects/${aws:PrincipalTag/team}/*'));
        expect(
          evaluateRequest({
            principal: user('alice'),
            action: 's3:GetObject',
            resource: 'arn:aws:s3:::projects/red/plan',
            identity: [team],
          }),
        ).toMatchObject({ decision: 'possible', undecided: ['${aws:PrincipalTag/team}'] });
        expect(
          decision({
            principal: user('alice'),
            action: 's3:GetObject',
            resource: 'arn:aws:s3:::elsewhere/red/plan',
            identity: [team],
          }),
        ).toBe('denied');
      });

      it('are literal text in a 2008-10-17 document, and ${*} is a literal asterisk', () => {
        const old = {
          policy: 'old',
          document: { Version: '2008-10-17', Statement: [allow('s3:*', 'arn:aws:s3:::b/${aws:username}')] },
        };
        expect(
          decision({
            principal: user('alice'),
            action: 's3:GetObject',
            resource: 'arn:aws:s3:::b/alice',
            identity: [old],
          }),
        ).toBe('denied');
        expect(
          decision({
            principal: user('alice'),
            action: 's3:GetObject',
            resource: 'arn:aws:s3:::b/${aws:username}',
            identity: [old],
          }),
        ).toBe('allowed');
        const star = policy('star', allow('s3:*', 'arn:aws:s3:::b/${*}'));
        expect(
          decision({
            principal: user('alice'),
            action: 's3:GetObject',
            resource: 'arn:aws:s3:::b/*',
            identity: [star],
          }),
        ).toBe('allowed');
        expect(
          decision({
            principal: user('alice'),
            action: 's3:GetObject',
            resource: 'arn:aws:s3:::b/x',
            identity: [star],
          }),
        ).toBe('denied');
      });
    });
  });

  it('anyOf takes the best alternative, allOf the worst requirement', () => {
    const allowed = evaluateRequest({
      principal: user('a'),
      action: 's3:GetObject',
      resource: '*',
      identity: [policy('p', allow('s3:*'))],
    });
    const denied = evaluateRequest({
      principal: user('a'),
      action: 'ec2:RunInstances',
      resource: '*',
      identity: [policy('p', allow('s3:*'))],
    });
    expect(anyOf([denied, allowed]).decision).toBe('allowed');
    expect(allOf([denied, allowed]).decision).toBe('denied');
    expect(anyOf([]).decision).toBe('denied');
    expect(allOf([allowed]).allowedBy).toEqual(allowed.allowedBy);
  });
});

describe('the permission oracle over an account', () => {
  const AWS_ADMIN = 'arn:aws:iam::aws:policy/AdministratorAccess';
  const DEVELOPERS = `arn:aws:iam::${OWN}:policy/developers`;
  const BOUNDARY = `arn:aws:iam::${OWN}:policy/developer-boundary`;
  const account = (overrides: Partial<IamAuthorization> = {}): IamAuthorization => ({
    users: [
      // In the developers group (a managed policy), bounded to S3, EC2 and passing roles.
      { name: 'dana', arn: user('dana'), attached: [], inline: [], groups: ['developers'], boundary: BOUNDARY },
      // Holds AdministratorAccess directly.
      { name: 'root-ops', arn: user('root-ops'), attached: [AWS_ADMIN], inline: [], groups: [], boundary: null },
      // Can write policies onto itself, and nothing else.
      {
        name: 'self-service',
        arn: user('self-service'),
        attached: [],
        inline: [
          {
            name: 'self',
            document: doc(allow(['iam:PutUserPolicy', 'iam:DeleteUserPermissionsBoundary'], user('self-service'))),
          },
        ],
        groups: [],
        boundary: null,
      },
      // Its group was deleted since: unread.
      { name: 'ghost', arn: user('ghost'), attached: [], inline: [], groups: ['gone'], boundary: null },
      // No policy of its own.
      { name: 'guest', arn: user('guest'), attached: [], inline: [], groups: [], boundary: null },
    ],
    groups: [
      {
        name: 'developers',
        arn: `arn:aws:iam::${OWN}:group/developers`,
        attached: [DEVELOPERS],
        inline: [{ name: 'read-logs', document: doc(allow('logs:Get*')) }],
      },
    ],
    roles: [
      {
        name: 'deploy',
        arn: role('deploy'),
        attached: [AWS_ADMIN],
        inline: [],
        boundary: null,
        trust: doc({ Effect: 'Allow', Principal: { AWS: user('dana') }, Action: 'sts:AssumeRole' }),
        instanceProfiles: [],
      },
      {
        name: 'mfa-admin',
        arn: role('mfa-admin'),
        attached: [],
        inline: [
          {
            name: 'admin',
            document: doc(allow('*', '*', { Condition: { Bool: { 'aws:MultiFactorAuthPresent': 'true' } } })),
          },
        ],
        boundary: null,
        trust: doc({ Effect: 'Allow', Principal: { AWS: `arn:aws:iam::${OWN}:root` }, Action: 'sts:AssumeRole' }),
        instanceProfiles: [],
      },
    ],
    policies: [
      { arn: AWS_ADMIN, name: 'AdministratorAccess', document: doc(allow('*')) },
      { arn: DEVELOPERS, name: 'developers', document: doc(allow(['s3:*', 'ec2:*', 'iam:*'])) },
      {
        arn: BOUNDARY,
        name: 'developer-boundary',
        document: doc(allow(['s3:*', 'ec2:*', 'iam:PassRole', 'sts:AssumeRole'])),
      },
    ],
    serviceControlPolicies: { read: true, levels: [] },
    resourceControlPolicies: { read: true, levels: [] },
    ...overrides,
  });

  it("weighs a user's group policies within its boundary", () => {
    const oracle = permissionOracle(account());
    expect(oracle.evaluate(user('dana'), 's3:GetObject', 'arn:aws:s3:::data/x')).toEqual({
      decision: 'allowed',
      allowedBy: [
        { policy: DEVELOPERS, index: 0 },
        { policy: `boundary:${BOUNDARY}`, index: 0 },
      ],
      deniedBy: [],
      undecided: [],
    });
    // The group allows iam:*, the boundary only iam:PassRole.
    expect(oracle.evaluate(user('dana'), 'iam:PassRole', role('deploy')).decision).toBe('allowed');
    expect(oracle.evaluate(user('dana'), 'iam:CreateUser', '*').decision).toBe('denied');
    // The group's inline policy, cut by the boundary.
    expect(oracle.evaluate(user('dana'), 'logs:GetLogEvents', '*').decision).toBe('denied');
  });

  it("reads a role's trust policy for sts:AssumeRole", () => {
    const oracle = permissionOracle(account());
    // Trusted by ARN: dana needs no identity permission (and the boundary does not limit a grant to her ARN).
    expect(oracle.evaluate(user('dana'), 'sts:AssumeRole', role('deploy')).decision).toBe('allowed');
    expect(oracle.evaluate(user('root-ops'), 'sts:AssumeRole', role('deploy')).decision).toBe('denied');
    // Trusting the account: an administrator may assume it.
    expect(oracle.evaluate(user('root-ops'), 'sts:AssumeRole', role('mfa-admin')).decision).toBe('allowed');
    // A role the documents do not hold: its trust is unread.
    expect(oracle.evaluate(user('root-ops'), 'sts:AssumeRole', role('AWSServiceRoleForSupport')).decision).toBe(
      'possible',
    );
  });

  it('weighs every level of service control policies when they were read, and none when they were not', () => {
    const levels = [
      { target: 'r-root', policies: [{ id: 'p-FullAWSAccess', name: 'FullAWSAccess', document: doc(allow('*')) }] },
      {
        target: 'ou-prod',
        policies: [
          { id: 'p-FullAWSAccess', name: 'FullAWSAccess', document: doc(allow('*')) },
          { id: 'p-no-users', name: 'no-iam-users', document: doc(deny('iam:CreateUser')) },
        ],
      },
      { target: OWN, policies: [{ id: 'p-FullAWSAccess', name: 'FullAWSAccess', document: doc(allow('*')) }] },
    ];
    const bounded = permissionOracle(account({ serviceControlPolicies: { read: true, levels } }));
    expect(bounded.evaluate(user('root-ops'), 'iam:CreateUser', '*')).toMatchObject({
      decision: 'denied',
      deniedBy: [{ policy: 'scp:p-no-users', index: 0 }],
    });
    expect(bounded.evaluate(user('root-ops'), 'ec2:RunInstances', '*').decision).toBe('allowed');
    const unread = permissionOracle(account({ serviceControlPolicies: { read: false, reason: 'AccessDenied' } }));
    expect(unread.evaluate(user('root-ops'), 'iam:CreateUser', '*').decision).toBe('allowed');
    // An SCP that could not be read leaves every request possible at best.
    const unreadable = permissionOracle(
      account({
        serviceControlPolicies: {
          read: true,
          levels: [{ target: 'r-root', policies: [{ id: 'p-x', name: 'x', document: null }] }],
        },
      }),
    );
    expect(unreadable.evaluate(user('root-ops'), 'ec2:RunInstances', '*').decision).toBe('possible');
  });

  it('takes a resource policy given by ARN, an S3 object its bucket policy', () => {
    const bucket = 'arn:aws:s3:::shared-drop';
    const oracle = permissionOracle(account(), {
      resourcePolicies: new Map([
        [bucket, doc(allow('s3:PutObject', `${bucket}/*`, { Principal: { AWS: [user('guest'), user('ghost')] } }))],
      ]),
    });
    expect(oracle.evaluate(user('guest'), 's3:PutObject', `${bucket}/drop.zip`)).toMatchObject({
      decision: 'allowed',
      allowedBy: [{ policy: `resource:${bucket}`, index: 0 }],
    });
    expect(oracle.evaluate(user('guest'), 's3:GetObject', `${bucket}/drop.zip`).decision).toBe('denied');
    // An unread group may have allowed what no read document does, or denied what the bucket allows.
    for (const action of ['s3:GetObject', 's3:PutObject'])
      expect(oracle.evaluate(user('ghost'), action, `${bucket}/drop.zip`)).toMatchObject({
        decision: 'possible',
        undecided: ['unread: group:gone'],
      });
  });

  it('treats a managed policy the documents do not hold as unread', () => {
    const oracle = permissionOracle(account({ policies: [] }));
    expect(oracle.evaluate(user('root-ops'), 'ec2:RunInstances', '*')).toMatchObject({
      decision: 'possible',
      undecided: [`unread: ${AWS_ADMIN}`],
    });
  });

  it.each([
    ['root-ops', user('root-ops'), 'allowed'],
    ['a role with AdministratorAccess', role('deploy'), 'allowed'],
    ['a role that is an administrator only with MFA', role('mfa-admin'), 'possible'],
    ['a user that can put any policy on itself and drop its boundary', user('self-service'), 'allowed'],
    ['a bounded developer with iam:* in its group', user('dana'), 'denied'],
    ['a principal the documents do not hold', role('unknown'), 'possible'],
  ])('isAdministrator: %s (%s) is %s', (_, arn, expected) => {
    expect(isAdministrator(permissionOracle(account()), arn).decision).toBe(expected);
  });

  it('is not an administrator with everything but IAM', () => {
    const oracle = permissionOracle(
      account({
        roles: [
          {
            name: 'no-iam',
            arn: role('no-iam'),
            attached: [AWS_ADMIN],
            inline: [{ name: 'no-iam', document: doc(deny('iam:*')) }],
            boundary: null,
            trust: null,
            instanceProfiles: [],
          },
        ],
      }),
    );
    expect(isAdministrator(oracle, role('no-iam')).decision).toBe('denied');
  });

  it('answers every question of a large account: each document compiled once, each principal gathered once', () => {
    const policies = Array.from({ length: 2_000 }, (_, i) => ({
      arn: `arn:aws:iam::${OWN}:policy/p${i}`,
      name: `p${i}`,
      document: doc(
        allow([`s3:Get*`, `ec2:Describe*`], `arn:aws:s3:::bucket-${i}/*`),
        deny('iam:*User*', '*', { Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
      ),
    }));
    const roles = Array.from({ length: 5_000 }, (_, i) => ({
      name: `r${i}`,
      arn: role(`r${i}`),
      attached: [policies[i % 2_000]!.arn, policies[(i * 7) % 2_000]!.arn],
      inline: [{ name: 'own', document: doc(allow('sqs:SendMessage', `arn:aws:sqs:us-east-1:${OWN}:q${i}`)) }],
      boundary: null,
      trust: doc({ Effect: 'Allow', Principal: { Service: 'ec2.amazonaws.com' }, Action: 'sts:AssumeRole' }),
      instanceProfiles: [],
    }));
    const oracle = permissionOracle(account({ roles, policies }));
    let allowed = 0;
    for (const r of roles)
      for (const action of ['s3:GetObject', 'iam:PassRole', 'iam:CreateUser', 'sts:AssumeRole', 'sqs:SendMessage'])
        for (const resource of [`arn:aws:s3:::bucket-${Number(r.name.slice(1)) % 2_000}/k`, '*'])
          if (oracle.evaluate(r.arn, action, resource).decision === 'allowed') allowed += 1;
    // 50,000 questions answered whole; how fast is measured by `npm run bench -- attack-paths`, not here.
    expect(allowed).toBe(5_000);
  });
});
