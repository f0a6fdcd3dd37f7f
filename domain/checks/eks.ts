import type { Unread } from '../scans/inventory';
import { failing, onPart, withUnread } from './helpers';
import type { Check, FailingResource } from './types';

// EKS clusters: a Kubernetes API open to the whole internet, nodes that reach it only through it, a cluster one
// call deletes, versions out of standard support (unpatched, or billed at the extended support rate), no audit
// log of what was done in the cluster, and Kubernetes secrets without envelope encryption.

const ANYWHERE = '0.0.0.0/0';
const STANDARD_SUPPORT = 'STANDARD_SUPPORT';

const unreadCluster = (arn: string, reason: string): Unread => ({ kind: 'resource', scope: arn, reason });

export const EKS_CHECKS: readonly Check[] = [
  {
    id: 'exposure.eks_endpoint_public',
    service: 'eks',
    scenario: 'exposure',
    severity: 'HIGH',
    title: 'EKS cluster API endpoint open to the internet',
    description:
      "The cluster's Kubernetes API server endpoint is public and accepts connections from 0.0.0.0/0: anyone can " +
      'reach it to try stolen kubeconfigs and tokens, exploit API server vulnerabilities, or probe anonymous access.',
    remediation:
      'Turn on private access and restrict or turn off public access: EKS console > the cluster > Networking > ' +
      "Manage endpoint access, choose Private (or Public and private with only your networks' CIDR blocks), save. " +
      'With the CLI: aws eks update-cluster-config --name NAME --resources-vpc-config ' +
      'endpointPublicAccess=false,endpointPrivateAccess=true (or endpointPublicAccess=true,publicAccessCidrs=' +
      '"203.0.113.0/24"). kubectl then needs a path into the VPC (VPN, bastion) or an allowed address.',
    docsUrl: 'https://docs.aws.amazon.com/eks/latest/userguide/cluster-endpoint.html',
    controls: { 'aws-fsbp': ['EKS.1'] },
    prowler: ['eks_cluster_not_publicly_accessible'],
    evaluate: onPart('eksClusters', ({ clusters }) =>
      failing(
        clusters
          .filter((c) => c.endpointPublicAccess && c.publicAccessCidrs.includes(ANYWHERE))
          .map((c) => ({
            resource: c.arn,
            region: c.region,
            detail: `EKS cluster ${c.name} in ${c.region} has a public API endpoint open to ${ANYWHERE}.`,
          })),
      ),
    ),
  },
  {
    id: 'exposure.eks_private_endpoint_off',
    service: 'eks',
    scenario: 'exposure',
    severity: 'HIGH',
    title: 'EKS cluster without private endpoint access',
    description:
      "The cluster's private endpoint is off: nodes and everything in the VPC reach the Kubernetes API through its " +
      'public endpoint, over the internet, so the public endpoint cannot be closed or narrowed without cutting off ' +
      'the nodes.',
    remediation:
      'Turn on private access: EKS console > the cluster > Networking > Manage endpoint access > Public and private ' +
      '(or Private), save; or aws eks update-cluster-config --name NAME --resources-vpc-config ' +
      'endpointPrivateAccess=true. The VPC needs DNS hostnames and DNS resolution turned on.',
    docsUrl: 'https://docs.aws.amazon.com/eks/latest/userguide/cluster-endpoint.html',
    prowler: ['eks_cluster_private_nodes_enabled'],
    evaluate: onPart('eksClusters', ({ clusters }) =>
      failing(
        clusters
          .filter((c) => !c.endpointPrivateAccess)
          .map((c) => ({
            resource: c.arn,
            region: c.region,
            detail: `EKS cluster ${c.name} in ${c.region} has no private endpoint access.`,
          })),
      ),
    ),
  },
  {
    id: 'exposure.eks_deletion_protection_off',
    service: 'eks',
    scenario: 'exposure',
    severity: 'HIGH',
    title: 'EKS cluster without deletion protection',
    description:
      'Deletion protection is off: one DeleteCluster call (by mistake, or by an attacker with the permission) removes ' +
      "the cluster's control plane, and with it the Kubernetes objects and secrets it held. A cluster for which EKS " +
      'does not report the setting is named as unread.',
    remediation:
      'EKS console > the cluster > Overview > Manage deletion protection > Turn on, or aws eks update-cluster-config ' +
      '--name NAME --deletion-protection. Turn it off (--no-deletion-protection) before a planned deletion.',
    docsUrl: 'https://docs.aws.amazon.com/eks/latest/userguide/deletion-protection.html',
    prowler: ['eks_cluster_deletion_protection_enabled'],
    evaluate: onPart('eksClusters', ({ clusters }) =>
      withUnread(
        failing(
          clusters
            .filter((c) => c.deletionProtection === false)
            .map((c) => ({
              resource: c.arn,
              region: c.region,
              detail: `EKS cluster ${c.name} in ${c.region} has deletion protection off.`,
            })),
        ),
        clusters
          .filter((c) => c.deletionProtection === null)
          .map((c) => unreadCluster(c.arn, 'EKS did not report whether the cluster has deletion protection.')),
      ),
    ),
  },
  {
    id: 'exposure.eks_unsupported_version',
    service: 'eks',
    scenario: 'exposure',
    severity: 'HIGH',
    title: 'EKS cluster on a Kubernetes version out of standard support',
    description:
      "The cluster runs a Kubernetes version past EKS's standard support: in extended support AWS bills the control " +
      'plane at a higher hourly rate, and once that ends too the version gets no security fixes and EKS upgrades the ' +
      'cluster on its own schedule. A cluster whose version EKS did not report is named as unread.',
    remediation:
      "Upgrade one minor version at a time, after checking the cluster's add-ons and workloads against the " +
      "version's deprecated APIs (EKS console > the cluster > Upgrade insights): EKS console > the cluster > Upgrade " +
      'now, or aws eks update-cluster-version --name NAME --kubernetes-version VERSION; then upgrade the node groups ' +
      '(aws eks update-nodegroup-version) and add-ons.',
    docsUrl: 'https://docs.aws.amazon.com/eks/latest/userguide/kubernetes-versions.html',
    controls: { 'aws-fsbp': ['EKS.2'] },
    prowler: ['eks_cluster_uses_a_supported_version'],
    evaluate: onPart('eksClusters', ({ clusters }) => {
      const resources: FailingResource[] = [];
      const unread: Unread[] = [];
      for (const c of clusters) {
        if (c.version === null)
          unread.push(unreadCluster(c.arn, "EKS did not report the cluster's Kubernetes version."));
        else if (c.versionStatus !== STANDARD_SUPPORT)
          resources.push({
            resource: c.arn,
            region: c.region,
            detail:
              `EKS cluster ${c.name} in ${c.region} runs Kubernetes ${c.version}, ` +
              (c.versionStatus === 'EXTENDED_SUPPORT'
                ? 'in extended support (billed at the extended support rate).'
                : 'which EKS no longer supports.'),
          });
      }
      return withUnread(failing(resources), unread);
    }),
  },
  {
    id: 'detection.eks_audit_logging_off',
    service: 'eks',
    scenario: 'detection',
    severity: 'MEDIUM',
    title: 'EKS cluster without audit logging',
    description:
      'The cluster does not send its Kubernetes audit log to CloudWatch Logs: who read secrets, created pods or ' +
      'changed role bindings in the cluster is recorded nowhere the account keeps, since CloudTrail sees only the ' +
      'calls to the EKS API, not to Kubernetes.',
    remediation:
      'EKS console > the cluster > Observability > Control plane logging > Manage logging, turn on Audit (and ' +
      'Authenticator, API server), save; or aws eks update-cluster-config --name NAME --logging ' +
      '\'{"clusterLogging": [{"types": ["api", "audit", "authenticator"], "enabled": true}]}\'. The logs go to the ' +
      'log group /aws/eks/NAME/cluster.',
    docsUrl: 'https://docs.aws.amazon.com/eks/latest/userguide/control-plane-logs.html',
    controls: { 'aws-fsbp': ['EKS.8'] },
    prowler: ['eks_control_plane_logging_all_types_enabled'],
    evaluate: onPart('eksClusters', ({ clusters }) =>
      failing(
        clusters
          .filter((c) => !c.enabledLogTypes.includes('audit'))
          .map((c) => ({
            resource: c.arn,
            region: c.region,
            detail: `EKS cluster ${c.name} in ${c.region} does not log its Kubernetes audit events.`,
          })),
      ),
    ),
  },
  {
    id: 'exposure.eks_secrets_not_encrypted',
    service: 'eks',
    scenario: 'exposure',
    severity: 'MEDIUM',
    title: 'EKS cluster secrets not envelope-encrypted with KMS',
    description:
      'The cluster does not encrypt Kubernetes secrets with a KMS key of the account: they sit in etcd with only ' +
      'the volume encryption EKS applies, so whoever reads etcd or its backups reads them, with no key policy to ' +
      'stop it and no record of key use.',
    remediation:
      'EKS console > the cluster > Overview > Secrets encryption > Enable, choose a KMS key; or aws eks ' +
      'associate-encryption-config --cluster-name NAME --encryption-config ' +
      '\'[{"resources": ["secrets"], "provider": {"keyArn": "KEY_ARN"}}]\'. It cannot be turned off afterwards; ' +
      'existing secrets are encrypted on their next write.',
    docsUrl: 'https://docs.aws.amazon.com/eks/latest/userguide/enable-kms.html',
    controls: { 'aws-fsbp': ['EKS.3'] },
    prowler: ['eks_cluster_kms_cmk_encryption_in_secrets_enabled'],
    evaluate: onPart('eksClusters', ({ clusters }) =>
      failing(
        clusters
          .filter((c) => !c.secretsEncrypted)
          .map((c) => ({
            resource: c.arn,
            region: c.region,
            detail: `EKS cluster ${c.name} in ${c.region} does not encrypt Kubernetes secrets with a KMS key.`,
          })),
      ),
    ),
  },
];
