/**
 * SRS colour bands. 100 means nothing failing; one CRITICAL check alone gives 55 and the default alert
 * threshold is 40, so anything under 60 is "at risk" (red), 60-79 needs attention (amber), 80+ is good (green).
 */
export type SrsBand = 'good' | 'warn' | 'risk' | 'none';

export function srsBand(srs: number | null | undefined): SrsBand {
  if (srs === null || srs === undefined) return 'none';
  if (srs >= 80) return 'good';
  if (srs >= 60) return 'warn';
  return 'risk';
}

export const BAND_LABEL: Record<SrsBand, string> = { good: 'Good', warn: 'Needs attention', risk: 'At risk', none: 'Not scanned yet' };

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
