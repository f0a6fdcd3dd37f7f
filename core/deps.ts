import type { Client } from '@temporalio/client';
import type { TemplatePublisher } from '../cloud/aws/template-publisher';
import type { CloudProvider } from '../cloud/types';
import type { Config } from '../config/config';
import type { Logger } from '../config/logger';
import type { Db } from '../db/client';
import type { ExportStorage } from '../exports/storage';
import type { Role } from '../domain/tenancy/roles';
import type { Mailer } from '../notify/mailer';
import type { ReadCache } from '../db/read-cache';

/** Everything the use cases need, built once per process: the API's (REST and tRPC alike) and the worker's. */
export interface AppDeps {
  db: Db;
  config: Readonly<Config>;
  log: Logger;
  temporal: Client;
  cloud: CloudProvider;
  /** SMTP, or the outbox table in the embedded default. */
  mailer: Mailer;
  /** Where panic export packages are kept: S3, or the local directory the API serves. */
  storage: ExportStorage;
  /** What this process keeps of the database until the database announces a change to it (absent: nothing kept). */
  readCache?: ReadCache;
  /** Publishes CloudFormation templates for quick-create links (absent: no template bucket, connect answers no link). */
  templates?: TemplatePublisher;
}

/** The authenticated user, as the database has it now (removals and role changes apply at once: db/read-cache.ts). */
export interface Caller {
  userId: string;
  tenantId: string;
  role: Role;
  email: string;
  /** The request's client address (honouring TRUST_PROXY), for the audit log. */
  clientAddress?: string;
}

/**
 * The attempt a long use case runs in, when it runs as a Temporal activity (activities/attempt.ts builds it from
 * the activity's context): it heartbeats to stay alive, knows whether it is the last try, and stops when given up.
 */
export interface Attempt {
  /** 1 for the first attempt. */
  readonly number: number;
  heartbeat(details?: unknown): void;
  /** Aborted when Temporal gives the attempt up (timed out, cancelled). */
  readonly cancelled?: AbortSignal;
}
