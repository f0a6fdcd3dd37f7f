import { z } from 'zod';
import { displayName, timestamp } from './common';

export const user = z.object({
  user_id: z.string(),
  email: z.string().meta({ format: 'email' }),
  name: z.string(),
  role: z.enum(['owner', 'admin', 'member', 'viewer']),
  created_at: timestamp,
});
export const tenant = z.object({
  tenant_id: z.string(),
  name: z.string(),
  plan: z.enum(['solo', 'team', 'agency', 'enterprise']),
  status: z.string().meta({ description: 'active, past_due, canceled or suspended' }),
  created_at: timestamp,
});
export const meOutput = z.object({ user, tenant });
export const patchMeInput = z.strictObject({ name: displayName });
export const patchMeOutput = z.object({ name: z.string() });
