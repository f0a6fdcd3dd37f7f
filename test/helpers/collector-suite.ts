import { createAwsProvider } from '../../cloud/aws/provider';
import type { CloudProvider } from '../../cloud/types';
import { createLogger } from '../../config/logger';
import type { Collected } from '../../domain/scans/inventory';
import { DescribeRegionsCommand, EC2Client } from '@aws-sdk/client-ec2';
import { ROLE_NAME, type RoleTarget } from '../../domain/onboarding/role';
import {
  type AwsFront,
  type CustomerAccount,
  customerAccount,
  customerConfig,
  MOTO_ACCOUNT_ID,
  motoDifferences,
  type AwsRequest,
  type CannedAnswer,
  motoGaps,
  randomExternalId,
  REGION,
  startAwsFront,
  TEST_CREDENTIALS,
} from './aws';
import { expectGrantedByRole } from './role-grants';

// What the suites that collect from moto share: a front to moto (test/helpers/aws.ts) and an AWS provider through
// it, started before the suite's tests and closed after them, the front reset to moto's gaps before each test;
// and the SDK clients the tests seed accounts with, destroyed with the suite. After each test, every call Sentinel's
// role made through the front must be one the role's policies allow (test/helpers/role-grants.ts): a collector that
// calls what the role is not granted fails the test that made the call.

export interface CollectorSuite {
  readonly front: AwsFront;
  readonly provider: CloudProvider;
  /** Registers an SDK client to destroy after the suite. */
  client<C extends { destroy(): void }>(client: C): C;
  /** A new customer account of moto, the role target Sentinel reads it through, and the regions a collection reads. */
  connectedCustomer(): Promise<{ customer: CustomerAccount; target: RoleTarget; regions: string[] }>;
}

/**
 * The regions a suite's customers have enabled, unless it names others: every regional part is read in each, so
 * fewer than moto's 34 keep a collection short. A region outside them is what a customer has not opted in to.
 */
export const SUITE_REGIONS: readonly string[] = ['eu-west-1', 'eu-west-2', 'us-east-1', 'us-west-2'];

/**
 * Call in a `describe`: registers the hooks and answers the suite's front and provider once they are started. The
 * front answers DescribeRegions with `regions` alone.
 */
export function useCollectorSuite({
  regions: enabled = SUITE_REGIONS,
}: {
  regions?: readonly string[];
} = {}): CollectorSuite {
  const clients: { destroy(): void }[] = [];
  let front: AwsFront | undefined;
  let provider: CloudProvider | undefined;
  const client = <C extends { destroy(): void }>(sdkClient: C): C => {
    clients.push(sdkClient);
    return sdkClient;
  };
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the collector suite is not started: use it inside a test');
    return value;
  };
  beforeAll(async () => {
    front = await startAwsFront();
    front.enabledRegions = enabled;
    provider = createAwsProvider({
      region: REGION,
      endpointUrl: front.endpoint,
      sentinelAccountId: MOTO_ACCOUNT_ID,
      credentials: TEST_CREDENTIALS,
      log: createLogger({ level: 'silent', name: 'test' }),
      maxAttempts: 2,
    });
  });
  beforeEach(() => {
    const f = started(front);
    f.answer = motoGaps;
    f.rewrite = motoDifferences;
    f.delay = () => 0;
    f.requests.length = 0;
  });
  afterEach(async () => {
    if (front) await expectGrantedByRole(front.requests);
  });
  afterAll(async () => {
    for (const c of clients.splice(0)) c.destroy();
    await front?.close();
  });
  return {
    get front() {
      return started(front);
    },
    get provider() {
      return started(provider);
    },
    client,
    connectedCustomer: async () => {
      const customer = await customerAccount();
      const target = {
        tenantId: 'tnt_test',
        awsAccountId: customer.accountId,
        roleName: ROLE_NAME,
        externalId: randomExternalId(),
      };
      // The regions the collection reads (cloud/aws/collectors/regions.ts): moto's, as the front narrows them.
      const { Regions = [] } = await client(new EC2Client(customerConfig(customer))).send(
        new DescribeRegionsCommand({ AllRegions: true }),
      );
      const regions = Regions.filter((r) => r.OptInStatus === 'opt-in-not-required' || r.OptInStatus === 'opted-in')
        .flatMap((r) => (r.RegionName && enabled.includes(r.RegionName) ? [r.RegionName] : []))
        .sort();
      return { customer, target, regions };
    },
  };
}

/** A part's value; throws with the reason when it was not evaluated. */
export function ok<T>(part: Collected<T>): T {
  if (part.status !== 'ok') throw new Error(`not evaluated: ${part.reason}`);
  return part.value;
}

/** A name no other test uses (bucket names are global in moto, as in AWS). */
export const uniqueName = (prefix: string) =>
  `${prefix}-${randomExternalId()
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '')
    .slice(0, 12)}`;

const PAGE_TOKEN = 'front-page-2';

/**
 * Splits moto's answer to the list calls `is` picks into two pages, as AWS does past its page size: the first item,
 * then the rest behind a token the front answers itself. moto returns up to 100 items a page.
 */
export function inTwoPages(
  suite: CollectorSuite,
  {
    is,
    items,
    token,
    rewrite = motoDifferences,
  }: {
    is: (request: AwsRequest) => boolean;
    items: string;
    token: string;
    rewrite?: (request: AwsRequest, answer: CannedAnswer) => CannedAnswer | undefined;
  },
): void {
  const rest = new Map<string, unknown[]>();
  const second = (request: AwsRequest) => request.query.includes(PAGE_TOKEN) || request.body.includes(PAGE_TOKEN);
  suite.front.rewrite = (request, answer) => {
    if (!is(request) || answer.status !== 200) return rewrite(request, answer);
    const rewritten = rewrite(request, answer) ?? answer;
    const body = JSON.parse(rewritten.body) as Record<string, unknown[]>;
    const all = body[items] ?? [];
    if (all.length < 2) return rewritten;
    rest.set(request.region, all.slice(1));
    return { ...rewritten, body: JSON.stringify({ ...body, [items]: all.slice(0, 1), [token]: PAGE_TOKEN }) };
  };
  suite.front.answer = (request) =>
    is(request) && second(request)
      ? { status: 200, contentType: 'application/json', body: JSON.stringify({ [items]: rest.get(request.region) }) }
      : motoGaps(request);
}
