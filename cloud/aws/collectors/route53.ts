import {
  ListResourceRecordSetsCommand,
  type ListResourceRecordSetsCommandInput,
  paginateListHostedZones,
  Route53Client,
} from '@aws-sdk/client-route-53';
import { paginateListDomains, Route53DomainsClient } from '@aws-sdk/client-route-53-domains';
import type { AddressRecord, RegisteredDomain, Unread } from '../../../domain/scans/inventory';
import { mapLimit } from './concurrency';
import { isAbsent, ReadFailure } from './failures';
import { foldPages, globalPart, type ReadContext } from './reader';
import { GLOBAL_REGION } from './session';

// Route 53, a global service answered from us-east-1.
// - Registered domains (Route 53 Domains' ListDomains): each summary says whether the domain's transfer lock
//   (the clientTransferProhibited status) is on, so no call per domain is needed.
// - Public hosted zones (ListHostedZones) and their non-alias A records (ListResourceRecordSets, 300 a page), for
//   the addresses they answer. Private zones answer only inside their VPCs and are not read. A zone's records are
//   read up to RECORD_PAGES_PER_ZONE pages; a larger zone is named unread with what was read kept, as is a zone
//   whose records AWS refuses. A zone deleted meanwhile is skipped.

export const RECORD_PAGES_PER_ZONE = 50;
const PER_ZONE_CONCURRENCY = 4;

const denied = (err: unknown) => err instanceof ReadFailure && err.kind === 'denied';

export const registeredDomainsPart = globalPart({
  part: 'registeredDomains',
  async read({ session }: ReadContext) {
    const domains = session.client((config) => new Route53DomainsClient(config), GLOBAL_REGION);
    const listed = await foldPages(
      paginateListDomains({ client: domains }, {}),
      [] as RegisteredDomain[],
      (into, page) => {
        for (const d of page.Domains ?? [])
          if (d.DomainName) into.push({ name: d.DomainName, transferLock: d.TransferLock ?? null });
        return into;
      },
    );
    return { value: { domains: listed } };
  },
});

interface Zone {
  id: string;
  name: string;
}

/** A zone's non-alias A records; `complete`: every page was read. */
async function addressRecords(
  route53: Route53Client,
  zone: Zone,
): Promise<{ records: AddressRecord[]; complete: boolean }> {
  const records: AddressRecord[] = [];
  let input: ListResourceRecordSetsCommandInput = { HostedZoneId: zone.id };
  for (let page = 0; page < RECORD_PAGES_PER_ZONE; page++) {
    const answer = await route53.send(new ListResourceRecordSetsCommand(input));
    for (const r of answer.ResourceRecordSets ?? []) {
      if (r.Type !== 'A' || r.AliasTarget || !r.Name) continue;
      const addresses = (r.ResourceRecords ?? []).flatMap((v) => (v.Value ? [v.Value] : []));
      if (addresses.length > 0) records.push({ zoneId: zone.id, zoneName: zone.name, name: r.Name, addresses });
    }
    if (!answer.IsTruncated) return { records, complete: true };
    input = {
      HostedZoneId: zone.id,
      StartRecordName: answer.NextRecordName,
      StartRecordType: answer.NextRecordType,
      StartRecordIdentifier: answer.NextRecordIdentifier,
    };
  }
  return { records, complete: false };
}

export const hostedZoneRecordsPart = globalPart({
  part: 'hostedZoneRecords',
  async read({ session }: ReadContext) {
    const route53 = session.client((config) => new Route53Client(config), GLOBAL_REGION);
    const zones = await foldPages(paginateListHostedZones({ client: route53 }, {}), [] as Zone[], (into, page) => {
      for (const z of page.HostedZones ?? [])
        if (z.Id && z.Name && !z.Config?.PrivateZone)
          into.push({ id: z.Id.replace(/^\/hostedzone\//, ''), name: z.Name });
      return into;
    });
    const unread: Unread[] = [];
    const read = await mapLimit({
      items: zones,
      limit: PER_ZONE_CONCURRENCY,
      run: async (zone) => {
        try {
          const found = await addressRecords(route53, zone);
          if (!found.complete)
            unread.push({
              kind: 'resource',
              scope: zone.id,
              reason: `Its records go past ${RECORD_PAGES_PER_ZONE} pages: the first ${RECORD_PAGES_PER_ZONE} were read.`,
            });
          return found.records;
        } catch (err) {
          if (isAbsent(err, 'NoSuchHostedZone')) return [];
          if (!denied(err)) throw err;
          unread.push({ kind: 'resource', scope: zone.id, reason: (err as ReadFailure).reason });
          return [];
        }
      },
    });
    return { value: { records: read.flat() }, ...(unread.length > 0 ? { unread } : {}) };
  },
});
