import { z } from 'zod';
import { ACCOUNT_STATUSES } from '../../domain/accounts/status';
import { MEMBER_AWS_STATUSES, MEMBER_STATES, ORGANIZATION_STATUSES } from '../../domain/accounts/organizations';
import { accountIdOutput, awsAccountId, scoreComplete, srs, tag } from './accounts';
import { timestamp } from './common';

export const connectOrganizationInput = z
  .strictObject({
    management_account_id: awsAccountId,
    display_name: z.string().trim().max(200, 'must be at most 200 characters').optional(),
    tags: z.array(tag).max(50, 'at most 50 tags').optional().meta({
      description: 'Given to every member account the organization connects, beside its `ou:` and `name:` tags',
    }),
  })
  .transform(({ management_account_id, display_name, tags }) => ({
    managementAccountId: management_account_id,
    displayName: display_name || null,
    tags: [...new Set(tags ?? [])],
  }));
export type ConnectOrganizationInput = z.output<typeof connectOrganizationInput>;

export const removeOrganizationQuery = z.strictObject({
  disconnect_accounts: z.enum(['true', 'false']).default('false').meta({
    description: 'true: every account the organization connected is disconnected too (default: they stay connected)',
  }),
});
export type RemoveOrganizationQuery = z.output<typeof removeOrganizationQuery>;

const orgId = z.string().meta({ pattern: '^org_[0-9A-HJKMNP-TV-Z]{26}$' });
const status = z.enum(ORGANIZATION_STATUSES);

export const connectOrganizationOutput = z.object({
  org_id: orgId,
  management_account_id: accountIdOutput,
  external_id: z.string().meta({
    description: 'The one ExternalId of the organization: the management role and every member role trust it',
  }),
  sentinel_account_id: z.string(),
  status,
  management_role: z
    .object({
      role_name: z.string(),
      cloudformation_template: z.string(),
      terraform_snippet: z.string(),
      cli_script: z.string(),
    })
    .meta({ description: 'The read-only role to create in the management account, three ways' }),
  member_stackset_template: z.string().meta({
    description: 'A CloudFormation template to deploy as a service-managed StackSet: the member role in every account',
  }),
  instructions: z.array(z.string()),
});

export const verifyOrganizationOutput = z.object({
  org_id: orgId,
  status: z.literal('ACTIVE'),
  aws_organization_id: z.string(),
  accounts_found: z.number().int().meta({ minimum: 0 }),
});

export const removeOrganizationOutput = z.object({
  message: z.string(),
  accounts_disconnected: z
    .number()
    .int()
    .meta({ minimum: 0, description: 'Accounts of the organization this call disconnected' }),
});

export const syncOrganizationOutput = z.object({ message: z.string(), org_id: orgId });

const memberCounts = z
  .object({
    total: z.number().int(),
    monitored: z.number().int(),
    awaiting_role: z.number().int(),
    not_monitored_plan_limit: z.number().int(),
    disconnected: z.number().int(),
  })
  .meta({ description: 'Member accounts in the organization now, by what Sentinel does with them' });

export const organizationSummary = z.object({
  org_id: orgId,
  management_account_id: accountIdOutput,
  aws_organization_id: z.string().nullable(),
  display_name: z.string().nullable(),
  status,
  last_sync_at: timestamp.nullable(),
  last_sync_error: z.string().nullable(),
  accounts: memberCounts,
});
export const listOrganizationsOutput = z.object({ organizations: z.array(organizationSummary) });

export const organizationMember = z.object({
  aws_account_id: accountIdOutput,
  name: z.string(),
  ou_path: z.string().meta({ description: 'From the root, e.g. `Root/Workloads/Prod`' }),
  aws_status: z.enum(MEMBER_AWS_STATUSES),
  state: z.enum(MEMBER_STATES),
  reason: z.string().nullable(),
  account_status: z
    .enum(ACCOUNT_STATUSES)
    .nullable()
    .meta({ description: 'The Sentinel account of that id; null when there is none' }),
  current_srs: srs.nullable(),
  score_complete: scoreComplete.meta({
    description:
      "Whether that account's score read every core source (see GET /accounts); null without a Sentinel account or a scan",
  }),
});
/** As listed, with the counts under `account_counts` and every member account under `accounts`. */
export const organizationDetail = organizationSummary.omit({ accounts: true }).extend({
  account_counts: memberCounts,
  accounts: z
    .array(organizationMember)
    .meta({ description: 'Every member account, by OU path then name (the tree is built from ou_path)' }),
});
