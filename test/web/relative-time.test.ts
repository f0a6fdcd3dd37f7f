import { ago } from '../../web/src/format';

// The dashboard's relative times ("Last event received 2 min ago", the event timeline).
describe('ago', () => {
  const now = Date.parse('2026-03-15T12:00:00Z');
  const before = (ms: number) => new Date(now - ms).toISOString();

  it.each([
    [0, 'just now'],
    [59_000, 'just now'],
    [-30_000, 'just now'],
    [60_000, '1 min ago'],
    [2 * 60_000 + 5_000, '2 min ago'],
    [59 * 60_000, '59 min ago'],
    [3_600_000, '1 h ago'],
    [23 * 3_600_000, '23 h ago'],
    [86_400_000, '1 day ago'],
    [5 * 86_400_000, '5 days ago'],
  ] as const)('says %s ms before is "%s"', (ms, text) => {
    expect(ago(before(ms), now)).toBe(text);
  });

  it('has a dash for no time or one it cannot read', () => {
    expect(ago(null, now)).toBe('—');
    expect(ago(undefined, now)).toBe('—');
    expect(ago('not a time', now)).toBe('—');
  });
});
