import { z } from 'zod';
import { SCENARIOS, SEVERITIES } from '../../domain/checks/types';
import { ACCEPTANCE_SCOPES, MAX_SCOPED_ACCEPTANCE_DAYS } from '../../domain/signals/acceptance-scopes';
import { SCORE_HISTORY_RETENTION_DAYS } from '../../domain/records/retention';
import { accountIdOutput, awsAccountId, scoreComplete, srs, tag } from './accounts';
import { pageLimit, timestamp } from './common';

export const listSignalsQuery = z.strictObject({
  severity: z.enum(SEVERITIES).optional(),
  scenario: z.enum(SCENARIOS).optional(),
  /** Extension: one check's signals (a compliance control links to them). */
  check_id: z.string().min(1).max(100).optional(),
  since: z.iso.datetime({ offset: true, message: 'must be an ISO 8601 timestamp' }).optional(),
  /** Extension: open (resolved_at null), resolved, or all (default). */
  status: z.enum(['open', 'resolved', 'all']).default('all'),
  limit: pageLimit.default(50),
  next_token: z.string().min(1).max(512).optional(),
});

const DAY_MS = 86_400_000;
export const MAX_ACCEPTANCE_DAYS = 365;

export const acceptance = z
  .object({
    by_user_id: z.string().nullable().meta({ description: 'Who accepted it (null once that user was removed)' }),
    by_email: z.string(),
    reason: z.string(),
    accepted_at: timestamp,
    expires_at: timestamp.nullable().meta({ description: 'When the signal counts again; null: until undone' }),
    scope: z.enum(ACCEPTANCE_SCOPES).meta({
      description:
        'What the acceptance accepts: `signal`, this signal alone; `principal`, also the later occurrences of its ' +
        'detection by `principal`; `detection`, also those by anyone (until `expires_at`)',
    }),
    principal: z.string().nullable().meta({ description: 'The principal a `principal` scope accepts; else null' }),
    scope_signal_id: z
      .string()
      .nullable()
      .meta({
        description:
          'The signal a scoped acceptance was made on (this one, or an earlier occurrence whose acceptance accepted ' +
          'this one as it came; undo it there to end the scope); null for scope `signal`',
      }),
  })
  .meta({
    description: 'The risk was accepted: the signal counts in no score and fires no alert while this is in force',
  });

export const acceptSignalInput = z
  .strictObject({
    reason: z
      .string()
      .trim()
      .min(1, 'must be 1-500 characters')
      .max(500, 'must be 1-500 characters')
      .meta({ pattern: '\\S' }),
    expires_at: z.iso
      .datetime({ offset: true, message: 'must be an ISO 8601 timestamp' })
      .refine((v) => Date.parse(v) > Date.now(), 'must be in the future')
      .refine(
        (v) => Date.parse(v) <= Date.now() + MAX_ACCEPTANCE_DAYS * DAY_MS,
        `must be at most ${MAX_ACCEPTANCE_DAYS} days ahead`,
      )
      .optional()
      .meta({
        description:
          `When the acceptance ends (at most ${MAX_ACCEPTANCE_DAYS} days ahead, ${MAX_SCOPED_ACCEPTANCE_DAYS} for a ` +
          'scope); without it, until undone. Required with scope `principal` or `detection`',
      }),
    scope: z
      .enum(ACCEPTANCE_SCOPES)
      .default('signal')
      .meta({
        description:
          'What to accept. `signal` (default): this signal alone; the next occurrence of its detection opens a ' +
          'signal of its own and alerts. For an event signal of an occurrence detection (a sign-in, a root call, a ' +
          'new access key, ...), `principal`: also every later occurrence of the detection by the same principal, ' +
          '`detection`: by anyone; those are stored and accepted as they come (no alert, no score) until `expires_at`, ' +
          'which they require. Another signal with a scope is 400',
      }),
  })
  .superRefine((input, ctx) => {
    if (input.scope === 'signal') return;
    if (input.expires_at === undefined) {
      ctx.addIssue({ code: 'custom', path: ['expires_at'], message: `is required with scope ${input.scope}` });
    } else if (Date.parse(input.expires_at) > Date.now() + MAX_SCOPED_ACCEPTANCE_DAYS * DAY_MS) {
      ctx.addIssue({
        code: 'custom',
        path: ['expires_at'],
        message: `must be at most ${MAX_SCOPED_ACCEPTANCE_DAYS} days ahead with scope ${input.scope}`,
      });
    }
  });

export const signal = z.object({
  signal_id: z.string(),
  scenario: z.enum(SCENARIOS),
  severity: z.enum(SEVERITIES),
  title: z.string(),
  description: z.string(),
  detected_at: timestamp,
  resolved_at: timestamp.nullable(),
  check_id: z.string(),
  resource: z.string(),
  region: z.string(),
  occurrences: z
    .number()
    .int()
    .min(1)
    .meta({
      description:
        'How many findings the signal stands for: 1, and one more for each later occurrence of its event detection ' +
        "counted on it (within its window, or past the bound on the detection's open signals) instead of opening one",
    }),
  mitre: z
    .array(
      z.object({
        tactic: z.string().meta({ description: 'MITRE ATT&CK tactic id, e.g. TA0005' }),
        tactic_name: z.string(),
        technique: z.string().meta({ description: 'MITRE ATT&CK technique or sub-technique id, e.g. T1562.008' }),
        technique_name: z.string(),
      }),
    )
    .meta({
      description:
        "The MITRE ATT&CK tactics and techniques of the signal's event detection; empty for a scan check's signal",
    }),
  accepted: acceptance.nullable(),
});
export const listSignalsOutput = z.object({
  signals: z.array(signal),
  count: z.number().int(),
  next_token: z.string().nullable(),
});

/** GET /signals: the per-account filters, and which accounts (one, or those with a tag). */
export const searchSignalsQuery = listSignalsQuery.extend({
  aws_account_id: awsAccountId.optional().meta({ description: "Only this account's signals" }),
  /** The spec's neutral spelling of aws_account_id. */
  cloud_account_id: awsAccountId.optional().meta({ description: 'Alias of `aws_account_id`' }),
  tag: tag.optional().meta({ description: 'Only the signals of accounts with this tag' }),
});
export const accountSignal = signal.extend({
  aws_account_id: accountIdOutput,
  cloud_account_id: accountIdOutput,
  display_name: z.string().nullable().meta({ description: "The account's display name" }),
});
export const searchSignalsOutput = z.object({
  signals: z.array(accountSignal),
  count: z.number().int(),
  next_token: z.string().nullable(),
});

/** The score history kept (domain/records/retention.ts) is what can be asked for. */
export const MAX_HISTORY_DAYS = SCORE_HISTORY_RETENTION_DAYS;
export const scoreHistoryQuery = z.strictObject({
  days: z.coerce
    .number()
    .int('must be an integer')
    .min(1, `must be 1-${MAX_HISTORY_DAYS}`)
    .max(MAX_HISTORY_DAYS, `must be 1-${MAX_HISTORY_DAYS}`)
    .default(30),
});
export const scoreHistoryOutput = z.object({
  history: z.array(
    z.object({
      date: z.string().meta({ description: 'UTC calendar day', format: 'date' }),
      srs,
      complete: scoreComplete.meta({
        description:
          "Whether the day's score read every core source of the account (IAM, CloudTrail, EC2, S3, ...; optional " +
          'sources such as AWS Health and Cost Explorer do not count): false means it covers only what was read. ' +
          'Null for points recorded before this was kept',
      }),
    }),
  ),
});

export const recoveryChecklistOutput = z.object({
  checklist: z.array(
    z.object({
      step: z.number().int().meta({ minimum: 1 }),
      title: z.string(),
      description: z.string(),
      docs_url: z.string().meta({ format: 'uri' }),
    }),
  ),
});

export type ListSignalsQuery = z.output<typeof listSignalsQuery>;
export type SearchSignalsQuery = z.output<typeof searchSignalsQuery>;
/** As given: core reads a missing scope as the signal alone, so callers other than the API need not name it. */
export type AcceptSignalInput = z.input<typeof acceptSignalInput>;
