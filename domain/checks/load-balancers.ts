import type { LoadBalancer } from '../scans/inventory';
import { failing, onPart } from './helpers';
import type { Check, CheckResult, FailingResource } from './types';

// The internet edge on Elastic Load Balancing v2: what an Application or Network Load Balancer accepts (plain HTTP,
// outdated TLS, malformed requests) and whether one can be deleted by a single call.

/**
 * The TLS policies that allow TLS 1.2 and later only, with forward-secret ciphers: those Prowler accepts
 * (elbv2_insecure_ssl_ciphers) and AWS recommends. Any other (TLS 1.0 or 1.1, or the 2016 default) is outdated.
 */
const CURRENT_TLS_POLICIES = new Set([
  'ELBSecurityPolicy-TLS-1-2-2017-01',
  'ELBSecurityPolicy-TLS-1-2-Ext-2018-06',
  'ELBSecurityPolicy-FS-1-2-2019-08',
  'ELBSecurityPolicy-FS-1-2-Res-2019-08',
  'ELBSecurityPolicy-FS-1-2-Res-2020-10',
  'ELBSecurityPolicy-TLS13-1-2-2021-06',
  'ELBSecurityPolicy-TLS13-1-3-2021-06',
  'ELBSecurityPolicy-TLS13-1-2-Res-2021-06',
  'ELBSecurityPolicy-TLS13-1-2-Ext1-2021-06',
  'ELBSecurityPolicy-TLS13-1-2-Ext2-2021-06',
  'ELBSecurityPolicy-TLS13-1-2-Ext1-PQ-2025-09',
  'ELBSecurityPolicy-TLS13-1-2-Ext2-PQ-2025-09',
  'ELBSecurityPolicy-TLS13-1-2-PQ-2025-09',
  'ELBSecurityPolicy-TLS13-1-2-Res-PQ-2025-09',
  'ELBSecurityPolicy-TLS13-1-3-PQ-2025-09',
  'ELBSecurityPolicy-TLS13-1-2-Ext0-FIPS-PQ-2025-09',
  'ELBSecurityPolicy-TLS13-1-2-Ext1-FIPS-PQ-2025-09',
  'ELBSecurityPolicy-TLS13-1-2-Ext2-FIPS-PQ-2025-09',
  'ELBSecurityPolicy-TLS13-1-2-FIPS-PQ-2025-09',
  'ELBSecurityPolicy-TLS13-1-2-Res-FIPS-PQ-2025-09',
  'ELBSecurityPolicy-TLS13-1-3-FIPS-PQ-2025-09',
]);
/** Desync mitigation modes that refuse ambiguous requests rather than only report them. */
const GUARDED_DESYNC_MODES = new Set(['defensive', 'strictest']);

/**
 * A rule on each load balancer of `types`: what it finds wrong (null: nothing). One whose listeners or attributes
 * (what the rule reads) could not be read is neither failed nor passed: the part's unread names it, with AWS's answer.
 */
function perLoadBalancer(
  types: readonly string[],
  reads: 'listeners' | 'attributes',
  wrong: (lb: LoadBalancer) => string | null,
): (loadBalancers: LoadBalancer[]) => CheckResult {
  return (loadBalancers) => {
    const resources: FailingResource[] = [];
    for (const lb of loadBalancers.filter((l) => types.includes(l.type) && l[reads] !== null)) {
      const detail = wrong(lb);
      if (detail) resources.push({ resource: lb.arn, region: lb.region, detail });
    }
    return failing(resources);
  };
}

const described = (lb: LoadBalancer) =>
  `${lb.internetFacing ? 'Internet-facing' : 'Internal'} ${lb.type} load balancer ${lb.name} in ${lb.region}`;

export const LOAD_BALANCER_CHECKS: readonly Check[] = [
  {
    id: 'exposure.alb_http_not_redirected',
    service: 'elb',
    scenario: 'exposure',
    severity: 'MEDIUM',
    title: 'Load balancer serves plain HTTP',
    description:
      'An Application Load Balancer has an HTTP listener whose default action forwards the request instead of ' +
      'redirecting it to HTTPS: sessions, passwords and tokens then cross the network in clear, where anyone on ' +
      'the path (a café Wi-Fi, a compromised router) reads and changes them.',
    remediation:
      'In the EC2 console open Load Balancers, select it, the Listeners tab, select the HTTP listener, Edit and set ' +
      'its default action to "Redirect to URL" with protocol HTTPS, port 443 and status 301; or run `aws elbv2 ' +
      'modify-listener --listener-arn <arn> --default-actions ' +
      "'Type=redirect,RedirectConfig={Protocol=HTTPS,Port=443,StatusCode=HTTP_301}'`. Add an HTTPS listener with an " +
      'ACM certificate first if it has none.',
    docsUrl: 'https://docs.aws.amazon.com/elasticloadbalancing/latest/application/load-balancer-listeners.html',
    prowler: ['elbv2_ssl_listeners'],
    controls: { 'aws-fsbp': ['ELB.1'] },
    evaluate: onPart('loadBalancers', ({ loadBalancers }) =>
      perLoadBalancer(['application'], 'listeners', (lb) => {
        const plain = (lb.listeners ?? []).filter((l) => l.protocol === 'HTTP' && !l.redirectsToHttps);
        return plain.length > 0
          ? `${described(lb)} forwards plain HTTP on port ${plain.map((l) => l.port).join(', ')} without redirecting it to HTTPS.`
          : null;
      })(loadBalancers),
    ),
  },
  {
    id: 'exposure.elb_outdated_tls_policy',
    service: 'elb',
    scenario: 'exposure',
    severity: 'MEDIUM',
    title: 'Load balancer accepts outdated TLS',
    description:
      'An HTTPS or TLS listener uses a security policy that still accepts TLS 1.0 or 1.1, or ciphers without ' +
      'forward secrecy (ELBSecurityPolicy-2016-08, the old default, among them): clients can be downgraded to ' +
      'protocols with known attacks.',
    remediation:
      'In the EC2 console open Load Balancers, select it, the Listeners tab, select the listener, Edit and choose ' +
      'ELBSecurityPolicy-TLS13-1-2-2021-06 (or a stricter one) under Security policy; or run `aws elbv2 ' +
      'modify-listener --listener-arn <arn> --ssl-policy ELBSecurityPolicy-TLS13-1-2-2021-06`. Check first that ' +
      'no client you must serve is limited to TLS 1.0 or 1.1.',
    docsUrl: 'https://docs.aws.amazon.com/elasticloadbalancing/latest/application/describe-ssl-policies.html',
    prowler: ['elbv2_insecure_ssl_ciphers'],
    controls: { 'aws-fsbp': ['ELB.17'] },
    evaluate: onPart('loadBalancers', ({ loadBalancers }) =>
      perLoadBalancer(['application', 'network'], 'listeners', (lb) => {
        const outdated = (lb.listeners ?? []).filter(
          (l) => (l.protocol === 'HTTPS' || l.protocol === 'TLS') && !CURRENT_TLS_POLICIES.has(l.sslPolicy ?? ''),
        );
        return outdated.length > 0
          ? `${described(lb)} has ${outdated.map((l) => `${l.protocol} port ${l.port} on ${l.sslPolicy ?? 'no policy'}`).join(', ')}.`
          : null;
      })(loadBalancers),
    ),
  },
  {
    id: 'exposure.alb_invalid_headers_accepted',
    service: 'elb',
    scenario: 'exposure',
    severity: 'MEDIUM',
    title: 'Load balancer passes on invalid HTTP headers',
    description:
      'An Application Load Balancer forwards header fields with invalid names to its targets instead of dropping ' +
      'them (routing.http.drop_invalid_header_fields.enabled is false): requests built to be read one way by the ' +
      'load balancer and another by the application (request smuggling, header injection) reach it.',
    remediation:
      'In the EC2 console open Load Balancers, select it, the Attributes tab, Edit and turn on "Drop invalid header ' +
      'fields"; or run `aws elbv2 modify-load-balancer-attributes --load-balancer-arn <arn> --attributes ' +
      'Key=routing.http.drop_invalid_header_fields.enabled,Value=true`.',
    docsUrl: 'https://docs.aws.amazon.com/elasticloadbalancing/latest/application/application-load-balancers.html',
    prowler: ['elbv2_alb_drop_invalid_header_fields_enabled'],
    controls: { 'aws-fsbp': ['ELB.4'] },
    evaluate: onPart('loadBalancers', ({ loadBalancers }) =>
      perLoadBalancer(['application'], 'attributes', (lb) =>
        lb.attributes?.dropInvalidHeaderFields ? null : `${described(lb)} forwards invalid header fields.`,
      )(loadBalancers),
    ),
  },
  {
    id: 'exposure.alb_desync_unguarded',
    service: 'elb',
    scenario: 'exposure',
    severity: 'MEDIUM',
    title: 'Load balancer open to HTTP desync attacks',
    description:
      'An Application Load Balancer neither refuses ambiguous requests (desync mitigation mode monitor rather than ' +
      'defensive or strictest) nor drops invalid header fields: HTTP request smuggling can slip requests past it, ' +
      "poison caches and take over other users' sessions.",
    remediation:
      'In the EC2 console open Load Balancers, select it, the Attributes tab, Edit and set "Desync mitigation mode" ' +
      'to Defensive (or Strictest); or run `aws elbv2 modify-load-balancer-attributes --load-balancer-arn <arn> ' +
      '--attributes Key=routing.http.desync_mitigation_mode,Value=defensive`. Turning on "Drop invalid header ' +
      'fields" also clears this finding.',
    docsUrl:
      'https://docs.aws.amazon.com/elasticloadbalancing/latest/application/application-load-balancers.html#desync-mitigation-mode',
    prowler: ['elbv2_desync_mitigation_mode'],
    controls: { 'aws-fsbp': ['ELB.12'] },
    evaluate: onPart('loadBalancers', ({ loadBalancers }) =>
      perLoadBalancer(['application'], 'attributes', (lb) => {
        const a = lb.attributes;
        if (!a || a.dropInvalidHeaderFields || GUARDED_DESYNC_MODES.has(a.desyncMitigationMode ?? '')) return null;
        return `${described(lb)} has desync mitigation mode ${a.desyncMitigationMode ?? 'unset'} and forwards invalid header fields.`;
      })(loadBalancers),
    ),
  },
  {
    id: 'exposure.elb_deletion_protection_off',
    service: 'elb',
    scenario: 'exposure',
    severity: 'LOW',
    title: 'Load balancer without deletion protection',
    description:
      'A load balancer can be deleted by one API call (a mistaken script, a stolen key): the service behind it ' +
      'goes offline, and its DNS name, which customers and records point at, is gone for good.',
    remediation:
      'In the EC2 console open Load Balancers, select it, the Attributes tab, Edit and turn on "Deletion ' +
      'protection"; or run `aws elbv2 modify-load-balancer-attributes --load-balancer-arn <arn> --attributes ' +
      'Key=deletion_protection.enabled,Value=true`.',
    docsUrl:
      'https://docs.aws.amazon.com/elasticloadbalancing/latest/application/application-load-balancers.html#deletion-protection',
    prowler: ['elbv2_deletion_protection'],
    controls: { 'aws-fsbp': ['ELB.6'] },
    evaluate: onPart('loadBalancers', ({ loadBalancers }) =>
      perLoadBalancer(['application', 'network', 'gateway'], 'attributes', (lb) =>
        lb.attributes?.deletionProtection ? null : `${described(lb)} has deletion protection off.`,
      )(loadBalancers),
    ),
  },
];
