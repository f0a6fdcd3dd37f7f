import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { DETECTION_CATALOG } from '../../../domain/events/catalog';
import { detectEvent, EVENT_DETECTIONS } from '../../../domain/events/detections';
import {
  DENIED_CALLS_RULE_NAME,
  type ForwardingRule,
  FORWARDING_RULES,
  MAX_PATTERN_CHARS,
  ruleState,
} from '../../../domain/events/forwarding-rules';
import { TACTICS, TECHNIQUES } from '../../../domain/events/mitre';
import { parseEnvelope, toAccountEvent } from '../../../domain/events/normalize';
import { deduplicationOf } from '../../../domain/events/occurrences';
import { readsFailedCalls } from '../../../domain/events/playbook';
import { PLAYBOOK_CATALOG } from '../../../domain/events/playbook-catalog';
import type { AccountEvent, DetectionContext } from '../../../domain/events/types';
import { ROLE_NAME } from '../../../domain/onboarding/role';
import { type Envelope, PLAYBOOK_EXPECTED, PLAYBOOK_FIXTURES, playbookFixture } from '../../helpers/playbook-fixtures';
import { crossedWindows, tallyWindows } from '../../../domain/events/windows';
import { SENSITIVE_CALLS } from '../../../domain/events/windows';
import { STRATUS_WINDOWED, WINDOW_FIXTURES, windowFixture } from '../../helpers/window-fixtures';

// The attacker's playbook detections on real CloudTrail envelopes: each fixture sets off exactly its detections, a
// failed call nothing (but for the probes, which count failures), the forwarder sends every one of them, and every
// AWS technique of Stratus Red Team has a fixture that some detection catches.

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
const positives = Object.entries(PLAYBOOK_EXPECTED).filter(([, expected]) => expected.length > 0);
const ids = (body: unknown) => detectEvent(eventOf(body), CONTEXT).map((d) => d.detection.id);
const envelope = (name: string): Envelope =>
  name.startsWith('playbook:')
    ? playbookFixture(name.slice('playbook:'.length))
    : (JSON.parse(readFileSync(path.join(EVENTS, name), 'utf8')) as Envelope);

describe('the playbook detections on their fixtures', () => {
  it('has an expectation for every fixture', () => {
    expect(readdirSync(PLAYBOOK_FIXTURES).sort()).toEqual(Object.keys(PLAYBOOK_EXPECTED).sort());
  });

  it.each(Object.entries(PLAYBOOK_EXPECTED))('%s -> %j, each once', (name, expected) => {
    expect(ids(playbookFixture(name))).toEqual(expected);
  });

  it('gives every playbook detection a fixture that fires it', () => {
    const fired = new Set(Object.values(PLAYBOOK_EXPECTED).flat());
    expect(PLAYBOOK_CATALOG.map((d) => d.id).filter((id) => !fired.has(id))).toEqual([]);
  });

  it.each(positives.filter(([, expected]) => !expected.some(readsFailedCalls)))(
    'fires nothing on %s when the call failed',
    (name) => {
      const body = playbookFixture(name);
      const denied = { ...body, detail: { ...body.detail, errorCode: 'AccessDenied', errorMessage: 'not authorized' } };
      expect(ids(denied)).toEqual([]);
    },
  );

  it('reads the probes whether they worked or not, and a refused GPU launch only when refused', () => {
    const password = playbookFixture('ec2-get-password-data.json');
    const worked = { ...password, detail: { ...password.detail, errorCode: undefined, errorMessage: undefined } };
    expect(ids(worked)).toEqual(['event.ec2_password_data_retrieved']);
    const refused = playbookFixture('ec2-run-instances-gpu-refused.json');
    const launched = { ...refused, detail: { ...refused.detail, errorCode: undefined, errorMessage: undefined } };
    // A launch that worked is event.gpu_instance_launched's, not a refused attempt.
    expect(ids(launched)).not.toContain('event.gpu_instance_launch_attempted');
  });

  it("ignores what another account's event or Sentinel's own roles did", () => {
    expect(ids(playbookFixture('ec2-describe-user-data-by-sentinel.json'))).toEqual([]);
    const trust = playbookFixture('iam-create-role-outside-trust.json');
    const sentinelRole = {
      ...trust,
      detail: {
        ...trust.detail,
        requestParameters: { ...(trust.detail.requestParameters as object), roleName: ROLE_NAME },
      },
    };
    expect(ids(sentinelRole)).not.toContain('event.iam_role_trusts_outside_account');
  });

  it('names the resource and what happened, never a secret from the request', () => {
    const [finding] = detectEvent(eventOf(playbookFixture('ec2-share-snapshot.json')), CONTEXT).map((d) => d.finding);
    expect(finding).toEqual({
      resource: 'snap-0123456789abcdef0',
      detail: 'EBS snapshot snap-0123456789abcdef0 was shared with 999988887777.',
    });
    const [lifecycle] = detectEvent(eventOf(playbookFixture('s3-put-bucket-lifecycle-1-day.json')), CONTEXT);
    expect(lifecycle?.finding.detail).toBe(
      'Bucket acme-cloudtrail-logs now deletes objects 1 day(s) after they are written.',
    );
    const [version] = detectEvent(eventOf(playbookFixture('iam-create-policy-version-default.json')), CONTEXT);
    expect(version?.finding.detail).toContain('the new version grants administrator access');
  });

  it('de-duplicates a resource left in a state per resource, anything that happened per principal', () => {
    expect(deduplicationOf('event.ebs_snapshot_shared')).toEqual({ kind: 'state' });
    expect(deduplicationOf('event.ssm_command_sent')).toMatchObject({ kind: 'occurrence', by: 'principal' });
  });
});

describe('MITRE ATT&CK on every detection', () => {
  it('names known tactics and techniques, and only the GuardDuty finding names none of its own', () => {
    for (const d of DETECTION_CATALOG) {
      for (const m of d.mitre) {
        expect({ id: d.id, tactic: TACTICS[m.tactic] }).toEqual({ id: d.id, tactic: expect.any(String) });
        expect({ id: d.id, technique: TECHNIQUES[m.technique] }).toEqual({ id: d.id, technique: expect.any(String) });
      }
    }
    expect(DETECTION_CATALOG.filter((d) => d.mitre.length === 0).map((d) => d.id)).toEqual([
      'event.guardduty_high_severity_finding',
      'event.guardduty_finding',
    ]);
  });

  it('counts at least the detections the catalogue promises, with unique ids', () => {
    const all = EVENT_DETECTIONS.map((d) => d.id);
    expect(new Set(all).size).toBe(all.length);
    expect(DETECTION_CATALOG.length).toBeGreaterThanOrEqual(108);
  });
});

/** Whether an EventBridge pattern matches an event (the subset of the pattern language the rules use). */
function matches(pattern: unknown, value: unknown): boolean {
  if (Array.isArray(pattern))
    return pattern.some((p) => {
      if (p && typeof p === 'object' && 'exists' in p)
        return (value !== undefined) === (p as { exists: boolean }).exists;
      if (p && typeof p === 'object' && 'numeric' in p) {
        const [op, n] = (p as { numeric: [string, number] }).numeric;
        return op === '>=' && typeof value === 'number' && value >= n;
      }
      return Array.isArray(value) ? value.includes(p) : value === p;
    });
  if (pattern && typeof pattern === 'object') {
    const object = (value ?? {}) as Record<string, unknown>;
    return Object.entries(pattern).every(([key, p]) => matches(p, object[key]));
  }
  return false;
}

/** Whether a rule receives an event: read-only management events only in the state that receives them. */
function receives(rule: ForwardingRule, body: Envelope): boolean {
  if (body.detail.readOnly === true && body.detail.managementEvent !== false)
    if (ruleState(rule) !== 'ENABLED_WITH_ALL_CLOUDTRAIL_MANAGEMENT_EVENTS') return false;
  return matches(rule.pattern, body);
}

describe('the forwarding rules for the playbook', () => {
  it.each(positives.map(([name]) => name))('forward %s, to a rule in the region it happens in', (name) => {
    const body = playbookFixture(name);
    const rules = FORWARDING_RULES.filter((rule) => receives(rule, body));
    expect({ name, rules: rules.length }).not.toEqual({ name, rules: 0 });
    // Global services deliver in us-east-1, where the global rules are; a regional event needs a regional rule.
    if (body.region !== 'us-east-1') expect(rules.some((r) => r.scope === 'regional')).toBe(true);
  });

  it('forward each event once, fit EventBridge pattern size, and have unique names of at most 64 characters', () => {
    for (const [name] of positives) {
      const body = playbookFixture(name);
      // A refused call comes through the denied-calls rule too (ingestion keeps it once, by its event id).
      const once = FORWARDING_RULES.filter((rule) => rule.name !== DENIED_CALLS_RULE_NAME);
      expect({ name, rules: once.filter((rule) => receives(rule, body)).length }).toEqual({
        name,
        rules: 1,
      });
    }
    for (const rule of FORWARDING_RULES) {
      expect({ rule: rule.name, fits: JSON.stringify(rule.pattern).length <= MAX_PATTERN_CHARS }).toEqual({
        rule: rule.name,
        fits: true,
      });
      expect(rule.name.length).toBeLessThanOrEqual(64);
    }
    expect(new Set(FORWARDING_RULES.map((r) => r.name)).size).toBe(FORWARDING_RULES.length);
  });

  it('forward only the narrowed reads: user data, not every instance attribute; SSE-C writes, not every object', () => {
    const userData = playbookFixture('ec2-describe-user-data.json');
    const otherAttribute = {
      ...userData,
      detail: {
        ...userData.detail,
        requestParameters: { instanceId: 'i-0123456789abcdef0', attribute: 'instanceType' },
      },
    };
    expect(FORWARDING_RULES.filter((rule) => receives(rule, otherAttribute))).toEqual([]);
    const sseC = playbookFixture('s3-copy-object-sse-c.json');
    const plain = { ...sseC, detail: { ...sseC.detail, requestParameters: { bucketName: 'b', key: 'k' } } };
    expect(FORWARDING_RULES.filter((rule) => receives(rule, plain))).toEqual([]);
  });
});

describe('the forwarding rules for the detections with memory', () => {
  it.each(readdirSync(WINDOW_FIXTURES).map((f) => f.replace(/\.json$/, '')))('forward %s', (name) => {
    const body = windowFixture(name);
    expect(FORWARDING_RULES.filter((rule) => receives(rule, body)).length).toBeGreaterThan(0);
  });

  it('forward every sensitive call a first use reads, and the decrypted SSM reads only', () => {
    const base = windowFixture('secretsmanager-get-secret-value');
    for (const [eventSource, names] of Object.entries(SENSITIVE_CALLS))
      for (const eventName of names) {
        const service = eventSource.split('.')[0];
        const body = { ...base, source: `aws.${service}`, detail: { ...base.detail, eventSource, eventName } };
        const readOnly = eventName.startsWith('Get') || eventName.startsWith('BatchGet');
        const call = { ...body, detail: { ...body.detail, readOnly } };
        expect({ eventName, forwarded: FORWARDING_RULES.some((rule) => receives(rule, call)) }).toEqual({
          eventName,
          forwarded: true,
        });
      }
    const ssm = windowFixture('ssm-get-parameters-decrypted');
    const plain = {
      ...ssm,
      detail: { ...ssm.detail, requestParameters: { names: ['/app/a'], withDecryption: false } },
    };
    expect(FORWARDING_RULES.filter((rule) => receives(rule, plain))).toEqual([]);
  });

  it("forward an instance role's writes, and of its reads only the discovery calls", () => {
    const read = windowFixture('instance-role-call');
    const write = {
      ...read,
      detail: { ...read.detail, eventName: 'CreateTags', eventSource: 'ec2.amazonaws.com', readOnly: false },
    };
    expect(FORWARDING_RULES.filter((rule) => receives(rule, write)).map((r) => r.name)).toEqual([
      'sentinel-instance-credentials',
    ]);
    const otherRead = {
      ...read,
      detail: { ...read.detail, eventName: 'DescribeImages', eventSource: 'ec2.amazonaws.com' },
    };
    expect(FORWARDING_RULES.filter((rule) => receives(rule, otherRead))).toEqual([]);
  });
});

/**
 * Each Stratus Red Team AWS technique and the fixtures of the events it leaves (its documentation's list). The
 * techniques detected only from many events over a window (a burst of secret reads, of deletions, of discovery
 * calls) are not detected from one event: they wait for the windowed detections, and say so here.
 */
const STRATUS: Readonly<Record<string, string[]>> = {
  'aws.credential-access.ec2-get-password-data': ['playbook:ec2-get-password-data.json'],
  // The command that reads the credentials, and GuardDuty's finding when they are used from outside the instance.
  'aws.credential-access.ec2-steal-instance-credentials': [
    'playbook:ssm-send-command.json',
    'guardduty-finding-high.json',
  ],
  'aws.credential-access.secretsmanager-batch-retrieve-secrets': ['playbook:secretsmanager-batch-get.json'],
  'aws.defense-evasion.cloudtrail-delete': ['delete-trail.json'],
  'aws.defense-evasion.cloudtrail-event-selectors': ['put-event-selectors-no-management.json'],
  'aws.defense-evasion.cloudtrail-lifecycle-rule': ['playbook:s3-put-bucket-lifecycle-1-day.json'],
  'aws.defense-evasion.cloudtrail-stop': ['stop-logging.json'],
  'aws.defense-evasion.dns-delete-logs': ['playbook:route53resolver-delete-query-log-config.json'],
  'aws.defense-evasion.organizations-leave': ['playbook:organizations-leave.json'],
  'aws.defense-evasion.vpc-remove-flow-logs': ['playbook:ec2-delete-flow-logs.json'],
  'aws.discovery.ec2-download-user-data': ['playbook:ec2-describe-user-data.json'],
  'aws.discovery.ses-enumerate': ['playbook:ses-get-send-quota-user-key.json'],
  'aws.execution.ec2-launch-unusual-instances': ['playbook:ec2-run-instances-gpu-refused.json'],
  'aws.execution.ec2-user-data': ['playbook:ec2-modify-instance-user-data.json'],
  'aws.execution.sagemaker-update-lifecycle-config': ['playbook:sagemaker-create-lifecycle-config.json'],
  'aws.execution.ssm-send-command': ['playbook:ssm-send-command.json'],
  'aws.execution.ssm-start-session': ['playbook:ssm-start-session.json'],
  'aws.exfiltration.ec2-security-group-open-port-22-ingress': ['sg-open-ssh.json'],
  'aws.exfiltration.ec2-share-ami': ['playbook:ec2-share-ami.json'],
  'aws.exfiltration.ec2-share-ebs-snapshot': ['playbook:ec2-share-snapshot.json'],
  'aws.exfiltration.rds-share-snapshot': ['playbook:rds-share-snapshot.json'],
  'aws.exfiltration.s3-backdoor-bucket-policy': ['playbook:s3-put-bucket-policy-cross-account.json'],
  'aws.impact.bedrock-invoke-model': ['playbook:bedrock-put-use-case.json'],
  'aws.impact.ec2-deregister-ami': ['playbook:ec2-deregister-image.json'],
  'aws.impact.s3-ransomware-client-side-encryption': ['playbook:s3-copy-object-sse-c.json'],
  'aws.initial-access.console-login-without-mfa': ['console-sign-in-no-mfa.json'],
  'aws.lateral-movement.ec2-instance-connect': ['playbook:ec2-instance-connect-send-key.json'],
  'aws.lateral-movement.ec2-serial-console-send-ssh-public-key': [
    'playbook:ec2-enable-serial-console.json',
    'playbook:ec2-serial-console-send-key.json',
  ],
  'aws.persistence.iam-backdoor-role': ['playbook:iam-update-assume-role-outside.json'],
  'aws.persistence.iam-backdoor-user': ['create-access-key.json'],
  'aws.persistence.iam-create-admin-user': ['create-user.json', 'attach-admin-policy.json'],
  'aws.persistence.iam-create-backdoor-role': ['playbook:iam-create-role-outside-trust.json'],
  'aws.persistence.iam-create-user-login-profile': ['create-login-profile.json'],
  'aws.persistence.lambda-backdoor-function': ['playbook:lambda-add-permission-public.json'],
  'aws.persistence.lambda-layer-extension': ['playbook:lambda-update-config-foreign-layer.json'],
  'aws.persistence.lambda-overwrite-code': ['playbook:lambda-update-code.json'],
  'aws.persistence.rolesanywhere-create-trust-anchor': ['playbook:rolesanywhere-create-trust-anchor.json'],
  'aws.persistence.sts-federation-token': ['playbook:sts-get-federation-token.json'],
  'aws.privilege-escalation.iam-update-user-login-profile': ['playbook:iam-update-login-profile.json'],
};

describe('Stratus Red Team AWS techniques', () => {
  const techniques = readFileSync(path.join(__dirname, '../../fixtures/stratus-aws-techniques.txt'), 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('aws.'));

  it('are all detected: from a fixture, or from a sequence of events by a window', () => {
    expect(techniques).toHaveLength(44);
    expect([...Object.keys(STRATUS), ...Object.keys(STRATUS_WINDOWED)].sort()).toEqual([...techniques].sort());
  });

  it.each(Object.entries(STRATUS_WINDOWED))(
    '%s is detected from its events by a window, forwarded by the rules',
    (_technique, events) => {
      const bodies = events(new Date('2026-03-15T10:00:00Z'));
      for (const body of bodies)
        expect({ body: body.id, forwarded: FORWARDING_RULES.some((rule) => receives(rule, body)) }).toEqual({
          body: body.id,
          forwarded: true,
        });
      // One request of all of them: its tallies are the windows' whole state.
      const tallies = tallyWindows(bodies.map(eventOf), CONTEXT, new Date('2026-03-15T10:15:00Z'));
      const crossed = crossedWindows(tallies.map((t) => ({ ...t, distinct: t.values.length, signalled: false })));
      expect(crossed).toHaveLength(1);
    },
  );

  it.each(Object.entries(STRATUS))('%s is detected from its events', (_technique, fixtures) => {
    for (const name of fixtures)
      expect({ name, detections: ids(envelope(name)).length > 0 }).toEqual({ name, detections: true });
  });
});
