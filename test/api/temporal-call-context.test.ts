import { Connection } from '@temporalio/client';
import { releaseCallContextWhenIdle } from '../../core/temporal/call-context';

// The Temporal client's call context is an AsyncLocalStorage; while one is enabled, Node 20 runs a hook for every
// promise the process creates. `enabled` is Node's own field on the storage.
const enabled = (connection: Connection) => (connection.callContextStorage as unknown as { enabled: boolean }).enabled;

const address = process.env.TEST_TEMPORAL_ADDRESS ?? '127.0.0.1:7233';
const describeDefault = (connection: Connection) =>
  connection.workflowService.describeNamespace({ namespace: 'default' });
// gRPC's status code for a call that outlived its deadline.
const DEADLINE_EXCEEDED = 4;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the Temporal call context, released when idle', () => {
  const connections: Connection[] = [];
  const connect = async () => {
    const connection = await Connection.connect({ address });
    connections.push(connection);
    return connection;
  };
  afterAll(async () => {
    await Promise.all(connections.map((connection) => connection.close()));
  });

  it('stays enabled after a call without it, and is disabled after the last call with it', async () => {
    const plain = await connect();
    await describeDefault(plain);
    expect(enabled(plain)).toBe(true); // what the API paid for on every request

    const released = await connect();
    releaseCallContextWhenIdle(released);
    await describeDefault(released);
    expect(enabled(released)).toBe(false);

    await Promise.all([
      describeDefault(released),
      released.withDeadline(Date.now() + 10_000, () => describeDefault(released)),
    ]);
    expect(enabled(released)).toBe(false);
  });

  it("keeps a scope's deadline while other calls begin and end, and after the storage was disabled", async () => {
    const connection = await connect();
    releaseCallContextWhenIdle(connection);
    await describeDefault(connection);
    expect(enabled(connection)).toBe(false);

    // The deadline passes while the scope waits; meanwhile other calls open and close scopes of their own.
    const late = connection.withDeadline(Date.now() + 200, async () => {
      await sleep(500);
      return describeDefault(connection);
    });
    await Promise.all([describeDefault(connection), describeDefault(connection)]);
    await sleep(50);
    await Promise.all([describeDefault(connection)]);
    expect(enabled(connection)).toBe(true); // the late call's scope is still open

    await expect(late).rejects.toMatchObject({ code: DEADLINE_EXCEEDED });
    expect(enabled(connection)).toBe(false);
  });

  it('ends a scope whose callback throws', async () => {
    const connection = await connect();
    releaseCallContextWhenIdle(connection);
    await expect(
      connection.withDeadline(Date.now() + 1_000, () => {
        throw new Error('thrown before any call');
      }),
    ).rejects.toThrow('thrown before any call');
    await expect(
      connection.withDeadline(Date.now() + 1_000, async () => {
        throw new Error('rejected before any call');
      }),
    ).rejects.toThrow('rejected before any call');
    expect(enabled(connection)).toBe(false);
    await describeDefault(connection);
    expect(enabled(connection)).toBe(false);
  });
});
