import {
  GUARDDUTY_TYPE_FLOORS,
  guardDutyBand,
  rateGuardDutyFinding,
  typeFloor,
} from '../../../domain/events/guardduty-types';

// How Sentinel rates a GuardDuty finding: GuardDuty's band, raised to the floor of the finding's type. The types are
// GuardDuty's documented ones (https://docs.aws.amazon.com/guardduty/latest/ug/guardduty_finding-types-active.html),
// with the severity GuardDuty gives each.

describe("GuardDuty's bands", () => {
  it.each([
    [10, 'CRITICAL'],
    [9, 'CRITICAL'],
    [8.9, 'HIGH'],
    [7, 'HIGH'],
    [6.9, 'MEDIUM'],
    [4, 'MEDIUM'],
    [3.9, 'LOW'],
    [0.1, 'LOW'],
  ] as const)('severity %s is %s', (severity, band) => {
    expect(guardDutyBand(severity)).toBe(band);
  });
});

describe('the floor of a finding type', () => {
  it('takes the longest prefix that matches', () => {
    expect(typeFloor('UnauthorizedAccess:IAMUser/InstanceCredentialExfiltration.OutsideAWS')?.floor).toBe('CRITICAL');
    expect(typeFloor('UnauthorizedAccess:IAMUser/InstanceCredentialExfiltration.InsideAWS')?.floor).toBe('CRITICAL');
    expect(typeFloor('UnauthorizedAccess:EC2/SSHBruteForce')?.floor).toBe('MEDIUM');
    expect(typeFloor('Execution:EC2/MaliciousFile')?.floor).toBe('HIGH');
    expect(typeFloor('Execution:Runtime/NewBinaryExecuted')?.floor).toBe('MEDIUM');
  });

  it('does not depend on the resource the type names', () => {
    for (const type of [
      'CryptoCurrency:EC2/BitcoinTool.B!DNS',
      'CryptoCurrency:Runtime/BitcoinTool.B',
      'CryptoCurrency:Lambda/BitcoinTool.B',
    ])
      expect({ type, floor: typeFloor(type)?.floor }).toEqual({ type, floor: 'HIGH' });
  });

  it('is none for a type it does not know, and only a prefix matches', () => {
    expect(typeFloor('SomethingNew:EC2/Unheard')).toBeNull();
    expect(typeFloor('EC2/CryptoCurrency:')).toBeNull();
  });

  it('has one entry per prefix, each with a reason', () => {
    const prefixes = GUARDDUTY_TYPE_FLOORS.map((f) => f.prefix);
    expect(new Set(prefixes).size).toBe(prefixes.length);
    for (const floor of GUARDDUTY_TYPE_FLOORS) expect(floor.reason.length).toBeGreaterThan(0);
  });
});

describe('rating a finding', () => {
  it.each([
    // GuardDuty's own severity stands where it is at least the floor.
    ['Recon:EC2/PortProbeUnprotectedPort', 2, 'LOW', null],
    ['Recon:EC2/PortProbeUnprotectedPort', 5, 'MEDIUM', null],
    ['Recon:EC2/PortProbeUnprotectedPort', 8, 'HIGH', null],
    ['Discovery:S3/MaliciousIPCaller', 5, 'MEDIUM', null],
    ['Behavior:EC2/NetworkPortUnusual', 5, 'MEDIUM', null],
    ['CryptoCurrency:EC2/BitcoinTool.B!DNS', 8, 'HIGH', null],
    ['AttackSequence:IAM/CompromisedCredentials', 9.3, 'CRITICAL', null],
    ['Backdoor:EC2/C&CActivity.B!DNS', 9.5, 'CRITICAL', null],
    ['SomethingNew:EC2/Unheard', 3, 'LOW', null],
    // The type raises it.
    ['UnauthorizedAccess:IAMUser/InstanceCredentialExfiltration.InsideAWS', 5, 'CRITICAL', 'MEDIUM'],
    ['UnauthorizedAccess:IAMUser/InstanceCredentialExfiltration.OutsideAWS', 8, 'CRITICAL', 'HIGH'],
    ['CredentialAccess:IAMUser/AnomalousBehavior', 5, 'HIGH', 'MEDIUM'],
    ['PrivilegeEscalation:IAMUser/AnomalousBehavior', 5, 'HIGH', 'MEDIUM'],
    ['Exfiltration:S3/AnomalousBehavior', 5, 'HIGH', 'MEDIUM'],
    ['Trojan:EC2/DNSDataExfiltration', 5, 'HIGH', 'MEDIUM'],
    ['Object:S3/MaliciousFile', 5, 'HIGH', 'MEDIUM'],
    ['Policy:IAMUser/RootCredentialUsage', 2, 'MEDIUM', 'LOW'],
    ['Stealth:IAMUser/CloudTrailLoggingDisabled', 2, 'MEDIUM', 'LOW'],
    ['UnauthorizedAccess:EC2/SSHBruteForce', 2, 'MEDIUM', 'LOW'],
    ['PenTest:IAMUser/KaliLinux', 2, 'MEDIUM', 'LOW'],
    ['DefenseEvasion:Runtime/FilelessExecution', 2, 'MEDIUM', 'LOW'],
  ] as const)('%s at %s is %s (GuardDuty: %s)', (type, severity, rated, raisedFrom) => {
    const rating = rateGuardDutyFinding(type, severity);
    expect(rating.severity).toBe(rated);
    if (raisedFrom === null) {
      expect(rating.raisedBy).toBeNull();
      expect(rating.band).toBe(rated);
    } else {
      expect(rating.band).toBe(raisedFrom);
      expect(rating.raisedBy?.floor).toBe(rated);
    }
  });
});
