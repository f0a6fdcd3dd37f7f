import { z } from 'zod';

const ULID = '[0-9A-HJKMNP-TV-Z]{26}';
const prefixedId = (prefix: string, what: string) =>
  z.string().meta({ description: `${what} (\`${prefix}_\` and 26 characters)`, pattern: `^${prefix}_${ULID}$` });

/**
 * Path parameters, by the name the paths use, as the OpenAPI document describes them. Handlers get them as
 * strings, unchecked: an id that cannot be one is simply not found (404).
 */
export const PATH_PARAMS: Readonly<Record<string, z.ZodType>> = {
  account_id: z
    .string()
    .meta({ description: 'The 12-digit AWS account id', pattern: '^[0-9]{12}$', examples: ['123456789012'] }),
  rule_id: prefixedId('rule', 'An alert rule id'),
  alert_id: prefixedId('alrt', 'An alert id'),
  user_id: prefixedId('usr', 'A user id'),
  export_id: prefixedId('exp', 'A panic export id'),
  signal_id: prefixedId('sig', 'A signal id'),
  org_id: prefixedId('org', "An AWS Organization's id in Sentinel"),
  team_id: z.string().meta({ description: 'A Slack workspace id such as T0123ABC', pattern: '^[A-Z0-9]{2,32}$' }),
  trusted_principal_id: prefixedId('trp', 'A trusted principal id'),
  detection_id: prefixedId('det', "A tenant's detection (Sigma rule) id"),
};
