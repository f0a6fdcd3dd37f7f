import type { AddressRecord, Inventory, Unread } from '../scans/inventory';
import { failing, onPart, withPart, withUnread } from './helpers';
import { insideAny, ipv4Number, MULTICAST_IPV4, NOT_PUBLIC_IPV4 } from './ipv4';
import type { Check, CheckResult, FailingResource } from './types';

// Route 53: registered domains a registrar transfer can take away, and DNS records left pointing at addresses the
// account no longer holds.

/** Whether the text is an IPv4 address the internet can reach. */
export function isPublicIpv4(text: string): boolean {
  const ip = ipv4Number(text);
  return ip !== null && !insideAny(ip, 32, [...NOT_PUBLIC_IPV4, MULTICAST_IPV4]);
}

const EC2_INCOMPLETE =
  'It names a public address the account holds as no Elastic IP or instance Sentinel read, and a region where it ' +
  'could read neither may hold it.';

/**
 * The dangling A records: public addresses that are neither one of the account's Elastic IPs nor an instance's
 * public address. When a region's Elastic IPs or instances were not read, such an address may be there: the record
 * is unread rather than failing.
 */
function danglingRecords(
  records: readonly AddressRecord[],
  owned: ReadonlySet<string>,
  complete: boolean,
): CheckResult {
  const resources: FailingResource[] = [];
  const unread: Unread[] = [];
  for (const record of records)
    for (const address of record.addresses) {
      if (!isPublicIpv4(address) || owned.has(address)) continue;
      const resource = `${record.zoneId}/${record.name}/${address}`;
      if (!complete) unread.push({ kind: 'resource', scope: resource, reason: EC2_INCOMPLETE });
      else
        resources.push({
          resource,
          detail:
            `${record.name} in the public hosted zone ${record.zoneName} answers ${address}, which is neither an ` +
            'Elastic IP nor the public address of an instance of the account.',
        });
    }
  return withUnread(failing(resources), unread);
}

const regionUnread = (unread: readonly Unread[] | undefined) => (unread ?? []).some((u) => u.kind === 'region');

export const ROUTE53_CHECKS: readonly Check[] = [
  {
    id: 'exposure.route53_domain_transfer_lock_off',
    service: 'route53',
    scenario: 'exposure',
    severity: 'HIGH',
    title: 'Registered domain without transfer lock',
    description:
      'The domain registered with Route 53 does not have its transfer lock on (the clientTransferProhibited ' +
      'status): whoever gets hold of its authorization code, or of an identity allowed to read it, can move the ' +
      'domain to another registrar and with it the DNS, e-mail and certificates of everything under it.',
    remediation:
      'In the Route 53 console open Registered domains > the domain > Actions > Turn on transfer lock; or run aws ' +
      'route53domains enable-domain-transfer-lock --region us-east-1 --domain-name DOMAIN. A few top-level domains ' +
      'do not support the lock: for those, restrict route53domains:RetrieveDomainAuthCode and ' +
      'route53domains:TransferDomainToAnotherAwsAccount to the people who manage the domain.',
    docsUrl: 'https://docs.aws.amazon.com/Route53/latest/DeveloperGuide/domain-lock.html',
    prowler: ['route53_domains_transferlock_enabled'],
    evaluate: onPart('registeredDomains', ({ domains }) => {
      const unread: Unread[] = domains
        .filter((d) => d.transferLock === null)
        .map((d) => ({
          kind: 'resource',
          scope: d.name,
          reason: "Route 53 Domains did not report the domain's transfer lock.",
        }));
      const resources = domains
        .filter((d) => d.transferLock === false)
        .map((d) => ({ resource: d.name, detail: `The domain ${d.name} can be transferred to another registrar.` }));
      return withUnread(failing(resources), unread);
    }),
  },
  {
    id: 'exposure.route53_record_dangling_ip',
    service: 'route53',
    scenario: 'exposure',
    severity: 'HIGH',
    title: 'DNS record points to a public address the account does not hold',
    description:
      'An A record of a public hosted zone answers a public IPv4 address that is neither an Elastic IP of the ' +
      "account nor an instance's public address: most often an address released when its instance or Elastic IP " +
      'went away, which AWS hands to another customer, who then serves the subdomain (subdomain takeover: ' +
      "phishing under the organization's name, its cookies, certificates issued for it). An address of a server " +
      'outside AWS fails too: accept the risk for those.',
    remediation:
      'In the Route 53 console open Hosted zones > the zone, select the record and delete it, or edit it to point ' +
      'at what serves the name now (an alias to a load balancer or CloudFront distribution rather than an address); ' +
      'or run aws route53 change-resource-record-sets --hosted-zone-id ZONE --change-batch with a DELETE of the ' +
      'record as ListResourceRecordSets reports it.',
    docsUrl: 'https://docs.aws.amazon.com/Route53/latest/DeveloperGuide/resource-record-sets-deleting.html',
    prowler: ['route53_dangling_ip_subdomain_takeover'],
    evaluate: (inventory: Inventory) =>
      withPart(inventory.hostedZoneRecords, ({ records }) =>
        withPart(inventory.elasticIps, ({ addresses }) =>
          withPart(inventory.instances, ({ instances }) => {
            const owned = new Set([
              ...addresses.map((a) => a.publicIp),
              ...instances.flatMap((i) => (i.publicIp ? [i.publicIp] : [])),
            ]);
            const complete = !regionUnread(inventory.elasticIps.unread) && !regionUnread(inventory.instances.unread);
            return danglingRecords(records, owned, complete);
          }),
        ),
      ),
  },
];
