import type { AppDeps } from './deps';

// Work a request leaves for after its answer, so the answer neither waits for it nor tells anything by its timing:
// a password reset's lookup, link and e-mail (core/identity/password-reset.ts). It runs in this process, after the
// request's own continuations (which write the answer); a stopping process waits for it (afterAnswerSettled), a
// crashed one loses it, which the client sees as an e-mail that never came, and can ask again.

const running = new Set<Promise<void>>();

export function afterAnswer(log: AppDeps['log'], what: string, work: () => Promise<unknown>): void {
  const run: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
    .then(work)
    .then(
      () => undefined,
      (err: unknown) => log.warn({ err }, `${what} failed after the answer`),
    )
    .finally(() => running.delete(run));
  running.add(run);
}

/** Resolves when the work every request of this process left for after its answer is done. */
export async function afterAnswerSettled(): Promise<void> {
  while (running.size > 0) await Promise.all(running);
}
