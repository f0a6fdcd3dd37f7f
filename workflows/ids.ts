import { uuid4 } from '@temporalio/workflow';
import { newId } from '../domain/ids';

/**
 * A scan id (also the scan workflow's id): the same sortable layout as every other id, from the workflow's
 * deterministic clock and randomness, so replays produce the same id.
 */
export function newScanId(): string {
  const hex = uuid4().replace(/-/g, '');
  const random = Uint8Array.from({ length: 10 }, (_, i) => parseInt(hex.slice(i * 2, i * 2 + 2), 16));
  // Date.now() in a workflow is the workflow task's time, recorded in history: replay-safe.
  // eslint-disable-next-line no-restricted-properties
  return newId('scan', Date.now(), random);
}
