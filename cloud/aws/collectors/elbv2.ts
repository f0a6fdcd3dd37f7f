import {
  DescribeLoadBalancerAttributesCommand,
  ElasticLoadBalancingV2Client,
  type Listener,
  paginateDescribeListeners,
  paginateDescribeLoadBalancers,
} from '@aws-sdk/client-elastic-load-balancing-v2';
import type { LoadBalancer, LoadBalancerListener, Unread } from '../../../domain/scans/inventory';
import { mapLimit } from './concurrency';
import { failureOf, isAbsent } from './failures';
import { foldPages, type ReadContext, regionalPart } from './reader';
import type { Session } from './session';

// Elastic Load Balancing v2, region by region: every Application, Network and Gateway Load Balancer with its
// listeners and attributes. A load balancer whose listeners or attributes are refused is unread for what it lacks;
// one deleted while the scan read is left out. The load balancers are listed once a collection attempt for this part
// and the network topology's (network-placements.ts), which places the internet-facing ones.

const PER_LOAD_BALANCER_CONCURRENCY = 4;

function listenerOf(l: Listener): LoadBalancerListener {
  return {
    arn: l.ListenerArn ?? '',
    port: l.Port ?? 0,
    protocol: l.Protocol ?? '',
    sslPolicy: l.SslPolicy ?? null,
    redirectsToHttps: (l.DefaultActions ?? []).some(
      (a) => a.Type === 'redirect' && a.RedirectConfig?.Protocol === 'HTTPS',
    ),
  };
}

export const elbIn = (session: Session, region: string) =>
  session.client((config) => new ElasticLoadBalancingV2Client(config), region);

const attribute = (attributes: { Key?: string; Value?: string }[], key: string) =>
  attributes.find((a) => a.Key === key)?.Value;

/** A load balancer as listed for the parts that read load balancers: this part's fields and where it sits. */
export interface ListedLoadBalancer {
  arn: string;
  name: string;
  type: string;
  internetFacing: boolean;
  subnetIds: string[];
  securityGroupIds: string[];
  /** It answers over IPv6 too (a dualstack address type). */
  ipv6: boolean;
}

/** The region's load balancers (DescribeLoadBalancers), listed once a collection attempt for every part that reads them. */
export const loadBalancersIn = ({ session, shared }: ReadContext, region: string): Promise<ListedLoadBalancer[]> =>
  shared(`elasticloadbalancing:DescribeLoadBalancers@${region}`, () =>
    foldPages(
      paginateDescribeLoadBalancers({ client: elbIn(session, region) }, {}),
      [] as ListedLoadBalancer[],
      (into, page) => {
        for (const lb of page.LoadBalancers ?? [])
          if (lb.LoadBalancerArn)
            into.push({
              arn: lb.LoadBalancerArn,
              name: lb.LoadBalancerName ?? '',
              type: lb.Type ?? '',
              internetFacing: lb.Scheme === 'internet-facing',
              subnetIds: (lb.AvailabilityZones ?? []).flatMap((z) => (z.SubnetId === undefined ? [] : [z.SubnetId])),
              securityGroupIds: lb.SecurityGroups ?? [],
              ipv6: (lb.IpAddressType ?? '').startsWith('dualstack'),
            });
        return into;
      },
    ),
  );

interface Slice {
  loadBalancers: LoadBalancer[];
  unread: Unread[];
}

export const loadBalancersPart = regionalPart({
  part: 'loadBalancers',
  async read(ctx: ReadContext, region: string): Promise<Slice> {
    const elb = elbIn(ctx.session, region);
    const listed = (await loadBalancersIn(ctx, region)).map(
      ({ arn, name, type, internetFacing }): Omit<LoadBalancer, 'attributes' | 'listeners'> => ({
        arn,
        name,
        region,
        type,
        internetFacing,
      }),
    );
    const unread: Unread[] = [];
    /** Runs a read of one load balancer: null when it was refused (named unread) or the load balancer is gone. */
    const readOf = async <T>(arn: string, what: string, read: () => Promise<T>): Promise<T | null | 'gone'> => {
      try {
        return await read();
      } catch (err) {
        if (isAbsent(err, 'LoadBalancerNotFound') || isAbsent(err, 'LoadBalancerNotFoundException')) return 'gone';
        const { reason, retryable } = failureOf(err);
        if (retryable) throw err;
        unread.push({ kind: 'resource', scope: arn, reason: `Its ${what}: ${reason}` });
        return null;
      }
    };
    const loadBalancers = await mapLimit({
      items: listed,
      limit: PER_LOAD_BALANCER_CONCURRENCY,
      run: async (lb): Promise<LoadBalancer | null> => {
        const listeners = await readOf(lb.arn, 'listeners', () =>
          foldPages(
            paginateDescribeListeners({ client: elb }, { LoadBalancerArn: lb.arn }),
            [] as LoadBalancerListener[],
            (into, page) => {
              for (const l of page.Listeners ?? []) into.push(listenerOf(l));
              return into;
            },
          ),
        );
        const attributes = await readOf(lb.arn, 'attributes', async () => {
          const { Attributes = [] } = await elb.send(
            new DescribeLoadBalancerAttributesCommand({ LoadBalancerArn: lb.arn }),
          );
          return {
            deletionProtection: attribute(Attributes, 'deletion_protection.enabled') === 'true',
            dropInvalidHeaderFields:
              attribute(Attributes, 'routing.http.drop_invalid_header_fields.enabled') === 'true',
            desyncMitigationMode: attribute(Attributes, 'routing.http.desync_mitigation_mode') ?? null,
          };
        });
        if (listeners === 'gone' || attributes === 'gone') return null;
        return { ...lb, listeners, attributes };
      },
    });
    return { loadBalancers: loadBalancers.filter((lb): lb is LoadBalancer => lb !== null), unread };
  },
  unreadIn: (slice) => slice.unread,
  assemble: (slices) => ({ loadBalancers: slices.flatMap((s) => s.loadBalancers) }),
});
