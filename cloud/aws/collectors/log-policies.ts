import { CloudWatchLogsClient, DescribeResourcePoliciesCommand } from '@aws-sdk/client-cloudwatch-logs';
import type { LogResourcePolicy } from '../../../domain/scans/inventory';
import { readingOf } from './policy-reading';
import { type ReadContext, regionalPart } from './reader';

// CloudWatch Logs resource policies, region by region (DescribeResourcePolicies, the account-level policies that
// let services and principals write to or read the log groups their statements name). A refusal leaves the region
// unread.

const PAGE_SIZE = 50;

export const logResourcePoliciesPart = regionalPart({
  part: 'logResourcePolicies',
  async read({ session }: ReadContext, region: string): Promise<LogResourcePolicy[]> {
    const logs = session.client((config) => new CloudWatchLogsClient(config), region);
    const policies: LogResourcePolicy[] = [];
    let token: string | undefined;
    do {
      const page = await logs.send(new DescribeResourcePoliciesCommand({ limit: PAGE_SIZE, nextToken: token }));
      for (const p of page.resourcePolicies ?? []) {
        if (p.policyName)
          policies.push({ name: p.policyName, region, policy: readingOf(p.policyDocument, session.accountId) });
      }
      token = page.nextToken;
    } while (token);
    return policies;
  },
  assemble: (slices) => ({ policies: slices.flat() }),
});
