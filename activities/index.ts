import type { Logger } from '../config/logger';
import type { Db } from '../db/client';
import { accountActivities } from './accounts';

export interface ActivityDeps {
  db: Db;
  log: Logger;
}

/** Builds every activity from its dependencies (the worker registers the result). */
export function createActivities(deps: ActivityDeps) {
  return {
    ...accountActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
