// Traffic as the internet-exposure analysis weighs it: for each protocol, the port ranges that get through, graded
// certain (every step decided) or possible (a step only lets part of the internet through, or was not read). Steps
// are met one after another (route, network ACL, security group, listener); alternatives (two groups, two subnets)
// are joined.

/** A port range, both ends included. Protocols without ports (ICMP) use [0, 0]. */
export type Range = readonly [number, number];

/** The protocols told apart; 'other' stands for every other IP protocol (ESP, GRE, ...). */
export const PROTOCOLS = ['tcp', 'udp', 'icmp', 'icmpv6', 'other'] as const;
export type Protocol = (typeof PROTOCOLS)[number];

/** For each protocol, the ranges of ports; a protocol absent carries nothing. */
export type Traffic = ReadonlyMap<Protocol, readonly Range[]>;

/** Traffic that gets through, certainly or possibly (`possible` holds nothing `certain` holds). */
export interface Reach {
  certain: Traffic;
  possible: Traffic;
}

const ALL_PORTS: Range = [0, 65535];
const NO_PORTS: Range = [0, 0];

export const hasPorts = (protocol: Protocol) => protocol === 'tcp' || protocol === 'udp';

/** Every port of a protocol: 0-65535, or [0, 0] for one without ports. */
export const fullRange = (protocol: Protocol): Range => (hasPorts(protocol) ? ALL_PORTS : NO_PORTS);

/** A protocol as EC2 writes it (a name or an IANA number), or 'all' for -1. */
export function protocolOf(text: string): Protocol | 'all' {
  const known: Record<string, Protocol | 'all'> = {
    '-1': 'all',
    all: 'all',
    '6': 'tcp',
    tcp: 'tcp',
    '17': 'udp',
    udp: 'udp',
    '1': 'icmp',
    icmp: 'icmp',
    '58': 'icmpv6',
    icmpv6: 'icmpv6',
  };
  return known[text.toLowerCase()] ?? 'other';
}

/** Sorted, with overlapping and adjacent ranges merged. */
function normalize(ranges: readonly Range[]): Range[] {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const [from, to] of sorted) {
    const last = merged[merged.length - 1];
    if (last && from <= last[1] + 1) last[1] = Math.max(last[1], to);
    else merged.push([from, to]);
  }
  return merged;
}

export function intersectRanges(a: readonly Range[], b: readonly Range[]): Range[] {
  const out: Range[] = [];
  for (const [af, at] of a)
    for (const [bf, bt] of b) {
      const from = Math.max(af, bf);
      const to = Math.min(at, bt);
      if (from <= to) out.push([from, to]);
    }
  return normalize(out);
}

export function subtractRanges(a: readonly Range[], b: readonly Range[]): Range[] {
  let rest: Range[] = normalize(a);
  for (const [bf, bt] of b)
    rest = rest.flatMap(([from, to]): Range[] => {
      if (bt < from || bf > to) return [[from, to]];
      return [...(from < bf ? [[from, bf - 1] as Range] : []), ...(bt < to ? [[bt + 1, to] as Range] : [])];
    });
  return rest;
}

/** The ports of a rule over one protocol: its range, or every port when it names none (or -1). */
export function portsOfRule(protocol: Protocol, from: number | null, to: number | null): Range {
  if (!hasPorts(protocol) || from === null || to === null || from < 0 || to < 0) return fullRange(protocol);
  return [Math.max(0, from), Math.min(65535, to)];
}

export const NOTHING: Traffic = new Map();

/** Every protocol, every port. */
export const EVERYTHING: Traffic = new Map(PROTOCOLS.map((p) => [p, [fullRange(p)]]));

/** The traffic of a rule: its protocol and ports, or everything for -1. */
export function trafficOf(protocolText: string, from: number | null, to: number | null): Traffic {
  const protocol = protocolOf(protocolText);
  if (protocol === 'all') return EVERYTHING;
  return new Map([[protocol, [portsOfRule(protocol, from, to)]]]);
}

function combine(a: Traffic, b: Traffic, op: (x: readonly Range[], y: readonly Range[]) => Range[]): Traffic {
  const out = new Map<Protocol, Range[]>();
  for (const protocol of PROTOCOLS) {
    const ranges = op(a.get(protocol) ?? [], b.get(protocol) ?? []);
    if (ranges.length > 0) out.set(protocol, ranges);
  }
  return out;
}

export const union = (a: Traffic, b: Traffic) => combine(a, b, (x, y) => normalize([...x, ...y]));
export const intersect = (a: Traffic, b: Traffic) => combine(a, b, intersectRanges);
export const subtract = (a: Traffic, b: Traffic) => combine(a, b, subtractRanges);
export const isEmpty = (t: Traffic) => t.size === 0;

/** A reach from what is certain and what is possible (the possible part minus the certain one). */
export const reachOf = (certain: Traffic, possible: Traffic = NOTHING): Reach => ({
  certain,
  possible: subtract(possible, certain),
});

export const NO_REACH: Reach = reachOf(NOTHING);
/** What a step that was not read lets through: anything, possibly. */
export const UNDECIDED: Reach = reachOf(NOTHING, EVERYTHING);

export const anyOf = (r: Reach) => union(r.certain, r.possible);
export const reaches = (r: Reach) => !isEmpty(r.certain) || !isEmpty(r.possible);

/** What gets through both steps: certain where both are. */
export function meet(a: Reach, b: Reach): Reach {
  return reachOf(intersect(a.certain, b.certain), intersect(anyOf(a), anyOf(b)));
}

/** What gets through either step. */
export function join(a: Reach, b: Reach): Reach {
  return reachOf(union(a.certain, b.certain), union(anyOf(a), anyOf(b)));
}

/** What gets through in one of two places, not knowing which: certain only where both let it through. */
export function eitherOf(a: Reach, b: Reach): Reach {
  return reachOf(intersect(a.certain, b.certain), union(anyOf(a), anyOf(b)));
}

/** The same traffic, all of it only possible. */
export const downgrade = (r: Reach): Reach => reachOf(NOTHING, anyOf(r));

/** The reach limited to `traffic`. */
export const within = (r: Reach, traffic: Traffic): Reach => meet(r, reachOf(traffic));

/** Ports as findings show them: `tcp/22`, `tcp/80-443`, `icmp`, or `all` for every protocol and port. */
export function portsOf(traffic: Traffic): string[] {
  if (PROTOCOLS.every((p) => covers(traffic, p))) return ['all'];
  return PROTOCOLS.flatMap((protocol) =>
    (traffic.get(protocol) ?? []).map(([from, to]) =>
      !hasPorts(protocol) ? protocol : from === to ? `${protocol}/${from}` : `${protocol}/${from}-${to}`,
    ),
  );
}

/** Whether the traffic holds every port of the protocol. */
function covers(traffic: Traffic, protocol: Protocol): boolean {
  const [from, to] = fullRange(protocol);
  const ranges = traffic.get(protocol) ?? [];
  return ranges.length === 1 && ranges[0]?.[0] === from && ranges[0]?.[1] === to;
}
