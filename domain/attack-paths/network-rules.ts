import { isWidePublicRange } from '../checks/ec2-breadth';
import { insideAny, ipv4Number, NOT_PUBLIC_IPV4 } from '../checks/ipv4';
import type { AclEntry, GroupRules, InternetRoute, SecurityGroupRule, SubnetAcl } from '../scans/network-topology';
import {
  anyOf,
  fullRange,
  hasPorts,
  intersect,
  isEmpty,
  NOTHING,
  PROTOCOLS,
  type Protocol,
  portsOfRule,
  protocolOf,
  type Range,
  type Reach,
  reachOf,
  subtract,
  subtractRanges,
  intersectRanges,
  type Traffic,
  trafficOf,
  union,
} from './traffic';

// What one step between the internet and a resource lets through, address family by address family: a route to an
// internet gateway, a network ACL (stateless, first matching entry by rule number, in and back out), a security
// group (stateful: what it admits gets its answers out). A range that holds only part of the internet (a narrower
// public CIDR, a prefix list whose entries are not read) makes what it lets through possible, never certain.

export type Family = 'ipv4' | 'ipv6';
export type Certainty = 'certain' | 'possible';

/** The whole internet, in each family. */
export const INTERNET: Readonly<Record<Family, string>> = { ipv4: '0.0.0.0/0', ipv6: '::/0' };

/** The ports a client answers on: a server's reply goes back to one of them (1024-65535 covers every OS's range). */
const EPHEMERAL: Range = [1024, 65535];

/** The address family of a CIDR; null for what is not one (a prefix list, a group id). */
export function familyOf(cidr: string): Family | null {
  if (/^[0-9a-f:]+\/\d+$/i.test(cidr) && cidr.includes(':')) return 'ipv6';
  return /^\d+\.\d+\.\d+\.\d+\/\d+$/.test(cidr) ? 'ipv4' : null;
}

/** Whether a range holds public internet addresses: not private, shared, loopback, link-local or unique local. */
function isPublicRange(cidr: string, family: Family): boolean {
  const [address = '', bits = ''] = cidr.split('/');
  if (family === 'ipv6') return !/^(f[cd]|fe[89ab]|::1?$)/i.test(address);
  const network = ipv4Number(address);
  const prefix = Number(bits);
  return network !== null && Number.isInteger(prefix) && !insideAny(network, prefix, NOT_PUBLIC_IPV4);
}

/** How much of the internet a route's destination or an ACL entry's range covers in one family. */
function shareOfInternet(cidr: string, family: Family): 'all' | 'part' | 'none' {
  if (cidr.startsWith('pl-')) return 'part';
  if (familyOf(cidr) !== family) return 'none';
  if (cidr === INTERNET[family]) return 'all';
  return isPublicRange(cidr, family) ? 'part' : 'none';
}

/**
 * How much of the internet a security group rule's peer lets in: all of it, part (a wide public IPv4 range, a prefix
 * list), or none (a narrow range, someone's own network; another group; another family).
 */
function shareOfPeer(peer: string, family: Family): 'all' | 'part' | 'none' {
  if (peer.startsWith('pl-')) return 'part';
  if (familyOf(peer) !== family) return 'none';
  if (peer === INTERNET[family]) return 'all';
  return family === 'ipv4' && isWidePublicRange(peer) ? 'part' : 'none';
}

// --- Routes -----------------------------------------------------------------------------------------------------

/** The route that lets answers to the internet out of a subnet, in one family: to everyone, or to part of it. */
export function internetRouteOf(
  routes: readonly InternetRoute[],
  family: Family,
): { route: InternetRoute; certainty: Certainty } | null {
  const everyone = routes.find((r) => r.destination === INTERNET[family]);
  if (everyone) return { route: everyone, certainty: 'certain' };
  const part = routes.find((r) => shareOfInternet(r.destination, family) === 'part');
  return part ? { route: part, certainty: 'possible' } : null;
}

// --- Network ACLs -----------------------------------------------------------------------------------------------

interface AclPass {
  reach: Reach;
  /** The entries that decided it (what they let through or stopped), inbound then outbound. */
  entries: AclEntry[];
}

/** The traffic of one direction of an ACL that the internet's addresses send or receive, first match by rule number. */
function pass(acl: SubnetAcl, egress: boolean, family: Family, traffic: Traffic): AclPass {
  const entries = acl.entries.filter((e) => e.egress === egress).sort((a, b) => a.ruleNumber - b.ruleNumber);
  const certain = new Map<Protocol, Range[]>();
  const possible = new Map<Protocol, Range[]>();
  const used = new Set<AclEntry>();
  for (const protocol of PROTOCOLS) {
    let remaining: Range[] = [...(traffic.get(protocol) ?? [])];
    const allowed: Range[] = [];
    const partly: Range[] = [];
    for (const entry of entries) {
      if (remaining.length === 0) break;
      const entryProtocol = protocolOf(entry.protocol);
      if (entryProtocol !== 'all' && entryProtocol !== protocol) continue;
      const ports = entryProtocol === 'all' ? fullRange(protocol) : portsOfRule(protocol, entry.fromPort, entry.toPort);
      const overlap = intersectRanges(remaining, [ports]);
      if (overlap.length === 0) continue;
      const share = shareOfInternet(entry.cidr, family);
      if (share === 'all') {
        used.add(entry);
        if (entry.action === 'allow') allowed.push(...overlap);
        remaining = subtractRanges(remaining, [ports]);
      } else if (share === 'part' && entry.action === 'allow') {
        // Only the addresses in its range get through here; the others go on to the next entries.
        used.add(entry);
        partly.push(...overlap);
      }
    }
    if (allowed.length > 0) certain.set(protocol, allowed);
    if (partly.length > 0) possible.set(protocol, partly);
  }
  return { reach: reachOf(certain, possible), entries: [...used] };
}

/**
 * What an ACL lets in from the internet of `traffic`, and lets its answers back out: a protocol whose answers cannot
 * leave to every client port (1024-65535) is only possible, one whose answers cannot leave at all does not get through.
 */
export function throughAcl(acl: SubnetAcl, family: Family, traffic: Traffic): AclPass {
  const inbound = pass(acl, false, family, traffic);
  const admitted = anyOf(inbound.reach);
  const replies: Traffic = new Map([...admitted.keys()].map((p) => [p, [hasPorts(p) ? EPHEMERAL : fullRange(p)]]));
  const outbound = pass(acl, true, family, replies);
  let certain: Traffic = NOTHING;
  let possible: Traffic = NOTHING;
  for (const protocol of admitted.keys()) {
    const back = only(replies, protocol);
    if (isEmpty(subtract(back, outbound.reach.certain))) {
      certain = union(certain, only(inbound.reach.certain, protocol));
      possible = union(possible, only(inbound.reach.possible, protocol));
    } else if (!isEmpty(intersect(back, anyOf(outbound.reach)))) possible = union(possible, only(admitted, protocol));
  }
  return { reach: reachOf(certain, possible), entries: [...inbound.entries, ...outbound.entries] };
}

/** The traffic of one protocol. */
function only(traffic: Traffic, protocol: Protocol): Traffic {
  const ranges = traffic.get(protocol) ?? [];
  return new Map(ranges.length > 0 ? [[protocol, ranges]] : []);
}

const protocolWords = (text: string, from: number | null, to: number | null) => {
  const protocol = protocolOf(text);
  if (protocol === 'all') return 'all traffic';
  if (!hasPorts(protocol)) return protocol;
  const [low, high] = portsOfRule(protocol, from, to);
  return low === high ? `${protocol} ${low}` : `${protocol} ${low}-${high}`;
};

export const describeAclEntry = (aclId: string, e: AclEntry) =>
  `${aclId} ${e.egress ? 'outbound' : 'inbound'} rule ${e.ruleNumber}: ${e.action} ` +
  `${protocolWords(e.protocol, e.fromPort, e.toPort)} ${e.egress ? 'to' : 'from'} ${e.cidr}`;

// --- Security groups --------------------------------------------------------------------------------------------

/** What a group admits from the internet in one family, and the inbound rules that admit it. */
export function groupAdmits(group: GroupRules, family: Family): { reach: Reach; rules: SecurityGroupRule[] } {
  let certain: Traffic = NOTHING;
  let possible: Traffic = NOTHING;
  const rules: SecurityGroupRule[] = [];
  for (const rule of group.rules) {
    if (rule.direction !== 'inbound') continue;
    const share = shareOfPeer(rule.peer, family);
    if (share === 'none') continue;
    const traffic = trafficOf(rule.protocol, rule.fromPort, rule.toPort);
    if (share === 'all') certain = union(certain, traffic);
    else possible = union(possible, traffic);
    rules.push(rule);
  }
  return { reach: reachOf(certain, possible), rules };
}

/** The rules of `rules` that admit some of `traffic`. */
export const rulesFor = (rules: readonly SecurityGroupRule[], traffic: Traffic) =>
  rules.filter((r) => !isEmpty(intersect(trafficOf(r.protocol, r.fromPort, r.toPort), traffic)));

export function describeGroupRule(groupId: string, rule: SecurityGroupRule): string {
  const note = rule.peer.startsWith('pl-') ? ' (a prefix list: its entries are not read)' : '';
  return `${groupId} inbound: ${protocolWords(rule.protocol, rule.fromPort, rule.toPort)} from ${rule.peer}${note}`;
}
