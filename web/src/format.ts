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
