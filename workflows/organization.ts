import {
  allHandlersFinished,
  condition,
  continueAsNew,
  log,
  proxyActivities,
  workflowInfo,
} from '@temporalio/workflow';
import type { Activities } from '../activities';
import { PENDING_TIMEOUT } from './account';
import { SYNC_ORGANIZATION } from './activity-options';
import type { OrganizationWorkflowInput } from './contracts';
import { disconnect, installHandlers } from './organization/handlers';
import { carriedState, initialState } from './organization/state';

// The organization's entity workflow, in the account workflow's shape: its state (organization/state.ts), its
// message handlers (organization/handlers.ts), and this file, its lifecycle top-down. It has no patches yet; the
// first would go in organization/legacy.ts, as the account workflow's do in account/legacy.ts.

const { syncOrganization } = proxyActivities<Activities>(SYNC_ORGANIZATION);

/**
 * One entity workflow per connected AWS Organization: PENDING until its management role is verified, then ACTIVE with
 * a sync of its member accounts at once and every `syncIntervalMinutes` after the last one, plus syncs on request,
 * until disconnected. Each sync connects, verifies and disconnects member accounts through their own account workflows.
 */
export async function organizationWorkflow(input: OrganizationWorkflowInput): Promise<void> {
  const { tenantId, orgId } = input;
  const state = initialState(input);
  installHandlers(state, { tenantId, orgId });

  // PENDING until verified (handlers.ts); an organization never verified within PENDING_TIMEOUT is disconnected.
  if (!(await condition(() => state.status !== 'PENDING', PENDING_TIMEOUT))) {
    await condition(() => !state.busy); // a verification under way decides first
    if (state.status === 'PENDING') {
      log.info('never verified: disconnecting', { timeout: PENDING_TIMEOUT });
      await disconnect(state, { tenantId, orgId });
    }
  }

  // ACTIVE: a sync when asked for, or when the interval since the last one is over, until disconnected.
  while (state.status === 'ACTIVE') {
    const asked = await condition(
      () => state.syncDue || state.status !== 'ACTIVE',
      `${state.syncIntervalMinutes} minutes`,
    );
    if (state.status !== 'ACTIVE') break;
    if (!asked) state.syncDue = true;
    if (state.syncsThisRun >= state.maxSyncsPerRun || workflowInfo().continueAsNewSuggested) {
      await condition(() => allHandlersFinished() && !state.busy);
      if (state.status !== 'ACTIVE') break;
      return continueAsNew<typeof organizationWorkflow>({ ...input, carried: carriedState(state) });
    }
    state.syncDue = false;
    state.busy = true;
    state.syncing = true;
    try {
      state.lastSync = await syncOrganization({ tenantId, orgId });
      state.syncIntervalMinutes = state.lastSync.syncIntervalMinutes;
    } catch (err) {
      // A sync that failed for good does not end the organization: the next one is due after the interval.
      log.error('organization sync failed', { error: String(err) });
      state.lastSync = { ok: false, error: String(err), syncIntervalMinutes: state.syncIntervalMinutes };
    } finally {
      state.busy = false;
      state.syncing = false;
    }
    state.syncsCompleted += 1;
    state.syncsThisRun += 1;
  }
  // DISCONNECTED: the workflow ends once its handlers have answered.
  await condition(allHandlersFinished);
}
