import {
  carryEventAlerts,
  eventConfirmations,
  evaluateRule,
  type RuleMemory,
  type ScanFacts,
  type ScanFinding,
} from '../../domain/alerts/rules';

const rootMfa: ScanFinding = { fingerprint: 'iam.root_mfa|root', scenario: 'iam' };
const ssh: ScanFinding = { fingerprint: 'exposure.ssh|sg-1', scenario: 'exposure' };
const budget: ScanFinding = { fingerprint: 'billing.no_budget|acct', scenario: 'billing' };

function facts(srs: number, open: ScanFinding[], opened: ScanFinding[] = []): ScanFacts {
  return {
    srs,
    open,
    opened,
    findingsDigest: open
      .map((f) => f.fingerprint)
      .sort()
      .join(','),
  };
}
const rule = { version: 1, minSrs: 60, scenarios: [] as string[] };
const below: RuleMemory = {
  ruleVersion: 1,
  belowThreshold: true,
  alertedFingerprints: [],
  incidentOpen: true,
  findingsChangedSinceAlert: false,
};
const above: RuleMemory = {
  ruleVersion: 1,
  belowThreshold: false,
  alertedFingerprints: [],
  incidentOpen: false,
  findingsChangedSinceAlert: false,
};

describe('evaluateRule', () => {
  it('fires on the first scored scan below the threshold, listing the scenarios behind the score', () => {
    const decision = evaluateRule(rule, undefined, facts(44, [rootMfa, budget]), undefined);
    expect(decision.fire).toEqual({ scenariosTriggered: ['billing', 'iam'] });
    expect(decision.memory).toMatchObject({ belowThreshold: true, incidentOpen: true });
  });

  it('does not fire while the score stays below with the same findings', () => {
    expect(
      evaluateRule(rule, below, facts(44, [rootMfa]), { acknowledged: false, findingsDigest: 'x' }).fire,
    ).toBeNull();
  });

  it('fires again when a new finding appears while below', () => {
    const decision = evaluateRule(rule, below, facts(30, [rootMfa, ssh], [ssh]), undefined);
    expect(decision.fire?.scenariosTriggered).toEqual(['exposure']);
    expect(decision.memory.alertedFingerprints).toEqual([ssh.fingerprint]);
  });

  it('fires on a crossing from above, and on the first scan after the rule changed', () => {
    expect(evaluateRule(rule, above, facts(55, [rootMfa]), undefined).fire).not.toBeNull();
    expect(evaluateRule({ ...rule, version: 2 }, below, facts(55, [rootMfa]), undefined).fire).not.toBeNull();
  });

  it('fires on a new finding of a listed scenario even above the threshold, and ignores unlisted ones', () => {
    const billingRule = { ...rule, minSrs: 10, scenarios: ['billing'] };
    expect(evaluateRule(billingRule, above, facts(90, [budget], [budget]), undefined).fire).toEqual({
      scenariosTriggered: ['billing'],
    });
    expect(evaluateRule(billingRule, above, facts(80, [ssh], [ssh]), undefined).fire).toBeNull();
  });

  it('stays quiet after an acknowledgement until the findings change', () => {
    const changedRule = { ...rule, version: 2 };
    const current = facts(44, [rootMfa]);
    expect(
      evaluateRule(changedRule, below, current, { acknowledged: true, findingsDigest: current.findingsDigest }).fire,
    ).toBeNull();
    const changed = facts(40, [rootMfa, budget], [budget]);
    expect(
      evaluateRule(changedRule, below, changed, { acknowledged: true, findingsDigest: current.findingsDigest }).fire,
    ).not.toBeNull();
  });

  it('ends the silence for good once the findings changed, even if they come back as they were', () => {
    const alerted = facts(44, [rootMfa], [rootMfa]);
    const acked = { acknowledged: true, findingsDigest: alerted.findingsDigest };
    // The finding resolves: nothing fires, but the acknowledged findings are no longer the open ones.
    const resolved = evaluateRule(rule, below, facts(100, []), acked);
    expect(resolved).toMatchObject({ fire: null, memory: { findingsChangedSinceAlert: true } });
    // It comes back: the same findings as the acknowledged alert, yet a crossing and a new finding, so it fires.
    const back = evaluateRule(rule, resolved.memory, facts(44, [rootMfa], [rootMfa]), acked);
    expect(back.fire).toEqual({ scenariosTriggered: ['iam'] });
    expect(back.memory.findingsChangedSinceAlert).toBe(false);
  });

  it('resolves the open incident once the score is back up and the alerted findings are gone', () => {
    const alerted: RuleMemory = { ...below, alertedFingerprints: [ssh.fingerprint] };
    const stillOpen = evaluateRule(rule, alerted, facts(80, [ssh]), undefined);
    expect(stillOpen).toMatchObject({ fire: null, resolve: false, memory: { incidentOpen: true } });
    const cleared = evaluateRule(rule, alerted, facts(100, []), undefined);
    expect(cleared).toMatchObject({
      fire: null,
      resolve: true,
      memory: { incidentOpen: false, belowThreshold: false },
    });
    // Nothing to resolve twice.
    expect(evaluateRule(rule, cleared.memory, facts(100, []), undefined).resolve).toBe(false);
  });
});

describe('a scan finding that confirms an event', () => {
  const event = {
    fingerprint: 'event.security_group_admin_port_opened|sg-1|us-east-1',
    checkId: 'event.security_group_admin_port_opened',
    resource: 'sg-1',
  };
  const sshFinding = {
    fingerprint: 'exposure.sg_ssh_open|sg-1|us-east-1',
    checkId: 'exposure.sg_ssh_open',
    resource: 'sg-1',
  };

  it("is one of the checks the event's detection names, on the same resource", () => {
    const otherGroup = { ...sshFinding, fingerprint: 'exposure.sg_ssh_open|sg-2|us-east-1', resource: 'sg-2' };
    const unrelated = { fingerprint: 'iam.root_mfa|root', checkId: 'iam.root_mfa_disabled', resource: 'sg-1' };
    expect(eventConfirmations([event], [sshFinding, otherGroup, unrelated])).toEqual(
      new Map([[event.fingerprint, [sshFinding.fingerprint]]]),
    );
    // A detection no scan check sees confirms nothing.
    const rootSignIn = {
      fingerprint: 'event.root_console_sign_in|root',
      checkId: 'event.root_console_sign_in',
      resource: 'root',
    };
    expect(eventConfirmations([rootSignIn], [{ ...unrelated, resource: 'root' }]).size).toBe(0);
  });

  it("is the alert's for a rule that alerted on the event: no second alert, and the incident stays open while it does", () => {
    const confirmations = eventConfirmations([event], [sshFinding]);
    const told: RuleMemory = { ...above, alertedFingerprints: [event.fingerprint], incidentOpen: true };
    const ssh = { fingerprint: sshFinding.fingerprint, scenario: 'exposure' as const };
    const exposureRule = { ...rule, minSrs: 10, scenarios: ['exposure'] };
    const rescan = facts(80, [ssh], [ssh]);
    const carried = carryEventAlerts(told, rescan, confirmations);
    const decision = evaluateRule(exposureRule, carried.memory, carried.facts, undefined);
    expect(decision).toMatchObject({
      fire: null,
      resolve: false,
      memory: { incidentOpen: true, alertedFingerprints: [ssh.fingerprint] },
    });
    // Without the carry, the same scan fires a second alert for what the event already said.
    expect(evaluateRule(exposureRule, told, rescan, undefined).fire).not.toBeNull();
    // Once the group is closed, the incident resolves.
    expect(evaluateRule(exposureRule, decision.memory, facts(100, []), undefined)).toMatchObject({
      fire: null,
      resolve: true,
    });
  });

  it('is new for a rule that did not alert on the event', () => {
    const confirmations = eventConfirmations([event], [sshFinding]);
    const ssh = { fingerprint: sshFinding.fingerprint, scenario: 'exposure' as const };
    const rescan = facts(80, [ssh], [ssh]);
    expect(carryEventAlerts(above, rescan, confirmations)).toEqual({ memory: above, facts: rescan });
    expect(carryEventAlerts(undefined, rescan, confirmations)).toEqual({ memory: undefined, facts: rescan });
  });
});
