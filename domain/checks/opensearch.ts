import { onPart } from './helpers';
import { bySetting } from './settings';
import type { Check } from './types';

// Amazon OpenSearch Service (and Elasticsearch) domains: an access policy that opens a public endpoint to
// everyone, data stored or moved unencrypted, no fine-grained access control or audit log, and pending service
// software updates.

const domainName = (d: { name: string; region: string }) => `OpenSearch domain ${d.name} in ${d.region}`;

export const OPENSEARCH_CHECKS: readonly Check[] = [
  {
    id: 'exposure.opensearch_public',
    service: 'opensearch',
    scenario: 'exposure',
    severity: 'CRITICAL',
    title: 'OpenSearch domain open to everyone',
    description:
      'The domain has a public endpoint (it is not in a VPC) and its access policy allows everyone (Principal ' +
      '"*") with no condition that limits who: anyone on the internet can query, and depending on the actions allowed ' +
      'change or delete, the indexed data.',
    remediation:
      'In the OpenSearch Service console open the domain > Security configuration > Edit > Access policy, replace ' +
      'the statement that allows "*" with one that names the IAM roles (or, at the least, the source IP addresses) that ' +
      'need the domain, and save; or run aws opensearch update-domain-config --domain-name NAME --access-policies ' +
      'file://policy.json. Better, move the domain into a VPC (a new domain restored from a snapshot), where its ' +
      'endpoint has no public address.',
    docsUrl: 'https://docs.aws.amazon.com/opensearch-service/latest/developerguide/vpc.html',
    controls: { 'aws-fsbp': ['Opensearch.2'] },
    prowler: ['opensearch_service_domains_not_publicly_accessible'],
    evaluate: onPart('opensearchDomains', ({ domains }) =>
      bySetting(domains, {
        resource: (d) => d.arn,
        fails: (d) => (d.inVpc ? false : d.publicStatements === null ? null : d.publicStatements.length > 0),
        detail: (d) =>
          `${domainName(d)} has a public endpoint, and its access policy is open to everyone: ${(d.publicStatements ?? []).join('; ')}.`,
        unreadReason: "The domain's access policy is not a policy document Sentinel could read.",
      }),
    ),
  },
  {
    id: 'exposure.opensearch_unencrypted',
    service: 'opensearch',
    scenario: 'exposure',
    severity: 'CRITICAL',
    title: 'OpenSearch domain not encrypted at rest',
    description:
      "The domain's indices, logs, swap files and automated snapshots are stored unencrypted: rules that require " +
      'encryption at rest are not met, and the data has no KMS key policy to stand behind.',
    remediation:
      'In the OpenSearch Service console open the domain > Actions > Edit security configuration, tick "Enable ' +
      'encryption of data at rest", choose a KMS key and save (OpenSearch 7.x or later and Elasticsearch 6.7 or later; ' +
      'older domains need a new domain restored from a snapshot); or run aws opensearch update-domain-config ' +
      '--domain-name NAME --encryption-at-rest-options Enabled=true,KmsKeyId=KEY.',
    docsUrl: 'https://docs.aws.amazon.com/opensearch-service/latest/developerguide/encryption-at-rest.html',
    controls: { 'aws-fsbp': ['Opensearch.1'] },
    prowler: ['opensearch_service_domains_encryption_at_rest_enabled'],
    evaluate: onPart('opensearchDomains', ({ domains }) =>
      bySetting(domains, {
        resource: (d) => d.arn,
        fails: (d) => !d.encryptedAtRest,
        detail: (d) => `${domainName(d)} is not encrypted at rest.`,
      }),
    ),
  },
  {
    id: 'exposure.opensearch_fine_grained_access_off',
    service: 'opensearch',
    scenario: 'exposure',
    severity: 'HIGH',
    title: 'OpenSearch domain without fine-grained access control',
    description:
      'Fine-grained access control is off: whoever the access policy lets in reaches every index, document and ' +
      'field, with no roles, no internal users and no field- or document-level security.',
    remediation:
      'In the OpenSearch Service console open the domain > Actions > Edit security configuration, tick "Enable ' +
      'fine-grained access control", set a master user (an IAM ARN or an internal user) and save (it needs HTTPS, ' +
      'node-to-node encryption and encryption at rest); or run aws opensearch update-domain-config --domain-name NAME ' +
      '--advanced-security-options Enabled=true,MasterUserOptions={MasterUserARN=ARN}. Then map roles to users.',
    docsUrl: 'https://docs.aws.amazon.com/opensearch-service/latest/developerguide/fgac.html',
    controls: { 'aws-fsbp': ['Opensearch.7'] },
    prowler: ['opensearch_service_domains_access_control_enabled'],
    evaluate: onPart('opensearchDomains', ({ domains }) =>
      bySetting(domains, {
        resource: (d) => d.arn,
        fails: (d) => !d.fineGrainedAccessControl,
        detail: (d) => `${domainName(d)} does not have fine-grained access control.`,
      }),
    ),
  },
  {
    id: 'detection.opensearch_audit_logs_off',
    service: 'opensearch',
    scenario: 'detection',
    severity: 'HIGH',
    title: 'OpenSearch domain without audit logs',
    description:
      'The domain publishes no audit logs to CloudWatch Logs: failed logins, permission changes and who read or ' +
      'changed which index leave no trace to investigate.',
    remediation:
      'Fine-grained access control must be on. In the OpenSearch Service console open the domain > Logs > Audit ' +
      'logs > Enable, choose a CloudWatch Logs log group (with a resource policy that lets OpenSearch write to it) and ' +
      'save; or run aws opensearch update-domain-config --domain-name NAME --log-publishing-options ' +
      'AUDIT_LOGS={CloudWatchLogsLogGroupArn=ARN,Enabled=true}. Then choose what to audit in OpenSearch Dashboards > ' +
      'Security > Audit logs.',
    docsUrl: 'https://docs.aws.amazon.com/opensearch-service/latest/developerguide/audit-logs.html',
    controls: { 'aws-fsbp': ['Opensearch.5'] },
    prowler: ['opensearch_service_domains_audit_logging_enabled'],
    evaluate: onPart('opensearchDomains', ({ domains }) =>
      bySetting(domains, {
        resource: (d) => d.arn,
        fails: (d) => !d.auditLogs,
        detail: (d) => `${domainName(d)} publishes no audit logs.`,
      }),
    ),
  },
  {
    id: 'exposure.opensearch_https_not_enforced',
    service: 'opensearch',
    scenario: 'exposure',
    severity: 'HIGH',
    title: 'OpenSearch domain accepts HTTP',
    description:
      'The domain does not require HTTPS: clients may send queries, documents and credentials (basic ' +
      'authentication, signed requests) in clear text.',
    remediation:
      'In the OpenSearch Service console open the domain > Actions > Edit security configuration, tick "Require ' +
      'HTTPS for all traffic to the domain", choose the TLS 1.2 (or later) security policy and save; or run aws ' +
      'opensearch update-domain-config --domain-name NAME --domain-endpoint-options ' +
      'EnforceHTTPS=true,TLSSecurityPolicy=Policy-Min-TLS-1-2-2019-07.',
    docsUrl: 'https://docs.aws.amazon.com/opensearch-service/latest/developerguide/infrastructure-security.html',
    prowler: ['opensearch_service_domains_https_communications_enforced'],
    evaluate: onPart('opensearchDomains', ({ domains }) =>
      bySetting(domains, {
        resource: (d) => d.arn,
        fails: (d) => !d.enforceHttps,
        detail: (d) => `${domainName(d)} does not require HTTPS.`,
      }),
    ),
  },
  {
    id: 'exposure.opensearch_node_to_node_unencrypted',
    service: 'opensearch',
    scenario: 'exposure',
    severity: 'HIGH',
    title: 'OpenSearch domain nodes talk unencrypted',
    description:
      "Node-to-node encryption is off: the domain's nodes exchange indexed data and queries in clear text inside " +
      'the network.',
    remediation:
      'In the OpenSearch Service console open the domain > Actions > Edit security configuration, tick "Enable ' +
      'node-to-node encryption" and save (OpenSearch, or Elasticsearch 6.7 or later; older domains need a new domain ' +
      'restored from a snapshot); or run aws opensearch update-domain-config --domain-name NAME ' +
      '--node-to-node-encryption-options Enabled=true.',
    docsUrl: 'https://docs.aws.amazon.com/opensearch-service/latest/developerguide/ntn.html',
    controls: { 'aws-fsbp': ['Opensearch.3'] },
    prowler: ['opensearch_service_domains_node_to_node_encryption_enabled'],
    evaluate: onPart('opensearchDomains', ({ domains }) =>
      bySetting(domains, {
        resource: (d) => d.arn,
        fails: (d) => !d.nodeToNodeEncryption,
        detail: (d) => `${domainName(d)} does not encrypt traffic between its nodes.`,
      }),
    ),
  },
  {
    id: 'exposure.opensearch_update_available',
    service: 'opensearch',
    scenario: 'exposure',
    severity: 'HIGH',
    title: 'OpenSearch domain with a service software update pending',
    description:
      'A service software update is available for the domain and not installed: the fixes it brings, security ' +
      'fixes included, are missing until it is.',
    remediation:
      'In the OpenSearch Service console open the domain > Actions > Update, and apply now or in an off-peak window; ' +
      'or run aws opensearch start-service-software-update --domain-name NAME. Turn on automatic software updates so ' +
      'the next ones install on their own.',
    docsUrl: 'https://docs.aws.amazon.com/opensearch-service/latest/developerguide/service-software.html',
    controls: { 'aws-fsbp': ['Opensearch.10'] },
    prowler: ['opensearch_service_domains_updated_to_the_latest_service_software_version'],
    evaluate: onPart('opensearchDomains', ({ domains }) =>
      bySetting(domains, {
        resource: (d) => d.arn,
        fails: (d) => d.updateAvailable,
        detail: (d) => `${domainName(d)} has a service software update available.`,
      }),
    ),
  },
];
