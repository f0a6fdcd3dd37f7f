import type { Connection } from '@temporalio/client';

/**
 * Keeps the Temporal connection's call context (an `AsyncLocalStorage`) enabled only while one of its calls runs.
 *
 * The client carries each call's deadline, abort signal and metadata (every namespaced call's `temporal-namespace`
 * header) in that storage, entered with `run`. On Node 20, once an `AsyncLocalStorage` has been entered, Node runs a
 * hook for every promise the process creates, until the storage is disabled: in the API, the first call to Temporal
 * made every later request's awaits pay for it, though only commands call Temporal (measured: a handler with three
 * awaits answered a sixth fewer requests a second). Here the storage is disabled when its last scope ends, and the
 * next call's `run` enables it again. Nothing in flight loses its context: a call reads the store when it is sent,
 * within its scope, and a scope lasts until the promise its callback returned settles.
 */
export function releaseCallContextWhenIdle(connection: Connection): void {
  const storage = connection.callContextStorage;
  const run = storage.run.bind(storage);
  let scopes = 0;
  const ended = () => {
    scopes -= 1;
    if (scopes === 0) storage.disable();
  };
  storage.run = (<R, TArgs extends unknown[]>(store: unknown, callback: (...args: TArgs) => R, ...args: TArgs): R => {
    scopes += 1;
    let result: R;
    try {
      result = run(store as never, callback, ...args);
    } catch (err) {
      ended();
      throw err;
    }
    if (result instanceof Promise) void result.then(ended, ended);
    else ended();
    return result;
  }) as typeof storage.run;
}
