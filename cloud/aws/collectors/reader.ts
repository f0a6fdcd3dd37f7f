import type { PartName, PartValue, Unread } from '../../../domain/scans/inventory';
import type { ExpectedForwarder } from '../../types';
import type { Session } from './session';

// How a part of the inventory is read. A global part is one read; a regional part is one read per enabled
// region, assembled into the part's value. A read may leave resources unread (a bucket, a user's keys) and still
// succeed; a read that throws leaves its whole part (or region) unread.

export interface Readout<T> {
  value: T;
  unread?: Unread[];
}

export interface ReadContext {
  session: Session;
  /** The collection's time: what is recent or complete is measured from it. */
  now: Date;
  /** The event forwarder Sentinel expects in the account; absent: none (connected without event forwarding). */
  eventForwarder?: ExpectedForwarder;
  /** The reads more than one part needs, made once for the collection attempt (see `sharedReads`). */
  shared: SharedReads;
}

/** The answer of the read under `key`, made by the first part to ask for it; the others wait on the same promise. */
export type SharedReads = <T>(key: string, read: () => Promise<T>) => Promise<T>;

/**
 * Reads shared between the parts of one collection attempt (two parts that list the same keys, or describe the same
 * instances), so the account is asked once. A read that fails fails for every part that needs it, as its own call
 * would have: each part settles on its own, and a later attempt, with reads of its own, asks again for the parts it
 * retries.
 */
export function sharedReads(): SharedReads {
  const made = new Map<string, Promise<unknown>>();
  return <T>(key: string, read: () => Promise<T>): Promise<T> => {
    let answer = made.get(key) as Promise<T> | undefined;
    if (!answer) {
      answer = read();
      made.set(key, answer);
    }
    return answer;
  };
}

export interface GlobalReader<K extends PartName> {
  part: K;
  read(ctx: ReadContext): Promise<Readout<PartValue<K>>>;
}

export interface RegionalReader<K extends PartName, Slice> {
  part: K;
  read(ctx: ReadContext, region: string): Promise<Slice>;
  /** Resources of a region that was read which could not be read themselves (a key its policy hides). */
  unreadIn?(slice: Slice): Unread[];
  /** The part's value from the slices of the regions that were read. */
  assemble(slices: Slice[]): PartValue<K>;
}

export type AnyReader =
  | { scope: 'global'; reader: GlobalReader<PartName> }
  | { scope: 'regional'; reader: RegionalReader<PartName, unknown> };

export const globalPart = <K extends PartName>(reader: GlobalReader<K>): AnyReader => ({
  scope: 'global',
  reader: reader as unknown as GlobalReader<PartName>,
});

export const regionalPart = <K extends PartName, Slice>(reader: RegionalReader<K, Slice>): AnyReader => ({
  scope: 'regional',
  reader: reader as unknown as RegionalReader<PartName, unknown>,
});

/** Pages of an SDK paginator folded into one value as they arrive, so a large account never sits in memory whole. */
export async function foldPages<P, T>(pages: AsyncIterable<P>, initial: T, fold: (into: T, page: P) => T): Promise<T> {
  let value = initial;
  for await (const page of pages) value = fold(value, page);
  return value;
}
