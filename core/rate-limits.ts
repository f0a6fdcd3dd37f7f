import { hitWindow, releaseHit } from '../db/repositories/rate-limits';
import type { AppDeps } from './deps';
import { AppError } from './errors';

// Fixed-window limits counted in PostgreSQL (shared by every API instance). Each request takes one hit from
// every limit it falls under before it acts, so parallel requests cannot slip past; the values are in
// domain/tenancy/limits.ts and the README's table.

export interface WindowLimit {
  key: string;
  limit: number;
  windowSeconds: number;
  /** The 429's message: what was limited, and how much is allowed. */
  message: string;
}

/**
 * Counts one request against each limit. Past any of them: 429 `rate_limited` with the longest `Retry-After`
 * (the hits stay: a refused request counts too). Otherwise answers a function that takes the hits back, for
 * a request that turns out not to have done anything.
 */
export async function takeHits(db: AppDeps['db'], limits: readonly WindowLimit[]): Promise<() => Promise<void>> {
  const windows = await Promise.all(limits.map((l) => hitWindow({ db, key: l.key, windowSeconds: l.windowSeconds })));
  const exceeded = limits
    .map((limit, i) => ({ limit, window: windows[i]! }))
    .filter(({ limit, window }) => window.count > limit.limit);
  if (exceeded.length > 0) {
    const retryAfterSeconds = Math.max(...exceeded.map((e) => e.window.resetsInSeconds));
    throw new AppError('rate_limited', exceeded[0]!.limit.message, { retryAfterSeconds });
  }
  return async () => {
    await Promise.all(limits.map((l) => releaseHit({ db, key: l.key })));
  };
}
