import { z } from 'zod';
import { ERROR_STATUS } from '../errors';

// Trimmed before the length check: whitespace alone is not a name (documented as a non-space character).
export const displayName = z
  .string()
  .trim()
  .min(1, 'must be 1-200 characters')
  .max(200, 'must be 1-200 characters')
  .meta({ pattern: '\\S' });
// At most 64 characters before the @ (RFC 5321), which z.email leaves unchecked: every address stored is one the
// answers can show as `format: email`.
export const email = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(
    z
      .email('must be a valid e-mail address')
      .max(254)
      .refine((address) => address.lastIndexOf('@') <= 64, 'must be a valid e-mail address'),
  )
  .meta({ examples: ['ops@example.com'] });
export const timestamp = z.string().meta({ description: 'ISO 8601 timestamp with offset', format: 'date-time' });
export const errorBody = z.object({
  error: z.string().meta({ description: 'What went wrong, for people' }),
  code: z.string().meta({ description: 'What went wrong, for programs', enum: Object.keys(ERROR_STATUS) }),
  details: z
    .array(z.object({ field: z.string(), message: z.string() }))
    .meta({ description: 'Validation errors only: every failing field, as a dotted path' })
    .optional(),
});
export const messageBody = z.object({ message: z.string() });

/** A page size in a query string: 1-200. */
export const pageLimit = z.coerce.number().int('must be an integer').min(1, 'must be 1-200').max(200, 'must be 1-200');
