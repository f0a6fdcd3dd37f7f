import type { Unread } from '../../../domain/scans/inventory';
import { mapLimit } from './concurrency';
import { ReadFailure } from './failures';

// The list-then-describe reads of services whose resources are described one at a time: a resource AWS refuses
// to describe is unread (by ARN), one that went away since it was listed is skipped, any other failure fails the
// region's read.

const PER_RESOURCE_CONCURRENCY = 4;

export interface Described<T> {
  items: T[];
  unread: Unread[];
}

const denied = (err: unknown) => err instanceof ReadFailure && err.kind === 'denied';

/**
 * The service's describe-each function: it describes each listed resource, four at a time; `gone` tells the
 * service's answer for a resource that no longer exists.
 */
export function describer(gone: (err: unknown) => boolean) {
  return async function describeEach<L extends { arn: string }, T>(
    listed: L[],
    describe: (item: L) => Promise<T>,
  ): Promise<Described<T>> {
    const unread: Unread[] = [];
    const described = await mapLimit({
      items: listed,
      limit: PER_RESOURCE_CONCURRENCY,
      run: async (item): Promise<T | null> => {
        try {
          return await describe(item);
        } catch (err) {
          if (gone(err)) return null;
          if (!denied(err)) throw err;
          unread.push({ kind: 'resource', scope: item.arn, reason: (err as ReadFailure).reason });
          return null;
        }
      },
    });
    return { items: described.filter((d): d is Awaited<T> => d !== null), unread };
  };
}
