// MITRE ATT&CK (Enterprise, cloud matrix) ids that name what a detection sees, so that a signal lines up with the
// rest of a security team's tooling (SIEM rules, Stratus Red Team, GuardDuty's own tactic labels). Only the tactics
// and techniques the detections use are listed: a detection naming another fails the catalogue's test.

export const TACTICS = {
  TA0001: 'Initial Access',
  TA0002: 'Execution',
  TA0003: 'Persistence',
  TA0004: 'Privilege Escalation',
  TA0005: 'Defense Evasion',
  TA0006: 'Credential Access',
  TA0007: 'Discovery',
  TA0008: 'Lateral Movement',
  TA0009: 'Collection',
  TA0010: 'Exfiltration',
  TA0040: 'Impact',
  TA0042: 'Resource Development',
} as const;
export type Tactic = keyof typeof TACTICS;

export const TECHNIQUES = {
  T1078: 'Valid Accounts',
  'T1078.004': 'Valid Accounts: Cloud Accounts',
  T1098: 'Account Manipulation',
  'T1098.001': 'Account Manipulation: Additional Cloud Credentials',
  'T1098.003': 'Account Manipulation: Additional Cloud Roles',
  'T1098.004': 'Account Manipulation: SSH Authorized Keys',
  'T1136.003': 'Create Account: Cloud Account',
  'T1484.002': 'Domain or Tenant Policy Modification: Trust Modification',
  'T1550.001': 'Use Alternate Authentication Material: Application Access Token',
  'T1556.007': 'Modify Authentication Process: Hybrid Identity',
  'T1556.006': 'Modify Authentication Process: Multi-Factor Authentication',
  'T1562.001': 'Impair Defenses: Disable or Modify Tools',
  'T1562.007': 'Impair Defenses: Disable or Modify Cloud Firewall',
  'T1562.008': 'Impair Defenses: Disable or Modify Cloud Logs',
  T1535: 'Unused/Unsupported Cloud Regions',
  T1496: 'Resource Hijacking',
  'T1496.001': 'Resource Hijacking: Compute Hijacking',
  'T1496.004': 'Resource Hijacking: Cloud Service Hijacking',
  T1530: 'Data from Cloud Storage',
  T1537: 'Transfer Data to Cloud Account',
  T1552: 'Unsecured Credentials',
  'T1552.001': 'Unsecured Credentials: Credentials In Files',
  'T1552.005': 'Unsecured Credentials: Cloud Instance Metadata API',
  T1555: 'Credentials from Password Stores',
  'T1555.006': 'Credentials from Password Stores: Cloud Secrets Management Stores',
  T1580: 'Cloud Infrastructure Discovery',
  T1526: 'Cloud Service Discovery',
  T1651: 'Cloud Administration Command',
  T1059: 'Command and Scripting Interpreter',
  'T1059.009': 'Command and Scripting Interpreter: Cloud API',
  T1021: 'Remote Services',
  'T1021.007': 'Remote Services: Cloud Services',
  T1485: 'Data Destruction',
  T1486: 'Data Encrypted for Impact',
  T1490: 'Inhibit System Recovery',
  T1531: 'Account Access Removal',
  T1578: 'Modify Cloud Compute Infrastructure',
  'T1578.002': 'Modify Cloud Compute Infrastructure: Create Cloud Instance',
  'T1578.005': 'Modify Cloud Compute Infrastructure: Modify Cloud Compute Configurations',
  T1648: 'Serverless Execution',
  T1546: 'Event Triggered Execution',
  T1110: 'Brute Force',
  T1087: 'Account Discovery',
  'T1087.004': 'Account Discovery: Cloud Account',
  T1666: 'Modify Cloud Resource Hierarchy',
  T1190: 'Exploit Public-Facing Application',
  T1657: 'Financial Theft',
  T1583: 'Acquire Infrastructure',
  T1199: 'Trusted Relationship',
  T1610: 'Deploy Container',
  'T1584.001': 'Compromise Infrastructure: Domains',
  'T1098.006': 'Account Manipulation: Additional Container Cluster Roles',
  T1040: 'Network Sniffing',
  T1599: 'Network Boundary Bridging',
  T1484: 'Domain or Tenant Policy Modification',
} as const;
export type Technique = keyof typeof TECHNIQUES;

/** One ATT&CK tactic and the technique (or sub-technique) of it that a detection sees. */
export interface Mitre {
  tactic: Tactic;
  technique: Technique;
}

export interface MitreBody {
  tactic: string;
  tactic_name: string;
  technique: string;
  technique_name: string;
}

/** A detection's ATT&CK ids with their names, as the API and the exports show them. */
export function describeMitre(mitre: readonly Mitre[]): MitreBody[] {
  return mitre.map(({ tactic, technique }) => ({
    tactic,
    tactic_name: TACTICS[tactic],
    technique,
    technique_name: TECHNIQUES[technique],
  }));
}

/** The ids as one text, for a CSV cell: `TA0005/T1562.008; TA0009/T1530`. */
export const mitreText = (mitre: readonly Mitre[]): string => mitre.map((m) => `${m.tactic}/${m.technique}`).join('; ');
