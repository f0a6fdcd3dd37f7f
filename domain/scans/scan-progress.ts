import type { Unread } from './inventory';

// What a scan's attempts hand each other: the reads a collection has settled, so that a retry reads only what
// failed. The cloud provider makes and reads them; the database keeps them between attempts (scan_checkpoints).

/** How one read of a collection settled: read (perhaps with resources unread), or failed with a reason. JSON. */
export type ReadOutcome =
  | { status: 'ok'; value: unknown; unread?: Unread[] }
  | { status: 'failed'; reason: string; retryable: boolean };

/**
 * The reads a collection has settled, by key: what an attempt of a scan hands to the next one, so that a retry
 * reads only what failed. Opaque to everything but the provider that made it.
 */
export type Checkpoint = Record<string, ReadOutcome>;
