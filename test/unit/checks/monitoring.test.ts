import { checkById } from '../../../domain/checks/catalog';
import { MONITORED_ACTIVITIES } from '../../../domain/checks/cis-metric-filters';
import type { Inventory } from '../../../domain/scans/inventory';
import {
  ACCOUNT,
  cleanInventory,
  cleanTrail,
  outcome,
  part,
  unreadBy,
  withoutPart,
  withUnread,
} from '../../helpers/inventory';

const NOW = '2026-03-15T12:00:00.000Z';
const CHECK = 'detection.cis_metric_alarms_missing';
const ALL = MONITORED_ACTIVITIES.map((a) => `${a.resource}@global`);
const check = checkById(CHECK)!;

/** The clean account's filter for one control, to edit. */
function filterOf(inventory: Inventory, control: string) {
  const resource = MONITORED_ACTIVITIES.find((a) => a.control === control)!.resource;
  return part(inventory.metricAlarms).filters.find((f) => f.name === resource)!;
}

describe('CIS 5.x metric filters and alarms', () => {
  it('stands for CIS 5.1 to 5.15, one failing resource per control', () => {
    expect(check.controls?.['cis-aws-7.0']).toEqual(Array.from({ length: 15 }, (_, i) => `5.${i + 1}`));
    expect(MONITORED_ACTIVITIES.map((a) => check.controlOfResource?.(a.resource))).toEqual(
      check.controls?.['cis-aws-7.0'],
    );
    expect(check.controlOfResource?.('cloudtrail')).toBeUndefined();
  });

  it('fails every control when no multi-region trail that logs delivers to CloudWatch Logs', () => {
    for (const trail of [{ cloudWatchLogsLogGroupArn: null }, { multiRegion: false }, { logging: false }]) {
      const inventory = cleanInventory(NOW);
      Object.assign(part(inventory.cloudtrail).trails[0]!, trail);
      expect(outcome(CHECK, inventory)).toEqual(ALL);
    }
    const inventory = cleanInventory(NOW);
    part(inventory.cloudtrail).trails[0]!.cloudWatchLogsLogGroupArn = null;
    const result = check.evaluate(inventory, { now: NOW });
    expect(result.status === 'fail' && result.resources[2]?.detail).toBe(
      'No multi-region CloudTrail trail that is logging delivers to CloudWatch Logs, so nothing raises an alarm on use of the root user (CIS 5.3).',
    );
  });

  it("counts a filter only on the trail's log group, in its region, with an alarm on its metric", () => {
    const elsewhere = cleanInventory(NOW);
    filterOf(elsewhere, '5.4').logGroup = 'application-logs';
    expect(outcome(CHECK, elsewhere)).toEqual(['cis-5.4-iam-policy-changes@global']);

    const otherRegion = cleanInventory(NOW);
    filterOf(otherRegion, '5.5').region = 'eu-west-1';
    expect(outcome(CHECK, otherRegion)).toEqual(['cis-5.5-cloudtrail-changes@global']);

    const otherNamespace = cleanInventory(NOW);
    part(otherNamespace.metricAlarms).alarmedMetrics[9]!.namespace = 'Custom';
    expect(outcome(CHECK, otherNamespace)).toEqual(['cis-5.10-security-group-changes@global']);
  });

  it('names the log group and the pattern to add in the finding', () => {
    const inventory = cleanInventory(NOW);
    part(inventory.metricAlarms).alarmedMetrics.splice(6, 1);
    const result = check.evaluate(inventory, { now: NOW });
    expect(result).toEqual({
      status: 'fail',
      resources: [
        {
          resource: 'cis-5.7-kms-key-disabling-or-deletion',
          detail:
            'No metric filter with an alarm catches disabling or scheduled deletion of KMS keys (CIS 5.7) on cloudtrail-management ' +
            '(us-east-1); the recommended pattern is { ($.eventSource = kms.amazonaws.com) && (($.eventName = DisableKey) || ' +
            '($.eventName = ScheduleKeyDeletion)) }',
        },
      ],
    });
  });

  it.each([
    [
      '5.1',
      '{ ($.errorCode ="*UnauthorizedOperation") || ($.errorCode ="AccessDenied*") && ($.sourceIPAddress!="delivery.logs.amazonaws.com") && ($.eventName!="HeadBucket") }',
    ],
    [
      '5.2',
      '{ ($.eventName = "ConsoleLogin") && ($.additionalEventData.MFAUsed != "Yes") && ($.userIdentity.type = "IAMUser") && ($.responseElements.ConsoleLogin = "Success") }',
    ],
    [
      '5.3',
      '{ $.userIdentity.type = "Root" && $.userIdentity.invokedBy NOT EXISTS && $.eventType != "AwsServiceEvent" }',
    ],
    ['5.7', '{($.eventSource = kms.amazonaws.com) && (($.eventName=DisableKey)||($.eventName=ScheduleKeyDeletion)) }'],
    [
      '5.13',
      '{($.eventSource = ec2.amazonaws.com) && ($.eventName = DisassociateRouteTable) || ($.eventName = DeleteRoute) || ' +
        '($.eventName = DeleteRouteTable) || ($.eventName = ReplaceRouteTableAssociation) || ($.eventName = ReplaceRoute) || ' +
        '($.eventName = CreateRouteTable) || ($.eventName = CreateRoute) }',
    ],
  ])("recognises the benchmark's own pattern for %s, whatever its order and quoting", (control, pattern) => {
    const inventory = cleanInventory(NOW);
    filterOf(inventory, control).pattern = pattern;
    expect(outcome(CHECK, inventory)).toBe('pass');
  });

  it.each([
    ['5.6', '{ ($.eventName = ConsoleLogin) }', 'without the failed-authentication clause'],
    ['5.7', '{ ($.eventName = DisableKey) || ($.eventName = ScheduleKeyDeletion) }', 'without the event source'],
    [
      '5.13',
      '{ ($.eventSource = ec2.amazonaws.com) && (($.eventName = CreateRouteTable) || ($.eventName = ReplaceRoute) || ' +
        '($.eventName = ReplaceRouteTableAssociation) || ($.eventName = DeleteRouteTable) || ($.eventName = DeleteRoute) || ' +
        '($.eventName = DisassociateRouteTable)) }',
      'with CreateRouteTable but not CreateRoute',
    ],
  ])('does not count a pattern for %s %s', (control, pattern) => {
    const inventory = cleanInventory(NOW);
    const filter = filterOf(inventory, control);
    filter.pattern = pattern;
    expect(outcome(CHECK, inventory)).toEqual([`${filter.name}@global`]);
  });

  it('recommends, for each control, a pattern that it counts for that control only', () => {
    for (const activity of MONITORED_ACTIVITIES) {
      expect([
        activity.control,
        MONITORED_ACTIVITIES.filter((a) => a.matches.test(activity.recommended)).map((a) => a.control),
      ]).toEqual([activity.control, [activity.control]]);
    }
  });

  describe('what could not be read', () => {
    const unreadRegion = (inventory: Inventory, region: string) =>
      withUnread(inventory, 'metricAlarms', [{ kind: 'region', scope: region, reason: 'AccessDenied' }]);

    it("is not evaluated when the trail's log group is in a region whose filters could not be read", () => {
      const inventory = cleanInventory(NOW);
      part(inventory.metricAlarms).filters = [];
      part(inventory.metricAlarms).alarmedMetrics = [];
      const result = check.evaluate(unreadRegion(inventory, 'us-east-1'), { now: NOW });
      expect(result).toMatchObject({
        status: 'not_evaluated',
        reason: expect.stringContaining('cloudtrail-management (us-east-1)'),
      });
    });

    it('leaves only the controls not proven elsewhere unknown, per control, rather than failing them', () => {
      const inventory = cleanInventory(NOW);
      part(inventory.cloudtrail).trails.push(
        cleanTrail({
          name: 'org-trail',
          homeRegion: 'eu-west-1',
          cloudWatchLogsLogGroupArn: `arn:aws:logs:eu-west-1:${ACCOUNT}:log-group:org-trail:*`,
        }),
      );
      filterOf(inventory, '5.15').logGroup = 'somewhere-else';
      const partial = unreadRegion(inventory, 'eu-west-1');
      expect(outcome(CHECK, partial)).toBe('pass');
      expect(unreadBy(CHECK, partial)).toEqual(['cis-5.15-organizations-changes', 'eu-west-1']);
      // A region without a trail's log group is only carried along.
      expect(unreadBy(CHECK, unreadRegion(cleanInventory(NOW), 'ap-south-1'))).toEqual(['ap-south-1']);
    });

    it('does not trust a filter on a trail whose logging is unknown, nor fail it', () => {
      const inventory = cleanInventory(NOW);
      part(inventory.cloudtrail).trails[0]!.logging = null;
      expect(check.evaluate(inventory, { now: NOW }).status).toBe('not_evaluated');
      filterOf(inventory, '5.1').pattern = '{ $.eventName = Nothing }';
      expect(outcome(CHECK, inventory)).toEqual(['cis-5.1-unauthorized-api-calls@global']);
    });

    it('is not evaluated without the trails or the filters', () => {
      expect(outcome(CHECK, withoutPart(cleanInventory(NOW), 'cloudtrail'))).toBe('not_evaluated');
      expect(outcome(CHECK, withoutPart(cleanInventory(NOW), 'metricAlarms'))).toBe('not_evaluated');
    });
  });
});
