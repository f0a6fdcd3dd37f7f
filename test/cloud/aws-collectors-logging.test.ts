import {
  CloudTrailClient,
  CreateTrailCommand,
  PutEventSelectorsCommand,
  StartLoggingCommand,
} from '@aws-sdk/client-cloudtrail';
import {
  ConfigServiceClient,
  PutConfigurationRecorderCommand,
  PutDeliveryChannelCommand,
  StartConfigurationRecorderCommand,
} from '@aws-sdk/client-config-service';
import { CreateKeyCommand, KMSClient } from '@aws-sdk/client-kms';
import { CreateBucketCommand, PutBucketAclCommand, PutBucketLoggingCommand, S3Client } from '@aws-sdk/client-s3';
import { EnableSecurityHubCommand, SecurityHubClient } from '@aws-sdk/client-securityhub';
import { checkById } from '../../domain/checks/catalog';
import type { Inventory } from '../../domain/scans/inventory';
import {
  accessDenied,
  type AwsRequest,
  type CannedAnswer,
  createSentinelRole,
  type CustomerAccount,
  customerConfig,
  motoGaps,
  REGION,
} from '../helpers/aws';
import { ok, uniqueName, useCollectorSuite } from '../helpers/collector-suite';

// The logging controls end to end: a customer account seeded in moto through the SDK, Sentinel's role created
// with the real CLI script, collected through the front (test/helpers/aws.ts), and the checks run on the result.

/** GetBucketLogging: GET on the bucket with the `logging` subresource. */
const isGetBucketLogging = (r: AwsRequest) =>
  r.service === 's3' && r.method === 'GET' && /(^|&)logging(=|&|$)/.test(r.query);
const LOGGING_CHECKS = [
  'detection.no_multi_region_trail',
  'detection.trail_log_validation_off',
  'detection.trail_not_kms_encrypted',
  'detection.trail_bucket_logging_off',
  'detection.s3_write_events_not_logged',
  'detection.s3_read_events_not_logged',
  'detection.config_off',
  'detection.security_hub_off',
  'iam.access_analyzer_off',
];

/** Each logging check's outcome: pass, not evaluated, or its failing resources as `resource@region`. */
function outcomes(inventory: Inventory): Record<string, string | string[]> {
  return Object.fromEntries(
    LOGGING_CHECKS.map((id) => {
      const result = checkById(id)!.evaluate(inventory, { now: inventory.collectedAt });
      return [
        id,
        result.status === 'fail' ? result.resources.map((r) => `${r.resource}@${r.region ?? 'global'}`) : result.status,
      ];
    }),
  );
}

/** An ACTIVE external access analyzer in every region, as the customer would have created (moto has no Access Analyzer). */
function withAnalyzers(request: AwsRequest): CannedAnswer | undefined {
  if (request.service !== 'access-analyzer') return motoGaps(request);
  const analyzer = {
    arn: `arn:aws:access-analyzer:${request.region}:123456789012:analyzer/external`,
    name: 'external',
    type: 'ACCOUNT',
    status: 'ACTIVE',
    createdAt: '2026-01-01T00:00:00Z',
  };
  return { status: 200, contentType: 'application/json', body: JSON.stringify({ analyzers: [analyzer] }) };
}

describe('logging controls collected against moto', () => {
  const suite = useCollectorSuite();
  const { client, connectedCustomer } = suite;

  /** A bucket and a multi-region trail that delivers to it, logging. */
  async function trail(customer: CustomerAccount, settings: { validation?: boolean; kmsKeyId?: string } = {}) {
    const bucket = uniqueName('trail-logs');
    const s3 = client(new S3Client({ ...customerConfig(customer), forcePathStyle: true }));
    await s3.send(new CreateBucketCommand({ Bucket: bucket }));
    const cloudtrail = client(new CloudTrailClient(customerConfig(customer)));
    await cloudtrail.send(
      new CreateTrailCommand({
        Name: 'everywhere',
        S3BucketName: bucket,
        IsMultiRegionTrail: true,
        EnableLogFileValidation: settings.validation,
        KmsKeyId: settings.kmsKeyId,
      }),
    );
    await cloudtrail.send(new StartLoggingCommand({ Name: 'everywhere' }));
    return { bucket, s3, cloudtrail };
  }

  it("finds a trail's defaults, and Config, Security Hub and Access Analyzer off, in every region", async () => {
    const { customer, target, regions } = await connectedCustomer();
    const { bucket } = await trail(customer);
    await createSentinelRole({ customer, externalId: target.externalId });

    const inventory = await suite.provider.collectInventory(target);

    expect(ok(inventory.cloudtrail).trails).toEqual([
      {
        name: 'everywhere',
        homeRegion: REGION,
        multiRegion: true,
        logging: true,
        logFileValidation: false,
        kmsKeyId: null,
        bucket,
        cloudWatchLogsLogGroupArn: null,
        // A new trail's default selector: management events, read and write; no data events.
        events: { management: { read: true, write: true }, s3Objects: { read: false, write: false } },
        bucketLogging: { read: true, enabled: false },
        // Its status: logging since it started, delivering without error to a bucket that exists.
        delivery: {
          error: null,
          lastDeliveredAt: expect.any(String),
          lastDigestDeliveredAt: null,
          loggingStartedAt: expect.any(String),
          bucketMissing: false,
          cloudWatchLogsError: null,
        },
      },
    ]);
    expect(inventory.regions.enabled).toEqual(regions);
    expect(ok(inventory.configRecorders).regions).toEqual(regions.map((region) => ({ region, recorders: [] })));
    expect(ok(inventory.securityHub).regions.filter((r) => r.enabled)).toEqual([]);
    expect(ok(inventory.accessAnalyzers).regions.filter((r) => r.analyzers.length > 0)).toEqual([]);
    const everyRegion = (resource: string) => regions.map((region) => `${resource}@${region}`);
    expect(outcomes(inventory)).toEqual({
      'detection.no_multi_region_trail': 'pass',
      'detection.trail_log_validation_off': [`everywhere@${REGION}`],
      'detection.trail_not_kms_encrypted': [`everywhere@${REGION}`],
      'detection.trail_bucket_logging_off': [`${bucket}@global`],
      'detection.s3_write_events_not_logged': ['cloudtrail@global'],
      'detection.s3_read_events_not_logged': ['cloudtrail@global'],
      'detection.config_off': everyRegion('config'),
      'detection.security_hub_off': everyRegion('securityhub'),
      'iam.access_analyzer_off': everyRegion('access-analyzer'),
    });
    // Selectors and the bucket's logging are asked once, of the trail's home region, like its status.
    const selectorCalls = suite.front.requests.filter(
      (r) => r.service === 'cloudtrail' && r.operation === 'GetEventSelectors',
    );
    expect(selectorCalls.map((r) => r.region)).toEqual([REGION]);
    expect(suite.front.requests.filter(isGetBucketLogging)).toHaveLength(1);
  });

  it('passes every logging control on an account set up as CIS asks', async () => {
    const { customer, target, regions } = await connectedCustomer();
    const { KeyMetadata } = await client(new KMSClient(customerConfig(customer))).send(
      new CreateKeyCommand({ Description: 'trail logs' }),
    );
    const { bucket, s3, cloudtrail } = await trail(customer, { validation: true, kmsKeyId: KeyMetadata?.Arn });
    const accessLogs = uniqueName('access-logs');
    await s3.send(new CreateBucketCommand({ Bucket: accessLogs }));
    const logDelivery = 'uri="http://acs.amazonaws.com/groups/s3/LogDelivery"';
    await s3.send(new PutBucketAclCommand({ Bucket: accessLogs, GrantWrite: logDelivery, GrantReadACP: logDelivery }));
    await s3.send(
      new PutBucketLoggingCommand({
        Bucket: bucket,
        BucketLoggingStatus: { LoggingEnabled: { TargetBucket: accessLogs, TargetPrefix: `${bucket}/` } },
      }),
    );
    await cloudtrail.send(
      new PutEventSelectorsCommand({
        TrailName: 'everywhere',
        AdvancedEventSelectors: [
          { Name: 'Management events', FieldSelectors: [{ Field: 'eventCategory', Equals: ['Management'] }] },
          {
            Name: 'S3 objects',
            FieldSelectors: [
              { Field: 'eventCategory', Equals: ['Data'] },
              { Field: 'resources.type', Equals: ['AWS::S3::Object'] },
            ],
          },
        ],
      }),
    );
    await Promise.all(
      regions.map(async (region) => {
        const config = client(new ConfigServiceClient(customerConfig(customer, region)));
        await config.send(
          new PutConfigurationRecorderCommand({
            ConfigurationRecorder: {
              name: 'default',
              roleARN: `arn:aws:iam::${customer.accountId}:role/config`,
              // Every supported type, the global ones in one region (CIS 4.3).
              recordingGroup: { allSupported: true, includeGlobalResourceTypes: region === REGION },
            },
          }),
        );
        await config.send(
          new PutDeliveryChannelCommand({ DeliveryChannel: { name: 'default', s3BucketName: bucket } }),
        );
        await config.send(new StartConfigurationRecorderCommand({ ConfigurationRecorderName: 'default' }));
        await client(new SecurityHubClient(customerConfig(customer, region))).send(new EnableSecurityHubCommand({}));
      }),
    );
    await createSentinelRole({ customer, externalId: target.externalId });
    suite.front.answer = withAnalyzers;

    const inventory = await suite.provider.collectInventory(target);

    expect(ok(inventory.cloudtrail).trails).toMatchObject([
      {
        logFileValidation: true,
        kmsKeyId: KeyMetadata?.Arn,
        bucketLogging: { read: true, enabled: true },
        events: { management: { read: true, write: true }, s3Objects: { read: true, write: true } },
      },
    ]);
    expect(ok(inventory.configRecorders).regions[0]?.recorders).toEqual([
      {
        name: 'default',
        recording: true,
        lastStatus: expect.any(String),
        allSupported: true,
        includeGlobalResourceTypes: regions[0] === REGION,
      },
    ]);
    expect(Object.values(outcomes(inventory)).every((o) => o === 'pass')).toBe(true);
  });

  it('leaves unread, never failed, a trail bucket of another account, and a region where Security Hub is refused', async () => {
    const { customer, target } = await connectedCustomer();
    const { bucket } = await trail(customer);
    await createSentinelRole({ customer, externalId: target.externalId });
    // An organization trail's log archive bucket, which AWS shows the member account only as AccessDenied, and a
    // region-deny SCP on Security Hub in eu-west-2 (moto enforces neither).
    suite.front.answer = (request) => {
      if (isGetBucketLogging(request) && request.path.startsWith(`/${bucket}`)) return accessDenied(request);
      if (request.service === 'securityhub' && request.region === 'eu-west-2') return accessDenied(request);
      return motoGaps(request);
    };

    const inventory = await suite.provider.collectInventory(target);

    expect(ok(inventory.cloudtrail).trails[0]?.bucketLogging).toEqual({
      read: false,
      reason: expect.stringMatching(/^AWS denied Sentinel's role S3 GetBucketLogging \(AccessDenied\)/),
    });
    const bucketCheck = checkById('detection.trail_bucket_logging_off')!.evaluate(inventory, {
      now: inventory.collectedAt,
    });
    expect(bucketCheck).toEqual({
      status: 'pass',
      unread: [{ kind: 'resource', scope: bucket, reason: expect.any(String) }],
    });
    expect(inventory.securityHub.unread).toEqual([
      {
        kind: 'region',
        scope: 'eu-west-2',
        reason: expect.stringMatching(/^AWS denied Sentinel's role Security Hub DescribeHub \(AccessDenied\)/),
      },
    ]);
    expect(ok(inventory.securityHub).regions.map((r) => r.region)).not.toContain('eu-west-2');
    expect(outcomes(inventory)['detection.security_hub_off']).not.toContain('securityhub@eu-west-2');
  });
});
