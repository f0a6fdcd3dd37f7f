// The workflow bundle's entry point: every workflow the worker registers.
export { accountWorkflow } from './account';
export { alertDeliveryWorkflow } from './delivery';
export { exportRetentionWorkflow, exportWorkflow } from './export';
export { eventDispatchWorkflow } from './event-dispatch';
export { retentionWorkflow } from './retention';
export { scanWorkflow } from './scan';
export { organizationWorkflow } from './organization';
