// The network as the internet-exposure analysis reads it (domain/attack-paths/reachability.ts), region by region:
// where each subnet sends traffic bound for the internet, what its network ACL lets in and out, what the security
// groups in use admit, and where instances, internet-facing load balancers, databases, caches and search domains
// sit. What other parts already carry (an instance's public address, state, groups, role and metadata options; a
// load balancer's scheme and listeners; a database's PubliclyAccessible) is read there, not repeated here.
//
// Kept small for large accounts: of the security groups, only those something placed here is in; of the routes,
// only those to an internet gateway; of the load balancers, only the internet-facing ones.

/** A route that sends traffic to an internet gateway: answers to the sources it covers get back out. */
export interface InternetRoute {
  /** A CIDR (0.0.0.0/0, ::/0, or a narrower public range) or a prefix list id (pl-...). */
  destination: string;
  /** The internet gateway (igw-...). */
  gatewayId: string;
}

export interface RouteTable {
  id: string;
  vpcId: string;
  region: string;
  /** Its VPC's main table: the table of every subnet of the VPC that has no explicit association. */
  main: boolean;
  /** The subnets explicitly associated with it. */
  subnetIds: string[];
  /** Its routes to an internet gateway; local, NAT, peering and endpoint routes are left out. */
  internetRoutes: InternetRoute[];
}

export interface VpcSubnet {
  id: string;
  vpcId: string;
  region: string;
}

/** One entry of a network ACL, inbound or outbound. */
export interface AclEntry {
  ruleNumber: number;
  egress: boolean;
  action: 'allow' | 'deny';
  /** As EC2 reports it: an IANA protocol number ('6' TCP, '17' UDP, '1' ICMP, '58' ICMPv6) or '-1' (all). */
  protocol: string;
  /** null when the entry has no port range (all protocols, ICMP). */
  fromPort: number | null;
  toPort: number | null;
  /** The IPv4 or IPv6 range it matches: the source of an inbound entry, the destination of an outbound one. */
  cidr: string;
}

/** A network ACL with every entry, both directions (ACLs are stateless: answers need an outbound entry too). */
export interface SubnetAcl {
  id: string;
  vpcId: string;
  region: string;
  /** The subnets it applies to (every subnet has exactly one ACL, its VPC's default one unless another is associated). */
  subnetIds: string[];
  entries: AclEntry[];
}

/** A rule of a security group: what it admits (inbound) or lets out (outbound). */
export interface SecurityGroupRule {
  direction: 'inbound' | 'outbound';
  /** 'tcp', 'udp', 'icmp', 'icmpv6', '-1' (all), or an IANA protocol number. */
  protocol: string;
  /** null for all protocols (and the ICMP type and code, which are not kept). */
  fromPort: number | null;
  toPort: number | null;
  /** Where from (inbound) or to (outbound): a CIDR, a prefix list id (pl-...) or a security group id (sg-...). */
  peer: string;
}

/** A security group with all its rules. Groups are stateful: answers to what they admit always get out. */
export interface GroupRules {
  id: string;
  vpcId: string;
  region: string;
  rules: SecurityGroupRule[];
}

/** Where an instance sits: the subnet of the network interface the internet would reach it through. */
export interface InstancePlacement {
  id: string;
  region: string;
  /** The subnet of its interface that holds its public IPv4 address, or of its primary interface without one. */
  subnetId: string;
  /** One of its interfaces has an IPv6 address: globally routable wherever the subnet routes ::/0 to the internet. */
  ipv6: boolean;
}

/** A target of a target group, with what the load balancer's health checks last said of it. */
export interface LoadBalancerTarget {
  /** An instance id, an IP address, a Lambda function's ARN or an Application Load Balancer's ARN. */
  id: string;
  /** The port the load balancer sends it traffic on; null: the target group's. */
  port: number | null;
  /** healthy, unhealthy, initial, unused, draining or unavailable (DescribeTargetHealth); null: not read. */
  health: string | null;
}

export interface TargetGroupTargets {
  arn: string;
  name: string;
  /** HTTP, HTTPS, TCP, TLS, UDP, TCP_UDP, GENEVE; null for Lambda targets. */
  protocol: string | null;
  port: number | null;
  targets: LoadBalancerTarget[];
}

/** Where an internet-facing load balancer sits and what it forwards to (internal ones are left out). */
export interface LoadBalancerPlacement {
  arn: string;
  region: string;
  subnetIds: string[];
  /** Its security groups; empty for a Network Load Balancer created without any, which filters nothing. */
  securityGroupIds: string[];
  /** It answers over IPv6 too (dualstack). */
  ipv6: boolean;
  /** The target groups it forwards to, by any listener or rule. */
  targetGroups: TargetGroupTargets[];
}

/** Where a database, cache or search domain sits in its VPC. */
export interface StorePlacement {
  /** The RDS DB instance identifier, the ElastiCache replication group id, or the OpenSearch domain name. */
  id: string;
  region: string;
  /** The subnets it may be placed in: its subnet group's, or an OpenSearch domain's VPC options. */
  subnetIds: string[];
  securityGroupIds: string[];
  /** The port it listens on; null: not reported. */
  port: number | null;
}

export interface NetworkTopology {
  subnets: VpcSubnet[];
  routeTables: RouteTable[];
  networkAcls: SubnetAcl[];
  /** Only the groups of what is placed here (instances, load balancers, databases, caches, search domains). */
  securityGroups: GroupRules[];
  /** Every instance not terminated. */
  instances: InstancePlacement[];
  loadBalancers: LoadBalancerPlacement[];
  /** RDS DB instances (in a VPC). */
  databases: StorePlacement[];
  /** ElastiCache replication groups. */
  caches: StorePlacement[];
  /** OpenSearch domains placed in a VPC; a domain outside one has a public endpoint and no placement. */
  searchDomains: StorePlacement[];
}
