import { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { createActivities } from '../../activities';
import { createLogger } from '../../config/logger';
import { temporalTestServer } from '../../scripts/tools';
import { accountWorkflow } from '../../workflows';
import { disconnectUpdate, stateQuery } from '../../workflows/messages';
import { createTestDatabase, type TestDatabase } from '../helpers/database';

// The account workflow on the time-skipping test server, with its real activities on a real database.
let env: TestWorkflowEnvironment;
let database: TestDatabase;
const log = createLogger({ level: 'silent', name: 'test' });

beforeAll(async () => {
  [env, database] = await Promise.all([
    TestWorkflowEnvironment.createTimeSkipping({ server: { executable: temporalTestServer() } }),
    createTestDatabase(),
  ]);
});
afterAll(async () => {
  await env?.teardown();
  await database?.drop();
});

let sequence = 0;
async function seedAccount(): Promise<{ tenantId: string; accountId: string; awsAccountId: string }> {
  sequence += 1;
  const tenantId = `ten_wf${sequence}`;
  const accountId = `acc_wf${sequence}`;
  const awsAccountId = String(100000000000 + sequence);
  await database.db.insertInto('tenants').values({ id: tenantId, name: 'Workflow tenant' }).execute();
  await database.db.insertInto('accounts').values({
    id: accountId, tenant_id: tenantId, aws_account_id: awsAccountId, display_name: null, tags: [],
    external_id: 'x'.repeat(32) + sequence, role_name: 'SentinelReadOnly', workflow_id: `wf-${accountId}`,
  }).execute();
  return { tenantId, accountId, awsAccountId };
}

function newWorker(taskQueue: string): Promise<Worker> {
  return Worker.create({
    connection: env.nativeConnection,
    taskQueue,
    // No workflow cache, hence no sticky queue: every task is replayed from history, as after a worker
    // restart, and a stopped worker leaves nothing the test server would wait out.
    maxCachedWorkflows: 0,
    workflowBundle: { codePath: process.env.TEST_WORKFLOW_BUNDLE as string },
    activities: createActivities({ db: database.db, log }),
  });
}

describe('accountWorkflow', () => {
  it('waits as PENDING, and a disconnect update records DISCONNECTED and ends it', async () => {
    const input = await seedAccount();
    const worker = await newWorker('account-basic');
    await worker.runUntil(async () => {
      const handle = await env.client.workflow.start(accountWorkflow, { taskQueue: 'account-basic', workflowId: `wf-${input.accountId}`, args: [input] });
      // Days pass: nothing happens until a command arrives.
      await env.sleep('7 days');
      expect(await handle.query(stateQuery)).toEqual({ status: 'PENDING' });
      expect(await handle.executeUpdate(disconnectUpdate)).toEqual({ status: 'DISCONNECTED' });
      await handle.result();
    });
    const row = await database.db.selectFrom('accounts').selectAll().where('id', '=', input.accountId).executeTakeFirstOrThrow();
    expect(row.status).toBe('DISCONNECTED');
    expect(row.disconnected_at).toBeInstanceOf(Date);
  });

  it('survives a worker restart: a new worker picks the waiting workflow up', async () => {
    const input = await seedAccount();
    const first = await newWorker('account-restart');
    const handle = await first.runUntil(async () => {
      const started = await env.client.workflow.start(accountWorkflow, { taskQueue: 'account-restart', workflowId: `wf-${input.accountId}`, args: [input] });
      expect(await started.query(stateQuery)).toEqual({ status: 'PENDING' }); // the first worker has run it
      return started;
    });
    const second = await newWorker('account-restart');
    await second.runUntil(async () => {
      expect(await handle.query(stateQuery)).toEqual({ status: 'PENDING' });
      await handle.executeUpdate(disconnectUpdate);
      await handle.result();
    });
    const row = await database.db.selectFrom('accounts').select('status').where('id', '=', input.accountId).executeTakeFirstOrThrow();
    expect(row.status).toBe('DISCONNECTED');
  });

  it('marks the account disconnected idempotently when the activity runs twice', async () => {
    const input = await seedAccount();
    const { markAccountDisconnected } = createActivities({ db: database.db, log });
    await markAccountDisconnected(input);
    const first = await database.db.selectFrom('accounts').select('disconnected_at').where('id', '=', input.accountId).executeTakeFirstOrThrow();
    await markAccountDisconnected(input);
    const second = await database.db.selectFrom('accounts').select('disconnected_at').where('id', '=', input.accountId).executeTakeFirstOrThrow();
    expect(second.disconnected_at).toEqual(first.disconnected_at);
  });
});
