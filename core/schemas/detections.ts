import { z } from 'zod';
import { SIGMA_LEVELS } from '../../domain/events/sigma/rule';
import { SEVERITIES } from '../../domain/checks/types';
import { SIGMA_YAML_MAX_BYTES } from '../detections/sigma-yaml';
import { displayName, timestamp } from './common';

export const createDetectionInput = z.strictObject({
  name: displayName,
  sigma: z
    .string('must be the Sigma rule as YAML text')
    .min(1, 'must be the Sigma rule as YAML text')
    .max(SIGMA_YAML_MAX_BYTES, `must be at most ${SIGMA_YAML_MAX_BYTES / 1024} KiB`)
    .meta({
      description:
        'The rule as YAML: logsource product aws, service cloudtrail; fields are CloudTrail record paths ' +
        '(`userIdentity.type`)',
    }),
});
export type CreateDetectionInput = z.output<typeof createDetectionInput>;

export const patchDetectionInput = z.strictObject({ enabled: z.boolean('must be true or false') });
export type PatchDetectionInput = z.output<typeof patchDetectionInput>;

export const tenantDetection = z.object({
  detection_id: z.string(),
  name: z.string(),
  /** What the detection is called in events' `detections` and signals' `check_id`. */
  check_id: z.string().meta({ description: "The id events' `detections` and signals name it by: `sigma.` and its id" }),
  title: z.string().meta({ description: "The rule's title: its signals' title" }),
  level: z.enum(SIGMA_LEVELS),
  severity: z.enum(SEVERITIES).meta({ description: "Its signals' severity, from the rule's level" }),
  enabled: z.boolean(),
  sigma: z.string(),
  created_by: z.string().nullable(),
  created_at: timestamp,
  updated_at: timestamp,
});
export const listDetectionsOutput = z.object({ detections: z.array(tenantDetection), count: z.number().int() });
