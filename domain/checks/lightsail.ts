import { onPart } from './helpers';
import { bySetting } from './settings';
import type { Check } from './types';

// Lightsail: instances whose firewall opens ports to the internet, and managed databases in public mode. Lightsail
// has its own firewall and networking, outside the account's VPCs and security groups, so the EC2 checks do not
// see them.

const LIGHTSAIL_DOCS = 'https://docs.aws.amazon.com/lightsail/latest/userguide/';

export const LIGHTSAIL_CHECKS: readonly Check[] = [
  {
    id: 'exposure.lightsail_instance_public',
    service: 'lightsail',
    scenario: 'exposure',
    severity: 'HIGH',
    title: 'Lightsail instance open to the internet',
    description:
      'A Lightsail instance has a public IP address and its firewall opens ports to any address: SSH (22) and RDP ' +
      '(3389) are open by default when an instance is created. Every open port is scanned and brute-forced within ' +
      'minutes of the address being handed out.',
    remediation:
      'Restrict each rule of the firewall to the addresses that need it (or use the browser-based SSH/RDP client, ' +
      'which Lightsail lets in through its own addresses), and remove the rules nothing needs. Console: Lightsail > ' +
      'the instance > Networking > IPv4 (and IPv6) Firewall > edit the rule > Restrict to IP address. CLI: aws ' +
      "lightsail put-instance-public-ports --instance-name NAME --port-infos 'fromPort=443,toPort=443,protocol=tcp' " +
      "'fromPort=22,toPort=22,protocol=tcp,cidrs=203.0.113.10/32' (every rule the instance keeps; what it lists is " +
      'all that stays open).',
    docsUrl: `${LIGHTSAIL_DOCS}understanding-firewall-and-port-mappings-in-amazon-lightsail.html`,
    prowler: ['lightsail_instance_public'],
    evaluate: onPart('lightsailInstances', ({ instances }) =>
      bySetting(instances, {
        resource: (i) => i.arn,
        fails: (i) => i.publicIp !== null && i.publicPorts.length > 0,
        detail: (i) =>
          `Lightsail instance ${i.name} in ${i.region} (${i.publicIp}) is open to the internet on ${i.publicPorts.join(', ')}.`,
      }),
    ),
  },
  {
    id: 'exposure.lightsail_database_public',
    service: 'lightsail',
    scenario: 'exposure',
    severity: 'HIGH',
    title: 'Lightsail database in public mode',
    description:
      'A Lightsail managed database is in public mode: it answers connections from anywhere on the internet, ' +
      'where its master password is all that stands between an attacker and the data.',
    remediation:
      'Turn public mode off (the instances of the same Lightsail region still reach it). Console: Lightsail > ' +
      'Databases > the database > Networking > Public mode > Disable. CLI: aws lightsail update-relational-database ' +
      '--relational-database-name NAME --no-publicly-accessible.',
    docsUrl: `${LIGHTSAIL_DOCS}amazon-lightsail-configuring-database-public-mode.html`,
    prowler: ['lightsail_database_public'],
    evaluate: onPart('lightsailDatabases', ({ databases }) =>
      bySetting(databases, {
        resource: (d) => d.arn,
        fails: (d) => d.publiclyAccessible,
        detail: (d) => `Lightsail ${d.engine} database ${d.name} in ${d.region} is in public mode.`,
        unreadReason: 'Lightsail did not report whether the database is in public mode (publiclyAccessible).',
      }),
    ),
  },
];
