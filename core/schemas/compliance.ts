import { z } from 'zod';
import { ACCOUNT_STATUSES } from '../../domain/accounts/status';
import { CONTROL_STATUSES, FRAMEWORK_IDS } from '../../domain/compliance/types';
import { accountIdOutput } from './accounts';
import { timestamp } from './common';

export const complianceQuery = z.strictObject({
  framework: z.enum(FRAMEWORK_IDS).meta({ description: 'The framework (GET /compliance/frameworks lists them)' }),
});

const count = z.number().int().meta({ minimum: 0 });
const frameworkFields = {
  framework: z.enum(FRAMEWORK_IDS),
  name: z.string(),
  version: z.string(),
};

export const listFrameworksOutput = z.object({
  frameworks: z.array(
    z.object({
      ...frameworkFields,
      url: z.string().meta({ description: 'Where the framework is published' }),
      controls: count,
      automated_controls: count.meta({ description: 'Controls the framework itself calls automated' }),
      evaluated_controls: count.meta({
        description: "Controls Sentinel's checks evaluate (automated, and manual ones the APIs allow)",
      }),
      manual_controls: count.meta({ description: 'Controls the tenant attests (no check evaluates them)' }),
    }),
  ),
});

export const complianceSummary = z
  .object({
    passed: count,
    partial: count.meta({ description: 'Passed where read, with part of what their checks need not read' }),
    failed: count,
    accepted: count.meta({ description: 'Failing only on findings whose risk is accepted' }),
    not_evaluated: count,
    manual: count,
  })
  .meta({ description: 'Controls per status' });

const scanFields = {
  scan_id: z.string().nullable().meta({ description: 'The scan the outcomes are from; null before the first' }),
  scanned_at: timestamp.nullable(),
};

export const accountComplianceOutput = z.object({
  ...frameworkFields,
  aws_account_id: accountIdOutput,
  ...scanFields,
  summary: complianceSummary,
  controls: z
    .array(
      z.object({
        id: z.string(),
        section: z.string(),
        title: z.string(),
        profile: z.enum(['Level 1', 'Level 2']),
        automated: z.boolean().meta({ description: "The framework's own assessment status" }),
        status: z.enum(CONTROL_STATUSES).meta({
          description:
            '`failed` when an open signal against the control is not accepted (of its checks, or of an event detection ' +
            'mapped to it: an event fails it at once, before the next scan); else `not_evaluated` when a check could ' +
            'not be evaluated; else `accepted` when the only failures are accepted risk; else `partial` when everything ' +
            'read passed but part was not read (`unread`); else `passed`: every check read everything and passed. ' +
            '`manual`: no check evaluates the control, the tenant attests it. More values may be added: treat an ' +
            'unknown one as not passed',
        }),
        check_ids: z
          .array(z.string())
          .meta({ description: 'The checks that evaluate the control (GET /accounts/{account_id}/checks)' }),
        failing_resources_total: z.number().int().min(0).meta({
          description:
            'How many open signals are evidence against the control; `failing_resources` lists the first 20 of them',
        }),
        failing_resources: z
          .array(
            z.object({
              signal_id: z.string(),
              check_id: z.string(),
              resource: z.string(),
              region: z.string(),
              accepted: z.boolean(),
            }),
          )
          .meta({
            description:
              'The evidence: the open signals of those checks, and of the event detections mapped to the control ' +
              '(their `check_id` is the detection, `event.*`), the first 20 by check, region and resource',
          }),
        unread: z
          .array(
            z.object({
              check_id: z.string(),
              kind: z.enum(['region', 'resource']),
              scope: z.string().meta({ description: 'The region, or the resource (a name or an ARN)' }),
              reason: z.string().meta({ description: 'Why it could not be read' }),
            }),
          )
          .meta({ description: 'What the checks behind the control could not read (what makes it `partial`)' }),
        notes: z
          .array(z.string())
          .meta({ description: 'Why a check could not be evaluated, or the regions and resources it could not read' }),
        attestation: z
          .string()
          .nullable()
          .meta({ description: 'For a control no check evaluates: what the tenant must attest' }),
      }),
    )
    .meta({ description: 'Every control of the framework, in its order' }),
});

export const tenantComplianceOutput = z.object({
  ...frameworkFields,
  accounts: z
    .array(
      z.object({
        aws_account_id: accountIdOutput,
        display_name: z.string().nullable(),
        status: z.enum(ACCOUNT_STATUSES),
        ...scanFields,
        summary: complianceSummary,
      }),
    )
    .meta({ description: 'Every account of the tenant but the disconnected ones' }),
});
