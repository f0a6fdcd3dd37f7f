/**
 * Runs `run` over `items`, at most `limit` at a time, and returns the results in the order of `items`. On a
 * failure it starts nothing new and rejects with the first error once the calls under way have settled, so no
 * call outlives the collection that closes its clients.
 */
export async function mapLimit<T, R>({
  items,
  limit,
  run,
}: {
  items: readonly T[];
  limit: number;
  run: (item: T) => Promise<R>;
}): Promise<R[]> {
  const results: R[] = [];
  let next = 0;
  let failed = false;
  async function worker(): Promise<void> {
    while (!failed && next < items.length) {
      const index = next++;
      try {
        results[index] = await run(items[index] as T);
      } catch (err) {
        failed = true;
        throw err;
      }
    }
  }
  const settled = await Promise.allSettled(Array.from({ length: Math.min(limit, items.length) }, worker));
  const rejected = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (rejected) throw rejected.reason;
  return results;
}

/** Promise.all that, when one rejects, still waits for the others before rejecting with the first error. */
export async function settleAll<T extends readonly unknown[] | []>(
  values: T,
): Promise<{ -readonly [P in keyof T]: Awaited<T[P]> }> {
  const settled = await Promise.allSettled<readonly unknown[]>(values);
  const rejected = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (rejected) throw rejected.reason;
  return settled.map((s) => (s as PromiseFulfilledResult<unknown>).value) as {
    -readonly [P in keyof T]: Awaited<T[P]>;
  };
}
