import type {
  Instance,
  Inventory,
  NaclIngress,
  NetworkAcl,
  OpenIngress,
  SecurityGroup,
  Unread,
} from '../scans/inventory';
import type { ControlRefs } from '../compliance/types';
import { admitsPort, openGroups } from './exposure';
import { failing, onPart, withPart, withUnread } from './helpers';
import type { Check, CheckResult, FailingResource } from './types';

// What the internet reaches on EC2: the instances a public address and an open security group put in reach of
// anyone (one check per network service, as Prowler has one per service), the security groups that open a
// service's ports to the internet whatever they are attached to, and network ACLs that let all traffic in.

/** Instances past their transitions; terminated ones linger in the API for about an hour. */
const GONE = new Set(['shutting-down', 'terminated']);
/** The ports AWS Security Hub's EC2.19 calls high risk: a group that opens one of them fails that control. */
const FSBP_HIGH_RISK = new Set([
  20, 21, 22, 23, 25, 110, 135, 143, 445, 1433, 1434, 3000, 3306, 3389, 4333, 5000, 5432, 5500, 5601, 8080, 8088, 8888,
  9200, 9300,
]);
/** The ports Prowler's high-risk check reads (ec2_high_risk_ports in its configuration), over TCP. */
const HIGH_RISK_PORTS = [25, 110, 135, 143, 445, 3000, 4333, 5000, 5500, 8080, 8088] as const;
/** Ports a public web tier opens on purpose: Security Hub's EC2.18 authorizes these by default. */
const WEB_PORTS = new Set([80, 443]);

/** A network service the internet should never reach directly, and its TCP ports. */
interface NetworkService {
  /** Part of the check ids: `exposure.instance_<key>_exposed`, `exposure.sg_<key>_open`. */
  key: string;
  /** As people call it. */
  name: string;
  /** What it is, and what an attacker does with it once reached. */
  why: string;
  /** The ports of Prowler's instance check (ec2_instance_port_<prowler>_exposed_to_internet). */
  instancePorts: readonly number[];
  /** The Prowler service name in the instance check's id. */
  prowler: string;
  /**
   * The group-level check: its ports and Prowler id, for the services Prowler has one for (where an existing
   * Sentinel check covers it, none here).
   */
  group?: { ports: readonly number[]; prowler: string };
}

const NETWORK_SERVICES: readonly NetworkService[] = [
  {
    key: 'cassandra',
    name: 'Cassandra',
    why: 'Cassandra (inter-node, JMX, CQL and Thrift ports) answers queries and cluster commands; its JMX port runs code.',
    instancePorts: [7000, 7001, 7199, 9042, 9160],
    prowler: 'cassandra',
    group: { ports: [7199, 9160, 8888], prowler: 'cassandra_7199_9160_8888' },
  },
  {
    key: 'cifs',
    name: 'CIFS/SMB',
    why: 'SMB file sharing (NetBIOS 139 and SMB 445) is how WannaCry and its successors spread.',
    instancePorts: [139, 445],
    prowler: 'cifs',
  },
  {
    key: 'elasticsearch_kibana',
    name: 'Elasticsearch and Kibana',
    why: 'Elasticsearch (9200, 9300) and Kibana (5601) often run without authentication: exposed clusters are wiped and held to ransom by bots.',
    instancePorts: [9200, 9300, 5601],
    prowler: 'elasticsearch_kibana',
    group: { ports: [9200, 9300, 5601], prowler: 'elasticsearch_kibana_9200_9300_5601' },
  },
  {
    key: 'ftp',
    name: 'FTP',
    why: 'FTP (20, 21) sends passwords and files in clear and is brute-forced constantly.',
    instancePorts: [20, 21],
    prowler: 'ftp',
    group: { ports: [20, 21], prowler: 'ftp_20_21' },
  },
  {
    key: 'kafka',
    name: 'Kafka',
    why: 'A Kafka broker (9092) without authentication lets anyone read and write every topic.',
    instancePorts: [9092],
    prowler: 'kafka',
    group: { ports: [9092], prowler: 'kafka_9092' },
  },
  {
    key: 'kerberos',
    name: 'Kerberos',
    why: 'Kerberos (88, 464, 749, 750) is the heart of a directory: exposed, it invites password spraying and ticket attacks.',
    instancePorts: [88, 464, 749, 750],
    prowler: 'kerberos',
  },
  {
    key: 'ldap',
    name: 'LDAP',
    why: 'LDAP (389, 636) discloses the directory and takes password guesses against every account in it.',
    instancePorts: [389, 636],
    prowler: 'ldap',
  },
  {
    key: 'memcached',
    name: 'Memcached',
    why: 'Memcached (11211) has no authentication: anyone reads and poisons the cache, and it amplifies DDoS attacks.',
    instancePorts: [11211],
    prowler: 'memcached',
    group: { ports: [11211], prowler: 'memcached_11211' },
  },
  {
    key: 'mongodb',
    name: 'MongoDB',
    why: 'MongoDB (27017, 27018) exposed to the internet is found by scanners within hours and its data copied and wiped.',
    instancePorts: [27017, 27018],
    prowler: 'mongodb',
    group: { ports: [27017, 27018], prowler: 'mongodb_27017_27018' },
  },
  {
    key: 'mysql',
    name: 'MySQL',
    why: 'MySQL (3306) takes password guesses from anyone, and an old server its exploits.',
    instancePorts: [3306],
    prowler: 'mysql',
    group: { ports: [3306], prowler: 'mysql_3306' },
  },
  {
    key: 'oracle',
    name: 'Oracle Database',
    why: 'The Oracle listener (1521, 2483, 2484) takes password guesses and listener attacks from anyone.',
    instancePorts: [1521, 2483, 2484],
    prowler: 'oracle',
    group: { ports: [1521, 2483], prowler: 'oracle_1521_2483' },
  },
  {
    key: 'postgresql',
    name: 'PostgreSQL',
    why: 'PostgreSQL (5432) takes password guesses from anyone; a superuser login runs commands on the host.',
    instancePorts: [5432],
    prowler: 'postgresql',
    group: { ports: [5432], prowler: 'postgres_5432' },
  },
  {
    key: 'rdp',
    name: 'RDP',
    why: 'Remote Desktop (3389) is a leading ransomware entry point: brute-forced and exploited within minutes.',
    instancePorts: [3389],
    prowler: 'rdp',
  },
  {
    key: 'redis',
    name: 'Redis',
    why: 'Redis (6379) often runs without a password: anyone reads it, and its CONFIG command writes files that run code.',
    instancePorts: [6379],
    prowler: 'redis',
    group: { ports: [6379], prowler: 'redis_6379' },
  },
  {
    key: 'sqlserver',
    name: 'SQL Server',
    why: 'SQL Server (1433, 1434) takes password guesses from anyone; xp_cmdshell runs commands on the host.',
    instancePorts: [1433, 1434],
    prowler: 'sqlserver',
    group: { ports: [1433, 1434], prowler: 'sql_server_1433_1434' },
  },
  {
    key: 'ssh',
    name: 'SSH',
    why: 'SSH (22) servers are scanned and brute-forced within minutes of getting a public address.',
    instancePorts: [22],
    prowler: 'ssh',
  },
  {
    key: 'telnet',
    name: 'Telnet',
    why: 'Telnet (23) sends passwords in clear and is the first thing botnets try.',
    instancePorts: [23],
    prowler: 'telnet',
    group: { ports: [23], prowler: 'telnet_23' },
  },
];

const admitsAnyOf = (ports: readonly number[]) => (rule: OpenIngress) =>
  ports.some((port) => admitsPort(rule, ['tcp'], port));

const portList = (ports: readonly number[]) => ports.join(', ');

/**
 * The live instances with a public address that a security group opens to the internet on one of `ports`. An
 * instance in a region whose groups were not read is unread: what its groups admit is unknown, never clean.
 */
function exposedInstances(inventory: Inventory, ports: readonly number[], service: string): CheckResult {
  const groupsPart = inventory.securityGroups;
  return withPart(inventory.instances, ({ instances }) =>
    withPart(groupsPart, ({ groups }) => {
      const unreadRegions = new Set((groupsPart.unread ?? []).filter((u) => u.kind === 'region').map((u) => u.scope));
      const byId = new Map(groups.map((g) => [`${g.region}/${g.id}`, g]));
      const resources: FailingResource[] = [];
      const unread: Unread[] = [];
      for (const instance of instances) {
        if (GONE.has(instance.state) || instance.publicIp === null) continue;
        if (unreadRegions.has(instance.region)) {
          unread.push({
            kind: 'resource',
            scope: instance.id,
            reason: `Its security groups in ${instance.region} could not be read: whether they open ${service} to the internet is unknown.`,
          });
          continue;
        }
        const open = openingGroups(instance, byId, ports);
        if (open.length > 0)
          resources.push({
            resource: instance.id,
            region: instance.region,
            detail:
              `Instance ${instance.id} (${instance.state}) in ${instance.region} has the public address ${instance.publicIp} ` +
              `and ${open.join('; ')}.`,
          });
      }
      return withUnread(failing(resources), unread);
    }),
  );
}

/** What each of the instance's groups opens to the internet on `ports`, described. */
function openingGroups(instance: Instance, groups: Map<string, SecurityGroup>, ports: readonly number[]): string[] {
  return instance.securityGroupIds.flatMap((id) => {
    const group = groups.get(`${instance.region}/${id}`);
    if (!group) return [];
    const [found] = openGroups([group], admitsAnyOf(ports));
    return found ? [`its security group ${id} (${group.name}) allows ${ruleText(found.detail)}`] : [];
  });
}

/** The rules part of openGroups' detail ("... allows <rules>."). */
const ruleText = (detail: string | undefined) => (detail ?? '').replace(/^.* allows /, '').replace(/\.$/, '');

function instanceCheck(service: NetworkService): Check {
  return {
    id: `exposure.instance_${service.key}_exposed`,
    service: 'ec2',
    scenario: 'exposure',
    severity: 'CRITICAL',
    title: `Instance with ${service.name} reachable from the internet`,
    description:
      `An instance with a public IPv4 address (its own or an Elastic IP) is in a security group that allows TCP ` +
      `${portList(service.instancePorts)} from 0.0.0.0/0 or ::/0 (port ranges and all-traffic rules that include ` +
      `them count): anyone on the internet can connect to it. ${service.why}`,
    remediation:
      'In the EC2 console open Security Groups, select the group the finding names, Edit inbound rules, and delete ' +
      'the rule or narrow its source to your own address ranges; or run `aws ec2 revoke-security-group-ingress ' +
      `--group-id <group-id> --ip-permissions IpProtocol=tcp,FromPort=<port>,ToPort=<port>,IpRanges=[{CidrIp=0.0.0.0/0}]\` ` +
      '(and Ipv6Ranges=[{CidrIpv6=::/0}] for an IPv6 rule). If the instance needs no public address, move it to a ' +
      'private subnet or release its Elastic IP (`aws ec2 disassociate-address --association-id <id>`); reach it ' +
      'through Systems Manager Session Manager, a VPN or a load balancer. Check its logs for logins from unknown ' +
      'addresses.',
    docsUrl: 'https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/security-group-rules-reference.html',
    prowler: [`ec2_instance_port_${service.prowler}_exposed_to_internet`],
    evaluate: (inventory) => exposedInstances(inventory, service.instancePorts, service.name),
  };
}

function groupCheck(service: NetworkService, group: NonNullable<NetworkService['group']>): Check {
  const fsbp = group.ports.every((port) => FSBP_HIGH_RISK.has(port));
  return {
    id: `exposure.sg_${service.key}_open`,
    service: 'ec2',
    scenario: 'exposure',
    severity: 'HIGH',
    title: `${service.name} open to the internet`,
    description:
      `A security group allows TCP ${portList(group.ports)} from 0.0.0.0/0 or ::/0 (port ranges and all-traffic ` +
      `rules that include them count): whatever it is attached to, now or later, takes connections from anyone. ` +
      service.why,
    remediation:
      'In the EC2 console open Security Groups, select the group, Edit inbound rules, and delete the rule or narrow ' +
      'its source to the addresses that need it; or run `aws ec2 revoke-security-group-ingress --group-id <id> ' +
      '--ip-permissions IpProtocol=tcp,FromPort=<port>,ToPort=<port>,IpRanges=[{CidrIp=0.0.0.0/0}]` (and ' +
      'Ipv6Ranges=[{CidrIpv6=::/0}] for an IPv6 rule). Reach the service over a VPN, AWS PrivateLink or from the ' +
      'security groups of its clients instead.',
    docsUrl: 'https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/security-group-rules-reference.html',
    prowler: [`ec2_securitygroup_allow_ingress_from_internet_to_tcp_port_${group.prowler}`],
    ...(fsbp ? { controls: { 'aws-fsbp': ['EC2.19'] } } : {}),
    evaluate: onPart('securityGroups', ({ groups }) => failing(openGroups(groups, admitsAnyOf(group.ports)))),
  };
}

/** Whether a rule admits something other than TCP 80 and 443: a port range or protocol beyond the web's. */
function beyondWebPorts(rule: OpenIngress): boolean {
  const protocol = { '-1': 'all', '6': 'tcp' }[rule.protocol] ?? rule.protocol.toLowerCase();
  if (protocol !== 'tcp' || rule.fromPort === null || rule.toPort === null) return true;
  for (let port = rule.fromPort; port <= rule.toPort; port++) if (!WEB_PORTS.has(port)) return true;
  return false;
}

const IPV4_ANY = '0.0.0.0/0';
const IPV6_ANY = '::/0';

/**
 * Whether an ACL lets all traffic in from the internet, as Prowler reads it: per address family, the first
 * entry for all protocols (in rule-number order) decides; an allow lets everything in that more specific denies
 * ahead of it do not stop.
 */
function allTrafficAllowed(acl: NetworkAcl): string[] {
  const sorted = [...acl.internetIngress].sort((a, b) => a.ruleNumber - b.ruleNumber);
  const allProtocols = (e: NaclIngress) => e.protocol === '-1' || e.protocol.toLowerCase() === 'all';
  return [IPV4_ANY, IPV6_ANY].flatMap((cidr) => {
    const deciding = sorted.find((e) => e.cidr === cidr && allProtocols(e));
    return deciding?.action === 'allow' ? [`all traffic from ${cidr} (rule ${deciding.ruleNumber})`] : [];
  });
}

const HIGH_RISK_CONTROLS: ControlRefs = { 'aws-fsbp': ['EC2.19'] };

export const NETWORK_EXPOSURE_CHECKS: readonly Check[] = [
  ...NETWORK_SERVICES.map(instanceCheck),
  ...NETWORK_SERVICES.flatMap((service) => (service.group ? [groupCheck(service, service.group)] : [])),
  {
    id: 'exposure.sg_high_risk_ports_open',
    service: 'ec2',
    scenario: 'exposure',
    severity: 'HIGH',
    title: 'High-risk ports open to the internet',
    description:
      `A security group allows TCP ${portList(HIGH_RISK_PORTS)} (mail, RPC, SMB and the usual development ` +
      'servers) from 0.0.0.0/0 or ::/0. These services are rarely meant for the internet and are scanned for ' +
      'constantly; an all-traffic rule or a range that includes one counts.',
    remediation:
      'In the EC2 console open Security Groups, select the group, Edit inbound rules and delete the rules for these ' +
      'ports or narrow their source to known address ranges; or run `aws ec2 revoke-security-group-ingress ' +
      '--group-id <id> --ip-permissions IpProtocol=tcp,FromPort=<port>,ToPort=<port>,IpRanges=[{CidrIp=0.0.0.0/0}]`. ' +
      'Put web applications behind a load balancer on 443 instead of opening their development ports.',
    docsUrl: 'https://docs.aws.amazon.com/securityhub/latest/userguide/ec2-controls.html#ec2-19',
    prowler: ['ec2_securitygroup_allow_ingress_from_internet_to_high_risk_tcp_ports'],
    controls: HIGH_RISK_CONTROLS,
    evaluate: onPart('securityGroups', ({ groups }) => failing(openGroups(groups, admitsAnyOf(HIGH_RISK_PORTS)))),
  },
  {
    id: 'exposure.sg_unauthorized_port_open',
    service: 'ec2',
    scenario: 'exposure',
    severity: 'MEDIUM',
    title: 'Security group open to the internet beyond HTTP and HTTPS',
    description:
      'A security group allows traffic from 0.0.0.0/0 or ::/0 to something other than TCP 80 and 443: another ' +
      'port, a port range, UDP, ICMP or all traffic. Only a public web tier should take connections from anyone, ' +
      'and only on the web ports; everything else the internet reaches is one more service to keep patched.',
    remediation:
      'In the EC2 console open Security Groups, select the group, Edit inbound rules and narrow the source of every ' +
      'rule other than TCP 80 and 443 to known address ranges or to the security groups of its clients; or run ' +
      '`aws ec2 revoke-security-group-ingress --group-id <id> --ip-permissions ' +
      'IpProtocol=<protocol>,FromPort=<from>,ToPort=<to>,IpRanges=[{CidrIp=0.0.0.0/0}]`. Put services behind a load ' +
      'balancer and reach administration ports through Session Manager.',
    docsUrl: 'https://docs.aws.amazon.com/securityhub/latest/userguide/ec2-controls.html#ec2-18',
    prowler: ['ec2_securitygroup_allow_ingress_from_internet_to_any_port'],
    controls: { 'aws-fsbp': ['EC2.18'] },
    evaluate: onPart('securityGroups', ({ groups }) => failing(openGroups(groups, beyondWebPorts))),
  },
  {
    id: 'exposure.nacl_all_traffic_open',
    service: 'vpc',
    scenario: 'exposure',
    severity: 'MEDIUM',
    title: 'Network ACL lets all traffic in from the internet',
    description:
      'A network ACL allows all protocols and ports from 0.0.0.0/0 or ::/0, and no all-traffic deny ahead of it ' +
      'stops them (as AWS creates every ACL). The subnets behind it then rely on their security groups alone: one ' +
      'group opened by mistake exposes whatever it protects.',
    remediation:
      'In the VPC console open Network ACLs, select the ACL, Edit inbound rules and replace the allow-all entry with ' +
      'entries for the ports the subnet serves (for example TCP 443, and the ephemeral ports 1024-65535 for return ' +
      'traffic); or run `aws ec2 replace-network-acl-entry --network-acl-id <id> --ingress --rule-number 100 ' +
      '--protocol tcp --port-range From=443,To=443 --cidr-block 0.0.0.0/0 --rule-action allow` and ' +
      '`aws ec2 create-network-acl-entry` for the others. Test in a staging VPC first: ACLs are stateless.',
    docsUrl: 'https://docs.aws.amazon.com/vpc/latest/userguide/nacl-rules.html',
    prowler: ['ec2_networkacl_allow_ingress_any_port'],
    evaluate: onPart('networkAcls', ({ acls }) =>
      failing(
        acls.flatMap((acl) => {
          const open = allTrafficAllowed(acl);
          if (open.length === 0) return [];
          return [
            {
              resource: acl.id,
              region: acl.region,
              detail: `Network ACL ${acl.id} (${acl.vpcId}) in ${acl.region} allows ${open.join(' and ')}.`,
            },
          ];
        }),
      ),
    ),
  },
  {
    id: 'exposure.instance_public_with_role',
    service: 'ec2',
    scenario: 'exposure',
    severity: 'MEDIUM',
    title: 'Internet-facing instance with an IAM role',
    description:
      'An instance with a public IPv4 address has an instance profile: whoever compromises it from the internet ' +
      '(an exploited service, a server-side request forgery) gets the credentials of its role and acts in the ' +
      'account with them. Instances that face the internet should hold no role, or one that can do very little.',
    remediation:
      "In the console, review the role's permissions (IAM > Roles > the role > Permissions) and cut them to what the instance " +
      'needs, require IMDSv2, and where the instance needs no public address move it behind a load balancer in a ' +
      'private subnet. To detach the profile: EC2 > the instance > Actions > Security > Modify IAM role > No IAM ' +
      'role; or `aws ec2 disassociate-iam-instance-profile --association-id <id>` (find the id with `aws ec2 ' +
      'describe-iam-instance-profile-associations --filters Name=instance-id,Values=<instance-id>`).',
    docsUrl: 'https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/iam-roles-for-amazon-ec2.html',
    prowler: ['ec2_instance_internet_facing_with_instance_profile'],
    evaluate: onPart('instances', ({ instances }) =>
      failing(
        instances
          .filter((i) => !GONE.has(i.state) && i.publicIp !== null && i.instanceProfileArn !== null)
          .map((i) => ({
            resource: i.id,
            region: i.region,
            detail: `Instance ${i.id} in ${i.region} has the public address ${i.publicIp} and the instance profile ${i.instanceProfileArn}.`,
          })),
      ),
    ),
  },
];
