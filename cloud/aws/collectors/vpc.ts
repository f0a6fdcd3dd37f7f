import {
  type NetworkAclEntry,
  paginateDescribeFlowLogs,
  paginateDescribeNetworkAcls,
  paginateDescribeVpcs,
} from '@aws-sdk/client-ec2';
import type { NaclIngress, NetworkAcl, UnloggedVpc } from '../../../domain/scans/inventory';
import { ec2In } from './ec2';
import { foldPages, type ReadContext, regionalPart } from './reader';

// VPC network ACLs and flow logs, region by region. Pages are reduced as they arrive: of the ACLs only those that
// let some internet traffic in are kept, with their internet inbound entries; of the VPCs only those without an
// active flow log.

const INTERNET = new Set(['0.0.0.0/0', '::/0']);

function internetIngress(entries: NetworkAclEntry[]): NaclIngress[] {
  return entries
    .flatMap((e) => {
      const cidr = e.CidrBlock ?? e.Ipv6CidrBlock;
      if (
        e.Egress === true ||
        cidr === undefined ||
        !INTERNET.has(cidr) ||
        (e.RuleAction !== 'allow' && e.RuleAction !== 'deny')
      )
        return [];
      return [
        {
          ruleNumber: e.RuleNumber ?? 0,
          action: e.RuleAction,
          protocol: e.Protocol ?? '-1',
          fromPort: e.PortRange?.From ?? null,
          toPort: e.PortRange?.To ?? null,
          cidr,
        },
      ];
    })
    .sort((a, b) => a.ruleNumber - b.ruleNumber);
}

export const networkAclsPart = regionalPart({
  part: 'networkAcls',
  read: ({ session }: ReadContext, region: string) =>
    foldPages(paginateDescribeNetworkAcls({ client: ec2In(session, region) }, {}), [] as NetworkAcl[], (into, page) => {
      for (const acl of page.NetworkAcls ?? []) {
        const entries = internetIngress(acl.Entries ?? []);
        // An ACL whose internet entries all deny cannot let anything in: it would only weigh on the inventory.
        if (entries.some((e) => e.action === 'allow'))
          into.push({ id: acl.NetworkAclId ?? '', vpcId: acl.VpcId ?? '', region, internetIngress: entries });
      }
      return into;
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
