// Bands of the Security Risk Score, for the portfolio overview and the dashboard's colours: one definition, so a
// score is "poor" in the overview exactly where the dashboard colours it as at risk.

export const SRS_BANDS = ['critical', 'poor', 'fair', 'good'] as const;
export type SrsBand = (typeof SRS_BANDS)[number];

/** The lowest score of each band; a band runs up to the next band's floor (good up to 100). */
export const SRS_BAND_FLOORS: Readonly<Record<SrsBand, number>> = { critical: 0, poor: 40, fair: 60, good: 80 };

export function srsBandOf(srs: number): SrsBand {
  if (srs >= SRS_BAND_FLOORS.good) return 'good';
  if (srs >= SRS_BAND_FLOORS.fair) return 'fair';
  if (srs >= SRS_BAND_FLOORS.poor) return 'poor';
  return 'critical';
}
