import { z } from 'zod';
import { displayName, email } from './common';

// Upper bound keeps the password KDF's work bounded for hostile input.
const password = z.string().min(8, 'must be at least 8 characters').max(1024, 'must be at most 1024 characters');

export const signupInput = z.strictObject({ email, password, name: displayName });
export const signupOutput = z.object({ tenant_id: z.string(), user_id: z.string(), message: z.string() });

export const loginInput = z.strictObject({ email, password: z.string().min(1, 'is required').max(1024) });
export const tokensOutput = z.object({
  access_token: z.string(),
  id_token: z.string(),
  refresh_token: z.string(),
  expires_in: z.number().int(),
  token_type: z.literal('Bearer'),
});

export const refreshInput = z.strictObject({ refresh_token: z.string().min(1, 'is required').max(512) });
export const logoutInput = refreshInput;

export const passwordResetInput = z.strictObject({ email });
export const passwordResetConfirmInput = z.strictObject({ token: z.string().min(1, 'is required').max(512), password });

export type SignupInput = z.output<typeof signupInput>;
export type LoginInput = z.output<typeof loginInput>;
export type TokensOutput = z.output<typeof tokensOutput>;
