// How long the suite waits for something before calling it hung. Tests wait on conditions (waitFor in
// test/helpers/account-harness.ts), never on budgets for how fast the machine ought to be: each wait ends as soon as
// its condition holds, so this ceiling only decides how long a real hang takes to fail. It is far above what the
// slowest wait needs on a machine running twice as many busy processes as it has cores (scripts/test-under-load.sh)
// and well below Jest's testTimeout (jest.config.js), so a hang fails with the wait's own message.
export const CONDITION_CEILING_MS = 5 * 60_000;

/**
 * Polls until the condition holds (workflow state settles asynchronously). The bound is the hang ceiling above: a
 * busy machine's slow scan is waited for, and a condition that never holds still
 * fails, with this message rather than Jest's. `before` is for a bound that is itself the property under test
 * (a change that must arrive before a safety net would bring it anyway), never a budget for the machine's speed.
 */
export async function waitFor(check: () => Promise<boolean>, before = CONDITION_CEILING_MS): Promise<void> {
  const deadline = Date.now() + before;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not reached before the deadline');
    await new Promise((r) => setTimeout(r, 100));
  }
}
