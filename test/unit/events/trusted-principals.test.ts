import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { detectEvent, EVENT_DETECTIONS } from '../../../domain/events/detections';
import { parseEnvelope, toAccountEvent } from '../../../domain/events/normalize';
import {
  bySentinel,
  callPrincipal,
  parsePrincipal,
  principalMatches,
  suppressingPrincipal,
  type TrustedPrincipal,
} from '../../../domain/events/trusted-principals';
import type { AccountEvent, DetectionContext } from '../../../domain/events/types';
import { FORWARDER_ROLE_NAME } from '../../../domain/onboarding/forwarder-templates';
import { ROLE_NAME } from '../../../domain/onboarding/role';
import { type Envelope, PLAYBOOK_FIXTURES } from '../../helpers/playbook-fixtures';

// Trusted principals as ARNs are matched to a call's principal (a role stands for its sessions, a `*` ends a session
// prefix, another account never matches), and Sentinel's own roles, whose calls set off no detection at all: every
// CloudTrail fixture of every detection, made by Sentinel's role, fires nothing.

const ACCOUNT = '123456789012';
const OTHER = '210987654321';
const CONTEXT: DetectionContext = {
  usedRegions: ['eu-west-1', 'us-east-1'],
  roleName: ROLE_NAME,
  eventKeyRotating: false,
};
const EVENTS = path.join(__dirname, '../../fixtures/aws-events');

function eventOf(body: unknown): AccountEvent {
  const parsed = parseEnvelope(body);
  if (!parsed.ok) throw new Error(parsed.reason);
  return toAccountEvent(parsed.envelope);
}

/** Every fixture of both folders, by name. */
const FIXTURES: [string, Envelope][] = [EVENTS, PLAYBOOK_FIXTURES].flatMap((dir) =>
  readdirSync(dir).map((file): [string, Envelope] => [
    `${path.basename(dir)}/${file}`,
    JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as Envelope,
  ]),
);

/** The identity CloudTrail writes for a session of role `role` of `account`, as `session`. */
function sessionOf(role: string, session: string, account = ACCOUNT, rolePath = '/') {
  return {
    type: 'AssumedRole',
    principalId: `AROAEXAMPLEID:${session}`,
    arn: `arn:aws:sts::${account}:assumed-role/${role}/${session}`,
    accountId: account,
    accessKeyId: 'ASIAEXAMPLEKEY123456',
    sessionContext: {
      sessionIssuer: {
        type: 'Role',
        principalId: 'AROAEXAMPLEID',
        arn: `arn:aws:iam::${account}:role${rolePath}${role}`,
        accountId: account,
        userName: role,
      },
      attributes: { creationDate: '2026-03-15T09:58:00Z', mfaAuthenticated: 'false' },
    },
  };
}

const userOf = (name: string, account = ACCOUNT) => ({
  type: 'IAMUser',
  principalId: 'AIDAEXAMPLE',
  arn: `arn:aws:iam::${account}:user/${name}`,
  accountId: account,
  userName: name,
});

/** A fixture made by another principal. */
const by = (envelope: Envelope, userIdentity: unknown): Envelope => ({
  ...envelope,
  detail: { ...envelope.detail, userIdentity },
});

const callerOf = (userIdentity: unknown) => {
  const [, envelope] = FIXTURES.find(([name]) => name === 'aws-events/create-user.json')!;
  return callPrincipal(eventOf(by(envelope, userIdentity)));
};

const matches = (arn: string, userIdentity: unknown) => {
  const parsed = parsePrincipal(arn);
  if (!parsed.ok) throw new Error(parsed.reason);
  const caller = callerOf(userIdentity);
  return caller !== null && principalMatches(parsed.pattern, caller);
};

describe('a trusted principal ARN', () => {
  it.each([
    `arn:aws:iam::${ACCOUNT}:role/terraform`,
    `arn:aws:iam::${ACCOUNT}:role/ci/deploy/terraform`,
    `arn:aws:iam::${ACCOUNT}:user/ci-bot`,
    `arn:aws:sts::${ACCOUNT}:assumed-role/terraform/*`,
    `arn:aws:sts::${ACCOUNT}:assumed-role/terraform/gh-actions-*`,
    `arn:aws:sts::${ACCOUNT}:assumed-role/terraform/gh-actions-1234`,
    `arn:aws-us-gov:iam::${ACCOUNT}:role/terraform`,
  ])('accepts %s', (arn) => {
    expect(parsePrincipal(arn)).toMatchObject({ ok: true });
  });

  it.each([
    ['', /not an IAM role/],
    ['terraform', /not an IAM role/],
    [`arn:aws:iam::${ACCOUNT}:root`, /root user/],
    [`arn:aws:iam::12345:role/terraform`, /not an IAM role/],
    [`arn:aws:iam::${ACCOUNT}:role/*`, /only as a role session ARN/],
    [`arn:aws:iam::${ACCOUNT}:role/terra*`, /only as a role session ARN/],
    [`arn:aws:sts::${ACCOUNT}:assumed-role/*/session`, /only at its end/],
    [`arn:aws:sts::${ACCOUNT}:assumed-role/terraform/`, /names no session/],
    [`arn:aws:sts::${ACCOUNT}:assumed-role/terraform`, /not an IAM role/],
    [`arn:aws:iam::${ACCOUNT}:group/admins`, /not an IAM role/],
    [`arn:aws:iam::${ACCOUNT}:policy/terraform`, /not an IAM role/],
    [`arn:aws:iam::${ACCOUNT}:role/terra form`, /not an IAM role/],
    [`arn:aws:iam::${ACCOUNT}:role/${'x'.repeat(65)}`, /not an IAM role/],
  ])('refuses %j, saying why', (arn, why) => {
    const parsed = parsePrincipal(arn);
    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? '' : parsed.reason).toMatch(why);
  });
});

describe("matching a call's principal", () => {
  it("takes a role for every session of it, whatever the role's path", () => {
    const role = `arn:aws:iam::${ACCOUNT}:role/terraform`;
    expect(matches(role, sessionOf('terraform', 'gh-actions-1'))).toBe(true);
    expect(matches(role, sessionOf('terraform', 'someone-else'))).toBe(true);
    expect(matches(`arn:aws:iam::${ACCOUNT}:role/ci/terraform`, sessionOf('terraform', 'x1', ACCOUNT, '/ci/'))).toBe(
      true,
    );
    expect(matches(role, sessionOf('terraform-admin', 'gh-actions-1'))).toBe(false);
    expect(matches(role, userOf('terraform'))).toBe(false);
  });

  it('takes a session ARN exactly, or as a prefix before its `*`', () => {
    expect(matches(`arn:aws:sts::${ACCOUNT}:assumed-role/terraform/*`, sessionOf('terraform', 'anything'))).toBe(true);
    expect(matches(`arn:aws:sts::${ACCOUNT}:assumed-role/terraform/gh-*`, sessionOf('terraform', 'gh-77'))).toBe(true);
    expect(matches(`arn:aws:sts::${ACCOUNT}:assumed-role/terraform/gh-*`, sessionOf('terraform', 'alice'))).toBe(false);
    expect(matches(`arn:aws:sts::${ACCOUNT}:assumed-role/terraform/gh-77`, sessionOf('terraform', 'gh-77'))).toBe(true);
    expect(matches(`arn:aws:sts::${ACCOUNT}:assumed-role/terraform/gh-77`, sessionOf('terraform', 'gh-778'))).toBe(
      false,
    );
    // The wildcard ends the session name, never the role's: another role's sessions are another principal.
    expect(matches(`arn:aws:sts::${ACCOUNT}:assumed-role/terraform/*`, sessionOf('terraform2', 'gh-1'))).toBe(false);
  });

  it('takes a user ARN for that user alone', () => {
    expect(matches(`arn:aws:iam::${ACCOUNT}:user/ci-bot`, userOf('ci-bot'))).toBe(true);
    expect(matches(`arn:aws:iam::${ACCOUNT}:user/ci-bot`, userOf('ci-bot2'))).toBe(false);
    expect(matches(`arn:aws:iam::${ACCOUNT}:user/ci-bot`, sessionOf('ci-bot', 'x1'))).toBe(false);
  });

  it("never matches another account's principal of the same name", () => {
    expect(matches(`arn:aws:iam::${ACCOUNT}:role/terraform`, sessionOf('terraform', 'gh-1', OTHER))).toBe(false);
    expect(matches(`arn:aws:sts::${ACCOUNT}:assumed-role/terraform/*`, sessionOf('terraform', 'gh-1', OTHER))).toBe(
      false,
    );
    expect(matches(`arn:aws:iam::${ACCOUNT}:user/ci-bot`, userOf('ci-bot', OTHER))).toBe(false);
    expect(matches(`arn:aws-cn:iam::${ACCOUNT}:role/terraform`, sessionOf('terraform', 'gh-1'))).toBe(false);
  });

  it('names no principal for the root user, a GuardDuty finding or a Health event', () => {
    expect(callerOf({ type: 'Root', arn: `arn:aws:iam::${ACCOUNT}:root`, accountId: ACCOUNT })).toBeNull();
    for (const name of [
      'aws-events/guardduty-finding-high.json',
      'aws-events/health-risk-credentials-compromised.json',
    ]) {
      const [, envelope] = FIXTURES.find(([n]) => n === name)!;
      expect(callPrincipal(eventOf(envelope))).toBeNull();
    }
  });

  it('suppresses only the detections an entry names, by the first entry that does', () => {
    const trusted: TrustedPrincipal[] = [
      { id: 'trp_a', principal: `arn:aws:iam::${ACCOUNT}:role/terraform`, detections: ['event.iam_user_created'] },
      { id: 'trp_b', principal: `arn:aws:sts::${ACCOUNT}:assumed-role/terraform/*`, detections: null },
      { id: 'trp_c', principal: `arn:aws:iam::${ACCOUNT}:user/ci-bot`, detections: null },
    ];
    const terraform = callerOf(sessionOf('terraform', 'gh-1'));
    expect(suppressingPrincipal(terraform, 'event.iam_user_created', trusted)?.id).toBe('trp_a');
    expect(suppressingPrincipal(terraform, 'event.access_key_created', trusted)?.id).toBe('trp_b');
    expect(suppressingPrincipal(callerOf(userOf('alice')), 'event.iam_user_created', trusted)).toBeNull();
    expect(suppressingPrincipal(null, 'event.iam_user_created', trusted)).toBeNull();
  });
});

describe("Sentinel's own roles", () => {
  /** The CloudTrail records among the fixtures: the calls a principal made (GuardDuty and Health events are AWS's). */
  const calls = FIXTURES.filter(([, envelope]) => envelope.detail.userIdentity !== undefined);

  it('leave no detection that fires on a CloudTrail fixture untested', () => {
    const fired = new Set(calls.flatMap(([, e]) => detectEvent(eventOf(e), CONTEXT).map((d) => d.detection.id)));
    // Every detection but those of AWS's own events (GuardDuty findings, Health events) fires on some call fixture.
    expect(EVENT_DETECTIONS.map((d) => d.id).filter((id) => !fired.has(id))).toEqual([
      'event.guardduty_high_severity_finding',
      'event.health_risk_event',
      'event.health_abuse_event',
      'event.guardduty_finding',
    ]);
  });

  it.each(calls)('set off nothing on %s, made by the scan role or the forwarder role', (_name, envelope) => {
    for (const [role, context] of [
      [ROLE_NAME, CONTEXT],
      ['security-audit-sentinel', { ...CONTEXT, roleName: 'security-audit-sentinel' }],
      [FORWARDER_ROLE_NAME, CONTEXT],
      [`${FORWARDER_ROLE_NAME}-eu-west-1`, CONTEXT],
    ] as const) {
      const event = eventOf(by(envelope, sessionOf(role, 'sentinel-scan', envelope.account as string)));
      expect(bySentinel(event, context)).toBe(true);
      expect(detectEvent(event, context)).toEqual([]);
    }
  });

  it('are no exemption for a role of the same name in another account, or for another role of this one', () => {
    const [, createUser] = FIXTURES.find(([name]) => name === 'aws-events/create-user.json')!;
    const ids = (userIdentity: unknown) =>
      detectEvent(eventOf(by(createUser, userIdentity)), CONTEXT).map((d) => d.detection.id);
    expect(ids(sessionOf(ROLE_NAME, 'sentinel-scan', OTHER))).toEqual(['event.iam_user_created']);
    expect(ids(sessionOf('terraform', 'sentinel-scan'))).toEqual(['event.iam_user_created']);
    expect(ids(sessionOf(ROLE_NAME, 'x', ACCOUNT))).toEqual([]);
    // Without a known scan role, only the forwarder's is Sentinel's.
    const unknown = { ...CONTEXT, roleName: null };
    expect(detectEvent(eventOf(by(createUser, sessionOf(ROLE_NAME, 'x'))), unknown)).toHaveLength(1);
  });
});
