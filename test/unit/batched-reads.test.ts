import { batchedRead } from '../../core/batched-reads';

// core/batched-reads.ts: keys asked for together share one read, each caller gets its own key's answer, and nothing
// is answered from a read that started before it was asked for.

/** A read that records the keys of each call and waits until `release` lets it answer. */
function recordingRead(answer: (key: string) => number | undefined = (key) => key.length) {
  const calls: string[][] = [];
  const pending: (() => void)[] = [];
  let failNext: Error | undefined;
  const read = (keys: string[]) => {
    calls.push([...keys]);
    const failure = failNext;
    failNext = undefined;
    return new Promise<Map<string, number>>((resolve, reject) => {
      pending.push(() => {
        if (failure) reject(failure);
        else
          resolve(
            new Map(
              keys.flatMap((key): [string, number][] => (answer(key) === undefined ? [] : [[key, answer(key)!]])),
            ),
          );
      });
    });
  };
  return {
    read,
    calls,
    release: () => pending.splice(0).forEach((answerNow) => answerNow()),
    fail: (err: Error) => {
      failNext = err;
    },
  };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('batchedRead', () => {
  it('reads the keys asked for in one turn together, once each, and answers each caller its own', async () => {
    const r = recordingRead();
    const lookup = batchedRead(r.read);
    const answers = Promise.all([lookup('a'), lookup('bbb'), lookup('a'), lookup('cc')]);
    await turn();
    r.release();
    expect(await answers).toEqual([1, 3, 1, 2]);
    expect(r.calls).toEqual([['a', 'bbb', 'cc']]);
  });

  it('answers undefined for a key the read did not find', async () => {
    const r = recordingRead((key) => (key === 'known' ? 7 : undefined));
    const lookup = batchedRead(r.read);
    const answers = Promise.all([lookup('known'), lookup('unknown')]);
    await turn();
    r.release();
    expect(await answers).toEqual([7, undefined]);
  });

  it('gathers the keys asked for while reads are under way into the next read, never into one already started', async () => {
    const r = recordingRead();
    const lookup = batchedRead(r.read);
    const first = lookup('one');
    await turn();
    const second = lookup('two');
    await turn();
    // Two reads run at once at most: these wait for one of them to end.
    const later = Promise.all([lookup('three'), lookup('four'), lookup('one')]);
    await turn();
    expect(r.calls).toEqual([['one'], ['two']]);
    r.release();
    expect(await Promise.all([first, second])).toEqual([3, 3]);
    await turn();
    expect(r.calls).toEqual([['one'], ['two'], ['three', 'four', 'one']]);
    r.release();
    expect(await later).toEqual([5, 4, 3]);
  });

  it('fails only the callers of a read that failed; the next read answers', async () => {
    const r = recordingRead();
    const lookup = batchedRead(r.read);
    r.fail(new Error('connection lost'));
    const failed = Promise.allSettled([lookup('a'), lookup('b')]);
    await turn();
    r.release();
    expect((await failed).map((o) => o.status)).toEqual(['rejected', 'rejected']);
    const next = lookup('a');
    await turn();
    r.release();
    expect(await next).toBe(1);
  });
});
