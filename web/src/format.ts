import { srsBandOf, type SrsBand as ScoreBand } from '../../domain/scoring/srs-bands';

/**
 * SRS colour bands, from the bands of domain/scoring/srs-bands.ts that the portfolio overview counts: good (80+) is green,
 * fair (60-79) needs attention (amber), poor and critical (under 60) are "at risk" (red). One CRITICAL check alone
 * gives 55, so it is red.
 */
export type SrsBand = 'good' | 'warn' | 'risk' | 'none';

const COLOUR: Record<ScoreBand, SrsBand> = { good: 'good', fair: 'warn', poor: 'risk', critical: 'risk' };

export function srsBand(srs: number | null | undefined): SrsBand {
  if (srs === null || srs === undefined) return 'none';
  return COLOUR[srsBandOf(srs)];
}

export const BAND_LABEL: Record<SrsBand, string> = {
  good: 'Good',
  warn: 'Needs attention',
  risk: 'At risk',
  none: 'Not scanned yet',
};

export function when(iso: string | null | undefined): string {
  return iso ? new Date(iso).toLocaleString() : '—';
}

/**
 * An active account whose first scan has not saved its outcome yet (no score, no coverage). `last_scan_at` is set
 * when a scan starts, so it cannot tell: the page keeps polling until the outcome is in.
 */
export function awaitingFirstScan(a: { status: string; current_srs: number | null; coverage: object | null }): boolean {
  return a.status === 'ACTIVE' && a.current_srs === null && a.coverage === null;
}

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/**
 * How long ago `iso` was, in words ("just now", "2 min ago", "3 h ago", "5 days ago"); '—' when unset. A time a
 * little ahead of this browser's clock (the clocks disagree) is "just now" too.
 */
export function ago(iso: string | null | undefined, now: number = Date.now()): string {
  if (!iso) return '—';
  const elapsed = now - new Date(iso).getTime();
  if (Number.isNaN(elapsed)) return '—';
  if (elapsed < MINUTE_MS) return 'just now';
  if (elapsed < HOUR_MS) return `${Math.floor(elapsed / MINUTE_MS)} min ago`;
  if (elapsed < DAY_MS) return `${Math.floor(elapsed / HOUR_MS)} h ago`;
  const days = Math.floor(elapsed / DAY_MS);
  return `${days} day${days === 1 ? '' : 's'} ago`;
}
