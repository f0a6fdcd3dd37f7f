import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DETECTION_CATALOG, PROBABLE_COMPROMISE_ID } from '../../../domain/events/catalog';
import {
  boundOpenings,
  COMPOUND_WINDOW_MINUTES,
  DEDUPLICATION,
  decideOccurrences,
  deduplicationOf,
  eventFingerprint,
  type NewOccurrence,
  OCCURRENCE_WINDOW_MINUTES,
  OPEN_SIGNALS_PER_DETECTION,
  type OpenOccurrence,
  signalPrincipal,
} from '../../../domain/events/occurrences';
import { scopeAccepts, scopeProblem } from '../../../domain/signals/acceptance-scopes';

// The de-duplication of event signals (domain/events/occurrences.ts): which detections count occurrences, their
// fingerprints, the bound on a burst, and what an acceptance's scope covers.

const T0 = Date.parse('2026-11-29T10:00:00Z');
const at = (minutes: number) => new Date(T0 + minutes * 60_000);
const ROOT_SIGN_IN = 'event.root_console_sign_in';
const NO_MFA = 'event.console_sign_in_without_mfa';
const ALICE = 'arn:aws:iam::123456789012:user/alice';
const BOB = 'arn:aws:iam::123456789012:user/bob';

let next = 0;
const occurrence = (detectionId: string, principal: string | null, minutes: number): NewOccurrence => ({
  signalId: `sig_new_${++next}`,
  detectionId,
  principal,
  occurredAt: at(minutes),
});
const openSignal = (
  signalId: string,
  detectionId: string,
  principal: string | null,
  minutes: number,
  acceptance: OpenOccurrence['acceptance'] = null,
): OpenOccurrence => ({ signalId, detectionId, principal, occurredAt: at(minutes), acceptance });

describe('the de-duplication table', () => {
  it('names every detection of the catalogue, and nothing else', () => {
    expect(Object.keys(DEDUPLICATION).sort()).toEqual(DETECTION_CATALOG.map((d) => d.id).sort());
  });

  it('counts sign-ins, root activity, new credentials, covering tracks and launches as occurrences; exposures as state', () => {
    const kinds = Object.fromEntries(Object.entries(DEDUPLICATION).map(([id, d]) => [id, d.kind]));
    for (const id of [
      ROOT_SIGN_IN,
      'event.root_api_call',
      NO_MFA,
      'event.iam_user_created',
      'event.access_key_created',
      'event.login_profile_created',
      'event.cloudtrail_logging_stopped',
      'event.cloudtrail_trail_deleted',
      'event.guardduty_disabled',
      'event.gpu_instance_launched',
      PROBABLE_COMPROMISE_ID,
    ])
      expect({ id, kind: kinds[id] }).toEqual({ id, kind: 'occurrence' });
    for (const id of [
      'event.security_group_admin_port_opened',
      'event.s3_bucket_made_public',
      'event.admin_policy_attached',
      'event.guardduty_high_severity_finding',
    ])
      expect({ id, kind: kinds[id] }).toEqual({ id, kind: 'state' });
    expect(deduplicationOf('event.root_api_call')).toEqual({
      kind: 'occurrence',
      by: 'principal',
      windowMinutes: OCCURRENCE_WINDOW_MINUTES,
    });
    expect(deduplicationOf(PROBABLE_COMPROMISE_ID)).toEqual({
      kind: 'occurrence',
      by: 'account',
      windowMinutes: COMPOUND_WINDOW_MINUTES,
    });
    // A scan check, or a detection the table does not know: a state, as every signal was before.
    expect(deduplicationOf('iam.root_mfa_disabled')).toEqual({ kind: 'state' });
  });

  it("is the table of docs/decisions.md's Events section, row for row", () => {
    const docs = readFileSync(path.join(__dirname, '../../../docs/decisions.md'), 'utf8');
    const rows = [...docs.matchAll(/^ *\| `(event\.[a-z0-9_]+)` \| (state|occurrence)\b/gm)].map((m) => [m[1], m[2]]);
    expect(rows.sort()).toEqual(
      Object.entries(DEDUPLICATION)
        .map(([id, d]) => [id, d.kind])
        .sort(),
    );
  });
});

describe('eventFingerprint', () => {
  it("is a state's resource, detection + resource + region, like a check's", () => {
    expect(
      eventFingerprint('event.security_group_admin_port_opened', { resource: 'sg-1', region: 'eu-west-1' }, 'ev-1'),
    ).toBe('event.security_group_admin_port_opened|sg-1|eu-west-1');
    expect(eventFingerprint('event.alternate_contact_deleted', { resource: 'security-contact' }, 'ev-2')).toBe(
      'event.alternate_contact_deleted|security-contact|global',
    );
  });

  it("adds the event to an occurrence's, so that two occurrences are two signals", () => {
    const first = eventFingerprint(ROOT_SIGN_IN, { resource: 'root' }, 'ev-1');
    const second = eventFingerprint(ROOT_SIGN_IN, { resource: 'root' }, 'ev-2');
    expect(first).toBe(`${ROOT_SIGN_IN}|root|global|ev-1`);
    expect(second).not.toBe(first);
    // A probable compromise a scan completed: the scan.
    expect(eventFingerprint(PROBABLE_COMPROMISE_ID, { resource: 'account' }, 'scn_1')).toBe(
      `${PROBABLE_COMPROMISE_ID}|account|global|scn_1`,
    );
  });

  it('names the principal who acted, and none for the account-wide probable compromise', () => {
    expect(signalPrincipal(NO_MFA, ALICE)).toBe(ALICE);
    expect(signalPrincipal(ROOT_SIGN_IN, 'root')).toBe('root');
    expect(signalPrincipal(PROBABLE_COMPROMISE_ID, ALICE)).toBeNull();
  });
});

describe('decideOccurrences', () => {
  it('opens one signal for a burst within the window, counting the rest on it; the next window opens another', () => {
    const burst = [0, 1, 2, 5, 14].map((m) => occurrence('event.access_key_created', ALICE, m));
    const decisions = decideOccurrences([], [], burst);
    expect(decisions[0]).toEqual({ open: true, scope: null });
    for (const decision of decisions.slice(1)) expect(decision).toEqual({ open: false, countedOn: burst[0]!.signalId });
    // The window is anchored at the signal's first occurrence: 15 minutes later is a new one.
    const later = occurrence('event.access_key_created', ALICE, OCCURRENCE_WINDOW_MINUTES);
    expect(decideOccurrences([openSignal('sig_1', 'event.access_key_created', ALICE, 0)], [], [later])).toEqual([
      { open: true, scope: null },
    ]);
  });

  it('counts by detection and principal: another principal or another detection opens its own', () => {
    const open = [openSignal('sig_alice', NO_MFA, ALICE, 0)];
    expect(
      decideOccurrences(
        open,
        [],
        [occurrence(NO_MFA, ALICE, 3), occurrence(NO_MFA, BOB, 3), occurrence(ROOT_SIGN_IN, ALICE, 3)],
      ),
    ).toEqual([
      { open: false, countedOn: 'sig_alice' },
      { open: true, scope: null },
      { open: true, scope: null },
    ]);
  });

  it('takes events in their own time order, and a late one within the window is counted', () => {
    const late = occurrence(ROOT_SIGN_IN, 'root', -10);
    expect(decideOccurrences([openSignal('sig_root', ROOT_SIGN_IN, 'root', 0)], [], [late])).toEqual([
      { open: false, countedOn: 'sig_root' },
    ]);
    // In one batch, the earliest opens whatever the order they came in.
    const [second, first] = [occurrence(ROOT_SIGN_IN, 'root', 2), occurrence(ROOT_SIGN_IN, 'root', 1)];
    expect(decideOccurrences([], [], [second!, first!])).toEqual([
      { open: false, countedOn: first!.signalId },
      { open: true, scope: null },
    ]);
  });

  it('never counts an occurrence on a signal accepted alone: accepting one does not silence the next', () => {
    const accepted = openSignal('sig_root', ROOT_SIGN_IN, 'root', 0, { scopeId: null });
    expect(decideOccurrences([accepted], [], [occurrence(ROOT_SIGN_IN, 'root', 1)])).toEqual([
      { open: true, scope: null },
    ]);
  });

  it("accepts a later occurrence a scope covers, and counts the burst after it on that signal; another principal's alerts", () => {
    const scope = { id: 'acc_scope', detectionId: NO_MFA, principal: ALICE };
    const origin = openSignal('sig_alice', NO_MFA, ALICE, 0, { scopeId: 'acc_scope' });
    const [again, burst, bob] = [
      occurrence(NO_MFA, ALICE, 30),
      occurrence(NO_MFA, ALICE, 31),
      occurrence(NO_MFA, BOB, 31),
    ];
    expect(decideOccurrences([origin], [scope], [again!, burst!, bob!])).toEqual([
      { open: true, scope },
      { open: false, countedOn: again!.signalId },
      { open: true, scope: null },
    ]);
    // Within the window of the signal the scope was made on: counted on it.
    expect(decideOccurrences([origin], [scope], [occurrence(NO_MFA, ALICE, 5)])).toEqual([
      { open: false, countedOn: 'sig_alice' },
    ]);
  });

  it("a scope no longer in force accepts nothing: the occurrence after it opens and alerts, even in the accepted signal's window", () => {
    const origin = openSignal('sig_alice', NO_MFA, ALICE, 0, { scopeId: 'acc_gone' });
    expect(decideOccurrences([origin], [], [occurrence(NO_MFA, ALICE, 5)])).toEqual([{ open: true, scope: null }]);
  });

  it("a detection scope accepts anyone's; one naming the principal is preferred", () => {
    const anyone = { id: 'acc_any', detectionId: 'event.gpu_instance_launched', principal: null };
    const alice = { id: 'acc_alice', detectionId: 'event.gpu_instance_launched', principal: ALICE };
    expect(
      decideOccurrences(
        [],
        [anyone, alice],
        [occurrence('event.gpu_instance_launched', BOB, 0), occurrence('event.gpu_instance_launched', ALICE, 0)],
      ),
    ).toEqual([
      { open: true, scope: anyone },
      { open: true, scope: alice },
    ]);
  });

  it('counts a probable compromise for the account over a day, unless the open one was accepted', () => {
    const open = openSignal('sig_compound', PROBABLE_COMPROMISE_ID, null, 0);
    expect(decideOccurrences([open], [], [occurrence(PROBABLE_COMPROMISE_ID, null, 23 * 60)])).toEqual([
      { open: false, countedOn: 'sig_compound' },
    ]);
    expect(decideOccurrences([open], [], [occurrence(PROBABLE_COMPROMISE_ID, null, 24 * 60)])).toEqual([
      { open: true, scope: null },
    ]);
    expect(
      decideOccurrences(
        [{ ...open, acceptance: { scopeId: null } }],
        [],
        [occurrence(PROBABLE_COMPROMISE_ID, null, 60)],
      ),
    ).toEqual([{ open: true, scope: null }]);
  });
});

describe('acceptance scopes', () => {
  it('go beyond the signal only for an occurrence detection, and by principal only when it names one', () => {
    expect(scopeProblem('signal', { checkId: 'iam.root_mfa_disabled', principal: null })).toBeNull();
    expect(scopeProblem('principal', { checkId: ROOT_SIGN_IN, principal: 'root' })).toBeNull();
    expect(scopeProblem('detection', { checkId: PROBABLE_COMPROMISE_ID, principal: null })).toBeNull();
    expect(scopeProblem('principal', { checkId: PROBABLE_COMPROMISE_ID, principal: null })).toMatch(/no principal/);
    expect(scopeProblem('principal', { checkId: 'event.s3_bucket_made_public', principal: ALICE })).toMatch(
      /not an occurrence detection/,
    );
    expect(scopeProblem('detection', { checkId: 'iam.root_mfa_disabled', principal: null })).toMatch(
      /not an occurrence detection/,
    );
  });

  it('cover open signals of their detection, by their principal unless they accept anyone', () => {
    const byAlice = { scope: 'principal' as const, checkId: NO_MFA, principal: ALICE };
    expect(scopeAccepts(byAlice, { checkId: NO_MFA, principal: ALICE })).toBe(true);
    expect(scopeAccepts(byAlice, { checkId: NO_MFA, principal: BOB })).toBe(false);
    expect(scopeAccepts(byAlice, { checkId: ROOT_SIGN_IN, principal: ALICE })).toBe(false);
    expect(scopeAccepts({ ...byAlice, scope: 'detection' }, { checkId: NO_MFA, principal: BOB })).toBe(true);
  });
});

describe('boundOpenings', () => {
  const load = (open: number, newest: string | null) => new Map([[NO_MFA, { open, newest }]]);
  const candidate = (signalId: string, detectionId = NO_MFA) => ({ signalId, detectionId });

  it("opens while the detection's open signals are under the bound, then counts on the newest", () => {
    expect(
      boundOpenings(load(OPEN_SIGNALS_PER_DETECTION - 2, 'sig_old'), [
        candidate('sig_a'),
        candidate('sig_b'),
        candidate('sig_c'),
        candidate('sig_d'),
      ]),
    ).toEqual([
      { open: true },
      { open: true },
      { open: false, countedOn: 'sig_b' },
      { open: false, countedOn: 'sig_b' },
    ]);
    // Already at the bound: on the newest open one.
    expect(boundOpenings(load(OPEN_SIGNALS_PER_DETECTION, 'sig_old'), [candidate('sig_a')])).toEqual([
      { open: false, countedOn: 'sig_old' },
    ]);
  });

  it('bounds each detection on its own', () => {
    expect(
      boundOpenings(load(OPEN_SIGNALS_PER_DETECTION, 'sig_old'), [
        candidate('sig_a'),
        candidate('sig_b', ROOT_SIGN_IN),
      ]),
    ).toEqual([{ open: false, countedOn: 'sig_old' }, { open: true }]);
  });
});
