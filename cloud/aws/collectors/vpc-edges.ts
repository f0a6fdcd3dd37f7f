import {
  GetInstanceMetadataDefaultsCommand,
  paginateDescribeSubnets,
  paginateDescribeTransitGateways,
  paginateDescribeVpcEndpointServiceConfigurations,
  paginateDescribeVpcEndpointServicePermissions,
  paginateDescribeVpcEndpoints,
} from '@aws-sdk/client-ec2';
import type {
  EndpointService,
  InstanceMetadataDefaults,
  PublicIpSubnet,
  TransitGateway,
  Unread,
  VpcEndpoint,
} from '../../../domain/scans/inventory';
import { describeStatement, policyExposure } from '../../../domain/policies/resource-policy';
import { mapLimit } from './concurrency';
import { failureOf, isAbsent } from './failures';
import { ec2In } from './ec2';
import { foldPages, type ReadContext, regionalPart } from './reader';

// Where a VPC meets what is outside it, region by region: the account's instance metadata defaults (what a new
// instance answers), the subnets that hand out public addresses, transit gateways that take attachments unreviewed,
// and the VPC endpoints and endpoint services whose policies and principals reach other accounts.

const PER_SERVICE_CONCURRENCY = 4;

/** What an endpoint policy allows beyond the account, described; null when it is not a policy document. */
function beyondAccount(document: string, accountId: string): string[] | null {
  const exposure = policyExposure(document, accountId);
  if (!exposure) return null;
  return [
    ...exposure.public.map((s) => `${describeStatement(s)} to every principal`),
    ...exposure.external.map(({ account, statement }) => `${describeStatement(statement)} to account ${account}`),
  ];
}

/** Whether an endpoint service's allowed principal ('*', an account's root or a principal's ARN) is not the account's. */
const outsideAccount = (principal: string, accountId: string) =>
  principal === '*' || /^arn:[^:]+:iam::(\d{12}):/.exec(principal)?.[1] !== accountId;

export const instanceMetadataDefaultsPart = regionalPart({
  part: 'instanceMetadataDefaults',
  async read({ session }: ReadContext, region: string): Promise<InstanceMetadataDefaults> {
    const { AccountLevel } = await ec2In(session, region).send(new GetInstanceMetadataDefaultsCommand({}));
    return { region, httpTokens: AccountLevel?.HttpTokens ?? null };
  },
  assemble: (slices) => ({ regions: slices }),
});

/** A subnet as listed for the parts that read subnets: what the public-address subnets' part and the topology read. */
export interface ListedSubnet {
  id: string;
  vpcId: string;
  mapPublicIpOnLaunch: boolean;
  defaultForAz: boolean;
}

/**
 * The region's subnets (DescribeSubnets), listed once a collection attempt for the public-address subnets' part below
 * and the network topology's (network-topology.ts).
 */
export const subnetsIn = ({ session, shared }: ReadContext, region: string): Promise<ListedSubnet[]> =>
  shared(`ec2:DescribeSubnets@${region}`, () =>
    foldPages(paginateDescribeSubnets({ client: ec2In(session, region) }, {}), [] as ListedSubnet[], (into, page) => {
      for (const s of page.Subnets ?? [])
        if (s.SubnetId)
          into.push({
            id: s.SubnetId,
            vpcId: s.VpcId ?? '',
            mapPublicIpOnLaunch: s.MapPublicIpOnLaunch === true,
            defaultForAz: s.DefaultForAz === true,
          });
      return into;
    }),
  );

export const publicIpSubnetsPart = regionalPart({
  part: 'publicIpSubnets',
  read: async (ctx: ReadContext, region: string): Promise<PublicIpSubnet[]> =>
    // Only the subnets that give out public addresses: the others would only weigh on the inventory.
    (await subnetsIn(ctx, region)).flatMap((s) =>
      s.mapPublicIpOnLaunch ? [{ id: s.id, vpcId: s.vpcId, region, defaultForAz: s.defaultForAz }] : [],
    ),
  assemble: (slices) => ({ subnets: slices.flat() }),
});

export const transitGatewaysPart = regionalPart({
  part: 'transitGateways',
  read: ({ session }: ReadContext, region: string) =>
    foldPages(
      paginateDescribeTransitGateways({ client: ec2In(session, region) }, {}),
      [] as TransitGateway[],
      (into, page) => {
        for (const g of page.TransitGateways ?? []) {
          // Deleted gateways stay listed for a while; they accept nothing.
          if (!g.TransitGatewayId || g.State === 'deleted' || g.State === 'deleting') continue;
          into.push({
            id: g.TransitGatewayId,
            region,
            autoAcceptSharedAttachments: g.Options?.AutoAcceptSharedAttachments === 'enable',
          });
        }
        return into;
      },
    ),
  assemble: (slices) => ({ gateways: slices.flat() }),
});

interface EndpointsSlice {
  endpoints: VpcEndpoint[];
  services: EndpointService[];
  unread: Unread[];
}

/**
 * The region's VPC endpoints that have a policy, and the endpoint services the account provides with who may connect
 * to each. Endpoints of PrivateLink services (com.amazonaws.vpce.*) are left out: their policy cannot be set. A
 * service whose principals are refused is unread; one deleted since it was listed is left out.
 */
export const vpcEndpointsPart = regionalPart({
  part: 'vpcEndpoints',
  async read({ session }: ReadContext, region: string): Promise<EndpointsSlice> {
    const ec2 = ec2In(session, region);
    const [endpoints, configurations] = await Promise.all([
      foldPages(paginateDescribeVpcEndpoints({ client: ec2 }, {}), [] as VpcEndpoint[], (into, page) => {
        for (const e of page.VpcEndpoints ?? []) {
          const serviceName = e.ServiceName ?? '';
          if (!e.VpcEndpointId || !e.PolicyDocument || serviceName.startsWith('com.amazonaws.vpce.')) continue;
          if (e.State === 'Deleted' || e.State === 'Deleting') continue;
          into.push({
            id: e.VpcEndpointId,
            vpcId: e.VpcId ?? '',
            region,
            serviceName,
            beyondAccount: beyondAccount(e.PolicyDocument, session.accountId),
          });
        }
        return into;
      }),
      foldPages(
        paginateDescribeVpcEndpointServiceConfigurations({ client: ec2 }, {}),
        [] as { id: string; serviceName: string }[],
        (into, page) => {
          for (const c of page.ServiceConfigurations ?? [])
            if (c.ServiceId) into.push({ id: c.ServiceId, serviceName: c.ServiceName ?? '' });
          return into;
        },
      ),
    ]);
    const unread: Unread[] = [];
    const services = await mapLimit({
      items: configurations,
      limit: PER_SERVICE_CONCURRENCY,
      run: async ({ id, serviceName }): Promise<EndpointService | null> => {
        try {
          const outsidePrincipals = await foldPages(
            paginateDescribeVpcEndpointServicePermissions({ client: ec2 }, { ServiceId: id }),
            [] as string[],
            (into, page) => {
              for (const p of page.AllowedPrincipals ?? [])
                if (p.Principal && outsideAccount(p.Principal, session.accountId)) into.push(p.Principal);
              return into;
            },
          );
          return { id, region, serviceName, outsidePrincipals };
        } catch (err) {
          if (isAbsent(err, 'InvalidVpcEndpointServiceId.NotFound')) return null; // deleted since it was listed
          const { reason, retryable } = failureOf(err);
          if (retryable) throw err;
          unread.push({ kind: 'resource', scope: id, reason });
          return null;
        }
      },
    });
    return { endpoints, services: services.filter((s): s is EndpointService => s !== null), unread };
  },
  unreadIn: (slice) => slice.unread,
  assemble: (slices) => ({
    endpoints: slices.flatMap((s) => s.endpoints),
    services: slices.flatMap((s) => s.services),
  }),
});
