import type { OrganizationStatus } from '../../domain/accounts/organizations';
import type {
  OrganizationCarriedState, OrganizationSyncOutcome, OrganizationWorkflowInput, OrganizationWorkflowState,
} from '../contracts';

const DEFAULT_MAX_SYNCS_PER_RUN = 500;

/**
 * What one run of the organization workflow knows. The handlers (handlers.ts) and the main loop
 * (../organization.ts) read and change it; the state query shows it (`stateView`) and continue-as-new carries it to
 * the next run (`carriedState`), except what counts this run only.
 */
export interface OrganizationState {
  status: OrganizationStatus;
  syncIntervalMinutes: number;
  awsOrganizationId?: string;
  accountsFound: number;
  syncsCompleted: number;
  /** A sync was asked for (or its interval is over): the main loop runs it. */
  syncDue: boolean;
  lastSync?: OrganizationSyncOutcome;
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

/** The answer of the state query. */
export function stateView(state: OrganizationState): OrganizationWorkflowState {
  return {
    status: state.status,
    syncIntervalMinutes: state.syncIntervalMinutes,
    awsOrganizationId: state.awsOrganizationId,
    accountsFound: state.accountsFound,
    syncsCompleted: state.syncsCompleted,
    syncDue: state.syncDue,
    syncing: state.syncing,
    lastSync: state.lastSync,
  };
}

/** What continue-as-new carries to the next run: it hands over as a sync is due, so the next run syncs at once. */
export function carriedState(state: OrganizationState): OrganizationCarriedState {
  return {
    status: state.status,
    syncIntervalMinutes: state.syncIntervalMinutes,
    awsOrganizationId: state.awsOrganizationId,
    accountsFound: state.accountsFound,
    syncsCompleted: state.syncsCompleted,
    syncDue: true,
    lastSync: state.lastSync,
  };
}
