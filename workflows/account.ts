import { condition, proxyActivities, setHandler } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { type AccountStatus, type AccountWorkflowInput, disconnectUpdate, stateQuery } from './messages';

const { markAccountDisconnected } = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute', backoffCoefficient: 2 },
});

/**
 * One entity workflow per connected account (workflow id derived from tenant and account). It holds the
 * account's lifecycle; the database holds the read model the API lists.
 */
export async function accountWorkflow(input: AccountWorkflowInput): Promise<void> {
  let status: AccountStatus = 'PENDING';
  let disconnectRequested = false;

  setHandler(stateQuery, () => ({ status }));
  setHandler(disconnectUpdate, async () => {
    disconnectRequested = true;
    await condition(() => status === 'DISCONNECTED');
    return { status };
  });

  await condition(() => disconnectRequested);
  await markAccountDisconnected({ tenantId: input.tenantId, accountId: input.accountId });
  status = 'DISCONNECTED';
}
