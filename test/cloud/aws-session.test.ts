import { ListQueuesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { openSession, type Session } from '../../cloud/aws/collectors/session';
import { TEST_CREDENTIALS } from '../helpers/aws';
import { type HttpPeer, startHttpPeer } from '../helpers/http-peer';

// How many requests one collection holds open: a slot of the service in its region (4 for SQS), then one of the
// collection's. The peer is a loopback HTTP server that answers SQS's ListQueues a little later and counts the
// requests it holds at once.

describe('a collection session', () => {
  let peer: HttpPeer;
  let open = 0;
  let peak = 0;
  beforeAll(async () => {
    peer = await startHttpPeer(async () => {
      open += 1;
      peak = Math.max(peak, open);
      await new Promise((resolve) => setTimeout(resolve, 100));
      open -= 1;
      return { status: 200, body: { QueueUrls: [] }, headers: { 'content-type': 'application/x-amz-json-1.0' } };
    });
  });
  afterAll(() => peer.close());
  beforeEach(() => {
    peak = 0;
  });

  const sessionWith = (maxConcurrentCalls?: number): Session =>
    openSession({
      credentials: async () => TEST_CREDENTIALS,
      endpointUrl: peer.url,
      accountId: '111122223333',
      roleName: 'SentinelRole',
      maxAttempts: 1,
      ...(maxConcurrentCalls ? { maxConcurrentCalls } : {}),
    });

  /** `perRegion` ListQueues calls in each of `regions` regions, all at once. */
  async function listEverywhere(session: Session, regions: number, perRegion: number) {
    const clients = Array.from({ length: regions }, (_, i) =>
      session.client((config) => new SQSClient(config), `test-region-${i + 1}`),
    );
    try {
      const answers = await Promise.all(
        clients.flatMap((client) => Array.from({ length: perRegion }, () => client.send(new ListQueuesCommand({})))),
      );
      return answers.length;
    } finally {
      session.close();
    }
  }

  it('holds no more requests open than its bound, across every region, and answers them all', async () => {
    const before = peer.requests.length;
    // Ten regions of four slots each would hold 40 at once.
    await expect(listEverywhere(sessionWith(8), 10, 8)).resolves.toBe(80);
    expect(peer.requests.length - before).toBe(80);
    expect(peak).toBeLessThanOrEqual(8);
    // More than one region's four slots: the collection's bound is what held them back.
    expect(peak).toBeGreaterThan(4);
  });

  it('holds a service to its slots in one region, under the default bound of the collection', async () => {
    await expect(listEverywhere(sessionWith(), 1, 20)).resolves.toBe(20);
    expect(peak).toBeLessThanOrEqual(4);
    expect(peak).toBeGreaterThan(1);
  });
});
