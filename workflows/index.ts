// The workflow bundle's entry point: every workflow the worker registers.
export { accountWorkflow } from './account';
export { scanWorkflow } from './scan';
