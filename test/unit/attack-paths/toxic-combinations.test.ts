import { externalTrustsWithoutExternalId } from '../../../domain/attack-paths/external-trust';
import type { QueueTrigger } from '../../../domain/attack-paths/queue-triggers';
import { type Privilege, type ToxicInput, toxicCombinations } from '../../../domain/attack-paths/toxic-combinations';
import type { AttackPath, Evaluation, InternetExposure } from '../../../domain/attack-paths/types';

// The compound findings: each toxic combination found when every ingredient is there, and not when one is missing
// (the workload is not exposed, the role is not privileged, the user has MFA, the trust requires an ExternalId, ...).

const ACCOUNT = '111122223333';
const ADMIN_ROLE = `arn:aws:iam::${ACCOUNT}:role/admin`;
const APP_ROLE = `arn:aws:iam::${ACCOUNT}:role/app`;
const DEV = `arn:aws:iam::${ACCOUNT}:user/dev`;

const allowed: Evaluation = {
  decision: 'allowed',
  allowedBy: [{ policy: 'arn:aws:iam::aws:policy/AdministratorAccess', index: 0 }],
  deniedBy: [],
  undecided: [],
};
const possible: Evaluation = { ...allowed, decision: 'possible', undecided: ['aws:SourceIp'] };

const escalation = (source: string, certainty: AttackPath['certainty'] = 'certain'): AttackPath => ({
  fingerprint: `escalation:iam-001:${source}:administrator`,
  kind: 'escalation',
  rule: 'iam-001',
  severity: 'HIGH',
  title: 'Escalation',
  summary: 'It creates a new version of its own policy.',
  source,
  target: 'administrator',
  nodes: [
    { id: source, kind: 'role', label: 'app' },
    { id: 'administrator', kind: 'administrator', label: 'Administrator of the account' },
  ],
  edges: [{ from: source, to: 'administrator', label: 'iam:CreatePolicyVersion', evidence: ['p#0'], certainty }],
  certainty,
});

const exposure = (over: Partial<InternetExposure> = {}): InternetExposure => ({
  resource: 'i-0abc',
  kind: 'instance',
  label: 'web-1',
  region: 'eu-west-1',
  ports: ['tcp/443'],
  roleArn: ADMIN_ROLE,
  nodes: [
    { id: 'internet', kind: 'internet', label: 'The internet' },
    { id: 'i-0abc', kind: 'instance', label: 'web-1' },
  ],
  edges: [{ from: 'internet', to: 'i-0abc', label: 'TCP 443 open', evidence: ['sg-1'], certainty: 'certain' }],
  certainty: 'certain',
  ...over,
});

const privileges: Record<string, Privilege> = {
  [ADMIN_ROLE]: { kind: 'administrator', evaluation: allowed },
  [APP_ROLE]: { kind: 'escalation', path: escalation(APP_ROLE) },
  [DEV]: { kind: 'administrator', evaluation: allowed },
};

const input = (over: Partial<ToxicInput> = {}): ToxicInput => ({
  exposures: [],
  privilegeOf: (arn) => privileges[arn] ?? null,
  secretsReadBy: () => null,
  queueTriggers: [],
  users: [],
  externalTrusts: [],
  recentActors: [],
  ...over,
});

const rules = (paths: AttackPath[]) => paths.map((p) => p.rule).sort();

describe('an internet-reachable workload with a privileged role', () => {
  it('is a toxic combination when its role is an administrator, with the whole chain', () => {
    const [path] = toxicCombinations(input({ exposures: [exposure()] }));
    expect(path).toMatchObject({
      kind: 'toxic_combination',
      rule: 'exposed_admin_workload',
      severity: 'CRITICAL',
      source: 'internet',
      target: 'administrator',
      certainty: 'certain',
      fingerprint: 'toxic:exposed_admin_workload:i-0abc',
    });
    expect(path?.edges.map((e) => [e.from, e.to])).toEqual([
      ['internet', 'i-0abc'],
      ['i-0abc', ADMIN_ROLE],
      [ADMIN_ROLE, 'administrator'],
    ]);
    expect(path?.edges[2]?.evidence).toEqual(['arn:aws:iam::aws:policy/AdministratorAccess#0']);
    // Every edge joins nodes of the path.
    const ids = new Set(path?.nodes.map((n) => n.id));
    for (const e of path?.edges ?? []) expect([ids.has(e.from), ids.has(e.to)]).toEqual([true, true]);
  });

  it('follows an escalation path when the role can become an administrator', () => {
    const [path] = toxicCombinations(input({ exposures: [exposure({ roleArn: APP_ROLE })] }));
    expect(path?.rule).toBe('exposed_admin_workload');
    expect(path?.edges.at(-1)).toMatchObject({ from: APP_ROLE, to: 'administrator', label: 'iam:CreatePolicyVersion' });
  });

  it('is its own rule when the instance answers IMDSv1', () => {
    expect(rules(toxicCombinations(input({ exposures: [exposure({ imdsV1: true })] })))).toEqual([
      'exposed_imdsv1_admin_workload',
    ]);
  });

  it('is possible, not certain, when the exposure or the privilege is only possible', () => {
    const [viaNetwork] = toxicCombinations(input({ exposures: [exposure({ certainty: 'possible' })] }));
    expect(viaNetwork?.certainty).toBe('possible');
    const [viaCondition] = toxicCombinations(
      input({ exposures: [exposure()], privilegeOf: () => ({ kind: 'administrator', evaluation: possible }) }),
    );
    expect(viaCondition?.certainty).toBe('possible');
  });

  it('is nothing for a workload without a role, or with an unprivileged one', () => {
    expect(toxicCombinations(input({ exposures: [exposure({ roleArn: null })] }))).toEqual([]);
    expect(
      toxicCombinations(input({ exposures: [exposure({ roleArn: `arn:aws:iam::${ACCOUNT}:role/reader` })] })),
    ).toEqual([]);
  });
});

describe('a user with an active key and no MFA', () => {
  const user = { arn: DEV, name: 'dev', activeKeys: ['AKIA1'], mfa: false };

  it('is a toxic combination when the user is an administrator', () => {
    const [path] = toxicCombinations(input({ users: [user] }));
    expect(path).toMatchObject({ rule: 'user_key_without_mfa_admin', certainty: 'certain', source: `key:${DEV}` });
    expect(path?.edges[0]?.evidence).toEqual(['AKIA1']);
  });

  it('is nothing with MFA, without an active key, or without privilege', () => {
    expect(toxicCombinations(input({ users: [{ ...user, mfa: true }] }))).toEqual([]);
    expect(toxicCombinations(input({ users: [{ ...user, activeKeys: [] }] }))).toEqual([]);
    expect(toxicCombinations(input({ users: [{ ...user, arn: `arn:aws:iam::${ACCOUNT}:user/intern` }] }))).toEqual([]);
  });

  it('is possible when the MFA could not be read (never a pass)', () => {
    const [path] = toxicCombinations(input({ users: [{ ...user, mfa: null }] }));
    expect(path?.certainty).toBe('possible');
  });
});

describe('an outside account trusted without an ExternalId', () => {
  const trust = (condition?: object) => ({
    Version: '2012-10-17',
    Statement: [
      {
        Sid: 'Vendor',
        Effect: 'Allow',
        Principal: { AWS: 'arn:aws:iam::999988887777:root' },
        Action: 'sts:AssumeRole',
        ...(condition ? { Condition: condition } : {}),
      },
    ],
  });

  it('reads the trust policy: outside accounts and everyone, not the own account, not with an ExternalId', () => {
    expect(externalTrustsWithoutExternalId(trust(), ACCOUNT)).toEqual([
      { principal: '999988887777', statement: 'Vendor' },
    ]);
    expect(externalTrustsWithoutExternalId(trust({ StringEquals: { 'sts:ExternalId': 'x' } }), ACCOUNT)).toEqual([]);
    expect(
      externalTrustsWithoutExternalId(
        {
          Statement: [
            { Effect: 'Allow', Principal: { AWS: `arn:aws:iam::${ACCOUNT}:root` }, Action: 'sts:AssumeRole' },
          ],
        },
        ACCOUNT,
      ),
    ).toEqual([]);
    expect(
      externalTrustsWithoutExternalId(
        { Statement: [{ Effect: 'Allow', Principal: '*', Action: 'sts:AssumeRole' }] },
        ACCOUNT,
      ),
    ).toEqual([{ principal: '*', statement: 'statement 0' }]);
    // Everyone, but only callers of one organization: no longer everyone.
    expect(
      externalTrustsWithoutExternalId(
        {
          Statement: [
            {
              Effect: 'Allow',
              Principal: { AWS: '*' },
              Action: 'sts:AssumeRole',
              Condition: { StringEquals: { 'aws:PrincipalOrgID': 'o-123' } },
            },
          ],
        },
        ACCOUNT,
      ),
    ).toEqual([]);
    // A service's trust, or a Deny, is not an outside account's.
    expect(
      externalTrustsWithoutExternalId(
        { Statement: [{ Effect: 'Allow', Principal: { Service: 'ec2.amazonaws.com' }, Action: 'sts:AssumeRole' }] },
        ACCOUNT,
      ),
    ).toEqual([]);
    expect(externalTrustsWithoutExternalId(null, ACCOUNT)).toEqual([]);
  });

  it('is a toxic combination when the role is an administrator, and nothing when it is not', () => {
    const trusts = externalTrustsWithoutExternalId(trust(), ACCOUNT);
    const [path] = toxicCombinations(input({ externalTrusts: [{ roleArn: ADMIN_ROLE, roleName: 'admin', trusts }] }));
    expect(path).toMatchObject({ rule: 'external_trust_admin', source: 'account:999988887777' });
    expect(path?.edges[0]?.evidence).toEqual([`trust:${ADMIN_ROLE}#Vendor`]);
    const reader = `arn:aws:iam::${ACCOUNT}:role/reader`;
    expect(toxicCombinations(input({ externalTrusts: [{ roleArn: reader, roleName: 'reader', trusts }] }))).toEqual([]);
    expect(
      toxicCombinations(input({ externalTrusts: [{ roleArn: ADMIN_ROLE, roleName: 'admin', trusts: [] }] })),
    ).toEqual([]);
  });
});

describe('a public function whose role reads secrets', () => {
  const fn = exposure({
    resource: 'arn:aws:lambda:eu-west-1:111122223333:function:api',
    kind: 'function',
    roleArn: APP_ROLE,
  });

  it('is a toxic combination when the role may read secrets', () => {
    const paths = toxicCombinations(input({ exposures: [fn], secretsReadBy: () => allowed, privilegeOf: () => null }));
    expect(rules(paths)).toEqual(['public_function_reads_secrets']);
    expect(paths[0]?.target).toBe('secrets');
  });

  it('is nothing when the role reads no secret, and an instance is not a function', () => {
    expect(toxicCombinations(input({ exposures: [fn], privilegeOf: () => null }))).toEqual([]);
    expect(
      toxicCombinations(
        input({ exposures: [exposure({ roleArn: APP_ROLE })], secretsReadBy: () => allowed, privilegeOf: () => null }),
      ),
    ).toEqual([]);
  });
});

describe('a function that public queues trigger, whose role reads secrets', () => {
  const WORKER = `arn:aws:lambda:eu-west-1:${ACCOUNT}:function:worker`;
  const trigger = (queue: string, over: Partial<QueueTrigger> = {}): QueueTrigger => ({
    queue: { arn: `arn:aws:sqs:eu-west-1:${ACCOUNT}:${queue}`, name: queue, region: 'eu-west-1' },
    send: {
      ...allowed,
      allowedBy: [{ policy: `resource:arn:aws:sqs:eu-west-1:${ACCOUNT}:${queue}`, sid: 'Anyone', index: 0 }],
    },
    mapping: { uuid: `uuid-${queue}`, sourceArn: `arn:aws:sqs:eu-west-1:${ACCOUNT}:${queue}`, state: 'Enabled' },
    certainty: 'certain',
    fn: { arn: WORKER, name: 'worker', region: 'eu-west-1', roleArn: APP_ROLE },
    ...over,
  });
  const reading = (over: Partial<ToxicInput>) =>
    toxicCombinations(input({ secretsReadBy: () => allowed, privilegeOf: () => null, ...over }));

  it('is one path per function, each queue a way in from the internet', () => {
    const paths = reading({ queueTriggers: [trigger('orders'), trigger('returns', { certainty: 'possible' })] });
    expect(paths).toHaveLength(1);
    const [path] = paths;
    expect(path).toMatchObject({
      rule: 'public_queue_function_reads_secrets',
      fingerprint: `toxic:public_queue_function_reads_secrets:${WORKER}`,
      source: 'internet',
      target: 'secrets',
      region: 'eu-west-1',
      certainty: 'certain',
    });
    const orders = `arn:aws:sqs:eu-west-1:${ACCOUNT}:orders`;
    const returns = `arn:aws:sqs:eu-west-1:${ACCOUNT}:returns`;
    expect(path?.edges.map((e) => [e.from, e.to, e.certainty])).toEqual([
      ['internet', orders, 'certain'],
      [orders, WORKER, 'certain'],
      ['internet', returns, 'certain'],
      [returns, WORKER, 'possible'],
      [WORKER, APP_ROLE, 'certain'],
      [APP_ROLE, 'secrets', 'certain'],
    ]);
    expect(path?.summary).toContain('the queues orders, returns, which trigger worker');
    const ids = new Set(path?.nodes.map((n) => n.id));
    for (const e of path?.edges ?? [])
      expect([ids.has(e.from), ids.has(e.to), e.evidence.length > 0]).toEqual([true, true, true]);
  });

  it('is possible when no way in is certain, or the read of secrets is not', () => {
    expect(reading({ queueTriggers: [trigger('orders', { certainty: 'possible' })] })[0]?.certainty).toBe('possible');
    expect(
      reading({ queueTriggers: [trigger('orders', { send: { ...possible, decision: 'possible' } })] })[0]?.certainty,
    ).toBe('possible');
    expect(reading({ queueTriggers: [trigger('orders')], secretsReadBy: () => possible })[0]?.certainty).toBe(
      'possible',
    );
  });

  it('is nothing when the role reads no secret', () => {
    expect(reading({ queueTriggers: [trigger('orders')], secretsReadBy: () => null })).toEqual([]);
  });
});

describe('a principal with an escalation path seen acting', () => {
  const actor = { principal: APP_ROLE, detection: 'event.iam_policy_changed', at: '2026-12-07T10:00:00.000Z' };

  it('is a toxic combination when the actor can escalate', () => {
    const [path] = toxicCombinations(input({ recentActors: [actor, { ...actor, at: '2026-12-07T09:00:00.000Z' }] }));
    expect(path).toMatchObject({ rule: 'escalation_seen_acting', source: 'event:event.iam_policy_changed' });
    expect(toxicCombinations(input({ recentActors: [actor] }))).toHaveLength(1);
  });

  it('is nothing for an administrator (no escalation to use) or a principal without a path', () => {
    expect(toxicCombinations(input({ recentActors: [{ ...actor, principal: ADMIN_ROLE }] }))).toEqual([]);
    expect(
      toxicCombinations(input({ recentActors: [{ ...actor, principal: `arn:aws:iam::${ACCOUNT}:role/reader` }] })),
    ).toEqual([]);
  });
});
