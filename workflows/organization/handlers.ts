import { ApplicationFailure, condition, log, proxyActivities, setHandler } from '@temporalio/workflow';
import type { Activities } from '../../activities';
import { MARK_DISCONNECTED, VERIFY } from '../activity-options';
import {
  disconnectOrganizationUpdate,
  INVALID_ACCOUNT_STATE,
  organizationStateQuery,
  ROLE_ASSUMPTION_FAILED,
  syncOrganizationUpdate,
  VERIFICATION_UNAVAILABLE,
  verifyOrganizationUpdate,
} from '../contracts';
import { type OrganizationState, stateView } from './state';

const { verifyOrganization } = proxyActivities<Activities>(VERIFY);
const { markOrganizationDisconnected } = proxyActivities<Activities>(MARK_DISCONNECTED);

export interface OrganizationIds {
  tenantId: string;
  orgId: string;
}

/**
 * Installs the organization workflow's query and update handlers (workflows/contracts.ts), which read and change
 * `state`. Verify and disconnect wait for any activity that changes the organization (`state.busy`); the main loop
 * runs the syncs they ask for.
 *
 * Installed in this order: a handler installed receives at once the messages that arrived before it, so the order
 * is part of what the workflow does on replay.
 */
export function installHandlers(state: OrganizationState, ids: OrganizationIds): void {
  const { tenantId, orgId } = ids;

  setHandler(organizationStateQuery, () => stateView(state));

  setHandler(verifyOrganizationUpdate, async () => {
    await condition(() => !state.busy);
    if (state.status === 'ACTIVE' && state.awsOrganizationId) {
      return {
        status: 'ACTIVE' as const,
        awsOrganizationId: state.awsOrganizationId,
        accountsFound: state.accountsFound,
      };
    }
    if (state.status === 'DISCONNECTED')
      throw ApplicationFailure.create({ type: INVALID_ACCOUNT_STATE, message: 'The organization is disconnected' });
    state.busy = true;
    try {
      const result = await verifyOrganization({ tenantId, orgId }).catch((err: unknown) => {
        log.warn('organization verification could not run', { error: String(err) });
        throw ApplicationFailure.create({
          type: VERIFICATION_UNAVAILABLE,
          message: 'Verification could not reach AWS; try again shortly',
        });
      });
      if (!result.ok)
        throw ApplicationFailure.create({
          type: ROLE_ASSUMPTION_FAILED,
          message: result.reason,
          details: [result.code],
        });
      state.awsOrganizationId = result.awsOrganizationId;
      state.accountsFound = result.accountsFound;
      state.syncIntervalMinutes = result.syncIntervalMinutes;
      state.status = 'ACTIVE';
      state.syncDue = true;
      return {
        status: 'ACTIVE' as const,
        awsOrganizationId: result.awsOrganizationId,
        accountsFound: result.accountsFound,
      };
    } finally {
      state.busy = false;
    }
  });

  setHandler(
    syncOrganizationUpdate,
    () => {
      state.syncDue = true;
      return { queued: true as const };
    },
    {
      validator: () => {
        if (state.status !== 'ACTIVE') {
          throw ApplicationFailure.create({
            type: INVALID_ACCOUNT_STATE,
            message: `A ${state.status} organization cannot be synced`,
          });
        }
      },
    },
  );

  // A sync under way finishes first, so nothing it connects is left behind by a disconnection that follows it.
  setHandler(disconnectOrganizationUpdate, async () => {
    await condition(() => !state.busy);
    if (state.status !== 'DISCONNECTED') await disconnect(state, ids);
    return { status: 'DISCONNECTED' as const };
  });
}

/** Marks the organization disconnected (the disconnect update, or verification that never came): its syncs stop. */
export async function disconnect(state: OrganizationState, { tenantId, orgId }: OrganizationIds): Promise<void> {
  state.busy = true;
  try {
    await markOrganizationDisconnected({ tenantId, orgId });
    state.status = 'DISCONNECTED';
  } finally {
    state.busy = false;
  }
}
