import type { OrganizationCarriedState, OrganizationWorkflowInput, OrganizationWorkflowState } from '../contracts';

const DEFAULT_MAX_SYNCS_PER_RUN = 500;

/**
 * What one run of the organization workflow knows. The handlers (handlers.ts) and the main loop
 * (../organization.ts) read and change it; the state query shows it (`stateView`) and continue-as-new carries it to
 * the next run (`carriedState`), except what counts this run only.
 */
export interface OrganizationState extends OrganizationCarriedState {
  /** An activity that changes the organization's state is running: verify and disconnect wait. */
  busy: boolean;
  /** A sync is running now. */
  syncing: boolean;
  /** This run only: it continues as new after `maxSyncsPerRun` syncs. */
  syncsThisRun: number;
  readonly maxSyncsPerRun: number;
}

/** A new workflow's state, or the one the previous run carried over (`input.carried`). */
export function initialState(input: OrganizationWorkflowInput): OrganizationState {
  const { carried } = input;
  return {
    status: carried?.status ?? 'PENDING',
    syncIntervalMinutes: carried?.syncIntervalMinutes ?? input.syncIntervalMinutes,
    awsOrganizationId: carried?.awsOrganizationId,
    accountsFound: carried?.accountsFound ?? 0,
    syncsCompleted: carried?.syncsCompleted ?? 0,
    syncDue: carried?.syncDue ?? false,
    lastSync: carried?.lastSync,
    busy: false,
    syncing: false,
    syncsThisRun: 0,
    maxSyncsPerRun: input.maxSyncsPerRun ?? DEFAULT_MAX_SYNCS_PER_RUN,
  };
}

/** What of the state outlives a run. */
function lasting(state: OrganizationState): OrganizationCarriedState {
  const { status, syncIntervalMinutes, awsOrganizationId, accountsFound, syncsCompleted, syncDue, lastSync } = state;
  return { status, syncIntervalMinutes, awsOrganizationId, accountsFound, syncsCompleted, syncDue, lastSync };
}

/** The answer of the state query. */
export function stateView(state: OrganizationState): OrganizationWorkflowState {
  return { ...lasting(state), syncing: state.syncing };
}

/** What continue-as-new carries to the next run: it hands over as a sync is due, so the next run syncs at once. */
export function carriedState(state: OrganizationState): OrganizationCarriedState {
  return { ...lasting(state), syncDue: true };
}
