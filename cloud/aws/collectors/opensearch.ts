import { DescribeDomainsCommand, ListDomainNamesCommand, OpenSearchClient } from '@aws-sdk/client-opensearch';
import { describeStatement, policyExposure } from '../../../domain/policies/resource-policy';
import type { OpenSearchDomain } from '../../../domain/scans/inventory';
import { mapLimit } from './concurrency';
import { type ReadContext, regionalPart } from './reader';

// OpenSearch Service domains (Elasticsearch ones too: the same API serves both), region by region: ListDomainNames,
// then DescribeDomains five names at a time (its limit), which reports every setting the checks read, the access
// policy included. The policy is read as every resource policy is (domain/policies/resource-policy.ts).

const DESCRIBE_BATCH = 5;
const BATCH_CONCURRENCY = 2;

export const opensearchDomainsPart = regionalPart({
  part: 'opensearchDomains',
  async read({ session }: ReadContext, region: string): Promise<OpenSearchDomain[]> {
    const opensearch = session.client((config) => new OpenSearchClient(config), region);
    const { DomainNames = [] } = await opensearch.send(new ListDomainNamesCommand({}));
    const names = DomainNames.flatMap((d) => (d.DomainName ? [d.DomainName] : []));
    const batches = Array.from({ length: Math.ceil(names.length / DESCRIBE_BATCH) }, (_, i) =>
      names.slice(i * DESCRIBE_BATCH, (i + 1) * DESCRIBE_BATCH),
    );
    const described = await mapLimit({
      items: batches,
      limit: BATCH_CONCURRENCY,
      run: async (batch) =>
        (await opensearch.send(new DescribeDomainsCommand({ DomainNames: batch }))).DomainStatusList ?? [],
    });
    return described.flat().map((d): OpenSearchDomain => {
      const exposure = d.AccessPolicies ? policyExposure(d.AccessPolicies, session.accountId) : { public: [] };
      return {
        name: d.DomainName ?? '',
        arn: d.ARN ?? d.DomainName ?? '',
        region,
        inVpc: Boolean(d.VPCOptions?.VPCId),
        publicStatements: exposure ? exposure.public.map(describeStatement) : null,
        encryptedAtRest: d.EncryptionAtRestOptions?.Enabled ?? false,
        nodeToNodeEncryption: d.NodeToNodeEncryptionOptions?.Enabled ?? false,
        enforceHttps: d.DomainEndpointOptions?.EnforceHTTPS ?? false,
        fineGrainedAccessControl: d.AdvancedSecurityOptions?.Enabled ?? false,
        auditLogs: d.LogPublishingOptions?.AUDIT_LOGS?.Enabled ?? false,
        updateAvailable: d.ServiceSoftwareOptions?.UpdateAvailable ?? false,
      };
    });
  },
  assemble: (slices) => ({ domains: slices.flat() }),
});
