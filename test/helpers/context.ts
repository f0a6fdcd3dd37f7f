import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, type Worker } from '@temporalio/worker';
import type { Express } from 'express';
import request from 'supertest';
import { createApp } from '../../api/app';
import { createCloudProvider } from '../../cloud';
import { createTemplatePublisher } from '../../cloud/aws/template-publisher';
import type { CloudProvider } from '../../cloud/types';
import type { AppDeps } from '../../core/deps';
import { eventDispatchesSettled } from '../../core/events/dispatch-after-answer';
import { afterAnswerSettled } from '../../core/after-answer';
import { type Config, loadConfig } from '../../config/config';
import { createLogger } from '../../config/logger';
import { createExportStorage } from '../../exports/storage';
import { createMailer } from '../../notify/mailer';
import { temporalClientInterceptors } from '../../observability/tracing';
import { createWorker } from '../../worker/worker';
import { hashPassword } from '../../core/identity/passwords';
import { waitFor } from './patience';
import { createTestDatabase, type TestDatabase } from './database';
import { markVerified } from './email-trust';

export const TEST_JWT_SECRET = 'test-secret-that-is-at-least-32-characters-long';

export function testConfig(overrides: Record<string, string> = {}): Readonly<Config> {
  return loadConfig({
    NODE_ENV: 'test',
    DATABASE_URL: 'postgres://unused',
    TEMPORAL_ADDRESS: process.env.TEST_TEMPORAL_ADDRESS ?? '127.0.0.1:7233',
    TEMPORAL_TASK_QUEUE: `test-${randomBytes(6).toString('hex')}`,
    JWT_SECRET: TEST_JWT_SECRET,
    LOG_LEVEL: 'silent',
    // Suites sign up many tenants from one address; the limit itself is tested with its default.
    SIGNUPS_PER_CLIENT_PER_HOUR: '100000',
    // The real AWS provider, pointed at the moto server (through the front for the APIs moto lacks).
    CLOUD_PROVIDER: 'aws',
    AWS_ENDPOINT_URL: process.env.TEST_AWS_FRONT_ENDPOINT ?? 'http://127.0.0.1:5000',
    ...overrides,
  });
}

export interface TestContext extends AppDeps {
  app: Express;
  http: ReturnType<typeof request>;
  database: TestDatabase;
  worker?: Worker;
  close: () => Promise<void>;
}

/**
 * A suite's world: a fresh database, the real Express app, a Temporal client on the shared dev server with
 * a task queue of its own, and (optionally) a real worker polling that queue.
 */
export async function createTestContext({
  withWorker = false,
  config: overrides = {},
  cloud: cloudOverride,
}: {
  withWorker?: boolean;
  config?: Record<string, string>;
  cloud?: CloudProvider;
} = {}): Promise<TestContext> {
  const database = await createTestDatabase();
  const config = testConfig({ DATABASE_URL: database.url, ...overrides });
  const log = createLogger({ level: 'silent', name: 'test' });
  const connection = await Connection.connect({ address: config.temporal.address });
  // As api/main.ts builds it: with tracing on (a suite that started it), its calls carry the request's trace.
  const temporal = new Client({
    connection,
    namespace: config.temporal.namespace,
    interceptors: temporalClientInterceptors(),
  });
  const cloud = cloudOverride ?? createCloudProvider({ config: config.cloud, log });
  const mailer = createMailer({ config: config.email, db: database.db, log });
  const storage = createExportStorage(config);
  const templates = createTemplatePublisher(config.cloud);
  const deps: AppDeps = { db: database.db, config, log, temporal, cloud, mailer, storage, templates };
  const app = createApp(deps);
  // Requests still being answered when the suite closes (one a timed-out test left behind): their Temporal calls
  // may still be retrying, and a connection closed under them fails outside any test, in whichever suite this
  // Jest worker runs next. close() waits for them first.
  const answering = new Set<Promise<void>>();
  const tracked = (req: IncomingMessage, res: ServerResponse) => {
    const answered = new Promise<void>((resolve) => res.once('close', resolve));
    answering.add(answered);
    void answered.then(() => answering.delete(answered));
    app(req, res);
  };

  let worker: Worker | undefined;
  let workerRun: Promise<void> | undefined;
  let nativeConnection: NativeConnection | undefined;
  if (withWorker) {
    nativeConnection = await NativeConnection.connect({ address: config.temporal.address });
    worker = await createWorker({
      connection: nativeConnection,
      namespace: config.temporal.namespace,
      taskQueue: config.temporal.taskQueue,
      db: database.db,
      log,
      cloud,
      config,
      mailer,
      storage,
      temporal,
      workflowBundle: { codePath: process.env.TEST_WORKFLOW_BUNDLE as string },
    });
    workerRun = worker.run();
  }

  return {
    ...deps,
    app,
    http: request(tracked),
    database,
    worker,
    close: async () => {
      // As the API process stops: requests are answered, and events it answered are acted on and reset e-mails
      // sent, before the connections close.
      await waitFor(async () => answering.size === 0);
      await Promise.all([eventDispatchesSettled(deps), afterAnswerSettled()]);
      if (worker && workerRun) {
        worker.shutdown();
        await workerRun;
      }
      await nativeConnection?.close();
      mailer.close();
      await connection.close();
      await database.drop();
    },
  };
}

export interface TestUser {
  email: string;
  password: string;
  tenantId: string;
  userId: string;
  idToken: string;
  refreshToken: string;
  auth: { Authorization: string };
}

let counter = 0;

/**
 * Signs up a new tenant through the API and logs its owner in. Given the suite's context (rather than only its
 * HTTP client), the owner's address is marked verified, as the link mailed at sign-up would (that link is tested
 * in test/api/email-verification.test.ts): the tenant may then mail its users and confirmed recipients.
 */
export async function signupAndLogin(
  target: TestContext['http'] | Pick<TestContext, 'http' | 'db'>,
  name = 'Test Owner',
): Promise<TestUser> {
  const http = 'db' in target ? target.http : target;
  counter += 1;
  const email = `owner${counter}-${randomBytes(4).toString('hex')}@example.com`;
  const password = 'correct horse battery staple';
  const signup = await http.post('/auth/signup').send({ email, password, name }).expect(201);
  if ('db' in target) await markVerified(target.db, signup.body.user_id);
  const login = await http.post('/auth/login').send({ email, password }).expect(200);
  return {
    email,
    password,
    tenantId: signup.body.tenant_id,
    userId: signup.body.user_id,
    idToken: login.body.id_token,
    refreshToken: login.body.refresh_token,
    auth: { Authorization: `Bearer ${login.body.id_token}` },
  };
}

/** Adds a user with the given role to a tenant (the users API arrives later) and logs them in. */
export async function addUserWithRole(
  ctx: TestContext,
  tenantId: string,
  role: 'admin' | 'member' | 'viewer',
): Promise<TestUser> {
  counter += 1;
  const email = `${role}${counter}-${randomBytes(4).toString('hex')}@example.com`;
  const password = 'correct horse battery staple';
  const userId = `usr_test${counter}${randomBytes(4).toString('hex')}`;
  await ctx.db
    .insertInto('users')
    .values({
      id: userId,
      tenant_id: tenantId,
      email,
      name: role,
      role,
      password_hash: await hashPassword(password),
      email_verified_at: new Date(),
    })
    .execute();
  const login = await ctx.http.post('/auth/login').send({ email, password }).expect(200);
  return {
    email,
    password,
    tenantId,
    userId,
    idToken: login.body.id_token,
    refreshToken: login.body.refresh_token,
    auth: { Authorization: `Bearer ${login.body.id_token}` },
  };
}
