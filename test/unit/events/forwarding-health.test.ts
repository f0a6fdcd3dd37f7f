import { FORWARDING_BLIND_ID } from '../../../domain/events/catalog';
import { forwardingState, heartbeatTime, lateBefore, regionTouches } from '../../../domain/events/forwarding-health';
import { HEARTBEAT_LATE_AFTER_MINUTES } from '../../../domain/events/forwarding-rules';
import { forwardingBlindChanges, signalChanges } from '../../../domain/signals/lifecycle';

const AT = new Date('2026-11-30T12:00:00.000Z');
const minutesBefore = (minutes: number, at = AT) => new Date(at.getTime() - minutes * 60_000);
const heartbeat = (region: string, time: string) => ({
  source: 'aws.events',
  detailType: 'Scheduled Event',
  region,
  time,
});
const apiCall = (region: string, time: string) => ({
  source: 'aws.iam',
  detailType: 'AWS API Call via CloudTrail',
  region,
  time,
});

describe('a heartbeat time', () => {
  it("is the event's own time when it is not after the arrival (a retried beat keeps when it was sent)", () => {
    expect(heartbeatTime(minutesBefore(90).toISOString(), AT)).toEqual(minutesBefore(90));
    expect(heartbeatTime(AT.toISOString(), AT)).toEqual(AT);
  });

  it('is the arrival when the event says it was sent later (a future time cannot keep a region alive)', () => {
    expect(heartbeatTime('2099-01-01T00:00:00Z', AT)).toEqual(AT);
    expect(heartbeatTime('not a time', AT)).toEqual(AT);
  });
});

describe("a region's state", () => {
  it(`is receiving up to ${HEARTBEAT_LATE_AFTER_MINUTES} minutes after its last heartbeat, late after`, () => {
    expect(forwardingState(AT, AT)).toBe('receiving');
    expect(forwardingState(minutesBefore(HEARTBEAT_LATE_AFTER_MINUTES), AT)).toBe('receiving');
    expect(forwardingState(new Date(lateBefore(AT).getTime() - 1), AT)).toBe('late');
  });

  it('is no_heartbeat for a region that never sent one', () => {
    expect(forwardingState(null, AT)).toBe('no_heartbeat');
  });
});

describe("a request's touches", () => {
  it('are one per region: its newest heartbeat, and the arrival when other events came', () => {
    expect(
      regionTouches(
        [
          heartbeat('us-east-1', minutesBefore(10).toISOString()),
          heartbeat('us-east-1', minutesBefore(5).toISOString()),
          heartbeat('us-east-1', minutesBefore(7).toISOString()),
          apiCall('us-east-1', minutesBefore(1).toISOString()),
          apiCall('eu-west-1', minutesBefore(30).toISOString()),
          heartbeat('ap-south-1', '2099-01-01T00:00:00Z'),
        ],
        AT,
      ),
    ).toEqual([
      { region: 'ap-south-1', heartbeatAt: AT, eventAt: null },
      { region: 'eu-west-1', heartbeatAt: null, eventAt: AT },
      { region: 'us-east-1', heartbeatAt: minutesBefore(5), eventAt: AT },
    ]);
  });
});

describe('the forwarding watch', () => {
  const region = (name: string, lastHeartbeatAt: Date | null) => ({ region: name, lastHeartbeatAt });

  it('opens a signal for each watched region whose heartbeat is late, once', () => {
    const regions = [
      region('us-east-1', minutesBefore(HEARTBEAT_LATE_AFTER_MINUTES + 1)),
      region('eu-west-1', minutesBefore(HEARTBEAT_LATE_AFTER_MINUTES + 1)),
      region('eu-north-1', minutesBefore(2)),
    ];
    expect(forwardingBlindChanges([], regions, AT)).toEqual({ blind: ['us-east-1', 'eu-west-1'], resolved: [] });
    expect(forwardingBlindChanges([{ id: 'sig_1', region: 'us-east-1' }], regions, AT)).toEqual({
      blind: ['eu-west-1'],
      resolved: [],
    });
  });

  it('does not watch a region that never sent a heartbeat', () => {
    expect(forwardingBlindChanges([], [region('us-east-1', null)], AT)).toEqual({ blind: [], resolved: [] });
  });

  it("resolves a region's signal once its heartbeat is within the bound again, and keeps it while late", () => {
    const open = [
      { id: 'sig_back', region: 'us-east-1' },
      { id: 'sig_still', region: 'eu-west-1' },
    ];
    const regions = [region('us-east-1', minutesBefore(1)), region('eu-west-1', minutesBefore(60))];
    expect(forwardingBlindChanges(open, regions, AT)).toEqual({ blind: [], resolved: [open[0]] });
  });

  it('is the only one to resolve its signals: a scan leaves them open, however long they have been', () => {
    const blind = {
      id: 'sig_blind',
      fingerprint: `${FORWARDING_BLIND_ID}|rule|us-east-1`,
      checkId: FORWARDING_BLIND_ID,
      severity: 'HIGH',
      region: 'us-east-1',
      resource: 'rule',
      owner: null,
      accepted: false,
      detectedAt: minutesBefore(60 * 24 * 30),
    };
    const changes = signalChanges([blind], { findings: [], outcomes: [] }, { failed: false, at: AT });
    expect(changes.resolved).toEqual([]);
  });
});
