import type { CheckOutcome, Evaluation, Finding } from '../../domain/checks/evaluate';
import { REVIEW_DAYS, type OpenSignal, asOpenSignals, signalChanges } from '../../domain/signals/lifecycle';

// The review rule of the signal lifecycle (docs/decisions.md, "No clock-based all-clear"): a signal of a `review`
// check that a scan no longer sees stays open until it is reviewed or REVIEW_DAYS have passed; other checks' signals
// resolve as soon as a scan that could see them does not.

const DAY_MS = 86_400_000;
const OPENED = new Date('2026-11-10T00:00:00Z');
const after = (days: number) => new Date(OPENED.getTime() + days * DAY_MS);

const USER_CHECK = 'threat.iam_user_created_recently';
const REGION_CHECK = 'threat.instance_in_unused_region';
const EVENT_LAUNCH = 'event.instance_launched_in_unused_region';

function signal(checkId: string, overrides: Partial<OpenSignal> = {}): OpenSignal {
  return {
    id: `sig_${checkId}`,
    fingerprint: `${checkId}|res|global`,
    checkId,
    severity: 'MEDIUM',
    region: 'global',
    resource: 'res',
    owner: null,
    accepted: false,
    detectedAt: OPENED,
    ...overrides,
  };
}

const passed = (checkId: string): CheckOutcome => ({
  checkId,
  status: 'passed',
  failingResources: 0,
  reason: null,
  unread: [],
});

/** A scan where the given checks passed and nothing failed. */
const cleanScan = (...checkIds: string[]): Pick<Evaluation, 'findings' | 'outcomes'> => ({
  findings: [],
  outcomes: checkIds.map(passed),
});

const resolvedIds = (open: OpenSignal[], evaluation: Pick<Evaluation, 'findings' | 'outcomes'>, at: Date) =>
  signalChanges(open, evaluation, { failed: false, at }).resolved.map((s) => s.id);

describe('the review rule', () => {
  it('keeps an unreviewed signal of a review check open at a scan that no longer sees it', () => {
    const open = [signal(USER_CHECK)];
    expect(resolvedIds(open, cleanScan(USER_CHECK), after(3))).toEqual([]);
  });

  it('resolves it at the first scan after REVIEW_DAYS, reviewed or not', () => {
    const open = [signal(USER_CHECK)];
    expect(resolvedIds(open, cleanScan(USER_CHECK), after(REVIEW_DAYS - 0.01))).toEqual([]);
    expect(resolvedIds(open, cleanScan(USER_CHECK), after(REVIEW_DAYS))).toEqual([`sig_${USER_CHECK}`]);
  });

  it('resolves a reviewed one (acknowledged or accepted) as any signal resolves', () => {
    expect(resolvedIds([signal(USER_CHECK, { reviewed: true })], cleanScan(USER_CHECK), after(1))).toEqual([
      `sig_${USER_CHECK}`,
    ]);
    expect(resolvedIds([signal(USER_CHECK, { accepted: true })], cleanScan(USER_CHECK), after(1))).toEqual([
      `sig_${USER_CHECK}`,
    ]);
  });

  it('keeps a reviewed one open while a scan still sees it, or could not look', () => {
    const reviewed = signal(USER_CHECK, { reviewed: true });
    const seen: Finding = {
      checkId: USER_CHECK,
      scenario: 'threat',
      severity: 'MEDIUM',
      title: 't',
      description: 'd',
      resource: 'res',
      region: 'global',
      owner: null,
      fingerprint: reviewed.fingerprint,
    };
    expect(resolvedIds([reviewed], { findings: [seen], outcomes: [passed(USER_CHECK)] }, after(30))).toEqual([]);
    const notEvaluated: CheckOutcome = { ...passed(USER_CHECK), status: 'not_evaluated', reason: 'AccessDenied' };
    expect(resolvedIds([reviewed], { findings: [], outcomes: [notEvaluated] }, after(30))).toEqual([]);
  });

  it('leaves the checks without the property as they were: a scan that does not see the resource resolves it', () => {
    const gpu = signal('threat.gpu_instance_running');
    expect(resolvedIds([gpu], cleanScan('threat.gpu_instance_running'), after(1))).toEqual([gpu.id]);
  });

  it("holds an unused-region event signal a scan confirms until it is reviewed, unless the scan's own finding carries it", () => {
    const launch = signal(EVENT_LAUNCH, {
      region: 'ap-southeast-3',
      fingerprint: `${EVENT_LAUNCH}|r-1|ap-southeast-3`,
    });
    // The scan read the region and found no instance outside the baseline: the launch is gone, not harmless.
    expect(resolvedIds([launch], cleanScan(REGION_CHECK), after(1))).toEqual([]);
    expect(resolvedIds([{ ...launch, reviewed: true }], cleanScan(REGION_CHECK), after(1))).toEqual([launch.id]);
    expect(resolvedIds([launch], cleanScan(REGION_CHECK), after(REVIEW_DAYS))).toEqual([launch.id]);
    // The instance still runs there: the scan's own signal stands for it from now on.
    const running: Finding = {
      checkId: REGION_CHECK,
      scenario: 'threat',
      severity: 'HIGH',
      title: 't',
      description: 'd',
      resource: 'i-0far',
      region: 'ap-southeast-3',
      owner: null,
      fingerprint: `${REGION_CHECK}|i-0far|ap-southeast-3`,
    };
    const failed: CheckOutcome = { ...passed(REGION_CHECK), status: 'failed', failingResources: 1 };
    expect(resolvedIds([launch], { findings: [running], outcomes: [failed] }, after(1))).toEqual([launch.id]);
  });
});

describe('what counts as reviewed', () => {
  const at = after(1);
  const row = (acceptance: { expiresAt: Date | null } | null, alertAcknowledged: boolean) => {
    const { accepted: _accepted, reviewed: _reviewed, ...rest } = signal(USER_CHECK);
    return { ...rest, acceptance, alertAcknowledged };
  };

  it('an acceptance, in force or expired, or an acknowledged alert about it', () => {
    const [none, inForce, expired, acknowledged] = asOpenSignals(
      [
        row(null, false),
        row({ expiresAt: null }, false),
        row({ expiresAt: new Date(at.getTime() - 1) }, false),
        row(null, true),
      ],
      at,
    );
    expect([none, inForce, expired, acknowledged].map((s) => [s!.accepted, s!.reviewed])).toEqual([
      [false, false],
      [true, true],
      [false, true],
      [false, true],
    ]);
  });
});
