import { newId } from '../../domain/ids';

describe('newId', () => {
  it('is prefixed and 26 characters of Crockford base32 after the prefix', () => {
    expect(newId('signal')).toMatch(/^sig_[0-9A-HJKMNP-TV-Z]{26}$/);
  });

  it('sorts by creation time', () => {
    const earlier = newId('alert', Date.UTC(2026, 0, 1));
    const later = newId('alert', Date.UTC(2026, 0, 2));
    expect([later, earlier].sort()).toEqual([earlier, later]);
  });

  it('does not repeat', () => {
    const ids = new Set(Array.from({ length: 10_000 }, () => newId('scan', 0)));
    expect(ids.size).toBe(10_000);
  });
});
