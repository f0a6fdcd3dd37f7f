import { type Indicator, indicatorKind, probableCompromise } from '../../../domain/events/compound';
import { EVENT_DETECTIONS } from '../../../domain/events/detections';

const NOW = '2026-03-15T12:00:00.000Z';
const hoursBefore = (hours: number) => new Date(Date.parse(NOW) - hours * 3_600_000).toISOString();

const newKey = (hours: number): Indicator => ({
  kind: 'access',
  id: 'event.access_key_created',
  resource: 'AKIAI44QH8DHBEXAMPLE',
  region: 'us-east-1',
  at: hoursBefore(hours),
  summary: 'Access key created for svc-backup',
});
const gpu = (hours: number): Indicator => ({
  kind: 'compute',
  id: 'event.gpu_instance_launched',
  resource: 'r-0a1b2c3d4e5f60718',
  region: 'ap-southeast-3',
  at: hoursBefore(hours),
  summary: 'p4d.24xlarge launched in ap-southeast-3',
});
const spendSpike = (hours: number): Indicator => ({
  kind: 'spend',
  id: 'billing.daily_spend_spike',
  resource: 'daily-spend',
  region: 'global',
  at: hoursBefore(hours),
  summary: 'Daily spend 12x the usual',
});

describe('probableCompromise', () => {
  it('fires on new access and unusual compute within 24 hours, one finding for the account', () => {
    const result = probableCompromise([newKey(3), gpu(1)], NOW);
    expect(result?.finding).toEqual({
      resource: 'account',
      detail:
        `Indicators in the last 24 hours, newest first: ${hoursBefore(1)} p4d.24xlarge launched in ap-southeast-3; ` +
        `${hoursBefore(3)} Access key created for svc-backup.`,
    });
    expect(result?.finding.region).toBeUndefined();
  });

  it('fires on new access and a spend spike', () => {
    expect(probableCompromise([spendSpike(20), newKey(2)], NOW)?.indicators.map((i) => i.kind)).toEqual([
      'access',
      'spend',
    ]);
  });

  it('lists each indicator of the window once (its newest sighting), newest first, whatever the order given', () => {
    const result = probableCompromise([gpu(10), newKey(2), spendSpike(23), newKey(0), gpu(5)], NOW);
    expect(result?.indicators.map((i) => i.at)).toEqual([0, 5, 23].map(hoursBefore));
    const elsewhere = { ...gpu(7), region: 'sa-east-1' };
    expect(probableCompromise([gpu(5), elsewhere, newKey(1)], NOW)?.indicators).toHaveLength(3);
  });

  it('lists the ten newest indicators in its detail and counts the rest', () => {
    const keys = Array.from({ length: 14 }, (_, i) => ({ ...newKey(i + 1), resource: `AKIA${i}` }));
    const detail = probableCompromise([...keys, gpu(0)], NOW)?.finding.detail ?? '';
    expect(detail.split('; ')).toHaveLength(10);
    expect(detail).toMatch(/\(and 5 more\)\.$/);
  });

  it('takes an indicator a few seconds ahead of now (clock skew) as now', () => {
    expect(
      probableCompromise([{ ...newKey(0), at: new Date(Date.parse(NOW) + 20_000).toISOString() }, gpu(1)], NOW),
    ).not.toBeNull();
  });

  it('does not fire on access alone, nor on compute and spend alone', () => {
    expect(probableCompromise([newKey(1), newKey(2)], NOW)).toBeNull();
    expect(probableCompromise([gpu(1), spendSpike(2)], NOW)).toBeNull();
    expect(probableCompromise([], NOW)).toBeNull();
  });

  it('does not fire when the two are 25 hours apart', () => {
    expect(probableCompromise([newKey(25), gpu(0)], NOW)).toBeNull();
    expect(probableCompromise([newKey(0), gpu(25)], NOW)).toBeNull();
  });

  it('counts an indicator exactly 24 hours old, and leaves older ones out of the list', () => {
    const result = probableCompromise([newKey(24), gpu(0), spendSpike(30)], NOW);
    expect(result?.indicators.map((i) => i.id)).toEqual(['event.gpu_instance_launched', 'event.access_key_created']);
  });

  it('ignores indicators after now and with unreadable times', () => {
    expect(probableCompromise([newKey(-1), gpu(1)], NOW)).toBeNull();
    expect(probableCompromise([{ ...newKey(1), at: 'yesterday' }, gpu(1)], NOW)).toBeNull();
  });
});

describe('indicatorKind', () => {
  it.each([
    ['event.iam_user_created', 'access'],
    ['event.access_key_created', 'access'],
    ['event.login_profile_created', 'access'],
    ['event.root_console_sign_in', 'access'],
    ['event.root_api_call', 'access'],
    ['threat.access_key_created_recently', 'access'],
    ['threat.iam_user_created_recently', 'access'],
    ['event.instance_launched_in_unused_region', 'compute'],
    ['event.gpu_instance_launched', 'compute'],
    ['threat.gpu_instance_running', 'compute'],
    ['threat.instance_in_unused_region', 'compute'],
    ['billing.daily_spend_spike', 'spend'],
    ['billing.cost_anomaly', 'spend'],
    ['event.admin_policy_attached', null],
    ['event.probable_compromise', null],
    ['iam.root_mfa_disabled', null],
    ['constructor', null],
  ])('%s -> %s', (id, kind) => {
    expect(indicatorKind(id)).toBe(kind);
  });

  it('names only detections that exist', () => {
    const detections = new Set(EVENT_DETECTIONS.map((d) => d.id));
    const mapped = [
      'event.iam_user_created',
      'event.access_key_created',
      'event.login_profile_created',
      'event.root_console_sign_in',
      'event.root_api_call',
      'event.instance_launched_in_unused_region',
      'event.gpu_instance_launched',
    ];
    for (const id of mapped) expect(detections.has(id)).toBe(true);
  });
});
