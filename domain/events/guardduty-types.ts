import type { Severity } from '../checks/types';

// How serious a GuardDuty finding is for Sentinel: GuardDuty's own severity, raised to a floor for the kinds of
// finding that mean the account is already in someone else's hands. GuardDuty scores a finding by its confidence and
// the resource's exposure, so a crypto-miner's DNS lookup or an instance's credentials used from another AWS account
// can come in at MEDIUM; Sentinel never rates such a finding below what its type says it is.
//
// A finding type reads `ThreatPurpose:ResourceTypeAffected/ThreatFamilyName.DetectionMechanism!Artifact`
// (https://docs.aws.amazon.com/guardduty/latest/ug/guardduty_finding-format.html): `CryptoCurrency:EC2/BitcoinTool.B!DNS`,
// `Backdoor:Runtime/C&CActivity.B`. The floors below are by threat purpose (the part before the colon), and for a few
// families by a longer prefix; the longest prefix that matches decides. The resource type (EC2, IAMUser, S3,
// Kubernetes, Runtime, Lambda, RDS...) does not change the floor: a miner is a miner on an instance or in a container.

/** GuardDuty's severity bands (its documentation's LOW, MEDIUM, HIGH; CRITICAL for attack sequences, 9.0 and up). */
const BANDS: readonly [number, Severity][] = [
  [9, 'CRITICAL'],
  [7, 'HIGH'],
  [4, 'MEDIUM'],
];

/** The band of GuardDuty's numeric severity (0.1 to 10.0). */
export function guardDutyBand(severity: number): Severity {
  return BANDS.find(([from]) => severity >= from)?.[1] ?? 'LOW';
}

export interface FindingTypeFloor {
  /** The start of the finding type (`CryptoCurrency:`, `UnauthorizedAccess:IAMUser/InstanceCredentialExfiltration`). */
  prefix: string;
  /** The least severity Sentinel gives a finding of this type. */
  floor: Severity;
  /** Why, in a few words, for the table in the docs and the signal's detail. */
  reason: string;
}

export const GUARDDUTY_TYPE_FLOORS: readonly FindingTypeFloor[] = Object.freeze([
  // Attack sequences: credentials, data, an EKS cluster or a workload compromised, from several signals at once.
  { prefix: 'AttackSequence:', floor: 'CRITICAL', reason: 'several findings GuardDuty correlated into one compromise' },
  // An instance role's credentials used outside the instance: they were stolen, and whoever holds them acts as the
  // role. Stratus Red Team's ec2-steal-instance-credentials produces this one.
  {
    prefix: 'UnauthorizedAccess:IAMUser/InstanceCredentialExfiltration',
    floor: 'CRITICAL',
    reason: "an instance's credentials used elsewhere are stolen",
  },
  { prefix: 'CryptoCurrency:', floor: 'HIGH', reason: 'crypto-mining on compute the account pays for' },
  { prefix: 'Backdoor:', floor: 'HIGH', reason: 'a resource controlled from outside (C&C, spam, DoS)' },
  { prefix: 'Trojan:', floor: 'HIGH', reason: 'malware talking to its operators' },
  { prefix: 'Object:', floor: 'HIGH', reason: 'malware found in a scanned object' },
  { prefix: 'Execution:EC2/MaliciousFile', floor: 'HIGH', reason: 'malware found on an instance' },
  { prefix: 'CredentialAccess:', floor: 'HIGH', reason: 'credentials taken or guessed' },
  { prefix: 'Exfiltration:', floor: 'HIGH', reason: 'data leaving the account' },
  { prefix: 'PrivilegeEscalation:', floor: 'HIGH', reason: 'privileges raised' },
  { prefix: 'Impact:', floor: 'MEDIUM', reason: 'resources abused or data destroyed' },
  { prefix: 'Persistence:', floor: 'MEDIUM', reason: 'a way back in planted' },
  { prefix: 'DefenseEvasion:', floor: 'MEDIUM', reason: 'defences turned off or hidden from' },
  { prefix: 'Stealth:', floor: 'MEDIUM', reason: 'logging turned off or tracks covered' },
  { prefix: 'Execution:', floor: 'MEDIUM', reason: 'code run on a resource by someone unexpected' },
  { prefix: 'InitialAccess:', floor: 'MEDIUM', reason: 'a first way in' },
  { prefix: 'UnauthorizedAccess:', floor: 'MEDIUM', reason: 'access by someone who should not have it' },
  { prefix: 'Policy:', floor: 'MEDIUM', reason: 'a security setting broken (root used, public access allowed)' },
  { prefix: 'PenTest:', floor: 'MEDIUM', reason: 'calls from penetration-testing distributions' },
  // Scanning and unusual traffic: GuardDuty's own severity says enough.
  { prefix: 'Discovery:', floor: 'LOW', reason: 'enumeration of the account' },
  { prefix: 'Recon:', floor: 'LOW', reason: 'probing from outside' },
  { prefix: 'Behavior:', floor: 'LOW', reason: "traffic unlike the resource's usual" },
]);

const RANK: Readonly<Record<Severity, number>> = { LOW: 0, MEDIUM: 1, HIGH: 2, CRITICAL: 3 };

/** The floor of a finding type: the longest prefix that matches; none for a type the table does not know. */
export function typeFloor(type: string): FindingTypeFloor | null {
  let best: FindingTypeFloor | null = null;
  for (const floor of GUARDDUTY_TYPE_FLOORS)
    if (type.startsWith(floor.prefix) && floor.prefix.length > (best?.prefix.length ?? -1)) best = floor;
  return best;
}

export interface GuardDutyRating {
  /** What Sentinel makes of the finding: the higher of the band and the type's floor. */
  severity: Severity;
  /** GuardDuty's own band. */
  band: Severity;
  /** The type's floor, when it raised the band. */
  raisedBy: FindingTypeFloor | null;
}

/** How serious a finding of `type` with GuardDuty's numeric `severity` is. */
export function rateGuardDutyFinding(type: string, severity: number): GuardDutyRating {
  const band = guardDutyBand(severity);
  const floor = typeFloor(type);
  return floor && RANK[floor.floor] > RANK[band]
    ? { severity: floor.floor, band, raisedBy: floor }
    : { severity: band, band, raisedBy: null };
}

/** Whether a severity is HIGH or CRITICAL. */
export const isHighOrCritical = (severity: Severity) => RANK[severity] >= RANK.HIGH;
