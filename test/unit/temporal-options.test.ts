import { accountWorkflowStart, executionArn, parseExecutionArn } from '../../core/temporal/commands';
import { loadConfig } from '../../config/config';
import { WORKFLOW_TYPES } from '../../core/temporal/workflow-types';
import { workerTuning } from '../../worker/worker';
import * as workflows from '../../workflows';
import { accountWorkflow } from '../../workflows/account';
import { alertDeliveryWorkflow } from '../../workflows/delivery';
import { exportWorkflow } from '../../workflows/export';
import { organizationWorkflow } from '../../workflows/organization';

const minimal = { DATABASE_URL: 'postgres://localhost/sentinel', JWT_SECRET: 's'.repeat(32) };
const account = {
  tenantId: 'ten_1',
  accountId: 'acc_1',
  awsAccountId: '123456789012',
  scanIntervalMinutes: 60,
  planRevision: 2,
  fairnessWeight: 4,
};

describe('execution ARNs', () => {
  it('name the account workflow and the scan, and read back', () => {
    const arn = executionArn('prod', 'account:ten_1:123456789012', 'scan_01M88D3JGBDVRQ1GKAVS02127D');
    expect(arn).toBe(
      'arn:sentinel:temporal:prod:workflow/account:ten_1:123456789012/scan/scan_01M88D3JGBDVRQ1GKAVS02127D',
    );
    expect(parseExecutionArn(arn)).toEqual({
      namespace: 'prod',
      workflowId: 'account:ten_1:123456789012',
      scanId: 'scan_01M88D3JGBDVRQ1GKAVS02127D',
    });
  });

  it('are told apart from anything else', () => {
    expect(parseExecutionArn('arn:sentinel:temporal:prod:workflow/scan_01M88D3JGBDVRQ1GKAVS02127D')).toBeUndefined();
    expect(parseExecutionArn('scan_01M88D3JGBDVRQ1GKAVS02127D')).toBeUndefined();
  });
});

describe('accountWorkflowStart', () => {
  it('gives the workflow its tenant as fairness key, weighted by plan', () => {
    const options = accountWorkflowStart({ taskQueue: 'q', fairness: true }, account);
    expect(options).toMatchObject({
      workflowId: 'account:ten_1:123456789012',
      taskQueue: 'q',
      priority: { fairnessKey: 'ten_1', fairnessWeight: 4 },
    });
    expect(options.args).toEqual([account]);
  });

  it('leaves the key out, and tells the workflow, when fairness is off', () => {
    const options = accountWorkflowStart({ taskQueue: 'q', fairness: false }, account);
    expect(options.priority).toBeUndefined();
    expect(options.args).toEqual([{ ...account, fairness: false }]);
  });
});

describe('workerTuning', () => {
  it('sizes the sticky cache from the configuration and keeps the SDK slots by default', () => {
    const tuning = workerTuning(loadConfig({ ...minimal, TEMPORAL_MAX_CACHED_WORKFLOWS: '25000' }).temporal.worker);
    expect(tuning).toMatchObject({ maxCachedWorkflows: 25_000, workflowTaskPollerBehavior: { type: 'autoscaling' } });
    expect(tuning.tuner).toBeUndefined();
  });

  it('follows the host with resource-based slots', () => {
    const tuning = workerTuning(loadConfig({ ...minimal, TEMPORAL_WORKER_SLOTS: 'resource-based' }).temporal.worker);
    expect(tuning.tuner).toMatchObject({ activityTaskSlotOptions: { minimumSlots: 10, maximumSlots: 500 } });
  });

  it('refuses an unknown slot supplier', () => {
    expect(() => loadConfig({ ...minimal, TEMPORAL_WORKER_SLOTS: 'elastic' })).toThrow(/TEMPORAL_WORKER_SLOTS/);
  });
});

describe('the workflow types core/ starts by name', () => {
  it('are the names the worker registers the functions under', () => {
    const registered = {
      account: accountWorkflow,
      organization: organizationWorkflow,
      export: exportWorkflow,
      alertDelivery: alertDeliveryWorkflow,
    };
    for (const [key, fn] of Object.entries(registered)) {
      expect(WORKFLOW_TYPES[key as keyof typeof WORKFLOW_TYPES]).toBe(fn.name);
      expect(Object.values(workflows)).toContain(fn);
    }
  });
});
