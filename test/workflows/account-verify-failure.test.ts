import {
  INVALID_ACCOUNT_STATE,
  ROLE_ASSUMPTION_FAILED,
  scanNowUpdate,
  stateQuery,
  verifyUpdate,
  disconnectUpdate,
} from '../../workflows/contracts';
import { AccountHarness, updateFailure } from '../helpers/account-harness';

// Verification failures, on a test server of their own: after an update fails, the time-skipping test
// server keeps time skipping locked, which would stall any later test that sleeps.
let h: AccountHarness;
beforeEach(async () => {
  h = await AccountHarness.create();
});
afterEach(() => h?.close());

describe('accountWorkflow verification', () => {
  it('fails verification with the reason, stays PENDING, and verifies once the role is fixed', async () => {
    const input = await h.seedAccount();
    h.cloud.deny(input.awsAccountId, 'Role SentinelReadOnly does not exist');
    const worker = await h.newWorker(input.taskQueue);
    await worker.runUntil(async () => {
      const handle = await h.start(input);
      expect(await updateFailure(handle.executeUpdate(verifyUpdate))).toBe(ROLE_ASSUMPTION_FAILED);
      expect((await handle.query(stateQuery)).status).toBe('PENDING');
      expect((await h.accountRow(input.accountId)).status).toBe('PENDING');
      expect(await updateFailure(handle.executeUpdate(scanNowUpdate))).toBe(INVALID_ACCOUNT_STATE);

      h.cloud.allow(input.awsAccountId);
      await handle.executeUpdate(verifyUpdate);
      expect((await h.accountRow(input.accountId)).status).toBe('ACTIVE');
      await handle.executeUpdate(disconnectUpdate);
    });
  });
});
