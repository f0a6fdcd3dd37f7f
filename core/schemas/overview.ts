import { z } from 'zod';
import { ACCOUNT_STATUSES } from '../../domain/accounts/status';
import { SCENARIOS, SEVERITIES } from '../../domain/checks/types';
import { SRS_BAND_FLOORS, SRS_BANDS } from '../../domain/scoring/srs-bands';
import { accountIdOutput, coverage, scoreComplete, srs } from './accounts';
import { timestamp } from './common';

const count = z.number().int().meta({ minimum: 0 });
const counts = <K extends string>(keys: readonly K[]) =>
  z.object(Object.fromEntries(keys.map((k) => [k, count])) as Record<K, typeof count>);
const account = {
  aws_account_id: accountIdOutput,
  cloud_account_id: accountIdOutput,
  display_name: z.string().nullable(),
};

const bands = SRS_BANDS.map((band, i) => {
  const next = SRS_BANDS[i + 1];
  return `${band} ${SRS_BAND_FLOORS[band]}-${next ? SRS_BAND_FLOORS[next] - 1 : 100}`;
}).join(', ');

/** No parameters: any is a mistake (400). */
export const overviewQuery = z.strictObject({});

export const overviewOutput = z.object({
  generated_at: timestamp.meta({
    description:
      'When these figures were read. The answer may be a copy read up to a minute earlier (the last 24 hours then end ' +
      'at that time), but never one older than a change to the accounts, signals, acceptances, scans or scores it shows',
  }),
  accounts: z.object({
    total: count.meta({ description: 'Every account of the tenant, disconnected ones included' }),
    by_status: counts(ACCOUNT_STATUSES),
    by_srs_band: counts([...SRS_BANDS, 'unscored'] as const).meta({
      description: `The accounts not disconnected, by their current score: ${bands}; unscored: no score yet`,
    }),
    incomplete_by_srs_band: counts(SRS_BANDS).meta({
      description:
        'Of the accounts counted in each band of `by_srs_band`, those whose score did not read every core source ' +
        '(`score_complete` not true): a band shows what was read, not necessarily the whole account',
    }),
  }),
  srs_trend: z
    .array(
      z.object({
        day: z.string().meta({ description: 'UTC calendar day', format: 'date' }),
        average_srs: z
          .number()
          .meta({ minimum: 0, maximum: 100, description: "The mean of the day's scores, to one decimal" }),
        accounts: count.meta({ description: 'How many accounts had a score that day' }),
        complete_accounts: count.meta({
          description:
            'How many of those scores read every core source of their account; points recorded before this was ' +
            'kept count as not complete',
        }),
      }),
    )
    .meta({ description: 'The last 30 days (today included), oldest first, one point per day with any score' }),
  worst_accounts: z
    .array(
      z.object({
        ...account,
        tags: z.array(z.string()),
        current_srs: srs,
        score_complete: scoreComplete.meta({
          description: 'Whether the score read every core source of the account (see GET /accounts)',
        }),
        open_signals: count,
      }),
    )
    .meta({ description: 'The 10 lowest scored accounts not disconnected, worst first (ties by AWS account id)' }),
  open_signals: z
    .object({
      total: count,
      by_severity: counts(SEVERITIES),
      by_scenario: counts(SCENARIOS),
    })
    .meta({ description: 'Open signals of the accounts not disconnected, those whose risk is accepted left out' }),
  changes_24h: z.object({
    new_signals: count.meta({ description: 'Signals detected in the last 24 hours' }),
    resolved_signals: count.meta({ description: 'Signals resolved in the last 24 hours' }),
    accounts: z
      .array(z.object({ ...account, new_signals: count, resolved_signals: count }))
      .meta({ description: 'The accounts with any change, most changes first, at most 50' }),
  }),
  attention: z.object({
    incomplete_coverage: z
      .array(z.object({ ...account, coverage: coverage.nullable(), score_complete: z.boolean() }))
      .meta({
        description:
          'Accounts whose latest scan could not read every core source (their score is incomplete), least covered first',
      }),
    failing_scans: z
      .array(z.object({ ...account, failed_at: timestamp, failure_reason: z.string().nullable() }))
      .meta({ description: 'Accounts whose latest finished scan failed, most recent first' }),
  }),
});
