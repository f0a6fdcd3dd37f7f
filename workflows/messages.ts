import { defineQuery, defineUpdate } from '@temporalio/workflow';

// Messages of the account workflow, shared by the workflow (handlers) and the API (callers).

export type AccountStatus = 'PENDING' | 'ACTIVE' | 'DISCONNECTED';

export interface AccountWorkflowInput {
  tenantId: string;
  accountId: string;
  awsAccountId: string;
}

export interface AccountWorkflowState {
  status: AccountStatus;
}

/** Ends the account's lifecycle: scheduled scans stop. The customer's role is left alone. */
export const disconnectUpdate = defineUpdate<AccountWorkflowState>('disconnect');

export const stateQuery = defineQuery<AccountWorkflowState>('state');
