import { z } from 'zod';

const probe = z.enum(['ok', 'unavailable']);

export const healthOutput = z.object({ status: z.literal('ok') });
/** 200 when both dependencies answer, else 503 with the same shape. */
export const readinessOutput = z.object({
  status: probe,
  checks: z.object({ database: probe, temporal: probe }),
  cloud_provider: z.enum(['aws', 'sandbox']).meta({
    description: "Which cloud the service scans: real AWS accounts, or the sandbox's simulated ones (demo data)",
  }),
});
