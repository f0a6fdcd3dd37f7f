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
