import { z } from 'zod';
import { EVENT_DETECTIONS } from '../../domain/events/detections';
import { WINDOWS_CATALOG } from '../../domain/events/windows-catalog';
import {
  MAX_PRINCIPAL_CHARS,
  MAX_TRUSTED_PRINCIPAL_DAYS,
  parsePrincipal,
  TRUSTED_PRINCIPAL_REASON_CHARS,
} from '../../domain/events/trusted-principals';
import { TRUSTED_PRINCIPALS_PER_TENANT } from '../../domain/tenancy/limits';
import { awsAccountId } from './accounts';
import { timestamp } from './common';

const DAY_MS = 86_400_000;
/** The detections a trusted principal can be exempt from: the single-event ones and those with memory. */
const DETECTION_IDS: ReadonlySet<string> = new Set([...EVENT_DETECTIONS, ...WINDOWS_CATALOG].map((d) => d.id));
const ALL = 'all';

const principal = z
  .string()
  .max(MAX_PRINCIPAL_CHARS, `must be at most ${MAX_PRINCIPAL_CHARS} characters`)
  .superRefine((arn, ctx) => {
    const parsed = parsePrincipal(arn);
    if (!parsed.ok) ctx.addIssue({ code: 'custom', message: parsed.reason });
  })
  .meta({
    description:
      'An IAM role ARN (`arn:aws:iam::123456789012:role/terraform`: every session of the role), an IAM user ARN, or ' +
      'a role session ARN, exact or ending with `*` for every session whose name starts so ' +
      '(`arn:aws:sts::123456789012:assumed-role/terraform/*`). Never the root user; never matches another account',
    examples: ['arn:aws:iam::123456789012:role/terraform'],
  });

const detections = z
  .union([
    z.literal(ALL),
    z
      .array(z.string().max(100))
      .min(1, 'must name at least one detection, or be "all"')
      .max(DETECTION_IDS.size)
      .superRefine((ids, ctx) => {
        ids.forEach((id, i) => {
          if (!DETECTION_IDS.has(id))
            ctx.addIssue({ code: 'custom', path: [i], message: `${id} is not an event detection` });
        });
      }),
  ])
  .meta({
    description:
      'The event detections (`event.iam_user_created`, ...) whose signals the principal opens no more, or `all`',
  });

export const createTrustedPrincipalInput = z.strictObject({
  aws_account_id: awsAccountId
    .optional()
    .meta({ description: "One of the tenant's AWS accounts; without it, every account of the tenant" }),
  principal,
  detections,
  reason: z
    .string()
    .trim()
    .min(1, `must be 1-${TRUSTED_PRINCIPAL_REASON_CHARS} characters`)
    .max(TRUSTED_PRINCIPAL_REASON_CHARS, `must be 1-${TRUSTED_PRINCIPAL_REASON_CHARS} characters`)
    .meta({ description: 'Why the principal is trusted (kept, and in the audit log)', pattern: '\\S' }),
  expires_at: z.iso
    .datetime({ offset: true, message: 'must be an ISO 8601 timestamp' })
    .refine((v) => Date.parse(v) > Date.now(), 'must be in the future')
    .refine(
      (v) => Date.parse(v) <= Date.now() + MAX_TRUSTED_PRINCIPAL_DAYS * DAY_MS,
      `must be at most ${MAX_TRUSTED_PRINCIPAL_DAYS} days ahead`,
    )
    .meta({ description: `When the trust ends (required, at most ${MAX_TRUSTED_PRINCIPAL_DAYS} days ahead)` }),
});
export type CreateTrustedPrincipalInput = z.output<typeof createTrustedPrincipalInput>;

export const listTrustedPrincipalsQuery = z.strictObject({
  status: z.enum(['in_force', 'all']).default('in_force').meta({
    description: '`in_force` (default): those suppressing now; `all`: also the revoked and expired, newest first',
  }),
});

export const trustedPrincipal = z.object({
  trusted_principal_id: z.string(),
  aws_account_id: z.string().nullable().meta({ description: 'The account it applies to; null: every account' }),
  principal: z.string(),
  detections: z.union([z.literal(ALL), z.array(z.string())]),
  reason: z.string(),
  expires_at: timestamp,
  created_by: z.object({ user_id: z.string().nullable(), email: z.string() }),
  created_at: timestamp,
  revoked_at: timestamp.nullable(),
  revoked_by_user_id: z.string().nullable(),
  status: z.enum(['in_force', 'expired', 'revoked']),
});

export const listTrustedPrincipalsOutput = z.object({
  trusted_principals: z.array(trustedPrincipal),
  in_force: z.number().int().meta({ minimum: 0 }),
  limit: z
    .literal(TRUSTED_PRINCIPALS_PER_TENANT)
    .meta({ description: 'How many may be in force at once per tenant (then 403 `plan_limit_exceeded`)' }),
});
