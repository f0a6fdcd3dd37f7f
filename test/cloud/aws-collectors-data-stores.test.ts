import { CreateFileSystemCommand, EFSClient } from '@aws-sdk/client-efs';
import { CreateKeyCommand, DisableKeyCommand, EnableKeyRotationCommand, KMSClient } from '@aws-sdk/client-kms';
import { CreateDBInstanceCommand, RDSClient } from '@aws-sdk/client-rds';
import { CreateBucketCommand, PutBucketPolicyCommand, S3Client } from '@aws-sdk/client-s3';
import { checkById } from '../../domain/checks/catalog';
import type { Inventory } from '../../domain/scans/inventory';
import { ROLE_NAME, type RoleTarget } from '../../domain/onboarding/role';
import {
  accessDenied,
  createSentinelRole,
  customerAccount,
  type CustomerAccount,
  customerConfig,
  jsonError,
  motoGaps,
  queryError,
  randomExternalId,
  REGION,
} from '../helpers/aws';
import { ok, uniqueName, useCollectorSuite } from '../helpers/collector-suite';

// The data-store parts (bucket policies' TLS denial, RDS instances, EFS file systems, KMS keys) against moto: each
// test seeds a customer account through the SDK, connects it with the real CLI script, and collects through the
// front (test/helpers/aws.ts), which can refuse calls as a key policy or an SCP would.

const OTHER_REGION = 'eu-west-1';
const DATA_STORE_CHECKS = [
  'exposure.s3_bucket_allows_http',
  'exposure.rds_public',
  'exposure.rds_unencrypted',
  'exposure.rds_minor_upgrades_off',
  'exposure.efs_unencrypted',
  'detection.kms_rotation_off',
];

/** Each data-store check's outcome: 'pass', 'not_evaluated', or its failing resources as `resource@region`. */
function outcomes(inventory: Inventory): Record<string, string | string[]> {
  return Object.fromEntries(
    DATA_STORE_CHECKS.map((id) => {
      const result = checkById(id)!.evaluate(inventory, { now: inventory.collectedAt });
      return [
        id,
        result.status === 'fail' ? result.resources.map((r) => `${r.resource}@${r.region}`).sort() : result.status,
      ];
    }),
  );
}

/** A bucket policy that refuses every request made without TLS, as the S3 documentation writes it. */
const tlsOnly = (bucket: string) =>
  JSON.stringify({
    Version: '2012-10-17',
    Statement: [
      {
        Sid: 'DenyInsecureTransport',
        Effect: 'Deny',
        Principal: '*',
        Action: 's3:*',
        Resource: [`arn:aws:s3:::${bucket}`, `arn:aws:s3:::${bucket}/*`],
        Condition: { Bool: { 'aws:SecureTransport': 'false' } },
      },
    ],
  });

describe('AWS data store collection against moto', () => {
  const suite = useCollectorSuite();
  const { client } = suite;

  async function connectedCustomer(): Promise<{ customer: CustomerAccount; target: RoleTarget }> {
    const customer = await customerAccount();
    const target = {
      tenantId: 'tnt_test',
      awsAccountId: customer.accountId,
      roleName: ROLE_NAME,
      externalId: randomExternalId(),
    };
    return { customer, target };
  }

  const database = (
    customer: CustomerAccount,
    region: string,
    id: string,
    settings: {
      encrypted: boolean;
      minorUpgrades: boolean;
      publiclyAccessible: boolean;
      multiAz: boolean;
      engine?: string;
    },
  ) =>
    client(new RDSClient(customerConfig(customer, region))).send(
      new CreateDBInstanceCommand({
        DBInstanceIdentifier: id,
        DBInstanceClass: 'db.t3.micro',
        Engine: settings.engine ?? 'postgres',
        AllocatedStorage: 20,
        MasterUsername: 'app',
        MasterUserPassword: 'Correct-Horse-9',
        StorageEncrypted: settings.encrypted,
        AutoMinorVersionUpgrade: settings.minorUpgrades,
        PubliclyAccessible: settings.publiclyAccessible,
        MultiAZ: settings.multiAz,
      }),
    );

  const fileSystem = async (customer: CustomerAccount, region: string, name: string, encrypted: boolean) => {
    const created = await client(new EFSClient(customerConfig(customer, region))).send(
      new CreateFileSystemCommand({
        CreationToken: uniqueName(name),
        Encrypted: encrypted,
        Tags: [{ Key: 'Name', Value: name }],
      }),
    );
    return created.FileSystemId as string;
  };

  const key = async (
    customer: CustomerAccount,
    region: string,
    setup: { rotation?: boolean; disabled?: boolean; spec?: 'RSA_2048' } = {},
  ) => {
    const kms = client(new KMSClient(customerConfig(customer, region)));
    const { KeyMetadata } = await kms.send(
      new CreateKeyCommand({ KeySpec: setup.spec, KeyUsage: setup.spec ? 'SIGN_VERIFY' : undefined }),
    );
    const id = KeyMetadata?.KeyId as string;
    if (setup.rotation) await kms.send(new EnableKeyRotationCommand({ KeyId: id }));
    if (setup.disabled) await kms.send(new DisableKeyCommand({ KeyId: id }));
    return { id, arn: KeyMetadata?.Arn as string };
  };

  it('finds a bucket that takes HTTP, an open, unencrypted, unpatched database, an unencrypted file system and a key that never rotates', async () => {
    const { customer, target } = await connectedCustomer();
    const s3 = client(new S3Client({ ...customerConfig(customer), forcePathStyle: true }));
    const [plain, tls] = [uniqueName('plain'), uniqueName('tls')];
    await s3.send(new CreateBucketCommand({ Bucket: plain }));
    await s3.send(new CreateBucketCommand({ Bucket: tls }));
    await s3.send(new PutBucketPolicyCommand({ Bucket: tls, Policy: tlsOnly(tls) }));
    await database(customer, REGION, 'legacy-db', {
      encrypted: false,
      minorUpgrades: false,
      publiclyAccessible: true,
      multiAz: false,
    });
    await database(customer, OTHER_REGION, 'orders-db', {
      encrypted: true,
      minorUpgrades: true,
      publiclyAccessible: false,
      multiAz: true,
    });
    const scratch = await fileSystem(customer, OTHER_REGION, 'scratch', false);
    await fileSystem(customer, REGION, 'uploads', true);
    const stale = await key(customer, REGION);
    const rotating = await key(customer, OTHER_REGION, { rotation: true });
    // Out of scope: a disabled key (nothing is encrypted with it any more) and an asymmetric one (it cannot rotate).
    await key(customer, REGION, { disabled: true });
    await key(customer, REGION, { spec: 'RSA_2048' });
    await createSentinelRole({ customer, externalId: target.externalId });

    const inventory = await suite.provider.collectInventory(target);

    expect(
      ok(inventory.s3Buckets)
        .buckets.map((b) => [b.name, b.deniesInsecureTransport])
        .sort(),
    ).toEqual(
      [
        [plain, false],
        [tls, true],
      ].sort(),
    );
    expect(ok(inventory.rdsInstances).instances.sort((a, b) => a.id.localeCompare(b.id))).toEqual([
      {
        id: 'legacy-db',
        region: REGION,
        engine: 'postgres',
        storageEncrypted: false,
        autoMinorVersionUpgrade: false,
        publiclyAccessible: true,
        multiAz: false,
        // moto reports neither the default subnet group's VPC nor the certificate's validity, which AWS reports.
        vpcId: null,
        certificateValidTill: null,
        arn: `arn:aws:rds:${REGION}:${customer.accountId}:db:legacy-db`,
        engineVersion: expect.any(String),
        clusterId: null,
        // moto's default parameter group leaves rds.force_ssl unset; RDS offers moto's default version.
        tlsEnforced: false,
        engineVersionOffered: true,
      },
      {
        id: 'orders-db',
        region: OTHER_REGION,
        engine: 'postgres',
        storageEncrypted: true,
        autoMinorVersionUpgrade: true,
        publiclyAccessible: false,
        multiAz: true,
        vpcId: null,
        certificateValidTill: null,
        arn: `arn:aws:rds:${OTHER_REGION}:${customer.accountId}:db:orders-db`,
        engineVersion: expect.any(String),
        clusterId: null,
        tlsEnforced: false,
        engineVersionOffered: true,
      },
    ]);
    expect(ok(inventory.efsFileSystems).fileSystems.filter((fs) => !fs.encrypted)).toEqual([
      { id: scratch, region: OTHER_REGION, name: 'scratch', encrypted: false },
    ]);
    expect(ok(inventory.kmsKeys).keys.sort((a, b) => a.region.localeCompare(b.region))).toEqual([
      { id: rotating.id, arn: rotating.arn, region: OTHER_REGION, rotationEnabled: true },
      { id: stale.id, arn: stale.arn, region: REGION, rotationEnabled: false },
    ]);
    expect(outcomes(inventory)).toEqual({
      'exposure.s3_bucket_allows_http': [`${plain}@${REGION}`],
      'exposure.rds_public': [`legacy-db@${REGION}`],
      'exposure.rds_unencrypted': [`legacy-db@${REGION}`],
      'exposure.rds_minor_upgrades_off': [`legacy-db@${REGION}`],
      'exposure.efs_unencrypted': [`${scratch}@${OTHER_REGION}`],
      'detection.kms_rotation_off': [`${stale.arn}@${REGION}`],
    });
    // The rotation status is asked only of the keys in scope; every bucket's policy is read once. Each region's keys
    // are listed, and each key described, once for both the rotation part and the key policy part.
    const kmsCalls = (operation: string) =>
      suite.front.requests.filter((r) => r.service === 'kms' && r.operation === operation).length;
    expect([kmsCalls('ListKeys'), kmsCalls('DescribeKey'), kmsCalls('GetKeyRotationStatus')]).toEqual([
      inventory.regions.enabled.length,
      4,
      2,
    ]);
    expect(
      suite.front.requests.filter((r) => r.service === 's3' && r.method === 'GET' && /(^|&)policy(=|&|$)/.test(r.query))
        .length,
    ).toBe(2);
  });

  it('passes a clean account: TLS-only buckets, private encrypted databases, encrypted file systems, rotating keys', async () => {
    const { customer, target } = await connectedCustomer();
    const s3 = client(new S3Client({ ...customerConfig(customer), forcePathStyle: true }));
    const bucket = uniqueName('tls');
    await s3.send(new CreateBucketCommand({ Bucket: bucket }));
    await s3.send(new PutBucketPolicyCommand({ Bucket: bucket, Policy: tlsOnly(bucket) }));
    // Single-AZ is CIS 3.2.4, a manual control: no check fails on it.
    await database(customer, REGION, 'app-db', {
      encrypted: true,
      minorUpgrades: true,
      publiclyAccessible: false,
      multiAz: false,
    });
    await fileSystem(customer, REGION, 'uploads', true);
    await key(customer, REGION, { rotation: true });
    await createSentinelRole({ customer, externalId: target.externalId });

    const inventory = await suite.provider.collectInventory(target);

    expect(Object.values(outcomes(inventory))).toEqual(DATA_STORE_CHECKS.map(() => 'pass'));
    expect([inventory.rdsInstances.unread, inventory.efsFileSystems.unread, inventory.kmsKeys.unread]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('leaves unread a key its policy hides and a region an SCP denies, skips a key deleted meanwhile, and reads the rest', async () => {
    const { customer, target } = await connectedCustomer();
    const hidden = await key(customer, REGION);
    const deleted = await key(customer, REGION);
    const stale = await key(customer, REGION);
    await database(customer, 'eu-west-2', 'hidden-db', {
      encrypted: false,
      minorUpgrades: true,
      publiclyAccessible: false,
      multiAz: false,
    });
    await createSentinelRole({ customer, externalId: target.externalId });
    suite.front.answer = (request) => {
      if (request.service === 'kms' && request.body.includes(hidden.id) && request.operation === 'GetKeyRotationStatus')
        return accessDenied(request);
      if (request.service === 'kms' && request.body.includes(deleted.id)) {
        return jsonError(400, 'NotFoundException', `Key '${deleted.arn}' does not exist`);
      }
      // RDS speaks the query protocol: its refusal is an XML error.
      if (request.service === 'rds' && request.region === 'eu-west-2') {
        return queryError({
          service: 'rds',
          status: 403,
          code: 'AccessDenied',
          message: 'explicit deny in a service control policy',
        });
      }
      return motoGaps(request);
    };

    const inventory = await suite.provider.collectInventory(target);

    expect(inventory.kmsKeys).toEqual({
      status: 'ok',
      value: { keys: [{ id: stale.id, arn: stale.arn, region: REGION, rotationEnabled: false }] },
      unread: [
        {
          kind: 'resource',
          scope: hidden.arn,
          reason: expect.stringMatching(/^AWS denied Sentinel's role KMS GetKeyRotationStatus \(AccessDenied\)/),
        },
      ],
    });
    expect(ok(inventory.rdsInstances).instances).toEqual([]);
    expect(inventory.rdsInstances.unread).toEqual([
      {
        kind: 'region',
        scope: 'eu-west-2',
        reason: expect.stringMatching(/^AWS denied Sentinel's role RDS DescribeDBInstances \(AccessDenied\)/),
      },
    ]);
    const rotation = checkById('detection.kms_rotation_off')!.evaluate(inventory, { now: inventory.collectedAt });
    expect(rotation).toMatchObject({
      status: 'fail',
      resources: [{ resource: stale.arn }],
      unread: [{ scope: hidden.arn }],
    });
  });
});
