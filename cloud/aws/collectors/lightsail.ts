import {
  GetInstancesCommand,
  GetRelationalDatabasesCommand,
  type InstancePortInfo,
  LightsailClient,
} from '@aws-sdk/client-lightsail';
import type { LightsailDatabase, LightsailInstance } from '../../../domain/scans/inventory';
import { whereOffered } from './offered';
import { type ReadContext, regionalPart } from './reader';

// Lightsail, region by region where AWS offers it (offered.ts): GetInstances answers each instance with its public
// address and its firewall's ports, GetRelationalDatabases each managed database with its public mode. Lightsail's
// API has its own page tokens (pageToken, nextPageToken).

const client = ({ session }: ReadContext, region: string) =>
  session.client((config) => new LightsailClient(config), region);

/** Every page of a Lightsail Get* call. */
async function allPages<T>(get: (pageToken: string | undefined) => Promise<{ items: T[]; next?: string }>) {
  const items: T[] = [];
  let token: string | undefined;
  do {
    const page = await get(token);
    items.push(...page.items);
    token = page.next;
  } while (token);
  return items;
}

/**
 * The ports open to the internet: Public ones (Lightsail answers Public or Private) but those restricted to
 * narrower addresses than everyone, as `22/tcp` or `8000-8080/tcp`.
 */
function publicPorts(ports: InstancePortInfo[]): string[] {
  return ports
    .filter((p) => p.accessType?.toLowerCase() === 'public')
    .filter((p) => {
      const restricted = [...(p.cidrs ?? []), ...(p.ipv6Cidrs ?? [])];
      return restricted.length === 0 || restricted.some((cidr) => cidr === '0.0.0.0/0' || cidr === '::/0');
    })
    .map((p) => `${p.fromPort === p.toPort ? p.fromPort : `${p.fromPort}-${p.toPort}`}/${p.protocol ?? 'all'}`);
}

export const lightsailInstancesPart = regionalPart({
  part: 'lightsailInstances',
  read: (ctx: ReadContext, region: string) =>
    whereOffered(async (): Promise<LightsailInstance[]> => {
      const lightsail = client(ctx, region);
      const instances = await allPages(async (pageToken) => {
        const page = await lightsail.send(new GetInstancesCommand({ pageToken }));
        return { items: page.instances ?? [], next: page.nextPageToken };
      });
      return instances.flatMap((i) =>
        i.name && i.arn
          ? [
              {
                name: i.name,
                arn: i.arn,
                region,
                publicIp: i.publicIpAddress || i.ipv6Addresses?.[0] || null,
                publicPorts: publicPorts(i.networking?.ports ?? []),
              },
            ]
          : [],
      );
    }, []),
  assemble: (slices) => ({ instances: slices.flat() }),
});

export const lightsailDatabasesPart = regionalPart({
  part: 'lightsailDatabases',
  read: (ctx: ReadContext, region: string) =>
    whereOffered(async (): Promise<LightsailDatabase[]> => {
      const lightsail = client(ctx, region);
      const databases = await allPages(async (pageToken) => {
        const page = await lightsail.send(new GetRelationalDatabasesCommand({ pageToken }));
        return { items: page.relationalDatabases ?? [], next: page.nextPageToken };
      });
      return databases.flatMap((d) =>
        d.name && d.arn
          ? [
              {
                name: d.name,
                arn: d.arn,
                region,
                engine: d.engine ?? '',
                publiclyAccessible: d.publiclyAccessible ?? null,
              },
            ]
          : [],
      );
    }, []),
  assemble: (slices) => ({ databases: slices.flat() }),
});
