import type { GroupRule, Inventory, NaclIngress, NetworkAcl, Unread } from '../scans/inventory';
import { admitsPort, openGroups } from './exposure';
import { failing, judgedWithout, onPart, withPart, withUnread } from './helpers';
import type { Check, CheckResult, FailingResource } from './types';

// The EC2 and VPC settings of the CIS Foundations benchmark's networking section (and its instance-role and
// flow-log controls): what the internet can reach through network ACLs and default groups, how instances get
// their credentials, and what is encrypted or logged by default.

const INTERNET_SOURCES = ['0.0.0.0/0', '::/0'] as const;
/** The remote administration ports of CIS 6.2-6.4: SSH and RDP. */
const ADMIN_PORTS = [22, 3389] as const;
/** The protocols CIS 6.2 counts for them, with their IANA numbers (as EC2 reports ACL entries): TCP and UDP. */
const ADMIN_PROTOCOLS = [
  { name: 'TCP', number: '6' },
  { name: 'UDP', number: '17' },
] as const;
/** Instances past their transitions; terminated ones linger in the API for about an hour. */
const RUNNING_OR_STOPPED = new Set(['running', 'stopped']);

/**
 * Whether a network ACL entry matches traffic of a protocol (by number, or by the name EC2 also accepts) to `port`:
 * entries for all protocols (-1) match every protocol and port.
 */
function matchesPort(entry: NaclIngress, protocol: (typeof ADMIN_PROTOCOLS)[number], port: number): boolean {
  if (entry.protocol === '-1' || entry.protocol.toLowerCase() === 'all') return true;
  if (entry.protocol !== protocol.number && entry.protocol.toLowerCase() !== protocol.name.toLowerCase()) return false;
  return entry.fromPort === null || entry.toPort === null || (entry.fromPort <= port && port <= entry.toPort);
}

/**
 * What a network ACL lets in from the internet to the administration ports, over TCP and UDP as CIS 6.2 asks.
 * Entries are evaluated in rule-number order and the first that matches decides: a lower-numbered deny shadows a
 * later allow (a deny of TCP alone leaves UDP to the next entry). IPv4 and IPv6 traffic match only entries of their
 * own family.
 */
function adminPortsOpen(acl: NetworkAcl): string[] {
  const entries = [...acl.internetIngress].sort((a, b) => a.ruleNumber - b.ruleNumber);
  return ADMIN_PORTS.flatMap((port) =>
    ADMIN_PROTOCOLS.flatMap((protocol) =>
      INTERNET_SOURCES.flatMap((cidr) => {
        const deciding = entries.find((entry) => entry.cidr === cidr && matchesPort(entry, protocol, port));
        return deciding?.action === 'allow'
          ? [`${protocol.name} port ${port} from ${cidr} (rule ${deciding.ruleNumber})`]
          : [];
      }),
    ),
  );
}

/**
 * CIS 2.16: every running or stopped instance gets its AWS credentials from a role, through an instance profile
 * that holds one. An instance without a profile fails on the instances alone; one whose profile's roles could not
 * be read is unread: with the profiles refused and no instance failing, the check is not evaluated, never passed
 * (a profile created or deleted while the scan read leaves only its instances unread).
 */
function instancesWithoutRole(inventory: Inventory): CheckResult {
  const listed = inventory.instanceProfiles;
  const profiles = listed.status === 'ok' ? new Map(listed.value.profiles.map((p) => [p.arn, p])) : undefined;
  return withPart(inventory.instances, ({ instances }) => {
    const resources: FailingResource[] = [];
    const unread: Unread[] = [];
    for (const i of instances.filter((instance) => RUNNING_OR_STOPPED.has(instance.state))) {
      const at = `Instance ${i.id} (${i.state}) in ${i.region}`;
      if (i.instanceProfileArn === null) {
        resources.push({ resource: i.id, region: i.region, detail: `${at} has no IAM role.` });
        continue;
      }
      const profile = profiles?.get(i.instanceProfileArn);
      if (profile === undefined) {
        unread.push({
          kind: 'resource',
          scope: i.id,
          reason:
            listed.status === 'ok'
              ? `Its instance profile ${i.instanceProfileArn} is not among those IAM listed (created or deleted while the scan read).`
              : `The role of its instance profile ${i.instanceProfileArn}: ${listed.reason}`,
        });
      } else if (profile.roles.length === 0) {
        resources.push({
          resource: i.id,
          region: i.region,
          detail: `${at} has the instance profile ${profile.name}, which holds no IAM role.`,
        });
      }
    }
    return judgedWithout(
      resources,
      [...unread, ...(listed.unread ?? [])],
      listed.status === 'ok' ? undefined : listed.reason,
    );
  });
}

function describeGroupRule(rule: GroupRule): string {
  const protocol = { '-1': 'all traffic', '6': 'tcp', '17': 'udp' }[rule.protocol] ?? rule.protocol.toLowerCase();
  const ports =
    protocol === 'all traffic' || rule.fromPort === null
      ? ''
      : rule.fromPort === rule.toPort
        ? ` port ${rule.fromPort}`
        : ` ports ${rule.fromPort}-${rule.toPort}`;
  return `${rule.direction} ${protocol}${ports} ${rule.direction === 'inbound' ? 'from' : 'to'} ${rule.peer}`;
}

export const EC2_VPC_CHECKS: readonly Check[] = [
  {
    id: 'exposure.ebs_default_encryption_off',
    service: 'ec2',
    scenario: 'exposure',
    severity: 'LOW',
    title: 'EBS encryption by default is off in a region',
    description:
      'New EBS volumes in this region, and the snapshots taken of them, are unencrypted unless whoever creates ' +
      'them asks for encryption. An unencrypted snapshot shared by mistake, or a disk read outside the instance, ' +
      'exposes its data in clear.',
    remediation:
      'In the EC2 console of the region open Settings > Data protection and security > EBS encryption, choose ' +
      'Manage, tick Enable and save; or run `aws ec2 enable-ebs-encryption-by-default --region <region>`. The setting ' +
      'is per region: repeat it in every enabled region. Existing volumes stay as they are: copy their snapshots ' +
      'with encryption to replace them.',
    docsUrl: 'https://docs.aws.amazon.com/ebs/latest/userguide/encryption-by-default.html',
    prowler: ['ec2_ebs_default_encryption'],
    controls: { 'cis-aws-7.0': ['6.1.1'], 'aws-fsbp': ['EC2.7'] },
    evaluate: onPart('ebsEncryptionByDefault', ({ regions }) =>
      failing(
        regions
          .filter((r) => !r.enabled)
          .map(({ region }) => ({
            resource: 'ebs-encryption-by-default',
            region,
            detail: `EBS encryption by default is off in ${region}.`,
          })),
      ),
    ),
  },
  {
    id: 'exposure.sg_cifs_open',
    service: 'ec2',
    scenario: 'exposure',
    severity: 'HIGH',
    title: 'CIFS/SMB open to the internet',
    description:
      'A security group allows TCP port 445 (CIFS/SMB file sharing) from 0.0.0.0/0 or ::/0 (port ranges and ' +
      'all-traffic rules that include 445 count). SMB is a favourite target of worms and ransomware (WannaCry spread ' +
      'through it) and file shares should never face the internet.',
    remediation:
      'In the EC2 console open Security Groups, select the group, Edit inbound rules and delete the rule (or ' +
      'narrow its source to your own networks); or run `aws ec2 revoke-security-group-ingress --group-id <id> ' +
      '--ip-permissions IpProtocol=tcp,FromPort=445,ToPort=445,IpRanges=[{CidrIp=0.0.0.0/0}]`. Reach file shares ' +
      'over a VPN or AWS Direct Connect instead.',
    docsUrl: 'https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/security-group-rules-reference.html',
    controls: { 'cis-aws-7.0': ['6.1.2'], 'aws-fsbp': ['EC2.19'] },
    evaluate: onPart('securityGroups', ({ groups }) =>
      failing(openGroups(groups, (rule) => admitsPort(rule, ['tcp'], 445))),
    ),
  },
  {
    id: 'exposure.nacl_admin_ports_open',
    service: 'ec2',
    scenario: 'exposure',
    severity: 'MEDIUM',
    title: 'Network ACL lets SSH or RDP in from the internet',
    description:
      'A network ACL allows port 22 or 3389, over TCP or UDP, from 0.0.0.0/0 or ::/0 (through a port range or an ' +
      'all-traffic entry), and no lower-numbered entry denies it first. The ACL is then no second line of defence: ' +
      'one open security group exposes remote administration to the whole internet.',
    remediation:
      'In the VPC console open Network ACLs, select the ACL, Edit inbound rules and add deny entries for 22 and ' +
      "3389, TCP and UDP, from 0.0.0.0/0 (and ::/0) numbered below the allow entry, or narrow the allow entry's " +
      'source to your own networks; or run `aws ec2 create-network-acl-entry --network-acl-id <id> --ingress ' +
      '--rule-number 50 --protocol tcp --port-range From=22,To=22 --cidr-block 0.0.0.0/0 --rule-action deny` (and the ' +
      'same for 3389, and with --protocol udp). ' +
      'Administer instances through Systems Manager Session Manager.',
    docsUrl: 'https://docs.aws.amazon.com/vpc/latest/userguide/nacl-rules.html',
    prowler: ['ec2_networkacl_allow_ingress_tcp_port_22', 'ec2_networkacl_allow_ingress_tcp_port_3389'],
    controls: { 'cis-aws-7.0': ['6.2'], 'aws-fsbp': ['EC2.21'] },
    evaluate: onPart('networkAcls', ({ acls }) =>
      failing(
        acls.flatMap((acl) => {
          const open = adminPortsOpen(acl);
          if (open.length === 0) return [];
          return [
            {
              resource: acl.id,
              region: acl.region,
              detail: `Network ACL ${acl.id} (${acl.vpcId}) in ${acl.region} allows ${open.join(', ')}.`,
            },
          ];
        }),
      ),
    ),
  },
  {
    id: 'exposure.default_sg_allows_traffic',
    service: 'ec2',
    scenario: 'exposure',
    severity: 'LOW',
    title: 'Default security group allows traffic',
    description:
      'The default security group of a VPC has inbound or outbound rules. Resources launched without choosing ' +
      'a group land in it, and by default it lets every member reach every other and anything outside: a ' +
      'forgotten choice becomes an open path.',
    remediation:
      'First move the resources that use the group (EC2 > Network interfaces, filter on the group id) to ' +
      'groups made for them. Then in the VPC console open Security Groups, select the VPC\'s "default" group and ' +
      'delete every inbound and outbound rule; or run `aws ec2 revoke-security-group-ingress` and ' +
      '`aws ec2 revoke-security-group-egress` with the group id and its rules. The default group cannot be deleted: ' +
      'left empty, it allows nothing.',
    docsUrl: 'https://docs.aws.amazon.com/vpc/latest/userguide/default-security-group.html',
    prowler: ['ec2_securitygroup_default_restrict_traffic'],
    controls: { 'cis-aws-7.0': ['6.5'], 'aws-fsbp': ['EC2.2'] },
    evaluate: onPart('securityGroups', ({ defaultGroups }) =>
      failing(
        defaultGroups
          .filter((g) => g.rules.length > 0)
          .map((group) => ({
            resource: group.id,
            region: group.region,
            detail: `The default security group ${group.id} of ${group.vpcId} in ${group.region} allows ${group.rules.map(describeGroupRule).join(', ')}.`,
          })),
      ),
    ),
  },
  {
    id: 'exposure.imdsv1_allowed',
    service: 'ec2',
    scenario: 'exposure',
    severity: 'HIGH',
    title: 'Instance accepts IMDSv1',
    description:
      "The instance's metadata service answers requests without a session token (IMDSv1). A server-side " +
      "request forgery in any application on the instance can then read the instance role's credentials, as in " +
      'the Capital One breach; IMDSv2 requires a PUT-issued token such requests cannot obtain.',
    remediation:
      "Check that the instance's software uses an AWS SDK or CLI recent enough for IMDSv2 (the CloudWatch " +
      'metric MetadataNoToken shows IMDSv1 calls), then in the EC2 console select the instance, Actions > Instance ' +
      'settings > Modify instance metadata options and set IMDSv2 to Required; or run `aws ec2 ' +
      'modify-instance-metadata-options --instance-id <id> --http-tokens required --http-endpoint enabled`. Set ' +
      'IMDSv2 as the account default for new instances (EC2 > Settings > Data protection and security > IMDS defaults).',
    docsUrl: 'https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/configuring-IMDS-existing-instances.html',
    // Prowler's confidential-workload variant judges the same on Nitro Enclave hosts only.
    prowler: ['ec2_instance_imdsv2_enabled', 'ec2_confidential_workload_host_imdsv2_not_enforced'],
    controls: { 'cis-aws-7.0': ['6.7'], 'aws-fsbp': ['EC2.8'] },
    // An instance whose metadata options EC2 did not report is unread: its open finding stays open, and it never
    // passes for want of an answer.
    evaluate: onPart('instances', ({ instances }) => {
      const live = instances.filter((i) => i.state !== 'terminated' && i.state !== 'shutting-down');
      const result = failing(
        live.flatMap((i) =>
          i.metadata !== null && i.metadata.httpEndpoint !== 'disabled' && i.metadata.httpTokens !== 'required'
            ? [
                {
                  resource: i.id,
                  region: i.region,
                  detail: `Instance ${i.id} in ${i.region} accepts IMDSv1 (HttpTokens ${i.metadata.httpTokens}).`,
                },
              ]
            : [],
        ),
      );
      return withUnread(
        result,
        live
          .filter((i) => i.metadata === null)
          .map(
            (i): Unread => ({
              kind: 'resource',
              scope: i.id,
              reason:
                "EC2 did not report the instance's metadata options (MetadataOptions with HttpTokens and HttpEndpoint): " +
                'whether it accepts IMDSv1 is unknown.',
            }),
          ),
      );
    }),
  },
  {
    id: 'iam.instance_without_role',
    service: 'ec2',
    scenario: 'iam',
    severity: 'LOW',
    title: 'Instance without an IAM role',
    description:
      'A running or stopped instance has no instance profile, or one that holds no role. Software on it that calls AWS then needs ' +
      'long-lived access keys stored on the disk or in its configuration, which leak with a backup, an image or ' +
      'a repository and are rarely rotated; an instance role gives it temporary credentials that rotate themselves.',
    remediation:
      'Create a role for EC2 with only the permissions the instance needs (IAM > Roles > Create role > AWS ' +
      'service > EC2), then in the EC2 console select the instance, Actions > Security > Modify IAM role and ' +
      'choose it; or run `aws ec2 associate-iam-instance-profile --instance-id <id> --iam-instance-profile ' +
      'Name=<profile>`. For a profile that holds no role, add one: `aws iam add-role-to-instance-profile ' +
      '--instance-profile-name <profile> --role-name <role>`. Remove the access keys the instance used and deactivate ' +
      'them in IAM.',
    docsUrl: 'https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/iam-roles-for-amazon-ec2.html',
    prowler: ['ec2_instance_profile_attached'],
    controls: { 'cis-aws-7.0': ['2.16'] },
    evaluate: instancesWithoutRole,
  },
  {
    id: 'detection.vpc_flow_logs_off',
    service: 'vpc',
    scenario: 'detection',
    severity: 'LOW',
    title: 'VPC without flow logs',
    description:
      'A VPC has no active flow log, so nothing records the connections made in it: after an intrusion there ' +
      'is no way to tell which addresses an instance talked to, or what was rejected.',
    remediation:
      'In the VPC console select the VPC, Actions > Create flow log, filter All (or at least Reject), and send ' +
      'it to a CloudWatch Logs group or an S3 bucket; or run `aws ec2 create-flow-logs --resource-type VPC ' +
      '--resource-ids <vpc-id> --traffic-type ALL --log-destination-type s3 --log-destination arn:aws:s3:::<bucket>`. ' +
      'Delete the VPCs you do not use, default VPCs included, rather than logging them.',
    docsUrl: 'https://docs.aws.amazon.com/vpc/latest/userguide/working-with-flow-logs.html',
    prowler: ['vpc_flow_logs_enabled'],
    controls: { 'cis-aws-7.0': ['4.7'], 'aws-fsbp': ['EC2.6'] },
    evaluate: onPart('vpcFlowLogs', ({ unloggedVpcs }) =>
      failing(
        unloggedVpcs.map((vpc) => ({
          resource: vpc.id,
          region: vpc.region,
          detail: `${vpc.isDefault ? 'The default VPC' : 'VPC'} ${vpc.id} in ${vpc.region} has no active flow log.`,
        })),
      ),
    ),
  },
];
