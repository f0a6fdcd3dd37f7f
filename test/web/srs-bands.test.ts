import { srsBand } from '../../web/src/format';

// The dashboard's SRS colour bands (docs/decisions.md, "Dashboard and tRPC"): a single CRITICAL check (55) is red.
describe('srsBand', () => {
  it.each([
    [100, 'good'],
    [80, 'good'],
    [79, 'warn'],
    [60, 'warn'],
    [59, 'risk'],
    [55, 'risk'],
    [0, 'risk'],
    [null, 'none'],
    [undefined, 'none'],
  ] as const)('puts %s in %s', (srs, band) => {
    expect(srsBand(srs)).toBe(band);
  });
});
