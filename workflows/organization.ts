import {
  allHandlersFinished, ApplicationFailure, condition, continueAsNew, log, proxyActivities, setHandler, workflowInfo,
} from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { OrganizationStatus } from '../domain/organizations';
import { PENDING_TIMEOUT } from './account';
import {
  disconnectOrganizationUpdate, INVALID_ACCOUNT_STATE, organizationStateQuery, type OrganizationSyncOutcome, type OrganizationWorkflowInput,
  ROLE_ASSUMPTION_FAILED, syncOrganizationUpdate, VERIFICATION_UNAVAILABLE, verifyOrganizationUpdate,
} from './contracts';

// A caller waits on verification and disconnection: they go ahead of queued scans (as the account workflow's do).
const INTERACTIVE = { priorityKey: 1 };

const { markOrganizationDisconnected } = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute', backoffCoefficient: 2 },
  priority: INTERACTIVE,
});

// Verification gives up after two minutes (the API answers 503 and the user tries again) rather than hold the
// organization, and its disconnection, for as long as an outage lasts.
const { verifyOrganization } = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  scheduleToCloseTimeout: '2 minutes',
  retry: { initialInterval: '1 second', maximumInterval: '20 seconds', backoffCoefficient: 2 },
  priority: INTERACTIVE,
});

// A sync connects and verifies each new member account in turn, so a large organization's first sync takes minutes; it
// heartbeats per account. One that still fails is left to the next sync.
const { syncOrganization } = proxyActivities<Activities>({
  startToCloseTimeout: '30 minutes',
  heartbeatTimeout: '2 minutes',
  retry: { initialInterval: '5 seconds', maximumInterval: '2 minutes', backoffCoefficient: 2, maximumAttempts: 5 },
});

const DEFAULT_MAX_SYNCS_PER_RUN = 500;

/**
 * One entity workflow per connected AWS Organization: PENDING until its management role is verified, then ACTIVE with
 * a sync of its member accounts at once and every `syncIntervalMinutes` after the last one, plus syncs on request,
 * until disconnected. Each sync connects, verifies and disconnects member accounts through their own account workflows.
 */
export async function organizationWorkflow(input: OrganizationWorkflowInput): Promise<void> {
  const { tenantId, orgId, carried } = input;
  let status: OrganizationStatus = carried?.status ?? 'PENDING';
  let syncIntervalMinutes = carried?.syncIntervalMinutes ?? input.syncIntervalMinutes;
  let awsOrganizationId = carried?.awsOrganizationId;
  let accountsFound = carried?.accountsFound ?? 0;
  let syncsCompleted = carried?.syncsCompleted ?? 0;
  let syncDue = carried?.syncDue ?? false;
  let lastSync: OrganizationSyncOutcome | undefined = carried?.lastSync;
  const maxSyncsPerRun = input.maxSyncsPerRun ?? DEFAULT_MAX_SYNCS_PER_RUN;
  let syncsThisRun = 0;
  let busy = false; // an activity that changes the organization's state is running
  let syncing = false;

  setHandler(organizationStateQuery, () => ({
    status, syncIntervalMinutes, awsOrganizationId, accountsFound, syncsCompleted, syncDue, syncing, lastSync,
  }));

  setHandler(verifyOrganizationUpdate, async () => {
    await condition(() => !busy);
    if (status === 'ACTIVE' && awsOrganizationId) return { status: 'ACTIVE' as const, awsOrganizationId, accountsFound };
    if (status === 'DISCONNECTED') throw ApplicationFailure.create({ type: INVALID_ACCOUNT_STATE, message: 'The organization is disconnected' });
    busy = true;
    try {
      const result = await verifyOrganization({ tenantId, orgId }).catch((err: unknown) => {
        log.warn('organization verification could not run', { error: String(err) });
        throw ApplicationFailure.create({ type: VERIFICATION_UNAVAILABLE, message: 'Verification could not reach AWS; try again shortly' });
      });
      if (!result.ok) throw ApplicationFailure.create({ type: ROLE_ASSUMPTION_FAILED, message: result.reason, details: [result.code] });
      awsOrganizationId = result.awsOrganizationId;
      accountsFound = result.accountsFound;
      syncIntervalMinutes = result.syncIntervalMinutes;
      status = 'ACTIVE';
      syncDue = true;
      return { status: 'ACTIVE' as const, awsOrganizationId, accountsFound };
    } finally {
      busy = false;
    }
  });

  setHandler(syncOrganizationUpdate, () => {
    syncDue = true;
    return { queued: true as const };
  }, {
    validator: () => {
      if (status !== 'ACTIVE') throw ApplicationFailure.create({ type: INVALID_ACCOUNT_STATE, message: `A ${status} organization cannot be synced` });
    },
  });

  // A sync under way finishes first, so nothing it connects is left behind by a disconnection that follows it.
  setHandler(disconnectOrganizationUpdate, async () => {
    await condition(() => !busy);
    if (status !== 'DISCONNECTED') await disconnect();
    return { status: 'DISCONNECTED' as const };
  });

  async function disconnect(): Promise<void> {
    busy = true;
    try {
      await markOrganizationDisconnected({ tenantId, orgId });
      status = 'DISCONNECTED';
    } finally {
      busy = false;
    }
  }

  if (!(await condition(() => status !== 'PENDING', PENDING_TIMEOUT))) {
    await condition(() => !busy); // a verification under way decides first
    if (status === 'PENDING') {
      log.info('never verified: disconnecting', { timeout: PENDING_TIMEOUT });
      await disconnect();
    }
  }

  while (status === 'ACTIVE') {
    const asked = await condition(() => syncDue || status !== 'ACTIVE', `${syncIntervalMinutes} minutes`);
    if (status !== 'ACTIVE') break;
    if (!asked) syncDue = true;
    if (syncsThisRun >= maxSyncsPerRun || workflowInfo().continueAsNewSuggested) {
      await condition(() => allHandlersFinished() && !busy);
      if (status !== 'ACTIVE') break;
      return continueAsNew<typeof organizationWorkflow>({
        ...input,
        carried: { status, syncIntervalMinutes, awsOrganizationId, accountsFound, syncsCompleted, syncDue: true, lastSync },
      });
    }
    syncDue = false;
    busy = true;
    syncing = true;
    try {
      lastSync = await syncOrganization({ tenantId, orgId });
      syncIntervalMinutes = lastSync.syncIntervalMinutes;
    } catch (err) {
      // A sync that failed for good does not end the organization: the next one is due after the interval.
      log.error('organization sync failed', { error: String(err) });
      lastSync = { ok: false, error: String(err), syncIntervalMinutes };
    } finally {
      busy = false;
      syncing = false;
    }
    syncsCompleted += 1;
    syncsThisRun += 1;
  }
  await condition(allHandlersFinished);
}
