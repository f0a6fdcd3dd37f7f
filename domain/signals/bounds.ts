import { boundNullableText, boundText } from '../bounded-text';

// What a signal keeps of the text its finding brings: each field within a number of bytes (domain/bounded-text.ts),
// whichever way it opened (a scan's check, an event's detection, the forwarding watch). A resource's name comes from
// the customer's account or from an event's body, and goes into the signal's fingerprint, its description, every
// page that lists it and every alert: unbounded, a bucket named with 200 KB made a 391 KB signal, and a few KB of
// name broke the open-fingerprint index (PostgreSQL refuses a B-tree entry over 2,704 bytes).

/**
 * Bytes each field may hold: far above any real value (an ARN is at most 2,048 characters, nearly always under 200;
 * a check's description with its detail a few hundred bytes), far below what would hurt.
 */
export const SIGNAL_TEXT_BYTES = {
  title: 512,
  description: 8_192,
  resource: 1_024,
  owner: 1_024,
  principal: 1_024,
} as const;

/** A resource's name as signals keep it, and as their fingerprints name it. */
export const boundedResource = (resource: string): string => boundText(resource, SIGNAL_TEXT_BYTES.resource);

/** Who acted, as occurrence signals keep and count it. */
export const boundedPrincipal = (principal: string | null): string | null =>
  boundNullableText(principal, SIGNAL_TEXT_BYTES.principal);

interface SignalText {
  title: string;
  description: string;
  resource: string;
  owner?: string | null;
  principal?: string | null;
}

/** The signal (or finding) with each text field within its bound; the rest as it is. */
export function boundSignalText<T extends SignalText>(signal: T): T {
  return {
    ...signal,
    title: boundText(signal.title, SIGNAL_TEXT_BYTES.title),
    description: boundText(signal.description, SIGNAL_TEXT_BYTES.description),
    resource: boundedResource(signal.resource),
    ...(signal.owner != null ? { owner: boundText(signal.owner, SIGNAL_TEXT_BYTES.owner) } : {}),
    ...(signal.principal != null ? { principal: boundedPrincipal(signal.principal) } : {}),
  };
}
