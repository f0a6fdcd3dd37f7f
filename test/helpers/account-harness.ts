import { WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { createActivities } from '../../activities';
import type { Config } from '../../config/config';
import { createLogger } from '../../config/logger';
import { createExportStorage, type ExportStorage } from '../../exports/storage';
import { createMailer, type Mailer } from '../../notify/mailer';
import { temporalTestServer } from '../../scripts/tools';
import { accountWorkflow } from '../../workflows';
import { type AccountWorkflowInput, disconnectUpdate, stateQuery, verifyUpdate } from '../../workflows/contracts';
import { testConfig } from './context';
import { createTestDatabase, type TestDatabase } from './database';
import { ScriptedCloud } from './scripted-cloud';
import { registerSearchAttributes } from './search-attributes';
import { waitFor } from './patience';

export type SeededAccount = AccountWorkflowInput & { taskQueue: string };

/**
 * The account lifecycle on its own time-skipping test server, with the real activities on a real database
 * and a cloud the test scripts.
 *
 * Create one per test (`beforeEach`), never one per file: a test that fails part-way leaves workflows with
 * work outstanding on task queues no worker polls any more, and the test server then stops skipping time, so
 * every later `env.sleep` of the file would wait in real time and time out.
 */
export class AccountHarness {
  readonly cloud = new ScriptedCloud();
  private sequence = 0;
  private readonly workers: Worker[] = [];
  private readonly log = createLogger({ level: 'silent', name: 'test' });
  readonly mailer: Mailer;
  private readonly storage: ExportStorage;

  private constructor(
    readonly env: TestWorkflowEnvironment,
    readonly database: TestDatabase,
    readonly config: Readonly<Config>,
  ) {
    this.mailer = createMailer({ config: config.email, db: database.db, log: this.log });
    this.storage = createExportStorage(config);
  }

  /** `config` overrides the test configuration (e.g. SMTP_URL, PAGERDUTY_EVENTS_URL pointing at loopback peers). */
  static async create({ config = {} }: { config?: Record<string, string> } = {}): Promise<AccountHarness> {
    const [env, database] = await Promise.all([
      TestWorkflowEnvironment.createTimeSkipping({ server: { executable: temporalTestServer() } }),
      createTestDatabase(),
    ]);
    await registerSearchAttributes(env.connection);
    return new AccountHarness(env, database, testConfig({ DATABASE_URL: database.url, ...config }));
  }

  async close(): Promise<void> {
    this.mailer.close();
    // A test that timed out inside `worker.runUntil` leaves its worker polling; the connection cannot close
    // under it.
    const running = this.workers.filter((w) => w.getState() === 'RUNNING');
    running.forEach((w) => w.shutdown());
    await waitFor(async () => running.every((w) => ['STOPPED', 'FAILED'].includes(w.getState())));
    await this.env.teardown();
    await this.database.drop();
  }

  /** A tenant on the team plan (scans every 360 minutes), its verified owner, and one PENDING account. */
  async seedAccount(): Promise<SeededAccount> {
    this.sequence += 1;
    const n = this.sequence;
    const tenantId = `ten_wf${n}`;
    const accountId = `acc_wf${n}`;
    const awsAccountId = String(100000000000 + n);
    const db = this.database.db;
    await db.insertInto('tenants').values({ id: tenantId, name: 'Workflow tenant', plan: 'team' }).execute();
    await db
      .insertInto('users')
      .values({
        id: `usr_wf${n}`,
        tenant_id: tenantId,
        email: `owner-wf${n}@example.com`,
        name: 'Owner',
        role: 'owner',
        email_verified_at: new Date(),
      })
      .execute();
    await db
      .insertInto('accounts')
      .values({
        id: accountId,
        tenant_id: tenantId,
        aws_account_id: awsAccountId,
        display_name: null,
        tags: [],
        external_id: `${'x'.repeat(32)}${n}`,
        role_name: 'SentinelReadOnly',
        workflow_id: `wf-${accountId}`,
      })
      .execute();
    return { tenantId, accountId, awsAccountId, scanIntervalMinutes: 360, taskQueue: `account-${n}` };
  }

  /** A worker on `taskQueue` with the real activities, or with some of them replaced (`overrides`). */
  async newWorker(
    taskQueue: string,
    overrides: Partial<ReturnType<AccountHarness['activities']>> = {},
  ): Promise<Worker> {
    const worker = await Worker.create({
      connection: this.env.nativeConnection,
      taskQueue,
      // No workflow cache, hence no sticky queue: every task is replayed from history, as after a worker
      // restart, and a stopped worker leaves nothing the test server would wait out.
      maxCachedWorkflows: 0,
      workflowBundle: { codePath: process.env.TEST_WORKFLOW_BUNDLE as string },
      activities: { ...this.activities(), ...overrides },
    });
    this.workers.push(worker);
    return worker;
  }

  activities() {
    return createActivities({
      db: this.database.db,
      log: this.log,
      cloud: this.cloud,
      config: this.config,
      mailer: this.mailer,
      storage: this.storage,
      temporal: this.env.client,
    });
  }

  start(input: SeededAccount) {
    const { taskQueue, ...args } = input;
    return this.env.client.workflow.start(accountWorkflow, {
      taskQueue,
      workflowId: `wf-${input.accountId}`,
      args: [args],
    });
  }

  /**
   * Runs `body` against a verified account whose first scan is done, on a worker of its own; disconnects the
   * account afterwards (the test server then has no timers left that could slow later tests down).
   */
  async withActiveAccount(
    body: (
      handle: Awaited<ReturnType<AccountHarness['start']>>,
      input: SeededAccount,
      firstScanId: string,
    ) => Promise<void>,
    overrides: Partial<SeededAccount> = {},
  ): Promise<void> {
    const input = { ...(await this.seedAccount()), ...overrides };
    const worker = await this.newWorker(input.taskQueue);
    await worker.runUntil(async () => {
      const handle = await this.start(input);
      const { firstScanId } = await handle.executeUpdate(verifyUpdate);
      await waitFor(async () => (await handle.query(stateQuery)).scansCompleted === 1);
      await body(handle, input, firstScanId);
      const latest = this.env.client.workflow.getHandle(handle.workflowId);
      if ((await latest.describe()).status.name === 'RUNNING') await latest.executeUpdate(disconnectUpdate);
    });
  }

  /**
   * How many scheduled scans the account's workflow runs within `ms` from now (test-server time): its timer fires
   * at `nextScheduledScanAt`, its place in the interval (workflows/scan-slots.ts), then every interval.
   */
  async scheduledScansWithin(handle: Awaited<ReturnType<AccountHarness['start']>>, ms: number): Promise<number> {
    const state = await handle.query(stateQuery);
    if (!state.nextScheduledScanAt) throw new Error('no scheduled scan is armed');
    const first = Date.parse(state.nextScheduledScanAt);
    const end = (await this.env.currentTimeMs()) + ms;
    return first > end ? 0 : Math.floor((end - first) / (state.scanIntervalMinutes * 60_000)) + 1;
  }

  scansOf(accountId: string) {
    return this.database.db
      .selectFrom('scans')
      .selectAll()
      .where('account_id', '=', accountId)
      .orderBy('started_at')
      .execute();
  }

  accountRow(accountId: string) {
    return this.database.db.selectFrom('accounts').selectAll().where('id', '=', accountId).executeTakeFirstOrThrow();
  }
}

/** The ApplicationFailure type behind a failed update (undefined when it succeeded). */
export async function updateFailure(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
    return undefined;
  } catch (err) {
    const cause = err instanceof WorkflowUpdateFailedError ? err.cause : err;
    return cause instanceof ApplicationFailure ? (cause.type ?? undefined) : String(err);
  }
}
