import type { RegionalResource, SecurityGroup } from '../../domain/scans/inventory';
import type { SandboxSeed } from './databases';

// The sandbox's EC2 beyond the internet-wide rules: a bastion group that now and then admits a partner's whole
// provider range rather than its office's /24, and data volumes that are snapshotted but for a scratch volume some
// accounts forgot. Seeded per account and region, so the rest of the account is the same.

/** The wide public ranges of an account's bastion group in a region: none on most accounts. */
export function bastionWideRanges(
  randomFor: SandboxSeed['randomFor'],
  id: string,
  region: string,
  neglect: number,
): NonNullable<SecurityGroup['wideRanges']> {
  return randomFor(id, 'bastion-wide-range', region)() < 0.12 * neglect
    ? [{ direction: 'inbound', cidr: '52.94.0.0/16' }]
    : [];
}

/** The account's data volumes (every one), and those a snapshot was taken of. */
export function sandboxVolumes(
  seed: SandboxSeed,
  unencrypted: RegionalResource[],
): { volumes: RegionalResource[]; snapshottedVolumes: RegionalResource[] } {
  const random = seed.randomFor(seed.id, 'volume-snapshots');
  const data = seed.regions.map((region) => ({ id: `vol-${seed.hexId(17, seed.id, region, 'data-volume')}`, region }));
  const forgotten = random() < 0.25 * seed.neglect ? data.slice(0, 1) : [];
  const volumes = [...data, ...unencrypted];
  return {
    volumes,
    snapshottedVolumes: volumes.filter((v) => !forgotten.includes(v) && !unencrypted.includes(v)),
  };
}
