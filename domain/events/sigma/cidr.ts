// The `cidr` modifier: whether an address (CloudTrail's `sourceIPAddress`, an IPv4 or IPv6 literal, or a service's
// name when AWS called on the caller's behalf) is in a network.

/** An address as a number and its family's width in bits. */
interface Address {
  value: bigint;
  bits: 32 | 128;
}

function ipv4(text: string): bigint | null {
  const parts = text.split('.');
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255)) return null;
  return parts.reduce((sum, p) => (sum << 8n) | BigInt(Number(p)), 0n);
}

function ipv6(text: string): bigint | null {
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const groups = (half: string): bigint[] | null => {
    if (half === '') return [];
    const words: bigint[] = [];
    const parts = half.split(':');
    for (const [index, part] of parts.entries()) {
      // An embedded IPv4 address (::ffff:192.0.2.1) stands for the last two groups.
      if (index === parts.length - 1 && part.includes('.')) {
        const v4 = ipv4(part);
        if (v4 === null) return null;
        words.push(v4 >> 16n, v4 & 0xffffn);
      } else if (/^[0-9a-fA-F]{1,4}$/.test(part)) {
        words.push(BigInt(Number.parseInt(part, 16)));
      } else {
        return null;
      }
    }
    return words;
  };
  const head = groups(halves[0] as string);
  const tail = halves.length === 2 ? groups(halves[1] as string) : [];
  if (!head || !tail) return null;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  return [...head, ...new Array<bigint>(missing).fill(0n), ...tail].reduce((sum, w) => (sum << 16n) | w, 0n);
}

/** An IPv4 or IPv6 literal, or null for anything else. */
export function parseAddress(text: string): Address | null {
  const v4 = ipv4(text);
  if (v4 !== null) return { value: v4, bits: 32 };
  const v6 = text.includes(':') ? ipv6(text) : null;
  return v6 === null ? null : { value: v6, bits: 128 };
}

/** Whether an address is in a network. */
export type CidrTest = (address: string) => boolean;

/** A network (`10.0.0.0/8`, `2001:db8::/32`; an address alone is its own network), or null when it is none. */
export function parseCidr(text: string): CidrTest | null {
  const [base = '', length, ...rest] = text.split('/');
  const network = parseAddress(base);
  if (!network || rest.length > 0) return null;
  if (length !== undefined && !/^\d{1,3}$/.test(length)) return null;
  const prefix = length === undefined ? network.bits : Number(length);
  if (prefix > network.bits) return null;
  const shift = BigInt(network.bits - prefix);
  const masked = network.value >> shift;
  return (address) => {
    const parsed = parseAddress(address);
    return parsed !== null && parsed.bits === network.bits && parsed.value >> shift === masked;
  };
}
