import type { HealthEvent } from '../../../domain/scans/inventory';
import { CATALOG } from '../../../domain/checks/catalog';
import { cleanInventory, hoursAgo, outcome, part } from '../../helpers/inventory';

const NOW = '2026-03-15T12:00:00.000Z';

function withEvent(service: string, eventTypeCode: string, statusCode: string) {
  const inventory = cleanInventory(NOW);
  const event: HealthEvent = {
    arn: 'arn:aws:health:us-east-1::event/x',
    eventTypeCode,
    service,
    region: 'us-east-1',
    startTime: hoursAgo(NOW, 1),
    statusCode,
  };
  part(inventory.health).events = [event];
  return inventory;
}

describe('suspension checks', () => {
  // By the service category AWS gives the event (DescribeEvents' `service`), not by words in its type code.
  it.each([
    ['ABUSE', 'AWS_ABUSE_DOS_REPORT', 'open', true, false],
    ['ABUSE', 'AWS_ABUSE_PHISHING_REPORT', 'upcoming', true, false],
    ['ABUSE', 'AWS_ABUSE_DOS_REPORT', 'closed', false, false],
    ['RISK', 'AWS_RISK_CREDENTIALS_EXPOSED', 'open', false, true],
    ['RISK', 'AWS_RISK_CREDENTIALS_EXPOSURE_SUSPECTED', 'open', false, true],
    // Codes that never said EXPOSED: risks all the same.
    ['RISK', 'AWS_RISK_CREDENTIALS_COMPROMISED', 'open', false, true],
    ['RISK', 'AWS_RISK_CREDENTIALS_COMPROMISE_SUSPECTED', 'open', false, true],
    ['RISK', 'AWS_RISK_IAM_QUARANTINE', 'open', false, true],
    ['risk', 'AWS_RISK_CREDENTIALS_EXPOSED', 'open', false, true],
    ['RISK', 'AWS_RISK_CREDENTIALS_EXPOSED', 'closed', false, false],
    ['EC2', 'AWS_EC2_OPERATIONAL_ISSUE', 'open', false, false],
    // Another service's event whose code happens to hold the words: neither.
    ['EC2', 'AWS_EC2_ABUSE_EXPOSED_PORT_NOTIFICATION', 'open', false, false],
  ])('%s %s (%s): abuse %s, credentials at risk %s', (service, code, status, abuse, risk) => {
    const inventory = withEvent(service, code, status);
    const failed = ['arn:aws:health:us-east-1::event/x@us-east-1'];
    expect(outcome('suspension.health_abuse_event', inventory)).toEqual(abuse ? failed : 'pass');
    expect(outcome('suspension.health_credentials_exposed', inventory)).toEqual(risk ? failed : 'pass');
  });

  it('is not evaluated without Health (no Business support plan), and says the forwarder still brings the events', () => {
    const inventory = cleanInventory(NOW);
    inventory.health = { status: 'not_evaluated', reason: 'AWS Health needs a Business or Enterprise support plan' };
    for (const id of ['suspension.health_abuse_event', 'suspension.health_credentials_exposed']) {
      expect(outcome(id, inventory)).toBe('not_evaluated');
      expect(CATALOG.find((c) => c.id === id)!.description).toMatch(/every plan, through the event forwarder/);
    }
  });

  it('reports each missing contact under its own check', () => {
    const inventory = cleanInventory(NOW);
    inventory.alternateContacts = { status: 'ok', value: { security: false, billing: false, operations: false } };
    expect(outcome('suspension.security_contact_missing', inventory)).toEqual(['security-contact@global']);
    expect(outcome('suspension.billing_contact_missing', inventory)).toEqual(['billing-contact@global']);
    expect(outcome('suspension.operations_contact_missing', inventory)).toEqual(['operations-contact@global']);
  });

  it.each([
    ['AWSCompromisedKeyQuarantine', true],
    ['AWSCompromisedKeyQuarantineV2', true],
    ['AWSCompromisedKeyQuarantineV3', true],
    ['AWSCompromisedKeyQuarantineV12', true],
    ['AdministratorAccess', false],
    ['AWSCompromisedKeyQuarantineHelper', false],
  ])('reports a user with %s attached: %s', (policy, quarantined) => {
    const inventory = cleanInventory(NOW);
    const user = part(inventory.iamPrincipals).users[1]!;
    user.managedPolicies = [policy];
    expect(outcome('suspension.compromised_key_quarantine', inventory)).toEqual(
      quarantined ? [`${user.arn}@global`] : 'pass',
    );
  });

  it('reports a role with the quarantine policy too', () => {
    const inventory = cleanInventory(NOW);
    const role = part(inventory.iamPrincipals).roles[0]!;
    role.managedPolicies = ['AWSCompromisedKeyQuarantineV2'];
    expect(outcome('suspension.compromised_key_quarantine', inventory)).toEqual([`${role.arn}@global`]);
  });
});
