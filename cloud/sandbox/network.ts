import type {
  DefaultSecurityGroup,
  EbsEncryptionSetting,
  NaclIngress,
  NetworkAcl,
  UnloggedVpc,
} from '../../domain/scans/inventory';

// The sandbox account's VPCs and EC2 settings: one VPC per region in use, set up as the CIS benchmark asks (flow
// logs on, SSH and RDP denied by the network ACL ahead of its TCP and UDP allows, the default security group emptied,
// EBS encryption on by default everywhere). The baseline issues below undo one of these each.

/** A resource id from the keys that name it (the sandbox's seeded ids). */
export type IdOf = (...keys: (string | number)[]) => string;

interface SandboxVpc extends UnloggedVpc {
  flowLog: boolean;
}

export interface SandboxNetwork {
  vpcs: SandboxVpc[];
  acls: NetworkAcl[];
  /** Default groups that have rules (the clean account has emptied them all). */
  defaultGroups: DefaultSecurityGroup[];
  ebs: EbsEncryptionSetting[];
}

const internet = (
  ruleNumber: number,
  action: 'allow' | 'deny',
  protocol: string,
  ports: [number, number] | null,
  cidr: string,
): NaclIngress => ({ ruleNumber, action, protocol, fromPort: ports?.[0] ?? null, toPort: ports?.[1] ?? null, cidr });

/** The ACL entries AWS creates in every network ACL of a VPC with IPv6: allow everything, then the catch-all deny. */
const AWS_DEFAULT_ENTRIES: NaclIngress[] = [
  internet(100, 'allow', '-1', null, '0.0.0.0/0'),
  internet(101, 'allow', '-1', null, '::/0'),
  internet(32767, 'deny', '-1', null, '0.0.0.0/0'),
  internet(32767, 'deny', '-1', null, '::/0'),
];

/** Denies for SSH and RDP from anywhere, over TCP and UDP, numbered ahead of the allow-all AWS created. */
const ADMIN_DENIES: NaclIngress[] = ['0.0.0.0/0', '::/0'].flatMap((cidr, i) => [
  internet(10 + 4 * i, 'deny', '6', [22, 22], cidr),
  internet(11 + 4 * i, 'deny', '6', [3389, 3389], cidr),
  internet(12 + 4 * i, 'deny', '17', [22, 22], cidr),
  internet(13 + 4 * i, 'deny', '17', [3389, 3389], cidr),
]);

/**
 * What a set-up ACL lets in from anywhere instead of AWS's allow-all: TCP and UDP (the denies above still stop SSH and
 * RDP), then the catch-all deny; other protocols (ICMP) stay out.
 */
const TCP_UDP_ALLOWS: NaclIngress[] = [
  internet(100, 'allow', '6', [0, 65535], '0.0.0.0/0'),
  internet(101, 'allow', '6', [0, 65535], '::/0'),
  internet(102, 'allow', '17', [0, 65535], '0.0.0.0/0'),
  internet(103, 'allow', '17', [0, 65535], '::/0'),
  internet(32767, 'deny', '-1', null, '0.0.0.0/0'),
  internet(32767, 'deny', '-1', null, '::/0'),
];

export const vpcId = (idOf: IdOf, region: string) => `vpc-${idOf(region, 'vpc')}`;

export function cleanNetwork({
  idOf,
  regionsInUse,
  enabledRegions,
}: {
  idOf: IdOf;
  regionsInUse: string[];
  enabledRegions: string[];
}): SandboxNetwork {
  return {
    vpcs: regionsInUse.map((region) => ({ id: vpcId(idOf, region), region, isDefault: false, flowLog: true })),
    acls: regionsInUse.map((region) => ({
      id: `acl-${idOf(region, 'acl')}`,
      vpcId: vpcId(idOf, region),
      region,
      internetIngress: [...ADMIN_DENIES, ...TCP_UDP_ALLOWS],
    })),
    defaultGroups: [],
    ebs: enabledRegions.map((region) => ({ region, enabled: true })),
  };
}

/** The region's network ACL reset to what AWS creates: everything allowed in. */
export function openAcl(net: SandboxNetwork, region: string): void {
  const acl = net.acls.find((a) => a.region === region);
  if (acl) acl.internetIngress = [...AWS_DEFAULT_ENTRIES];
}

/** The region's default security group with the rules AWS creates it with: its members reach each other and anything. */
export function defaultGroupAsCreated(
  net: SandboxNetwork,
  { idOf, region, groupId }: { idOf: IdOf; region: string; groupId: string },
): void {
  net.defaultGroups.push({
    id: groupId,
    vpcId: vpcId(idOf, region),
    region,
    rules: [
      { direction: 'inbound', protocol: '-1', fromPort: null, toPort: null, peer: groupId },
      { direction: 'outbound', protocol: '-1', fromPort: null, toPort: null, peer: '0.0.0.0/0' },
    ],
  });
}

/** A VPC added for staging, whose flow log nobody created. */
export function unloggedStagingVpc(net: SandboxNetwork, { idOf, region }: { idOf: IdOf; region: string }): void {
  net.vpcs.push({ id: `vpc-${idOf(region, 'staging-vpc')}`, region, isDefault: false, flowLog: false });
}

/** EBS encryption by default turned on only where the account runs something. */
export function ebsEncryptionOnlyWhereUsed(net: SandboxNetwork, regionsInUse: string[]): void {
  for (const setting of net.ebs) setting.enabled = regionsInUse.includes(setting.region);
}

export const unloggedVpcs = (net: SandboxNetwork): UnloggedVpc[] =>
  net.vpcs.filter((vpc) => !vpc.flowLog).map(({ id, region, isDefault }) => ({ id, region, isDefault }));
