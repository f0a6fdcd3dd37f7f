import { parseEnvelope, toAccountEvent } from '../../../domain/events/normalize';
import { deduplicationOf } from '../../../domain/events/occurrences';
import { DETECTION_CATALOG } from '../../../domain/events/catalog';
import type { AccountEvent, DetectionContext } from '../../../domain/events/types';
import {
  crossedWindows,
  cut,
  VALUE_CHARS,
  DISTINCT_VALUES_CAP,
  FIRST_USE_LEARNING_DAYS,
  FIRST_USE_MEMORY_DAYS,
  isFirstUse,
  isPublicAddress,
  reachesThreshold,
  sensitiveUses,
  tallyWindows,
  windowedDetection,
  WINDOWED_DETECTIONS,
  windowFinding,
  windowStart,
  type WindowState,
} from '../../../domain/events/windows';
import { FORWARDER_ROLE_NAME } from '../../../domain/onboarding/forwarder-templates';
import { ROLE_NAME } from '../../../domain/onboarding/role';
import { type Envelope, playbookFixture } from '../../helpers/playbook-fixtures';
import { INSTANCE_ROLE, windowEvent, windowFixture } from '../../helpers/window-fixtures';

// The detections with memory, pure (domain/events/windows.ts): what each event counts in which window, and when a
// window reaches its threshold, with explicit clocks. The state they keep in PostgreSQL is modelled here by a map
// that adds a request's tallies to its windows, as db/repositories/detection-windows.ts does.

const CONTEXT: DetectionContext = {
  usedRegions: ['eu-west-1', 'us-east-1'],
  roleName: ROLE_NAME,
  eventKeyRotating: false,
};
const MINUTE = 60_000;
/** A window start: 10:00 on a day, and the clock when the requests arrive (a few minutes later). */
const T0 = new Date('2026-03-15T10:00:00Z');
const AT = new Date('2026-03-15T10:12:00Z');
const at = (minutes: number, seconds = 0) => new Date(T0.getTime() + minutes * MINUTE + seconds * 1000);

function eventOf(body: Envelope): AccountEvent {
  const parsed = parseEnvelope(body);
  if (!parsed.ok) throw new Error(parsed.reason);
  return toAccountEvent(parsed.envelope);
}

/** The account's windows, as the repository keeps them: counts, distinct values (capped), whether they signalled. */
class Windows {
  private readonly rows = new Map<string, WindowState & { values: string[] }>();

  /** One request: its tallies added, and the detections of the windows it took to their threshold. */
  ingest(bodies: Envelope[], now = AT, context = CONTEXT): string[] {
    const states = tallyWindows(bodies.map(eventOf), context, now).map((t) => {
      const id = `${t.detectionId}|${t.key}|${t.windowStart.toISOString()}`;
      const row = this.rows.get(id) ?? { ...t, count: 0, distinct: 0, values: [], signalled: false };
      row.count += t.count;
      row.values = [...new Set([...row.values, ...t.values])].slice(0, DISTINCT_VALUES_CAP);
      row.distinct = row.values.length;
      this.rows.set(id, row);
      return { ...row };
    });
    const crossed = crossedWindows(states);
    for (const c of crossed)
      this.rows.get(`${c.detectionId}|${c.key}|${c.windowStart.toISOString()}`)!.signalled = true;
    return crossed.map((c) => c.detectionId);
  }
}

const userFailure = (time: Date, ip = '198.51.100.23') =>
  windowEvent('console-login-failure-user', time, { sourceIPAddress: ip });
const rootFailure = (time: Date, ip = '203.0.113.77') =>
  windowEvent('console-login-failure-root', time, { sourceIPAddress: ip });
const denied = (time: Date, detail: Record<string, unknown> = {}) => windowEvent('iam-list-users-denied', time, detail);
const secret = (time: Date, id: string, detail: Record<string, unknown> = {}) =>
  windowEvent('secretsmanager-get-secret-value', time, { requestParameters: { secretId: id }, ...detail });
const instanceCall = (time: Date, ip: string, detail: Record<string, unknown> = {}) =>
  windowEvent('instance-role-call', time, { sourceIPAddress: ip, ...detail });
const asRole = (role: string) => ({
  userIdentity: {
    type: 'AssumedRole',
    principalId: 'AROAZ3K7EXAMPLESENT01:sentinel-scan',
    arn: `arn:aws:sts::123456789012:assumed-role/${role}/sentinel-scan`,
    accountId: '123456789012',
    sessionContext: {
      sessionIssuer: { type: 'Role', arn: `arn:aws:iam::123456789012:role/${role}`, userName: role },
    },
  },
});

describe('windows', () => {
  it('are aligned on the epoch, by the events own time', () => {
    expect(windowStart(new Date('2026-03-15T10:09:59.999Z'), 10)).toEqual(new Date('2026-03-15T10:00:00Z'));
    expect(windowStart(new Date('2026-03-15T10:10:00Z'), 10)).toEqual(new Date('2026-03-15T10:10:00Z'));
    expect(windowStart(new Date('2026-03-15T10:10:00Z'), 360)).toEqual(new Date('2026-03-15T06:00:00Z'));
  });

  it('each has a catalogue entry, an occurrence de-duplication, and a distinct threshold within the values kept', () => {
    for (const d of WINDOWED_DETECTIONS) {
      expect(DETECTION_CATALOG.some((c) => c.id === d.id)).toBe(true);
      expect(deduplicationOf(d.id)).toMatchObject({ kind: 'occurrence', by: 'principal' });
      expect(d.distinctThreshold ?? 0).toBeLessThanOrEqual(DISTINCT_VALUES_CAP);
      expect(d.countThreshold !== null || d.distinctThreshold !== null).toBe(true);
    }
  });
});

describe('failed console sign-ins from one address', () => {
  it('opens at the fifth failure of IAM users in 10 minutes, not before, and once per window', () => {
    const windows = new Windows();
    for (let i = 0; i < 4; i++) expect(windows.ingest([userFailure(at(i))])).toEqual([]);
    expect(windows.ingest([userFailure(at(4))])).toEqual(['event.console_sign_in_failures']);
    expect(windows.ingest([userFailure(at(5)), userFailure(at(6))])).toEqual([]);
    // The next window starts again.
    const later = new Date(AT.getTime() + 10 * MINUTE);
    for (let i = 0; i < 4; i++) expect(windows.ingest([userFailure(at(10, i))], later)).toEqual([]);
    expect(windows.ingest([userFailure(at(10, 4))], later)).toEqual(['event.console_sign_in_failures']);
  });

  it('opens at the third root failure', () => {
    const windows = new Windows();
    expect(windows.ingest([rootFailure(at(1)), rootFailure(at(2))])).toEqual([]);
    expect(windows.ingest([rootFailure(at(3))])).toEqual(['event.root_sign_in_failures']);
  });

  it('counts neither successful sign-ins, nor failures from other addresses, nor failures spread over windows', () => {
    const windows = new Windows();
    const success = windowEvent('console-login-failure-user', at(1), {
      responseElements: { ConsoleLogin: 'Success' },
      errorMessage: undefined,
    });
    expect(windows.ingest([success, success, success, success, success])).toEqual([]);
    expect(windows.ingest([1, 2, 3, 4, 5, 6].map((i) => userFailure(at(i), `198.51.100.${i}`)))).toEqual([]);
    // Four in each of three windows: never five in one.
    const spread = [0, 10, 20].flatMap((m) => [0, 1, 2, 3].map((i) => userFailure(at(m + i), '192.0.2.9')));
    expect(windows.ingest(spread, at(24))).toEqual([]);
  });

  it('names the address and the count', () => {
    const [tally] = tallyWindows(
      [1, 2, 3, 4, 5].map((i) => eventOf(userFailure(at(i)))),
      CONTEXT,
      AT,
    );
    const state = { ...tally!, distinct: 0, signalled: false };
    expect(windowFinding(state, tally!.event)).toEqual({
      resource: '198.51.100.23',
      region: 'us-east-1',
      detail: '5 failed console sign-ins from 198.51.100.23 within 10 minutes.',
    });
  });
});

describe('denied calls from one principal', () => {
  it('counts failed calls: opens at the twentieth refusal in 10 minutes', () => {
    const windows = new Windows();
    expect(windows.ingest(Array.from({ length: 19 }, (_, i) => denied(at(0, i))))).toEqual([]);
    expect(windows.ingest([denied(at(1))])).toEqual(['event.access_denied_burst']);
  });

  it("counts refusals only (not throttling, not calls that worked), by principal, never Sentinel's own roles", () => {
    const windows = new Windows();
    const throttled = Array.from({ length: 25 }, (_, i) =>
      denied(at(0, i), { errorCode: 'ThrottlingException', errorMessage: 'Rate exceeded' }),
    );
    const worked = Array.from({ length: 25 }, (_, i) =>
      denied(at(0, i), { errorCode: undefined, errorMessage: undefined }),
    );
    const sentinel = [ROLE_NAME, FORWARDER_ROLE_NAME].flatMap((role) =>
      Array.from({ length: 25 }, (_, i) => denied(at(0, i), asRole(role))),
    );
    expect(windows.ingest([...throttled, ...worked, ...sentinel])).toEqual([]);
    // Ten refusals each by two principals.
    const bob = {
      ...(windowFixture('iam-list-users-denied').detail.userIdentity as object),
      arn: 'arn:aws:iam::123456789012:user/bob',
    };
    const two = Array.from({ length: 10 }, (_, i) => [
      denied(at(2, i)),
      denied(at(2, i), { userIdentity: bob }),
    ]).flat();
    expect(windows.ingest(two)).toEqual([]);
  });

  it("counts an assumed role's sessions as its role", () => {
    const sessions = Array.from({ length: 20 }, (_, i) =>
      instanceCall(at(0, i), '10.0.1.5', {
        errorCode: 'AccessDenied',
        userIdentity: {
          ...(windowFixture('instance-role-call').detail.userIdentity as Record<string, unknown>),
          principalId: `AROAZ3K7EXAMPLEROLE01:session-${i}`,
        },
      }),
    );
    const [tally] = tallyWindows(sessions.map(eventOf), CONTEXT, AT);
    expect(tally).toMatchObject({ detectionId: 'event.access_denied_burst', key: INSTANCE_ROLE, count: 20 });
  });
});

describe('enumeration from one principal', () => {
  const call = (eventSource: string, eventName: string, time: Date, detail: Record<string, unknown> = {}) =>
    windowEvent('instance-role-call', time, { eventSource, eventName, sourceIPAddress: '10.0.1.5', ...detail });
  const eight = [
    ['sts.amazonaws.com', 'GetCallerIdentity'],
    ['s3.amazonaws.com', 'ListBuckets'],
    ['iam.amazonaws.com', 'ListRoles'],
    ['iam.amazonaws.com', 'ListUsers'],
    ['ec2.amazonaws.com', 'DescribeInstances'],
    ['cloudtrail.amazonaws.com', 'DescribeTrails'],
    ['guardduty.amazonaws.com', 'ListDetectors'],
    ['secretsmanager.amazonaws.com', 'ListSecrets'],
  ] as const;

  it('opens at the eighth different discovery call in 10 minutes, refused ones included', () => {
    const windows = new Windows();
    const seven = eight
      .slice(0, 7)
      .map(([s, n], i) => call(s, n, at(0, i), i % 2 ? { errorCode: 'AccessDenied' } : {}));
    expect(windows.ingest(seven)).toEqual([]);
    expect(windows.ingest([call(eight[7][0], eight[7][1], at(1))])).toEqual(['event.discovery_burst']);
  });

  it("counts neither the same call repeated, nor calls outside the list, nor Sentinel's own scans", () => {
    const windows = new Windows();
    const repeated = Array.from({ length: 50 }, (_, i) => call('ec2.amazonaws.com', 'DescribeInstances', at(0, i)));
    const others = [
      'DescribeImages',
      'DescribeVolumes',
      'DescribeSubnets',
      'DescribeRegions',
      'DescribeAddresses',
      'DescribeKeyPairs',
      'DescribeTags',
      'DescribeHosts',
    ].map((n, i) => call('ec2.amazonaws.com', n, at(1, i)));
    const scan = eight.map(([s, n], i) => call(s, n, at(2, i), asRole(ROLE_NAME)));
    expect(windows.ingest([...repeated, ...others, ...scan])).toEqual([]);
  });
});

describe('secret retrieval bursts', () => {
  const arn = (i: number) => `arn:aws:secretsmanager:eu-west-1:123456789012:secret:app-${i}-AbCdEf`;

  it('opens at the tenth different secret in 10 minutes', () => {
    const windows = new Windows();
    expect(windows.ingest(Array.from({ length: 9 }, (_, i) => secret(at(0, i), arn(i))))).toEqual([]);
    expect(windows.ingest([secret(at(1), arn(9))])).toEqual(['event.secret_retrieval_burst']);
  });

  it('opens at the twentieth read of the same secret', () => {
    const windows = new Windows();
    expect(windows.ingest(Array.from({ length: 19 }, (_, i) => secret(at(0, i), arn(1))))).toEqual([]);
    expect(windows.ingest([secret(at(1), arn(1))])).toEqual(['event.secret_retrieval_burst']);
  });

  it('counts the parameters of a decrypted SSM read, BatchGetSecretValue and GetPasswordData, not plain reads', () => {
    const decrypted = eventOf(windowEvent('ssm-get-parameters-decrypted', at(0)));
    const plain = eventOf(
      windowEvent('ssm-get-parameters-decrypted', at(0), {
        requestParameters: { names: ['/app/a'], withDecryption: false },
      }),
    );
    const [tally] = tallyWindows([decrypted, plain], CONTEXT, AT);
    expect(tally).toMatchObject({ detectionId: 'event.secret_retrieval_burst', count: 1 });
    expect(tally!.values).toHaveLength(10);
    const windows = new Windows();
    expect(windows.ingest([windowEvent('ssm-get-parameters-decrypted', at(0))])).toEqual([
      'event.secret_retrieval_burst',
    ]);
    // Both of the same principal, in the same window: one call, three secrets; one call, an instance's password.
    const batch = playbookFixture('secretsmanager-batch-get.json');
    const password = playbookFixture('ec2-get-password-data.json');
    const worked = { ...password, detail: { ...password.detail, errorCode: undefined, errorMessage: undefined } };
    expect(tallyWindows([eventOf(batch), eventOf(worked)], CONTEXT, new Date('2026-03-15T10:15:00Z'))).toEqual([
      expect.objectContaining({
        count: 2,
        values: ['prod/db', 'prod/stripe', 'prod/github', 'password:i-0d1e2f3a4b5c6d7e8'],
      }),
    ]);
  });

  it("counts no refused read, and no read by Sentinel's role", () => {
    const windows = new Windows();
    const refused = Array.from({ length: 12 }, (_, i) =>
      secret(at(0, i), arn(i), { errorCode: 'AccessDeniedException' }),
    );
    const sentinel = Array.from({ length: 12 }, (_, i) => secret(at(0, i), arn(i), asRole(ROLE_NAME)));
    expect(windows.ingest([...refused, ...sentinel])).toEqual([]);
  });
});

describe('objects deleted in bulk from a bucket', () => {
  const deletion = (time: Date, bucket = 'customer-records', detail: Record<string, unknown> = {}) =>
    windowEvent('s3-delete-object', time, {
      requestParameters: { bucketName: bucket, key: `${time.getTime()}.csv`, 'x-id': 'DeleteObject' },
      ...detail,
    });

  it('opens at the fiftieth object one principal deleted from one bucket in 10 minutes', () => {
    const windows = new Windows();
    expect(windows.ingest(Array.from({ length: 49 }, (_, i) => deletion(at(0, i))))).toEqual([]);
    expect(windows.ingest([deletion(at(1))])).toEqual(['event.s3_objects_mass_deleted']);
    expect(windows.ingest([deletion(at(2))])).toEqual([]);
  });

  it('counts a DeleteObjects batch as a bulk deletion by itself', () => {
    expect(new Windows().ingest([windowEvent('s3-delete-objects', at(3))])).toEqual(['event.s3_objects_mass_deleted']);
  });

  it("counts each bucket and principal apart, and no refused deletion, nor Sentinel's own role", () => {
    const windows = new Windows();
    const spread = [
      ...Array.from({ length: 25 }, (_, i) => deletion(at(0, i), 'customer-records')),
      ...Array.from({ length: 25 }, (_, i) => deletion(at(0, i), 'invoices')),
      ...Array.from({ length: 10 }, (_, i) =>
        deletion(at(1, i), 'customer-records', { errorCode: 'AccessDenied', errorMessage: 'Access Denied' }),
      ),
      ...Array.from({ length: 30 }, (_, i) => deletion(at(2, i), 'customer-records', asRole(ROLE_NAME))),
      windowEvent('s3-delete-objects', at(3), { ...asRole(ROLE_NAME) }),
    ];
    expect(windows.ingest(spread)).toEqual([]);
  });

  it('names the bucket, the principal and the count', () => {
    const [state] = tallyWindows(
      Array.from({ length: 51 }, (_, i) => eventOf(deletion(at(0, i)))),
      CONTEXT,
      AT,
    ).map((t) => ({ ...t, distinct: 0, signalled: false }));
    expect(windowFinding(state!, eventOf(deletion(at(1))))).toEqual({
      resource: 'customer-records by arn:aws:iam::123456789012:user/alice',
      region: 'eu-west-1',
      detail:
        'Objects were deleted in bulk from the bucket customer-records by arn:aws:iam::123456789012:user/alice: 51 ' +
        'deletions within 10 minutes (a DeleteObjects call counts for 50).',
    });
  });
});

describe("an instance's credentials used from another address", () => {
  it('opens when one session calls from a second public address within 6 hours', () => {
    const windows = new Windows();
    expect(windows.ingest([instanceCall(at(0), '54.78.120.33'), instanceCall(at(1), '54.78.120.33')])).toEqual([]);
    expect(windows.ingest([instanceCall(at(90), '198.51.100.200')], at(95))).toEqual([
      'event.instance_credentials_outside_aws',
    ]);
  });

  it("counts no private address, no AWS service, nor another session or a user's key", () => {
    const windows = new Windows();
    const inside = ['10.0.1.5', '172.31.4.4', '192.168.1.1', '100.64.0.9', 'ec2.amazonaws.com', 'AWS Internal'].map(
      (ip, i) => instanceCall(at(0, i), ip),
    );
    expect(windows.ingest([instanceCall(at(0), '54.78.120.33'), ...inside])).toEqual([]);
    const otherSession = instanceCall(at(1), '198.51.100.200', {
      userIdentity: {
        ...(windowFixture('instance-role-call').detail.userIdentity as Record<string, unknown>),
        accessKeyId: 'ASIAZ3K7EXAMPLESESS2',
      },
    });
    const user = windowEvent('iam-list-users-denied', at(1), { errorCode: undefined, sourceIPAddress: '192.0.2.1' });
    expect(windows.ingest([otherSession, user])).toEqual([]);
  });

  it('tells public addresses from private, shared and service ones', () => {
    expect(['54.78.120.33', '198.51.100.7', '2600:1f18::1'].map(isPublicAddress)).toEqual([true, true, true]);
    expect(
      [
        '10.1.2.3',
        '172.16.0.1',
        '192.168.0.1',
        '169.254.169.254',
        '127.0.0.1',
        '100.100.1.1',
        'fd00::1',
        'fe80::1',
        's3.amazonaws.com',
      ].map(isPublicAddress),
    ).toEqual(Array(9).fill(false));
  });
});

describe('the state a request can add', () => {
  it('keeps at most DISTINCT_VALUES_CAP distinct values per window, and counts an event delivered twice once', () => {
    const reads = Array.from({ length: 40 }, (_, i) => eventOf(secret(at(0, i), `s-${i}`)));
    const [tally] = tallyWindows([...reads, reads[0]!], CONTEXT, AT);
    expect(tally).toMatchObject({ count: 40 });
    expect(tally!.values).toHaveLength(DISTINCT_VALUES_CAP);
  });

  it('drops events later than the longest window: their window is gone', () => {
    const late = eventOf(userFailure(new Date(AT.getTime() - 13 * 60 * MINUTE)));
    expect(tallyWindows([late], CONTEXT, AT)).toEqual([]);
    expect(tallyWindows([eventOf(userFailure(at(0)))], CONTEXT, AT)).toHaveLength(1);
  });

  it('reaches a threshold by count or by distinct values', () => {
    const secrets = windowedDetection('event.secret_retrieval_burst')!;
    expect(reachesThreshold(secrets, { count: 19, distinct: 9 })).toBe(false);
    expect(reachesThreshold(secrets, { count: 20, distinct: 1 })).toBe(true);
    expect(reachesThreshold(secrets, { count: 10, distinct: 10 })).toBe(true);
  });
});

describe('first use of a sensitive API', () => {
  const DAY = 86_400_000;
  const learned = new Date(AT.getTime() - FIRST_USE_LEARNING_DAYS * DAY);

  it('is a first when the principal has not made the call in 90 days, once the account learned 14 days', () => {
    const use = { usedAt: AT };
    expect(isFirstUse(use, { principal: 'p', api: 'a', lastUsedAt: null, learningSince: learned }, AT)).toBe(true);
    const old = new Date(AT.getTime() - FIRST_USE_MEMORY_DAYS * DAY);
    expect(isFirstUse(use, { principal: 'p', api: 'a', lastUsedAt: old, learningSince: learned }, AT)).toBe(true);
    const recent = new Date(old.getTime() + DAY);
    expect(isFirstUse(use, { principal: 'p', api: 'a', lastUsedAt: recent, learningSince: learned }, AT)).toBe(false);
  });

  it('is no first while the account learns', () => {
    const young = new Date(learned.getTime() + 1000);
    expect(isFirstUse({ usedAt: AT }, { principal: 'p', api: 'a', lastUsedAt: null, learningSince: young }, AT)).toBe(
      false,
    );
    expect(isFirstUse({ usedAt: AT }, { principal: 'p', api: 'a', lastUsedAt: null, learningSince: null }, AT)).toBe(
      false,
    );
  });

  it("reads the sensitive calls that worked, once per principal and API, not Sentinel's nor failed ones", () => {
    const get = (detail: Record<string, unknown> = {}) => eventOf(secret(at(0), 'prod/db', detail));
    const uses = sensitiveUses(
      [get(), get(), get({ errorCode: 'AccessDeniedException' }), get(asRole(ROLE_NAME))],
      CONTEXT,
    );
    expect(uses.map((u) => [u.principal, u.api])).toEqual([
      ['arn:aws:iam::123456789012:user/alice', 'secretsmanager.amazonaws.com:GetSecretValue'],
    ]);
    expect(sensitiveUses([eventOf(denied(at(0), { errorCode: undefined }))], CONTEXT)).toEqual([]);
  });
});

describe('cut', () => {
  it('keeps a value within VALUE_CHARS, never splitting a character in two', () => {
    expect(cut('a'.repeat(VALUE_CHARS + 5))).toHaveLength(VALUE_CHARS);
    const emoji = `${'a'.repeat(VALUE_CHARS - 1)}😀`;
    expect(cut(emoji)).toBe('a'.repeat(VALUE_CHARS - 1));
    expect(cut('short')).toBe('short');
  });
});
