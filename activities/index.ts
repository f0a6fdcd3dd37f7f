import type { Client } from '@temporalio/client';
import type { CloudProvider } from '../cloud/types';
import type { Config } from '../config/config';
import type { Logger } from '../config/logger';
import type { Db } from '../db/client';
import type { ExportStorage } from '../exports/storage';
import { accountActivities } from './accounts';
import { alertActivities } from './alerts';
import { eventDispatchActivities } from './event-dispatch';
import { exportActivities } from './exports';
import { organizationActivities } from './organizations';
import { retentionActivities } from './retention';
import { scanActivities } from './scans';
import type { Mailer } from '../notify/mailer';

export interface ActivityDeps {
  db: Db;
  log: Logger;
  cloud: CloudProvider;
  config: Readonly<Config>;
  mailer: Mailer;
  storage: ExportStorage;
  /**
   * Organization syncs connect, verify and disconnect member accounts through their own workflows; left-over event
   * batches start their deliveries and signal their account workflows.
   */
  temporal: Client;
}

/** Builds every activity from its dependencies (the worker registers the result). */
export function createActivities(deps: ActivityDeps) {
  return {
    ...accountActivities(deps),
    ...scanActivities(deps),
    ...alertActivities(deps),
    ...exportActivities(deps),
    ...retentionActivities(deps),
    ...organizationActivities(deps),
    ...eventDispatchActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
