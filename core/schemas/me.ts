import { z } from 'zod';
import { PLAN_IDS } from '../../domain/tenancy/plans';
import { ROLES } from '../../domain/tenancy/roles';
import { TENANT_STATUSES } from '../../domain/tenancy/tenants';
import { displayName, timestamp } from './common';

export const user = z.object({
  user_id: z.string(),
  email: z.string().meta({ format: 'email' }),
  name: z.string(),
  role: z.enum(ROLES),
  created_at: timestamp,
});
export const tenant = z.object({
  tenant_id: z.string(),
  name: z.string(),
  plan: z.enum(PLAN_IDS),
  status: z.enum(TENANT_STATUSES),
  created_at: timestamp,
});
export const meOutput = z.object({
  user: user.extend({ email_verified: z.boolean().meta({ description: 'Whether the user has proved their address' }) }),
  tenant,
});
export const patchMeInput = z.strictObject({ name: displayName });
export const patchMeOutput = z.object({ name: z.string() });
