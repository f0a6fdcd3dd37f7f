import { z } from 'zod';

export const verifyEmailInput = z.strictObject({ token: z.string().min(1, 'is required').max(512) });

/**
 * The signed token of a link in an alert e-mail (notify/recipient-links.ts): under 500 characters for the longest
 * address; the cap keeps any URL that carries one well below the 16 kB of headers Node accepts.
 */
export const recipientLinkQuery = z.object({
  token: z.string().min(1, 'is required').max(600).meta({ description: "The token from the e-mail's link" }),
});
