// Reads many callers need at once, made once for all of them: the keys asked for while a read is under way (or in
// the same turn of the event loop) are read together by the next read, one statement for dozens of requests under a
// burst, and a key asked for alone is read at once. Nothing is kept: every answer comes from a read that started
// after it was asked for, so it is as fresh as a read of its own.

/** How many reads run at once: one gathers keys while the other is answered. */
const READS_IN_FLIGHT = 2;
/** Keys in one read at most. */
const MAX_KEYS = 500;

interface Asked<V> {
  resolve: (value: V | undefined) => void;
  reject: (err: unknown) => void;
}

/**
 * `read` for one key at a time, gathered as above. `read` answers the keys it found (a key it leaves out answers
 * undefined); when it fails, every caller of that read gets its error.
 */
export function batchedRead<K, V>(read: (keys: K[]) => Promise<Map<K, V>>): (key: K) => Promise<V | undefined> {
  const waiting = new Map<K, Asked<V>[]>();
  let reading = 0;
  let scheduled = false;

  const start = async () => {
    const keys = [...waiting.keys()].slice(0, MAX_KEYS);
    const taken = new Map(keys.map((key) => [key, waiting.get(key)!]));
    for (const key of keys) waiting.delete(key);
    reading += 1;
    try {
      const found = await read(keys);
      for (const [key, asked] of taken) for (const a of asked) a.resolve(found.get(key));
    } catch (err) {
      for (const asked of taken.values()) for (const a of asked) a.reject(err);
    } finally {
      reading -= 1;
      schedule();
    }
  };

  function schedule(): void {
    if (scheduled || reading >= READS_IN_FLIGHT || waiting.size === 0) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      if (reading >= READS_IN_FLIGHT || waiting.size === 0) return;
      void start();
      schedule();
    });
  }

  return (key: K) =>
    new Promise<V | undefined>((resolve, reject) => {
      const asked = waiting.get(key) ?? [];
      asked.push({ resolve, reject });
      waiting.set(key, asked);
      schedule();
    });
}

/** One batched read per database handle (each process has one; tests make several). */
export function batchedReadOf<D extends object, K, V>(
  read: (db: D, keys: K[]) => Promise<Map<K, V>>,
): (db: D, key: K) => Promise<V | undefined> {
  const reads = new WeakMap<D, (key: K) => Promise<V | undefined>>();
  return (db, key) => {
    let one = reads.get(db);
    if (!one) {
      one = batchedRead((keys: K[]) => read(db, keys));
      reads.set(db, one);
    }
    return one(key);
  };
}
