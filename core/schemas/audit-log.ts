import { z } from 'zod';
import { AUDIT_ACTIONS } from '../../domain/tenancy/audit';
import { pageLimit } from './common';

export const auditLogQuery = z.strictObject({
  limit: pageLimit.default(50),
  next_token: z.string().min(1).max(512).optional(),
  action: z.enum(AUDIT_ACTIONS, `must be one of ${AUDIT_ACTIONS.join(', ')}`).optional(),
  user_id: z
    .string()
    .regex(/^usr_[0-9A-Za-z_]{1,64}$/, 'must be a user id (usr_...)')
    .optional(),
});
export type AuditLogQuery = z.output<typeof auditLogQuery>;

export const auditLogOutput = z.object({
  events: z.array(
    z.object({
      event_id: z.string(),
      action: z.enum(AUDIT_ACTIONS),
      actor: z.object({ user_id: z.string().nullable(), email: z.string().nullable() }).nullable().meta({
        description:
          'Who acted (null: nobody signed in, for example a Stripe event); user_id is null once the user was removed',
      }),
      target: z
        .string()
        .nullable()
        .meta({ description: 'What it was done to, e.g. account:123456789012, rule:rule_..., user:usr_...' }),
      client_address: z.string().nullable(),
      details: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
      created_at: z.string(),
    }),
  ),
  next_token: z.string().nullable(),
});
