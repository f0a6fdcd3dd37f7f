import { z } from 'zod';

export const displayName = z.string().trim().min(1, 'must be 1-200 characters').max(200, 'must be 1-200 characters');
export const email = z.string().trim().toLowerCase().pipe(z.email('must be a valid e-mail address').max(254));
export const timestamp = z.string().describe('ISO 8601 timestamp');
export const errorBody = z.object({
  error: z.string(),
  code: z.string(),
  details: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
});
export const messageBody = z.object({ message: z.string() });
