import { evaluateInventory } from '../../../domain/checks/evaluate';
import { checkById } from '../../../domain/checks/catalog';
import { expectedForwarderRules } from '../../../domain/checks/event-forwarding';
import { HEARTBEAT_RULE_NAME, rulesForRegion } from '../../../domain/events/forwarding-rules';
import type { ForwarderRegion, Inventory } from '../../../domain/scans/inventory';
import { scoreCompleteness } from '../../../domain/scoring/completeness';
import {
  cleanInventory,
  cleanTrail,
  FORWARDER_ENDPOINT,
  outcome,
  part,
  unreadBy,
  withUnread,
} from '../../helpers/inventory';

// The event forwarder's checks on inventories: what each region's forwarder and trails must be for the region to be
// seen, what a finding says, and that what could not be read neither passes nor fails.

const NOW = '2026-03-15T12:00:00.000Z';
const FORWARDER = 'detection.event_forwarder_broken';
const MANAGEMENT = 'detection.management_events_not_logged';

function forwarderIn(inventory: Inventory, region: string): ForwarderRegion {
  const found = part(inventory.eventForwarder).regions.find((r) => r.region === region);
  if (!found) throw new Error(`no forwarder read in ${region}`);
  return found;
}

function details(checkId: string, inventory: Inventory): Record<string, string> {
  const result = checkById(checkId)!.evaluate(inventory, { now: inventory.collectedAt });
  if (result.status !== 'fail') throw new Error(`expected a failure, got ${result.status}`);
  return Object.fromEntries(result.resources.map((r) => [r.region ?? 'global', r.detail ?? '']));
}

describe('the rules a region expects', () => {
  it('are its forwarding rules and the heartbeat, the global ones in us-east-1 only', () => {
    expect(expectedForwarderRules('us-east-1')).toEqual([
      ...rulesForRegion('us-east-1').map((r) => r.name),
      HEARTBEAT_RULE_NAME,
    ]);
    expect(expectedForwarderRules('eu-west-1')).toContain(HEARTBEAT_RULE_NAME);
    expect(expectedForwarderRules('eu-west-1')).not.toContain('sentinel-iam-changes');
    expect(expectedForwarderRules('us-east-1')).toContain('sentinel-iam-changes');
  });
});

describe(FORWARDER, () => {
  it('passes on a forwarder set up as the templates create it, rules enabled with all management events included', () => {
    const inventory = cleanInventory(NOW);
    forwarderIn(inventory, 'us-west-2').rules[1]!.state = 'ENABLED_WITH_ALL_CLOUDTRAIL_MANAGEMENT_EVENTS';
    expect(outcome(FORWARDER, inventory)).toBe('pass');
  });

  it("passes when a rule also sends to a target of the customer's own", () => {
    const inventory = cleanInventory(NOW);
    forwarderIn(inventory, 'eu-west-1').rules[0]!.targetArns.push('arn:aws:sns:eu-west-1:111122223333:ops');
    expect(outcome(FORWARDER, inventory)).toBe('pass');
  });

  it('names one region with what was deleted, disabled and retargeted there, and the fix', () => {
    const inventory = cleanInventory(NOW);
    const region = forwarderIn(inventory, 'eu-west-1');
    const [deleted, disabled, retargeted] = region.rules;
    Object.assign(deleted!, { state: null, targetArns: [] });
    disabled!.state = 'DISABLED';
    retargeted!.targetArns = ['arn:aws:events:eu-west-1:999999999999:api-destination/elsewhere/1'];
    region.apiDestination!.endpoint = 'https://evil.example/collect';

    expect(outcome(FORWARDER, inventory)).toEqual(['event-forwarder@eu-west-1']);
    const detail = details(FORWARDER, inventory)['eu-west-1'];
    expect(detail).toContain(`Rule ${deleted!.name} is missing in eu-west-1.`);
    expect(detail).toContain(`Rule ${disabled!.name} is DISABLED in eu-west-1.`);
    expect(detail).toContain(
      `Rule ${retargeted!.name} in eu-west-1 sends to arn:aws:events:eu-west-1:999999999999:api-destination/elsewhere/1, ` +
        'not to API destination sentinel-events.',
    );
    expect(detail).toContain(
      `API destination sentinel-events in eu-west-1 posts to https://evil.example/collect, not to ${FORWARDER_ENDPOINT}.`,
    );
    expect(detail).toContain('SENTINEL_EVENT_REGIONS="eu-west-1"');
  });

  it('reports a connection deauthorized, an API destination inactive or on another connection, a rule without target', () => {
    const inventory = cleanInventory(NOW);
    const region = forwarderIn(inventory, 'us-west-2');
    region.connection!.state = 'DEAUTHORIZED';
    region.apiDestination!.state = 'INACTIVE';
    region.apiDestination!.connectionArn = 'arn:aws:events:us-west-2:111122223333:connection/other/1';
    region.rules[0]!.targetArns = [];
    const detail = details(FORWARDER, inventory)['us-west-2'];
    expect(detail).toContain('Connection sentinel-events is DEAUTHORIZED in us-west-2, not AUTHORIZED.');
    expect(detail).toContain('API destination sentinel-events is INACTIVE in us-west-2, not ACTIVE.');
    expect(detail).toContain(
      'API destination sentinel-events in us-west-2 authorizes with arn:aws:events:us-west-2:111122223333:connection/other/1',
    );
    expect(detail).toContain(`Rule ${region.rules[0]!.name} in us-west-2 has no target.`);
  });

  it('says a missing connection and API destination once, not again for every target', () => {
    const inventory = cleanInventory(NOW);
    const region = forwarderIn(inventory, 'us-west-2');
    region.connection = null;
    region.apiDestination = null;
    expect(details(FORWARDER, inventory)['us-west-2']).toMatch(
      /^Connection sentinel-events is missing in us-west-2\. API destination sentinel-events is missing in us-west-2\. To fix it/,
    );
  });

  it('shows an account that never set its forwarder up as one finding per region, each saying it is not set up', () => {
    const inventory = cleanInventory(NOW);
    for (const region of part(inventory.eventForwarder).regions) {
      region.connection = null;
      region.apiDestination = null;
      region.rules = region.rules.map((r) => ({ ...r, state: null, targetArns: [] }));
    }
    expect(outcome(FORWARDER, inventory)).toEqual([
      'event-forwarder@us-east-1',
      'event-forwarder@us-west-2',
      'event-forwarder@eu-west-1',
    ]);
    expect(details(FORWARDER, inventory)['eu-west-1']).toMatch(
      /^The event forwarder is not set up in eu-west-1: it has no connection sentinel-events, no API destination sentinel-events and none of the rules sentinel-/,
    );
  });

  it('leaves a region it could not read unread, never passed, and fails the regions it read', () => {
    const inventory = cleanInventory(NOW);
    forwarderIn(inventory, 'us-east-1').rules[0]!.state = 'DISABLED';
    const forwarder = part(inventory.eventForwarder);
    forwarder.regions = forwarder.regions.filter((r) => r.region !== 'eu-west-1');
    const refused = withUnread(inventory, 'eventForwarder', [
      { kind: 'region', scope: 'eu-west-1', reason: "AWS denied Sentinel's role EventBridge DescribeRule" },
    ]);
    expect(outcome(FORWARDER, refused)).toEqual(['event-forwarder@us-east-1']);
    expect(unreadBy(FORWARDER, refused)).toEqual(['eu-west-1']);
    const outcomeOf = evaluateInventory(refused, { now: NOW }).outcomes.find((o) => o.checkId === FORWARDER)!;
    expect(outcomeOf.reason).toContain('eu-west-1');
    expect(scoreCompleteness(evaluateInventory(refused, { now: NOW }).outcomes).coreChecksNotRead).toContain(FORWARDER);
  });

  it('leaves the region of a rule the read did not cover unread rather than the rule missing', () => {
    const inventory = cleanInventory(NOW);
    const region = forwarderIn(inventory, 'eu-west-1');
    const dropped = region.rules.pop()!;
    expect(outcome(FORWARDER, inventory)).toBe('pass');
    expect(unreadBy(FORWARDER, inventory)).toEqual(['eu-west-1']);
    const result = checkById(FORWARDER)!.evaluate(inventory, { now: NOW });
    expect(result.unread?.[0]?.reason).toContain(dropped.name);
  });

  it('is not evaluated, with nothing unread, for an account connected without event forwarding', () => {
    const inventory = cleanInventory(NOW);
    inventory.eventForwarder = { status: 'ok', value: { expectedEndpoint: null, regions: [] } };
    const result = checkById(FORWARDER)!.evaluate(inventory, { now: NOW });
    expect(result).toMatchObject({ status: 'not_evaluated', absent: true });
    expect(outcome(MANAGEMENT, inventory)).toBe('not_evaluated');
    // Nothing Sentinel failed to read: the score stays complete.
    expect(scoreCompleteness(evaluateInventory(inventory, { now: NOW }).outcomes).complete).toBe(true);
  });
});

describe(MANAGEMENT, () => {
  it('passes with a multi-region trail that records write management events only', () => {
    const inventory = cleanInventory(NOW);
    part(inventory.cloudtrail).trails[0]!.events!.management = { read: false, write: true };
    expect(outcome(MANAGEMENT, inventory)).toBe('pass');
  });

  it('fails every region when the only trail records read-only management events', () => {
    const inventory = cleanInventory(NOW);
    part(inventory.cloudtrail).trails[0]!.events!.management = { read: true, write: false };
    expect(outcome(MANAGEMENT, inventory)).toEqual([
      'cloudtrail-management-events@us-east-1',
      'cloudtrail-management-events@us-west-2',
      'cloudtrail-management-events@eu-west-1',
    ]);
    expect(details(MANAGEMENT, inventory)['us-west-2']).toContain(
      'No trail that is logging records the management events of us-west-2',
    );
  });

  it('counts a single-region trail for its own region, and a stopped trail for none', () => {
    const inventory = cleanInventory(NOW);
    part(inventory.cloudtrail).trails = [
      cleanTrail({ name: 'west', homeRegion: 'us-west-2', multiRegion: false }, NOW),
      cleanTrail({ name: 'stopped', logging: false }, NOW),
    ];
    expect(outcome(MANAGEMENT, inventory)).toEqual([
      'cloudtrail-management-events@us-east-1',
      'cloudtrail-management-events@eu-west-1',
    ]);
  });

  it('leaves regions unread, not failed, while a trail that may cover them has unknown selectors', () => {
    const inventory = cleanInventory(NOW);
    part(inventory.cloudtrail).trails[0]!.events = null;
    expect(outcome(MANAGEMENT, inventory)).toBe('pass');
    expect(unreadBy(MANAGEMENT, inventory)).toEqual(['us-east-1', 'us-west-2', 'eu-west-1']);
  });

  it('does not fail a region whose trails could not be listed', () => {
    const inventory = cleanInventory(NOW);
    part(inventory.cloudtrail).trails = [cleanTrail({ name: 'east', multiRegion: false }, NOW)];
    const refused = withUnread(inventory, 'cloudtrail', [
      { kind: 'region', scope: 'eu-west-1', reason: "AWS denied Sentinel's role CloudTrail DescribeTrails" },
    ]);
    expect(outcome(MANAGEMENT, refused)).toEqual(['cloudtrail-management-events@us-west-2']);
    expect(unreadBy(MANAGEMENT, refused)).toEqual(['eu-west-1']);
  });
});
