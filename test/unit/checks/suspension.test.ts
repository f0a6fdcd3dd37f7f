import type { HealthEvent } from '../../../domain/scans/inventory';
import { cleanInventory, hoursAgo, outcome, part } from '../../helpers/inventory';

const NOW = '2026-03-15T12:00:00.000Z';

function withEvent(eventTypeCode: string, statusCode: string) {
  const inventory = cleanInventory(NOW);
  const event: HealthEvent = {
    arn: 'arn:aws:health:us-east-1::event/x',
    eventTypeCode,
    service: 'X',
    region: 'us-east-1',
    startTime: hoursAgo(NOW, 1),
    statusCode,
  };
  part(inventory.health).events = [event];
  return inventory;
}

describe('suspension checks', () => {
  it.each([
    ['AWS_ABUSE_DOS_REPORT', 'open', true, false],
    ['AWS_ABUSE_PHISHING_REPORT', 'upcoming', true, false],
    ['AWS_ABUSE_DOS_REPORT', 'closed', false, false],
    ['AWS_RISK_CREDENTIALS_EXPOSED', 'open', false, true],
    ['AWS_RISK_CREDENTIALS_EXPOSED_SUSPECTED', 'open', false, true],
    ['AWS_RISK_CREDENTIALS_EXPOSED', 'closed', false, false],
    ['AWS_EC2_OPERATIONAL_ISSUE', 'open', false, false],
  ])('%s (%s): abuse %s, exposed credentials %s', (code, status, abuse, exposed) => {
    const inventory = withEvent(code, status);
    const failed = ['arn:aws:health:us-east-1::event/x@us-east-1'];
    expect(outcome('suspension.health_abuse_event', inventory)).toEqual(abuse ? failed : 'pass');
    expect(outcome('suspension.health_credentials_exposed', inventory)).toEqual(exposed ? failed : 'pass');
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
