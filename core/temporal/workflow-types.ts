import type { accountWorkflow } from '../../workflows/account';
import type { alertDeliveryWorkflow } from '../../workflows/delivery';
import type { exportWorkflow } from '../../workflows/export';
import type { organizationWorkflow } from '../../workflows/organization';

// The workflows core/ starts, by the names the worker registers them under (their functions' names). Core imports the
// functions as types only, so the API process never loads workflow code, and a start is still typed by the
// function's arguments: `temporal.workflow.start<AccountWorkflow>(WORKFLOW_TYPES.account, ...)`.
// test/unit/temporal-options.test.ts holds each name against its function.
export type AccountWorkflow = typeof accountWorkflow;
export type OrganizationWorkflow = typeof organizationWorkflow;
export type ExportWorkflow = typeof exportWorkflow;
export type AlertDeliveryWorkflow = typeof alertDeliveryWorkflow;

export const WORKFLOW_TYPES = {
  account: 'accountWorkflow',
  organization: 'organizationWorkflow',
  export: 'exportWorkflow',
  alertDelivery: 'alertDeliveryWorkflow',
} as const;
