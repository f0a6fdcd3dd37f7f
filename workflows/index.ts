// The workflow bundle's entry point: every workflow the worker registers.
export { accountWorkflow } from './account';
export { alertDeliveryWorkflow } from './delivery';
export { exportRetentionWorkflow, exportWorkflow } from './export';
export { eventForwardingWatchWorkflow } from './forwarding-watch';
export { eventDispatchWorkflow } from './left-over-batches';
export { retentionWorkflow } from './retention';
export { scanWorkflow } from './scan';
export { organizationWorkflow } from './organization';
