import {
  type NetworkAcl as AwsNetworkAcl,
  paginateDescribeFlowLogs,
  paginateDescribeNetworkAcls,
  paginateDescribeVpcs,
} from '@aws-sdk/client-ec2';
import type { NaclIngress, NetworkAcl, UnloggedVpc } from '../../../domain/scans/inventory';
import type { AclEntry, SubnetAcl } from '../../../domain/scans/network-topology';
import { ec2In } from './ec2';
import { foldPages, type ReadContext, regionalPart } from './reader';

// VPC network ACLs and flow logs, region by region. The ACLs are listed once a collection attempt, with every entry,
// for the network ACLs' part and the network topology's (network-topology.ts); of them the ACLs' part keeps only those
// that let some internet traffic in, with their internet inbound entries. Of the VPCs only those without an active
// flow log are kept.

const INTERNET = new Set(['0.0.0.0/0', '::/0']);

const defined = <T>(values: (T | undefined)[]): T[] => values.filter((v): v is T => v !== undefined);

/** An ACL with its subnets and every entry that allows or denies a range (what the network topology keeps). */
function aclOf(acl: AwsNetworkAcl, region: string): SubnetAcl {
  return {
    id: acl.NetworkAclId ?? '',
    vpcId: acl.VpcId ?? '',
    region,
    subnetIds: defined((acl.Associations ?? []).map((a) => a.SubnetId)),
    entries: (acl.Entries ?? []).flatMap((e): AclEntry[] => {
      const cidr = e.CidrBlock ?? e.Ipv6CidrBlock;
      if (cidr === undefined || (e.RuleAction !== 'allow' && e.RuleAction !== 'deny')) return [];
      return [
        {
          ruleNumber: e.RuleNumber ?? 0,
          egress: e.Egress === true,
          action: e.RuleAction,
          protocol: e.Protocol ?? '-1',
          fromPort: e.PortRange?.From ?? null,
          toPort: e.PortRange?.To ?? null,
          cidr,
        },
      ];
    }),
  };
}

/** The region's network ACLs (DescribeNetworkAcls), listed once a collection attempt for every part that reads them. */
export const networkAclsIn = ({ session, shared }: ReadContext, region: string): Promise<SubnetAcl[]> =>
  shared(`ec2:DescribeNetworkAcls@${region}`, () =>
    foldPages(paginateDescribeNetworkAcls({ client: ec2In(session, region) }, {}), [] as SubnetAcl[], (into, page) => {
      for (const acl of page.NetworkAcls ?? []) into.push(aclOf(acl, region));
      return into;
    }),
  );

function internetIngress(entries: AclEntry[]): NaclIngress[] {
  return entries
    .flatMap(({ egress, cidr, ruleNumber, action, protocol, fromPort, toPort }) =>
      egress || !INTERNET.has(cidr) ? [] : [{ ruleNumber, action, protocol, fromPort, toPort, cidr }],
    )
    .sort((a, b) => a.ruleNumber - b.ruleNumber);
}

export const networkAclsPart = regionalPart({
  part: 'networkAcls',
  read: async (ctx: ReadContext, region: string): Promise<NetworkAcl[]> =>
    (await networkAclsIn(ctx, region)).flatMap((acl) => {
      const entries = internetIngress(acl.entries);
      // An ACL whose internet entries all deny cannot let anything in: it would only weigh on the inventory.
      return entries.some((e) => e.action === 'allow')
        ? [{ id: acl.id, vpcId: acl.vpcId, region, internetIngress: entries }]
        : [];
    }),
  assemble: (slices) => ({ acls: slices.flat() }),
});

/**
 * The VPCs without an active flow log. DescribeFlowLogs has no filter on the resource type: the flow logs of
 * subnets and network interfaces are read too, and only the VPCs' ids kept. A subnet's flow log does not cover
 * its VPC's other subnets, so it does not count.
 */
export const vpcFlowLogsPart = regionalPart({
  part: 'vpcFlowLogs',
  async read({ session }: ReadContext, region: string): Promise<UnloggedVpc[]> {
    const ec2 = ec2In(session, region);
    const [vpcs, logged] = await Promise.all([
      foldPages(paginateDescribeVpcs({ client: ec2 }, {}), [] as UnloggedVpc[], (into, page) => {
        for (const vpc of page.Vpcs ?? [])
          if (vpc.VpcId) into.push({ id: vpc.VpcId, region, isDefault: vpc.IsDefault === true });
        return into;
      }),
      foldPages(paginateDescribeFlowLogs({ client: ec2 }, {}), new Set<string>(), (into, page) => {
        for (const log of page.FlowLogs ?? []) {
          if (log.FlowLogStatus === 'ACTIVE' && log.ResourceId?.startsWith('vpc-')) into.add(log.ResourceId);
        }
        return into;
      }),
    ]);
    return vpcs.filter((vpc) => !logged.has(vpc.id));
  },
  assemble: (slices) => ({ unloggedVpcs: slices.flat() }),
});
