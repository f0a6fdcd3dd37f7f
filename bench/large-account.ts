import { setTimeout as sleep } from 'node:timers/promises';
import {
  AuthorizeSecurityGroupIngressCommand,
  CreateSecurityGroupCommand,
  DescribeRegionsCommand,
  EC2Client,
} from '@aws-sdk/client-ec2';
import {
  AttachRolePolicyCommand,
  AttachUserPolicyCommand,
  CreateAccessKeyCommand,
  CreateRoleCommand,
  CreateUserCommand,
  IAMClient,
} from '@aws-sdk/client-iam';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { AssumeRoleCommand, STSClient } from '@aws-sdk/client-sts';
import { MANAGED_POLICIES, ROLE_NAME, trustPolicy } from '../domain/onboarding/role';
import { freePort } from '../scripts/services';
import { type AwsFront, motoDifferences, motoGaps, startAwsFront } from '../test/helpers/aws';
import { type MotoServer, startMoto, stopMoto } from '../test/setup/moto';
import { inFlight } from './accounts';
import { type BenchEnvironment, tenantAuth } from './environment';
import {
  callsByService,
  callsTable,
  type LargeAccountSize,
  minimumCalls,
  type ServiceCalls,
} from './large-account-calls';
import { isCodeDownload, packageAtFront, seedServices, servePackage } from './large-account-services';
import { sampleResident, sampleV8, type V8Memory } from './processes';

export type { LargeAccountSize, ServiceCalls };

// One large AWS account, seeded in moto (the AWS emulator the tests use), connected and scanned twice through the
// real API and worker processes with the AWS provider. The service's calls go through the tests' front to moto,
// which fills moto's gaps and records every request: calls per service, next to the fewest the checks need.

export interface LargeAccountScan {
  seconds: number;
  calls: ServiceCalls[];
  /** Requests to Cost Explorer, which AWS bills to the customer. */
  costExplorer: number;
  /** Code packages downloaded from the presigned URLs GetFunction hands out: S3 downloads, not API calls. */
  codeDownloads: number;
  coverage: { evaluated: number; total: number };
}

export interface LargeAccountResult {
  size: LargeAccountSize & { regions: number };
  seedSeconds: number;
  scans: LargeAccountScan[];
  /** Worker RSS in bytes: before the first scan, and the peak during the scans. */
  rss: { before: number; peak: number };
  /** The most the worker's main-thread V8 held during the scans (where the scan's activity runs). */
  v8?: V8Memory;
}

const SENTINEL_ACCOUNT = '123456789012';
const CUSTOMER_ACCOUNT = '210000000001';
const REGION = 'us-east-1';
const SEED_CONCURRENCY = 16;
const credentials = { accessKeyId: 'testing', secretAccessKey: 'testing' };

/** What the customer's administrator needs to seed the account: credentials that act in it. */
async function customerCredentials(endpoint: string) {
  const sts = new STSClient({ region: REGION, endpoint, credentials });
  const { Credentials: c } = await sts.send(
    new AssumeRoleCommand({ RoleArn: `arn:aws:iam::${CUSTOMER_ACCOUNT}:role/admin`, RoleSessionName: 'seed' }),
  );
  sts.destroy();
  return {
    accessKeyId: c?.AccessKeyId as string,
    secretAccessKey: c?.SecretAccessKey as string,
    sessionToken: c?.SessionToken as string,
  };
}

async function seed(endpoint: string, size: LargeAccountSize): Promise<string[]> {
  const config = { region: REGION, endpoint, credentials: await customerCredentials(endpoint) };
  const ec2 = new EC2Client(config);
  const { Regions = [] } = await ec2.send(new DescribeRegionsCommand({ AllRegions: true }));
  const regions = Regions.filter((r) => r.OptInStatus !== 'not-opted-in')
    .flatMap((r) => (r.RegionName ? [r.RegionName] : []))
    .sort();
  const iam = new IAMClient(config);
  const s3 = new S3Client({ ...config, forcePathStyle: true });
  const ec2In = new Map(regions.map((region) => [region, new EC2Client({ ...config, region })]));

  // Users: every other one with an access key, every twentieth an administrator.
  await inFlight(
    Array.from({ length: size.users }, (_, i) => i),
    SEED_CONCURRENCY,
    async (i) => {
      const UserName = `user-${String(i).padStart(4, '0')}`;
      await iam.send(new CreateUserCommand({ UserName }));
      if (i % 2 === 0) await iam.send(new CreateAccessKeyCommand({ UserName }));
      if (i % 20 === 0)
        await iam.send(
          new AttachUserPolicyCommand({ UserName, PolicyArn: 'arn:aws:iam::aws:policy/AdministratorAccess' }),
        );
    },
  );
  // Buckets in a few regions; one in a hundred public.
  const bucketRegions = regions.slice(0, 4);
  await inFlight(
    Array.from({ length: size.buckets }, (_, i) => i),
    SEED_CONCURRENCY,
    async (i) => {
      const region = bucketRegions[i % bucketRegions.length] as string;
      await s3.send(
        new CreateBucketCommand({
          Bucket: `bench-${CUSTOMER_ACCOUNT}-${i}`,
          ACL: i % 100 === 0 ? 'public-read' : undefined,
          CreateBucketConfiguration: region === REGION ? undefined : { LocationConstraint: region as never },
        }),
      );
    },
  );
  // Security groups spread over every region; one in a hundred with SSH open to the internet.
  await inFlight(
    Array.from({ length: size.securityGroups }, (_, i) => i),
    SEED_CONCURRENCY,
    async (i) => {
      const client = ec2In.get(regions[i % regions.length] as string) as EC2Client;
      const { GroupId } = await client.send(
        new CreateSecurityGroupCommand({ GroupName: `sg-${i}`, Description: 'bench' }),
      );
      if (i % 100 === 0) {
        await client.send(
          new AuthorizeSecurityGroupIngressCommand({
            GroupId,
            IpPermissions: [{ IpProtocol: 'tcp', FromPort: 22, ToPort: 22, IpRanges: [{ CidrIp: '0.0.0.0/0' }] }],
          }),
        );
      }
    },
  );
  for (const client of [ec2, iam, s3, ...ec2In.values()]) client.destroy();
  await seedServices({ config, accountId: CUSTOMER_ACCOUNT, regions, sizes: size, concurrency: SEED_CONCURRENCY });
  return regions;
}

/** Creates Sentinel's role in the customer's account, as the connect response's snippet does. */
async function createRole(endpoint: string, externalId: string): Promise<void> {
  const iam = new IAMClient({ region: REGION, endpoint, credentials: await customerCredentials(endpoint) });
  await iam.send(
    new CreateRoleCommand({
      RoleName: ROLE_NAME,
      AssumeRolePolicyDocument: JSON.stringify(trustPolicy({ sentinelAccountId: SENTINEL_ACCOUNT, externalId })),
    }),
  );
  for (const arn of MANAGED_POLICIES)
    await iam.send(new AttachRolePolicyCommand({ RoleName: ROLE_NAME, PolicyArn: arn }));
  iam.destroy();
}

/**
 * The first scan's calls by service with the checks of 2026-11-24, before the CIS AWS Foundations collectors (the
 * run in BENCHMARKS.md of that day, on this same account): what the new collectors added.
 */
export const CALLS_BEFORE_CIS: Readonly<Record<string, number>> = {
  ec2: 97,
  cloudtrail: 24,
  guardduty: 24,
  iam: 505,
  s3: 8001,
  s3control: 1,
  ce: 2,
  budgets: 1,
  account: 3,
  health: 1,
};

async function waitForScan(env: BenchEnvironment, scanId: string): Promise<void> {
  for (;;) {
    const row = await env.db
      .selectFrom('scans')
      .select(['status', 'failure_reason'])
      .where('id', '=', scanId)
      .executeTakeFirst();
    if (row && row.status !== 'running') {
      if (row.status !== 'succeeded') throw new Error(`scan ${scanId} ended ${row.status}: ${row.failure_reason}`);
      return;
    }
    await sleep(250);
  }
}

export async function benchLargeAccount(env: BenchEnvironment, size: LargeAccountSize): Promise<LargeAccountResult> {
  let moto: MotoServer | undefined;
  let front: AwsFront | undefined;
  try {
    moto = await startMoto(await freePort());
    // Every request of a scan is counted: a large account's scan makes more than the tests' front keeps by default.
    front = await startAwsFront({ upstream: moto.endpoint, keep: Number.POSITIVE_INFINITY });
    const at = front.endpoint;
    front.answer = (request) => servePackage(request) ?? motoGaps(request);
    front.rewrite = (request, answer) => packageAtFront(at, request, answer) ?? motoDifferences(request, answer);
    const seedStarted = Date.now();
    const regions = await seed(moto.endpoint, size);
    const seedSeconds = (Date.now() - seedStarted) / 1000;
    console.log(
      `  seeded ${size.users} users, ${size.buckets} buckets, ${size.securityGroups} security groups, ${size.functions} functions, ` +
        `${size.queues} queues, ${size.topics} topics, ${size.snapshots} snapshots, ${size.secrets} secrets, ` +
        `${size.repositories} repositories, ${size.documents} documents, ${size.keys} keys in ${regions.length} regions ` +
        `(${seedSeconds.toFixed(0)} s)`,
    );

    const services = await env.startServices({
      taskQueue: 'bench-large-account',
      poolMax: 10,
      env: {
        CLOUD_PROVIDER: 'aws',
        AWS_ENDPOINT_URL: front.endpoint,
        AWS_ACCESS_KEY_ID: credentials.accessKeyId,
        AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
        AWS_REGION: REGION,
        SENTINEL_AWS_ACCOUNT_ID: SENTINEL_ACCOUNT,
      },
    });
    const rss = sampleResident(services.worker.pid);
    const v8 = sampleV8(services.worker.metricsUrl);
    try {
      const auth = await tenantAuth(services.url, 'large-account@bench.example');
      const post = async (route: string, body?: object) => {
        const res = await fetch(`${services.url}${route}`, {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body: body ? JSON.stringify(body) : undefined,
        });
        if (!res.ok) throw new Error(`POST ${route} answered ${res.status}: ${await res.text()}`);
        return res.json() as Promise<Record<string, string>>;
      };
      const connected = await post('/accounts', { aws_account_id: CUSTOMER_ACCOUNT });
      await createRole(moto.endpoint, connected.external_id as string);
      const before = rss.now();
      rss.window();
      await v8.window();

      const scans: LargeAccountScan[] = [];
      for (const first of [true, false]) {
        front.requests.length = 0;
        const started = Date.now();
        const answer = first
          ? await post(`/accounts/${CUSTOMER_ACCOUNT}/verify`)
          : await post(`/accounts/${CUSTOMER_ACCOUNT}/scan`);
        const scanId = (answer.first_scan_execution_arn ?? answer.execution_arn)?.split('/').pop() as string;
        await waitForScan(env, scanId);
        const seconds = (Date.now() - started) / 1000;
        // The role's calls: everything but Sentinel's own STS calls, verification's look at the role's trust policy,
        // and the code packages' downloads (presigned S3 URLs, not calls of the role).
        const made = front.requests.filter(
          (r) => r.service !== 'sts' && !(r.service === 'iam' && r.operation === 'GetRole') && !isCodeDownload(r),
        );
        const minimum = minimumCalls({ regions: regions.length, size }, first);
        const calls = callsByService(made, minimum);
        const account = await env.db
          .selectFrom('accounts')
          .select(['coverage_evaluated', 'coverage_total'])
          .where('aws_account_id', '=', CUSTOMER_ACCOUNT)
          .executeTakeFirstOrThrow();
        scans.push({
          seconds,
          calls,
          costExplorer: calls.find((c) => c.service === 'ce')?.calls ?? 0,
          codeDownloads: front.requests.filter(isCodeDownload).length,
          coverage: { evaluated: account.coverage_evaluated ?? 0, total: account.coverage_total ?? 0 },
        });
        console.log(`  large account scan ${scans.length}: ${seconds.toFixed(1)} s, ${made.length} calls`);
        console.log(callsTable(calls));
      }
      return {
        size: { ...size, regions: regions.length },
        seedSeconds,
        scans,
        rss: { before, peak: Math.max(before, ...rss.window()) },
        v8: await v8.window(),
      };
    } finally {
      rss.stop();
      v8.stop();
      await services.stop();
    }
  } finally {
    await front?.close();
    if (moto) await stopMoto(moto);
  }
}
