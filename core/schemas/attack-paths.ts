import { z } from 'zod';
import { ATTACK_PATH_KINDS } from '../../domain/attack-paths/types';
import { SEVERITIES } from '../../domain/checks/types';
import { awsAccountId } from './accounts';
import { pageLimit, timestamp } from './common';

export const listAttackPathsQuery = z.strictObject({
  kind: z.enum(ATTACK_PATH_KINDS).optional(),
  severity: z.enum(SEVERITIES).optional(),
  limit: pageLimit.default(50),
  next_token: z.string().min(1).max(1024).optional(),
});

export const searchAttackPathsQuery = listAttackPathsQuery.extend({
  aws_account_id: awsAccountId.optional().meta({ description: "Only this account's paths" }),
});

const node = z.object({
  id: z.string(),
  kind: z.string().meta({ description: 'internet, user, group, role, instance, load_balancer, function, ...' }),
  label: z.string(),
  region: z.string().optional(),
});

const edge = z.object({
  from: z.string(),
  to: z.string(),
  label: z.string().meta({ description: 'The step: the permissions it uses, the port it opens, ...' }),
  evidence: z
    .array(z.string())
    .meta({ description: 'What shows it: policy statements (`<policy>#<sid or index>`), rules, routes, detections' }),
  certainty: z.enum(['certain', 'possible']),
});

export const attackPath = z.object({
  path_id: z.string().meta({ description: 'Stable across scans for the same path (its fingerprint)' }),
  aws_account_id: awsAccountId,
  kind: z.enum(ATTACK_PATH_KINDS),
  rule: z.string().meta({ description: 'The escalation method or toxic combination it follows' }),
  severity: z.enum(SEVERITIES),
  certainty: z
    .enum(['certain', 'possible'])
    .meta({ description: '`possible`: a step depends on a condition or a document Sentinel could not decide' }),
  title: z.string(),
  summary: z.string(),
  source: z.string(),
  target: z.string(),
  region: z.string().nullable(),
  nodes: z.array(node),
  edges: z.array(edge),
  first_found_at: timestamp,
  found_at: timestamp.meta({ description: 'The latest scan that found it' }),
});

export const attackPathAnalysis = z
  .object({
    status: z.enum(['complete', 'partial', 'not_evaluated', 'not_scanned']).meta({
      description:
        '`complete`: everything it needs was read; `partial`: some was not (`unread`), so a path through it may be ' +
        'missing and paths found before stay listed; `not_evaluated`: the IAM documents were not read (`reason`) ' +
        'and the paths are those of an earlier scan; `not_scanned`: no scan has analysed the account yet',
    }),
    reason: z.string().nullable(),
    scan_id: z.string().nullable(),
    analyzed_at: timestamp.nullable(),
    unread: z.array(z.object({ scope: z.string(), reason: z.string() })),
  })
  .meta({ description: "How the account's latest analysis went: read it before taking an empty list as safety" });

export const listAttackPathsOutput = z.object({
  analysis: attackPathAnalysis,
  paths: z.array(attackPath),
  count: z.number().int(),
  next_token: z.string().nullable(),
});

/** How many of the incomplete analyses `searchAttackPathsOutput.analyses` names. */
export const INCOMPLETE_ANALYSES_SHOWN = 50;

export const searchAttackPathsOutput = z.object({
  analyses: z
    .object({
      complete: z.number().int().meta({ description: 'Accounts whose latest analysis read everything it needs' }),
      incomplete_count: z
        .number()
        .int()
        .meta({ description: 'Accounts whose latest analysis did not, or that no scan has analysed yet' }),
      incomplete: z
        .array(
          z.object({
            aws_account_id: awsAccountId,
            status: z.enum(['partial', 'not_evaluated', 'not_scanned']),
            reason: z.string().nullable(),
          }),
        )
        .meta({
          description: `Those accounts, not scanned and not evaluated first, then partial (at most ${INCOMPLETE_ANALYSES_SHOWN}); a path through what they could not read is missing from the list`,
        }),
    })
    .meta({
      description:
        "How far the connected accounts in the query's scope were analysed: read it before taking an empty list as safety",
    }),
  paths: z.array(attackPath),
  count: z.number().int(),
  next_token: z.string().nullable(),
});
