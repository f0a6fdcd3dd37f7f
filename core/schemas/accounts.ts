import { z } from 'zod';
import { ACCOUNT_STATUSES } from '../../domain/accounts/status';
import { timestamp } from './common';
import { connectEventForwarding } from './events';

export const awsAccountId = z.string().regex(/^[0-9]{12}$/, 'must be exactly 12 digits');
export const tag = z
  .string()
  .trim()
  .min(1, 'tags must not be empty')
  .max(64, 'tags must be at most 64 characters')
  .meta({ pattern: '\\S' });

// The canonical field is aws_account_id; the spec's neutral spelling cloud_account_id is accepted as an alias.
export const connectAccountInput = z
  .strictObject({
    aws_account_id: awsAccountId.optional(),
    cloud_account_id: awsAccountId.optional(),
    display_name: z.string().trim().max(200, 'must be at most 200 characters').optional(),
    tags: z.array(tag).max(50, 'at most 50 tags').optional(),
    event_forwarding: z.boolean().default(true).meta({
      description: 'Whether the account gets an event key and the templates create the event forwarder (default true)',
    }),
  })
  .superRefine((v, ctx) => {
    if (!v.aws_account_id && !v.cloud_account_id) {
      ctx.addIssue({ code: 'custom', path: ['aws_account_id'], message: 'is required (12-digit AWS account id)' });
    } else if (v.aws_account_id && v.cloud_account_id && v.aws_account_id !== v.cloud_account_id) {
      ctx.addIssue({
        code: 'custom',
        path: ['cloud_account_id'],
        message: 'must equal aws_account_id when both are given',
      });
    }
  })
  .meta({ anyOf: [{ required: ['aws_account_id'] }, { required: ['cloud_account_id'] }] })
  .transform(({ aws_account_id, cloud_account_id, display_name, tags, event_forwarding }) => ({
    awsAccountId: (aws_account_id ?? cloud_account_id) as string,
    displayName: display_name || null,
    tags: [...new Set(tags ?? [])],
    eventForwarding: event_forwarding,
  }));

const status = z.enum(ACCOUNT_STATUSES);
export const accountIdOutput = z.string().meta({ pattern: '^[0-9]{12}$' });
const ids = { aws_account_id: accountIdOutput, cloud_account_id: accountIdOutput };
/** A Security Risk Score: 100 means nothing failing. */
export const srs = z.number().int().meta({ minimum: 0, maximum: 100 });
/** Whether a score read every core source of the account (domain/scoring/completeness.ts); null: not known. */
export const scoreComplete = z.boolean().nullable();

export const connectAccountOutput = z.object({
  ...ids,
  external_id: z.string(),
  sentinel_account_id: z.string(),
  status,
  terraform_snippet: z.string(),
  fallback_cli_script: z.string(),
  cloudformation_template: z.string().meta({
    description:
      'The same role as a CloudFormation template (YAML). The same for every tenant: the ExternalId is its `ExternalId` parameter',
  }),
  cloudformation_quick_create_url: z
    .string()
    .nullable()
    .meta({
      description:
        "Opens the AWS console's quick-create page for the published template with the stack name and this ExternalId filled in; " +
        'null when the service publishes no template (no template bucket configured) or could not publish it just now',
    }),
  event_forwarding: connectEventForwarding
    .nullable()
    .meta({ description: 'Null when the connect asked for no event forwarding' }),
});

export const coverage = z
  .object({
    evaluated: z.number().int().meta({ minimum: 0, description: 'Checks the scan could evaluate (passed or failed)' }),
    total: z.number().int().meta({ minimum: 0, description: 'Checks in the catalogue' }),
  })
  .meta({ description: 'How much of the account the latest scan could read' });

export const accountSummary = z.object({
  ...ids,
  display_name: z.string().nullable(),
  status,
  current_srs: srs.nullable(),
  last_scan_at: timestamp.nullable(),
  tags: z.array(z.string()),
  coverage: coverage
    .nullable()
    .meta({ description: 'Of the latest scan that recorded its checks; null before the first one' }),
  score_complete: scoreComplete.meta({
    description:
      'False when the latest scan could not read every core source of the account (IAM, CloudTrail, EC2, S3, ...): ' +
      'some check on one was not evaluated, or could not read some region or resource, and the score covers only what ' +
      'was read. Optional sources (AWS Health, Cost Explorer, AWS Budgets) do not count: what they could not read ' +
      'shows in `coverage` and the checks. Null before the first scan.',
  }),
});
export const listAccountsOutput = z.object({
  accounts: z.array(accountSummary),
  total: z.number().int().meta({ minimum: 0, description: 'Accounts matching the filters, on every page' }),
  next_token: z.string().nullable().meta({ description: 'The cursor of the next page; null on the last page' }),
});

/** Room for every account an Enterprise plan allows in one page, so clients that never page keep getting them all. */
export const MAX_ACCOUNTS_PAGE = 250;
export const ACCOUNT_SORTS = ['connected', 'srs'] as const;
export const listAccountsQuery = z.strictObject({
  tag: tag.optional().meta({ description: 'Only accounts with this tag' }),
  status: status.optional(),
  srs_below: z.coerce
    .number()
    .int('must be an integer')
    .min(0, 'must be 0-101')
    .max(101, 'must be 0-101')
    .optional()
    .meta({ description: 'Only accounts scored below this (current_srs < n); accounts without a score are left out' }),
  sort: z
    .enum(ACCOUNT_SORTS)
    .default('connected')
    .meta({
      description:
        '`connected`: in the order they were connected; `srs`: worst first (lowest score, unscored last, then the ' +
        'AWS account id)',
    }),
  limit: z.coerce
    .number()
    .int('must be an integer')
    .min(1, `must be 1-${MAX_ACCOUNTS_PAGE}`)
    .max(MAX_ACCOUNTS_PAGE, `must be 1-${MAX_ACCOUNTS_PAGE}`)
    .default(MAX_ACCOUNTS_PAGE),
  next_token: z.string().min(1).max(512).optional(),
});

export const accountDetail = accountSummary.extend({
  connected_at: timestamp.nullable(),
  last_successful_scan_at: timestamp.nullable(),
  region_baseline: z
    .object({
      regions: z.array(z.string()).meta({ description: 'Sorted region names' }),
      learned_at: timestamp.nullable().meta({
        description: 'When the first complete scan learned it; null while only accepted regions are known',
      }),
    })
    .nullable()
    .meta({
      description:
        'The regions the account uses: those of its first complete scan (instances launched more than 7 days before ' +
        "it, databases, file systems, trails' home regions) and those a member accepted an instance in since. An " +
        'instance running elsewhere is a threat signal however long it runs. Null before any scan has learned it',
    }),
});

/** The account workflow that runs the scan, and the scan id (its runScan activity id in that workflow). */
const executionArn = z
  .string()
  .meta({ pattern: '^arn:sentinel:temporal:[^:]+:workflow/account:[^/]+/scan/scan_[0-9A-Z]+$' });
export const verifyAccountOutput = z.object({
  ...ids,
  status: z.literal('ACTIVE'),
  first_scan_execution_arn: executionArn,
});
export const scanAccountOutput = z.object({ message: z.string(), execution_arn: executionArn });

export type ConnectAccountInput = z.output<typeof connectAccountInput>;
export type ListAccountsQuery = z.output<typeof listAccountsQuery>;
