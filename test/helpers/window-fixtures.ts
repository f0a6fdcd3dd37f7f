import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Envelope } from './playbook-fixtures';

// The EventBridge envelopes the detections with memory count (test/fixtures/aws-window-events): CloudTrail records as
// AWS writes them (a failed console sign-in, a refused call, a secret read, an instance role's call), and the
// sequences of them Stratus Red Team's techniques leave, which no single event shows.

export const WINDOW_FIXTURES = path.join(__dirname, '../fixtures/aws-window-events');

export const windowFixture = (name: string): Envelope =>
  JSON.parse(readFileSync(path.join(WINDOW_FIXTURES, `${name}.json`), 'utf8')) as Envelope;

let sequence = 0;

/**
 * A fixture as a new event: its own id, at `time`, its CloudTrail record changed by `detail` (a key of `detail` set
 * to undefined removes it, as a JSON body would not carry it).
 */
export function windowEvent(
  name: string,
  time: Date,
  detail: Record<string, unknown> = {},
  account?: string,
): Envelope {
  sequence += 1;
  const base = windowFixture(name);
  const iso = time.toISOString().replace(/\.\d{3}Z$/, 'Z');
  return {
    ...base,
    id: `${name}-${sequence}-${time.getTime()}`,
    ...(account ? { account } : {}),
    time: iso,
    detail: { ...base.detail, eventTime: iso, eventID: `ev-${sequence}-${time.getTime()}`, ...detail },
  };
}

/** The instance role's principal (its sessions' issuer). */
export const INSTANCE_ROLE = 'arn:aws:iam::123456789012:role/stratus-red-team-ec2-enum-role';

/** Stratus Red Team's discovery from an instance: the nine calls its documentation lists, by the instance's role. */
export const STRATUS_DISCOVERY: readonly [string, string, string][] = [
  ['aws.sts', 'sts.amazonaws.com', 'GetCallerIdentity'],
  ['aws.s3', 's3.amazonaws.com', 'ListBuckets'],
  ['aws.iam', 'iam.amazonaws.com', 'GetAccountSummary'],
  ['aws.iam', 'iam.amazonaws.com', 'ListRoles'],
  ['aws.iam', 'iam.amazonaws.com', 'ListUsers'],
  ['aws.iam', 'iam.amazonaws.com', 'GetAccountAuthorizationDetails'],
  ['aws.ec2', 'ec2.amazonaws.com', 'DescribeSnapshots'],
  ['aws.cloudtrail', 'cloudtrail.amazonaws.com', 'DescribeTrails'],
  ['aws.guardduty', 'guardduty.amazonaws.com', 'ListDetectors'],
];

const seconds = (start: Date, n: number) => new Date(start.getTime() + n * 1000);

/** The bucket Stratus Red Team's S3 ransomware techniques empty (s3-delete-object.json, s3-delete-objects.json). */
export const RANSOMWARE_BUCKET = 'stratus-red-team-ransomware-bucket-abcdef';

/** The events of Stratus Red Team's techniques that only a window detects, from `start` on, a few seconds apart. */
export const STRATUS_WINDOWED: Readonly<Record<string, (start: Date) => Envelope[]>> = {
  // Twenty secrets made at warm-up, each read once with GetSecretValue.
  'aws.credential-access.secretsmanager-retrieve-secrets': (start) =>
    Array.from({ length: 20 }, (_, i) =>
      windowEvent('secretsmanager-get-secret-value', seconds(start, i), {
        requestParameters: {
          secretId: `arn:aws:secretsmanager:eu-west-1:123456789012:secret:stratus-red-team-retrieve-secret-${i}-AbCdEf`,
        },
      }),
    ),
  // Forty-two SecureString parameters, read with decryption by GetParameters in batches of ten.
  'aws.credential-access.ssm-retrieve-securestring-parameters': (start) =>
    Array.from({ length: 5 }, (_, batch) =>
      windowEvent('ssm-get-parameters-decrypted', seconds(start, batch), {
        requestParameters: {
          names: Array.from(
            { length: Math.min(10, 42 - batch * 10) },
            (_, i) => `/credentials/stratus-red-team/credentials-${batch * 10 + i}`,
          ),
          withDecryption: true,
        },
      }),
    ),
  // The ransomware bucket's 51 objects deleted one by one, each by its version, then a ransom note uploaded.
  'aws.impact.s3-ransomware-individual-deletion': (start) =>
    Array.from({ length: 51 }, (_, i) =>
      windowEvent('s3-delete-object', seconds(start, i), {
        requestParameters: {
          bucketName: RANSOMWARE_BUCKET,
          Host: `${RANSOMWARE_BUCKET}.s3.eu-west-1.amazonaws.com`,
          key: `object-${i}.docx`,
          versionId: `v${i}`,
          'x-id': 'DeleteObject',
        },
      }),
    ),
  // The same objects deleted in one DeleteObjects request.
  'aws.impact.s3-ransomware-batch-deletion': (start) => [windowEvent('s3-delete-objects', start)],
  'aws.discovery.ec2-enumerate-from-instance': (start) =>
    STRATUS_DISCOVERY.map(([source, eventSource, eventName], i) => ({
      ...windowEvent('instance-role-call', seconds(start, i), { eventSource, eventName }),
      source,
    })),
};
