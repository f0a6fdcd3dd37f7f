import { checkById } from '../../../domain/checks/catalog';
import {
  cleanInventory,
  daysAgo,
  hoursAgo,
  iamUser,
  outcome,
  part,
  reportedKey,
  reportRow,
  setKeyCreated,
  unreadBy,
  withoutPart,
} from '../../helpers/inventory';

const NOW = '2026-03-15T12:00:00.000Z';
const ALICE_KEY = 'AKIAALICE0000000001';

describe('iam checks', () => {
  it.each([
    [null, 'pass'],
    [daysAgo(NOW, 31), 'pass'],
    [daysAgo(NOW, 30), ['root@global']],
    [daysAgo(NOW, 0), ['root@global']],
  ])('root last used at %s: %j', (lastUsed, expected) => {
    const inventory = cleanInventory(NOW);
    part(inventory.credentialReport).root = { lastUsedAt: lastUsed };
    expect(outcome('iam.root_recently_used', inventory)).toEqual(expected);
  });

  it('cannot tell whether root was used without the credential report, or without its root row', () => {
    expect(outcome('iam.root_recently_used', withoutPart(cleanInventory(NOW), 'credentialReport'))).toBe(
      'not_evaluated',
    );
    const inventory = cleanInventory(NOW);
    part(inventory.credentialReport).root = null;
    expect(outcome('iam.root_recently_used', inventory)).toBe('not_evaluated');
  });

  describe('root MFA', () => {
    it.each([
      [
        'a password and no MFA',
        { rootMfaEnabled: false, rootPasswordPresent: true, rootAccessKeysPresent: false },
        ['root@global'],
      ],
      [
        'a summary that does not say whether the password exists',
        { rootMfaEnabled: false, rootPasswordPresent: null, rootAccessKeysPresent: false },
        ['root@global'],
      ],
      [
        'keys, no password, no MFA',
        { rootMfaEnabled: false, rootPasswordPresent: false, rootAccessKeysPresent: true },
        ['root@global'],
      ],
      // A member account whose root credentials were removed through centralized root access.
      [
        'no password and no keys',
        { rootMfaEnabled: false, rootPasswordPresent: false, rootAccessKeysPresent: false },
        'pass',
      ],
      ['MFA', { rootMfaEnabled: true, rootPasswordPresent: true, rootAccessKeysPresent: false }, 'pass'],
    ])('a root user with %s: %j', (_, summary, expected) => {
      const inventory = cleanInventory(NOW);
      Object.assign(part(inventory.iamSummary), summary);
      expect(outcome('iam.root_mfa_disabled', inventory)).toEqual(expected);
    });
  });

  it('finds console users without MFA in the credential report', () => {
    const inventory = cleanInventory(NOW);
    reportRow(inventory, 'alice').mfaActive = false;
    expect(outcome('iam.console_user_without_mfa', inventory)).toEqual([`${iamUser(inventory, 'alice').arn}@global`]);
  });

  it('does not ask users without a console password for MFA', () => {
    const inventory = cleanInventory(NOW);
    Object.assign(reportRow(inventory, 'alice'), { passwordEnabled: false, mfaActive: false });
    expect(outcome('iam.console_user_without_mfa', inventory)).toBe('pass');
  });

  it('names a user created after the credential report as unread, and leaves out users deleted since', () => {
    const inventory = cleanInventory(NOW);
    const principals = part(inventory.iamPrincipals);
    const newcomer = {
      ...principals.users[0]!,
      name: 'newcomer',
      arn: 'arn:aws:iam::111122223333:user/newcomer',
      createdAt: hoursAgo(NOW, 0.5),
    };
    principals.users = [newcomer, principals.users[1]!];
    // alice was deleted: her report row stays until the report is renewed, and says she has no MFA.
    part(inventory.credentialReport).users[0]!.mfaActive = false;
    expect(outcome('iam.console_user_without_mfa', inventory)).toBe('pass');
    expect(unreadBy('iam.console_user_without_mfa', inventory)).toEqual([newcomer.arn]);
  });

  it('judges console users from the report alone when the principals could not be read', () => {
    const inventory = withoutPart(cleanInventory(NOW), 'iamPrincipals');
    part(inventory.credentialReport).users[0]!.mfaActive = false;
    expect(outcome('iam.console_user_without_mfa', inventory)).toEqual([`arn:aws:iam::111122223333:user/alice@global`]);
  });

  it.each([
    [90, 'pass'],
    [91, [`${ALICE_KEY}@global`]],
  ])('flags an active key created %i days ago as not rotated: %j', (age, expected) => {
    const inventory = cleanInventory(NOW);
    setKeyCreated(inventory, ALICE_KEY, daysAgo(NOW, age));
    expect(outcome('iam.access_key_not_rotated', inventory)).toEqual(expected);
  });

  it('ignores inactive keys, however old or unused', () => {
    // The clean inventory's second key of alice is inactive, 300 days old and never used.
    const inventory = cleanInventory(NOW);
    expect(iamUser(inventory, 'alice').accessKeys[1]).toMatchObject({ status: 'Inactive' });
    expect(reportedKey(inventory, 'AKIAALICE0000000002').lastUsedAt).toBeNull();
    expect(outcome('iam.access_key_not_rotated', inventory)).toBe('pass');
    expect(outcome('iam.access_key_unused', inventory)).toBe('pass');
  });

  it.each([
    ['used 44 days ago', { createdAt: daysAgo(NOW, 80), lastUsedAt: daysAgo(NOW, 44) }, 'pass'],
    ['used 46 days ago', { createdAt: daysAgo(NOW, 80), lastUsedAt: daysAgo(NOW, 46) }, [`${ALICE_KEY}@global`]],
    ['never used, created 10 days ago', { createdAt: daysAgo(NOW, 10), lastUsedAt: null }, 'pass'],
    ['never used, created 46 days ago', { createdAt: daysAgo(NOW, 46), lastUsedAt: null }, [`${ALICE_KEY}@global`]],
  ])('unused key rule (last use from the credential report): %s', (_, key, expected) => {
    const inventory = cleanInventory(NOW);
    setKeyCreated(inventory, ALICE_KEY, key.createdAt);
    reportedKey(inventory, ALICE_KEY).lastUsedAt = key.lastUsedAt;
    expect(outcome('iam.access_key_unused', inventory)).toEqual(expected);
  });

  describe('unused console passwords (CIS 2.11)', () => {
    const CHECK = 'iam.console_password_unused';
    const ALICE = 'arn:aws:iam::111122223333:user/alice';

    it.each([
      ['last used 44 days ago', { passwordLastUsedAt: daysAgo(NOW, 44) }, 'pass'],
      ['last used 45 days ago', { passwordLastUsedAt: daysAgo(NOW, 45) }, [`${ALICE}@global`]],
      // A reset by an administrator is not a use: the last sign-in decides.
      [
        'last used 90 days ago, changed since',
        { passwordLastUsedAt: daysAgo(NOW, 90), passwordLastChangedAt: daysAgo(NOW, 3) },
        [`${ALICE}@global`],
      ],
      // Never used (no_information): when the password was set decides.
      ['never used, set 10 days ago', { passwordLastUsedAt: null, passwordLastChangedAt: daysAgo(NOW, 10) }, 'pass'],
      [
        'never used, set 60 days ago',
        { passwordLastUsedAt: null, passwordLastChangedAt: daysAgo(NOW, 60) },
        [`${ALICE}@global`],
      ],
      [
        'no console password at all',
        { passwordEnabled: false, passwordLastUsedAt: daysAgo(NOW, 400), passwordLastChangedAt: null },
        'pass',
      ],
    ])('a console password %s: %j', (_, row, expected) => {
      const inventory = cleanInventory(NOW);
      Object.assign(reportRow(inventory, 'alice'), row);
      expect(outcome(CHECK, inventory)).toEqual(expected);
    });

    it('says when it was last used, or set', () => {
      const inventory = cleanInventory(NOW);
      Object.assign(reportRow(inventory, 'alice'), {
        passwordLastUsedAt: null,
        passwordLastChangedAt: daysAgo(NOW, 60),
      });
      expect(checkById(CHECK)!.evaluate(inventory, { now: NOW })).toEqual({
        status: 'fail',
        resources: [
          {
            resource: ALICE,
            detail: `IAM user alice's console password was set at ${daysAgo(NOW, 60)} and has no recorded use.`,
          },
        ],
      });
    });

    it('names a password the report dates neither way as unread, never passed', () => {
      const inventory = cleanInventory(NOW);
      Object.assign(reportRow(inventory, 'alice'), { passwordLastUsedAt: null, passwordLastChangedAt: null });
      expect(outcome(CHECK, inventory)).toBe('pass');
      expect(unreadBy(CHECK, inventory)).toEqual([ALICE]);
    });

    it('leaves out users deleted since the report, and names an old user the report does not show as unread', () => {
      const inventory = cleanInventory(NOW);
      reportRow(inventory, 'alice').passwordLastUsedAt = daysAgo(NOW, 100);
      const principals = part(inventory.iamPrincipals);
      const [alice, ci] = principals.users;
      // alice was deleted; a user created 50 days ago is missing from the report (a stale one).
      principals.users = [
        ci!,
        { ...alice!, name: 'dave', arn: 'arn:aws:iam::111122223333:user/dave', createdAt: daysAgo(NOW, 50) },
      ];
      expect(outcome(CHECK, inventory)).toBe('pass');
      expect(unreadBy(CHECK, inventory)).toEqual(['arn:aws:iam::111122223333:user/dave']);
    });

    it('judges from the report alone when the principals could not be read, and not at all without the report', () => {
      const inventory = withoutPart(cleanInventory(NOW), 'iamPrincipals');
      part(inventory.credentialReport).users[0]!.passwordLastUsedAt = daysAgo(NOW, 100);
      expect(outcome(CHECK, inventory)).toEqual([`${ALICE}@global`]);
      expect(outcome(CHECK, withoutPart(cleanInventory(NOW), 'credentialReport'))).toBe('not_evaluated');
    });
  });

  it('matches a key to its report slot by creation time, to the second', () => {
    const inventory = cleanInventory(NOW);
    // The report writes times to the second; ListAccessKeys may carry milliseconds.
    reportedKey(inventory, ALICE_KEY).lastUsedAt = daysAgo(NOW, 60);
    iamUser(inventory, 'alice').accessKeys[0]!.createdAt = new Date(Date.parse(daysAgo(NOW, 30)) + 400).toISOString();
    expect(outcome('iam.access_key_unused', inventory)).toEqual([`${ALICE_KEY}@global`]);
  });

  it('names a key older than the unused threshold that the report does not show as unread; a newer one cannot be unused', () => {
    const inventory = cleanInventory(NOW);
    reportRow(inventory, 'alice').keys = [];
    expect(outcome('iam.access_key_unused', inventory)).toBe('pass');
    expect(unreadBy('iam.access_key_unused', inventory)).toEqual([]);
    setKeyCreated(inventory, 'AKIACIDEPLOY00000001', daysAgo(NOW, 100));
    reportRow(inventory, 'ci-deploy').keys = [];
    expect(unreadBy('iam.access_key_unused', inventory)).toEqual(['AKIACIDEPLOY00000001']);
  });

  it("names the user as the owner of a key finding, so a scan that cannot list the user's keys keeps it open", () => {
    const inventory = cleanInventory(NOW);
    setKeyCreated(inventory, ALICE_KEY, daysAgo(NOW, 200));
    expect(checkById('iam.access_key_not_rotated')?.evaluate(inventory, { now: NOW })).toEqual({
      status: 'fail',
      resources: [expect.objectContaining({ resource: ALICE_KEY, owner: iamUser(inventory, 'alice').arn })],
    });
  });

  it.each([
    ['no symbols', { requireSymbols: false }],
    ['no numbers', { requireNumbers: false }],
    ['no uppercase', { requireUppercase: false }],
    ['no lowercase', { requireLowercase: false }],
    ['no expiry', { maxAgeDays: null }],
    ['an expiry of 180 days', { maxAgeDays: 180 }],
  ])('calls a policy with %s weak', (_, change) => {
    const inventory = cleanInventory(NOW);
    Object.assign(part(inventory.passwordPolicy).policy!, change);
    expect(outcome('iam.password_policy_weak', inventory)).toEqual(['password-policy@global']);
  });

  it('reports a missing password policy once, as missing rather than weak', () => {
    const inventory = cleanInventory(NOW);
    part(inventory.passwordPolicy).policy = null;
    expect(outcome('iam.password_policy_missing', inventory)).toEqual(['password-policy@global']);
    expect(outcome('iam.password_policy_weak', inventory)).toBe('pass');
  });
});
