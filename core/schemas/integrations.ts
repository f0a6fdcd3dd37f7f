import { z } from 'zod';
import { timestamp } from './common';

export const oauthStartOutput = z.object({ oauth_url: z.string().meta({ format: 'uri' }) });

// The callback's query comes from Slack, which may add parameters over time: unknown ones are ignored rather
// than refused. It is read in two steps, the state first (it is consumed before code and error are looked at).
// A state that is not one string (missing, repeated) is treated as no state: 400 invalid_oauth_state.
export const slackInstallState = z.object({ state: z.string().min(1).max(256).optional().catch(undefined) });
export const slackInstallOutcome = z
  .object({
    code: z.string().min(1).max(512).optional(),
    error: z.string().min(1).max(256).optional(),
  })
  .superRefine((v, ctx) => {
    if (!v.code && !v.error) ctx.addIssue({ code: 'custom', path: ['code'], message: 'is required' });
  });

export const slackInstallation = z.object({
  team_id: z.string(),
  team_name: z.string().nullable(),
  bot_user_id: z.string().nullable(),
  installed_at: timestamp,
});
export const listSlackInstallationsOutput = z.object({ installations: z.array(slackInstallation) });
