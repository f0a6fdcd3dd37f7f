import { failing, onPart } from './helpers';
import type { Check } from './types';

// IAM Access Analyzer: an external-access analyzer tells, region by region, which resources (buckets, keys, roles,
// queues, snapshots, ...) a policy shares with another account or the public.

/** The analyzer types that look for external access; unused-access and internal-access analyzers do not. */
const EXTERNAL_ACCESS_TYPES = new Set(['ACCOUNT', 'ORGANIZATION']);

export const ACCESS_ANALYZER_CHECKS: readonly Check[] = [
  {
    id: 'iam.access_analyzer_off',
    service: 'accessanalyzer',
    prowler: ['accessanalyzer_enabled'],
    scenario: 'iam',
    severity: 'LOW',
    title: 'No IAM Access Analyzer for external access in an enabled region',
    description:
      'A region enabled for the account has no active IAM Access Analyzer of type account or organization, so a ' +
      'resource policy there that shares a bucket, key, role or snapshot with another account or the public raises no ' +
      'finding.',
    remediation:
      'Create an external access analyzer in every enabled region: IAM console (in that region) > Access Analyzer > ' +
      'Analyzer settings > Create analyzer > Findings type: External access analysis, Zone of trust: current account (or ' +
      'your organization, from its delegated administrator) > Create analyzer. With the CLI: aws accessanalyzer ' +
      'create-analyzer --analyzer-name external-access --type ACCOUNT --region <region>.',
    docsUrl: 'https://docs.aws.amazon.com/IAM/latest/UserGuide/access-analyzer-getting-started.html',
    controls: { 'cis-aws-7.0': ['2.18'] },
    evaluate: onPart('accessAnalyzers', ({ regions }) =>
      failing(
        regions
          .filter((r) => !r.analyzers.some((a) => a.status === 'ACTIVE' && EXTERNAL_ACCESS_TYPES.has(a.type)))
          .map(({ region, analyzers }) => ({
            resource: 'access-analyzer',
            region,
            detail:
              analyzers.length === 0
                ? `IAM Access Analyzer has no analyzer in ${region}.`
                : `IAM Access Analyzer has no active external access analyzer in ${region} (only ${analyzers.map((a) => `${a.name}: ${a.type}, ${a.status}`).join('; ')}).`,
          })),
      ),
    ),
  },
];
