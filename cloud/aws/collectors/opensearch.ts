import {
  DescribeDomainsCommand,
  type DomainStatus,
  ListDomainNamesCommand,
  OpenSearchClient,
} from '@aws-sdk/client-opensearch';
import { describeStatement, policyExposure } from '../../../domain/policies/resource-policy';
import type { OpenSearchDomain } from '../../../domain/scans/inventory';
import { mapLimit } from './concurrency';
import { type ReadContext, regionalPart } from './reader';

// OpenSearch Service domains (Elasticsearch ones too: the same API serves both), region by region: ListDomainNames,
// then DescribeDomains five names at a time (its limit), which reports every setting the checks read, the access
// policy included. The policy is read as every resource policy is (domain/policies/resource-policy.ts). The domains
// are described once a collection attempt for this part and the network topology's (network-placements.ts), which
// places those in a VPC.

const DESCRIBE_BATCH = 5;
const BATCH_CONCURRENCY = 2;

/** A domain as described for the parts that read domains: this part's value, and its VPC placement. */
export interface DescribedDomain {
  domain: OpenSearchDomain;
  /** Its subnets and security groups; null outside a VPC (its endpoint is public). */
  vpc: { subnetIds: string[]; securityGroupIds: string[] } | null;
}

function describedDomain(d: DomainStatus, region: string, accountId: string): DescribedDomain {
  const exposure = d.AccessPolicies ? policyExposure(d.AccessPolicies, accountId) : { public: [] };
  const inVpc = Boolean(d.VPCOptions?.VPCId);
  return {
    domain: {
      name: d.DomainName ?? '',
      arn: d.ARN ?? d.DomainName ?? '',
      region,
      inVpc,
      publicStatements: exposure ? exposure.public.map(describeStatement) : null,
      encryptedAtRest: d.EncryptionAtRestOptions?.Enabled ?? false,
      nodeToNodeEncryption: d.NodeToNodeEncryptionOptions?.Enabled ?? false,
      enforceHttps: d.DomainEndpointOptions?.EnforceHTTPS ?? false,
      fineGrainedAccessControl: d.AdvancedSecurityOptions?.Enabled ?? false,
      auditLogs: d.LogPublishingOptions?.AUDIT_LOGS?.Enabled ?? false,
      updateAvailable: d.ServiceSoftwareOptions?.UpdateAvailable ?? false,
    },
    vpc: inVpc
      ? { subnetIds: d.VPCOptions?.SubnetIds ?? [], securityGroupIds: d.VPCOptions?.SecurityGroupIds ?? [] }
      : null,
  };
}

/** The region's domains (ListDomainNames, then DescribeDomains), described once a collection attempt for both parts. */
export const domainsIn = ({ session, shared }: ReadContext, region: string): Promise<DescribedDomain[]> =>
  shared(`opensearch:DescribeDomains@${region}`, async () => {
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
    return described.flat().map((d) => describedDomain(d, region, session.accountId));
  });

export const opensearchDomainsPart = regionalPart({
  part: 'opensearchDomains',
  read: async (ctx: ReadContext, region: string): Promise<OpenSearchDomain[]> =>
    (await domainsIn(ctx, region)).map((d) => d.domain),
  assemble: (slices) => ({ domains: slices.flat() }),
});
