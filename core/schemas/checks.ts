import { z } from 'zod';
import { CHECK_STATUSES } from '../../domain/checks/evaluate';
import { SERVICES, type Service } from '../../domain/checks/services';
import { SCENARIOS, SEVERITIES } from '../../domain/checks/types';
import { coverage } from './accounts';
import { timestamp } from './common';

export const checkEntry = z.object({
  check_id: z.string(),
  scenario: z.enum(SCENARIOS),
  severity: z.enum(SEVERITIES),
  title: z.string(),
  service: z
    .enum(Object.keys(SERVICES) as [Service, ...Service[]])
    .meta({ description: 'The AWS service whose resources the check judges' }),
  service_label: z.string().meta({ description: "The service's name as the dashboard shows it, e.g. 'Route 53'" }),
  prowler_ids: z.array(z.string()).meta({
    description:
      "The ids of Prowler's checks that detect the same condition, to match its findings with Sentinel's; empty when none",
  }),
  status: z.enum(CHECK_STATUSES),
  failing_resources: z
    .number()
    .int()
    .meta({ minimum: 0, description: 'Resources failing the check (0 unless failed)' }),
  reason: z.string().nullable().meta({
    description: 'Why the check was not evaluated, or what of it could not be read; null when everything was read',
  }),
  unread: z.array(z.string()).meta({
    description:
      'Regions, buckets, IAM principals or keys the check could not read; empty when it read everything. A pass ' +
      'or a fail covers the rest, and open signals in these stay open.',
  }),
});

export const accountChecksOutput = z.object({
  scan_id: z
    .string()
    .nullable()
    .meta({ description: 'The scan the outcomes are from (its execution ARN ends with it); null before the first' }),
  scanned_at: timestamp.nullable(),
  coverage,
  checks: z.array(checkEntry).meta({ description: 'One entry per check of the catalogue, in catalogue order' }),
});
