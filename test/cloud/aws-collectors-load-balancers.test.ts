import { DescribeSubnetsCommand, EC2Client } from '@aws-sdk/client-ec2';
import {
  CreateListenerCommand,
  CreateLoadBalancerCommand,
  ElasticLoadBalancingV2Client,
  ModifyLoadBalancerAttributesCommand,
} from '@aws-sdk/client-elastic-load-balancing-v2';
import { checkById } from '../../domain/checks/catalog';
import type { Inventory } from '../../domain/scans/inventory';
import { type AwsRequest, createSentinelRole, customerConfig, motoGaps, queryError, REGION } from '../helpers/aws';
import { ok, useCollectorSuite } from '../helpers/collector-suite';

// Elastic Load Balancing v2 end to end: load balancers created in moto with and without an HTTPS redirect,
// deletion protection and header hygiene, collected through Sentinel's role and judged by the load balancer checks.
// The front refuses calls as an SCP would, and pages answers moto gives in one.

const ELB_XMLNS = 'http://elasticloadbalancing.amazonaws.com/doc/2015-12-01/';

/** An Elastic Load Balancing (query protocol) answer, as AWS sends it. */
const elbAnswer = (action: string, result: string) => ({
  status: 200,
  contentType: 'text/xml',
  body:
    `<${action}Response xmlns="${ELB_XMLNS}"><${action}Result>${result}</${action}Result>` +
    `<ResponseMetadata><RequestId>front</RequestId></ResponseMetadata></${action}Response>`,
});

const formOf = (request: AwsRequest) => new URLSearchParams(request.body);

/** A check's failing resources in the test region, or 'pass' without any there. */
function failingHere(inventory: Inventory, checkId: string): string[] | string {
  const result = checkById(checkId)!.evaluate(inventory, { now: inventory.collectedAt });
  if (result.status !== 'fail') return result.status;
  const here = result.resources.filter((r) => r.region === REGION).map((r) => r.resource);
  return here.length > 0 ? here.sort() : 'pass';
}

describe('Elastic Load Balancing collection against moto', () => {
  const suite = useCollectorSuite();

  async function seeded() {
    const { customer, target } = await suite.connectedCustomer();
    const ec2 = suite.client(new EC2Client(customerConfig(customer)));
    const elb = suite.client(new ElasticLoadBalancingV2Client(customerConfig(customer)));
    const { Subnets = [] } = await ec2.send(
      new DescribeSubnetsCommand({ Filters: [{ Name: 'default-for-az', Values: ['true'] }] }),
    );
    /** An internet-facing ALB whose HTTP listener forwards (a fixed response) or redirects to HTTPS. */
    const alb = async (name: string, redirect: boolean) => {
      const { LoadBalancers = [] } = await elb.send(
        new CreateLoadBalancerCommand({
          Name: name,
          Type: 'application',
          Scheme: 'internet-facing',
          Subnets: Subnets.slice(0, 2).map((s) => s.SubnetId!),
        }),
      );
      const arn = LoadBalancers[0]!.LoadBalancerArn!;
      await elb.send(
        new CreateListenerCommand({
          LoadBalancerArn: arn,
          Protocol: 'HTTP',
          Port: 80,
          DefaultActions: [
            redirect
              ? { Type: 'redirect', RedirectConfig: { Protocol: 'HTTPS', Port: '443', StatusCode: 'HTTP_301' } }
              : { Type: 'fixed-response', FixedResponseConfig: { StatusCode: '200', ContentType: 'text/plain' } },
          ],
        }),
      );
      return arn;
    };
    return { customer, target, elb, alb };
  }

  it('finds an ALB that serves plain HTTP, keeps invalid headers and can be deleted, and passes a hardened one', async () => {
    const { customer, target, elb, alb } = await seeded();
    const plain = await alb('plain', false);
    const hardened = await alb('hardened', true);
    await elb.send(
      new ModifyLoadBalancerAttributesCommand({
        LoadBalancerArn: hardened,
        Attributes: [
          { Key: 'deletion_protection.enabled', Value: 'true' },
          { Key: 'routing.http.drop_invalid_header_fields.enabled', Value: 'true' },
          { Key: 'routing.http.desync_mitigation_mode', Value: 'strictest' },
        ],
      }),
    );
    await createSentinelRole({ customer, externalId: target.externalId });

    const inventory = await suite.provider.collectInventory(target);

    const byArn = new Map(ok(inventory.loadBalancers).loadBalancers.map((lb) => [lb.arn, lb]));
    expect(byArn.get(hardened)).toMatchObject({
      name: 'hardened',
      type: 'application',
      internetFacing: true,
      attributes: { deletionProtection: true, dropInvalidHeaderFields: true, desyncMitigationMode: 'strictest' },
      listeners: [expect.objectContaining({ port: 80, protocol: 'HTTP', redirectsToHttps: true })],
    });
    expect(byArn.get(plain)?.listeners).toEqual([
      expect.objectContaining({ protocol: 'HTTP', redirectsToHttps: false }),
    ]);
    expect(failingHere(inventory, 'exposure.alb_http_not_redirected')).toEqual([plain]);
    expect(failingHere(inventory, 'exposure.elb_deletion_protection_off')).toEqual([plain]);
    expect(failingHere(inventory, 'exposure.alb_invalid_headers_accepted')).toEqual([plain]);
    expect(failingHere(inventory, 'exposure.elb_outdated_tls_policy')).toBe('pass');
    expect(failingHere(inventory, 'exposure.alb_desync_unguarded')).not.toContain(hardened);
  });

  it('leaves a load balancer unread for the attributes its role is refused, and judges its listeners', async () => {
    const { customer, target, alb } = await seeded();
    const plain = await alb('plain', false);
    await createSentinelRole({ customer, externalId: target.externalId });
    suite.front.answer = (request) =>
      request.service === 'elasticloadbalancing' && request.operation === 'DescribeLoadBalancerAttributes'
        ? queryError({
            service: 'elasticloadbalancing',
            status: 403,
            code: 'AccessDenied',
            message: 'explicit deny in a service control policy',
          })
        : motoGaps(request);

    const inventory = await suite.provider.collectInventory(target);

    expect(inventory.loadBalancers.unread).toEqual([
      {
        kind: 'resource',
        scope: plain,
        reason: expect.stringMatching(
          /^Its attributes: AWS denied Sentinel's role Elastic Load Balancing DescribeLoadBalancerAttributes/,
        ),
      },
    ]);
    expect(failingHere(inventory, 'exposure.alb_http_not_redirected')).toEqual([plain]);
    const deletion = checkById('exposure.elb_deletion_protection_off')!.evaluate(inventory, {
      now: inventory.collectedAt,
    });
    expect(deletion).toMatchObject({ status: 'pass', unread: [{ scope: plain }] });
  });

  it('reads every page of load balancers', async () => {
    const { customer, target } = await seeded();
    await createSentinelRole({ customer, externalId: target.externalId });
    const arn = (name: string) =>
      `arn:aws:elasticloadbalancing:${REGION}:${customer.accountId}:loadbalancer/app/${name}/0123456789abcdef`;
    const member = (name: string) =>
      `<member><LoadBalancerArn>${arn(name)}</LoadBalancerArn><LoadBalancerName>${name}</LoadBalancerName>` +
      '<Type>application</Type><Scheme>internet-facing</Scheme></member>';
    // moto answers in one page whatever PageSize says: the front answers in two, as AWS does past 400.
    suite.front.answer = (request) => {
      if (request.service !== 'elasticloadbalancing' || request.region !== REGION) return motoGaps(request);
      const form = formOf(request);
      if (request.operation === 'DescribeLoadBalancers')
        return form.get('Marker') === 'page-2'
          ? elbAnswer('DescribeLoadBalancers', `<LoadBalancers>${member('second')}</LoadBalancers>`)
          : elbAnswer(
              'DescribeLoadBalancers',
              `<LoadBalancers>${member('first')}</LoadBalancers><NextMarker>page-2</NextMarker>`,
            );
      if (request.operation === 'DescribeListeners') return elbAnswer('DescribeListeners', '<Listeners/>');
      if (request.operation === 'DescribeLoadBalancerAttributes')
        return elbAnswer(
          'DescribeLoadBalancerAttributes',
          '<Attributes><member><Key>deletion_protection.enabled</Key><Value>true</Value></member></Attributes>',
        );
      return motoGaps(request);
    };

    const inventory = await suite.provider.collectInventory(target);

    expect(
      ok(inventory.loadBalancers)
        .loadBalancers.filter((lb) => lb.region === REGION)
        .map((lb) => [lb.name, lb.attributes?.deletionProtection]),
    ).toEqual([
      ['first', true],
      ['second', true],
    ]);
    expect(
      suite.front.requests
        .filter((r) => r.operation === 'DescribeLoadBalancers' && r.region === REGION)
        .map((r) => formOf(r).get('Marker')),
    ).toEqual([null, 'page-2']);
  });
});
