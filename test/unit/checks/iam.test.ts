import { cleanInventory, daysAgo, outcome, part } from '../../helpers/inventory';

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
    part(inventory.iam).rootLastUsedAt = lastUsed;
    expect(outcome('iam.root_recently_used', inventory)).toEqual(expected);
  });

  it('does not ask users without a console password for MFA', () => {
    const inventory = cleanInventory(NOW);
    const user = part(inventory.iam).users[0]!;
    Object.assign(user, { hasConsolePassword: false, mfaEnabled: false });
    expect(outcome('iam.console_user_without_mfa', inventory)).toBe('pass');
  });

  it.each([
    [90, 'pass'],
    [91, [`${ALICE_KEY}@global`]],
  ])('flags an active key created %i days ago as not rotated: %j', (age, expected) => {
    const inventory = cleanInventory(NOW);
    part(inventory.iam).users[0]!.accessKeys[0]!.createdAt = daysAgo(NOW, age);
    expect(outcome('iam.access_key_not_rotated', inventory)).toEqual(expected);
  });

  it('ignores inactive keys, however old or unused', () => {
    // The clean inventory's second key of alice is inactive, 300 days old and never used.
    const inventory = cleanInventory(NOW);
    expect(part(inventory.iam).users[0]!.accessKeys[1]).toMatchObject({ status: 'Inactive', lastUsedAt: null });
    expect(outcome('iam.access_key_not_rotated', inventory)).toBe('pass');
    expect(outcome('iam.access_key_unused', inventory)).toBe('pass');
  });

  it.each([
    ['used 44 days ago', { createdAt: daysAgo(NOW, 80), lastUsedAt: daysAgo(NOW, 44) }, 'pass'],
    ['used 46 days ago', { createdAt: daysAgo(NOW, 80), lastUsedAt: daysAgo(NOW, 46) }, [`${ALICE_KEY}@global`]],
    ['never used, created 10 days ago', { createdAt: daysAgo(NOW, 10), lastUsedAt: null }, 'pass'],
    ['never used, created 46 days ago', { createdAt: daysAgo(NOW, 46), lastUsedAt: null }, [`${ALICE_KEY}@global`]],
  ])('unused key rule: %s', (_, key, expected) => {
    const inventory = cleanInventory(NOW);
    Object.assign(part(inventory.iam).users[0]!.accessKeys[0]!, key);
    expect(outcome('iam.access_key_unused', inventory)).toEqual(expected);
  });

  it.each([
    ['minimum length 13', { minimumLength: 13 }],
    ['no symbols', { requireSymbols: false }],
    ['no numbers', { requireNumbers: false }],
    ['no uppercase', { requireUppercase: false }],
    ['no lowercase', { requireLowercase: false }],
    ['no reuse prevention', { reusePrevention: null }],
    ['reuse prevention 0', { reusePrevention: 0 }],
  ])('calls a policy with %s weak', (_, change) => {
    const inventory = cleanInventory(NOW);
    Object.assign(part(inventory.iam).passwordPolicy!, change);
    expect(outcome('iam.password_policy_weak', inventory)).toEqual(['password-policy@global']);
  });

  it('reports a missing password policy once, as missing rather than weak', () => {
    const inventory = cleanInventory(NOW);
    part(inventory.iam).passwordPolicy = null;
    expect(outcome('iam.password_policy_missing', inventory)).toEqual(['password-policy@global']);
    expect(outcome('iam.password_policy_weak', inventory)).toBe('pass');
  });
});
