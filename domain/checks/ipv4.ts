// IPv4 addresses as numbers, and the blocks that are not the public internet, for the checks that tell a public
// address or range from a private one. The blocks are those Python's ipaddress does not call global, which Prowler
// judges with.

/** Blocks that are not public: private, shared, loopback, link-local, reserved and documentation ranges. */
export const NOT_PUBLIC_IPV4: readonly [string, number][] = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['240.0.0.0', 4],
];

/** Multicast (224.0.0.0/4): not an address a host answers at, though Python counts it global. */
export const MULTICAST_IPV4: readonly [string, number] = ['224.0.0.0', 4];

/** An IPv4 address as a number; null when the text is not one. */
export function ipv4Number(text: string): number | null {
  const parts = text.split('.');
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255)) return null;
  return parts.reduce((n, p) => n * 256 + Number(p), 0);
}

/** Whether the block `network`/`prefix` lies inside one of `blocks`. */
export function insideAny(network: number, prefix: number, blocks: readonly (readonly [string, number])[]): boolean {
  return blocks.some(([base, bits]) => {
    const size = 2 ** (32 - bits);
    return prefix >= bits && Math.floor(network / size) === Math.floor((ipv4Number(base) as number) / size);
  });
}
