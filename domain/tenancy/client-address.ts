// What a limit counted per client address counts. One IPv4 address is what one client has (a home, an office, a
// carrier's NAT), but an IPv6 client is handed a whole /64 and picks addresses in it at will: counting full IPv6
// addresses would give it 2^64 allowances. So every address-keyed limit counts by this key: an IPv4 address as it
// is, an IPv4-mapped IPv6 address (`::ffff:192.0.2.1`, how a dual-stack socket shows IPv4 clients) as its IPv4
// address, any other IPv6 address as its /64.

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/** The key a client address is counted under by every address-keyed rate limit. Anything unparsable counts as itself. */
export function clientLimitKey(address: string): string {
  const text = address.trim().toLowerCase();
  if (isIpv4(text)) return text;
  const groups = ipv6Groups(text);
  if (!groups) return text;
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    const [high, low] = [groups[6]!, groups[7]!];
    return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
  }
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}

function isIpv4(text: string): boolean {
  const parts = IPV4.exec(text);
  return parts !== null && parts.slice(1).every((p) => Number(p) <= 255);
}

/** The eight 16-bit groups of an IPv6 address (a zone such as `%eth0` ignored), or null when it is not one. */
function ipv6Groups(text: string): number[] | null {
  let rest = text.split('%')[0]!;
  // A trailing dotted IPv4 part stands for the last two groups.
  const tail: number[] = [];
  const dotted = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(rest);
  if (dotted) {
    if (!isIpv4(dotted[2]!)) return null;
    const [a, b, c, d] = dotted[2]!.split('.').map(Number) as [number, number, number, number];
    tail.push((a << 8) | b, (c << 8) | d);
    rest = dotted[1]!.endsWith('::') ? dotted[1]! : dotted[1]!.slice(0, -1);
  }
  const halves = rest.split('::');
  if (halves.length > 2) return null;
  const parse = (part: string) => (part === '' ? [] : part.split(':'));
  const head = parse(halves[0]!);
  const back = halves.length === 2 ? parse(halves[1]!) : [];
  if (![...head, ...back].every((g) => /^[0-9a-f]{1,4}$/.test(g))) return null;
  const known = head.length + back.length + tail.length;
  const missing = 8 - known;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  return [
    ...head.map((g) => parseInt(g, 16)),
    ...Array<number>(missing).fill(0),
    ...back.map((g) => parseInt(g, 16)),
    ...tail,
  ];
}
