import { API_HEADING, withSection } from '../../bench/sections';

const report = [
  '# Benchmarks',
  '',
  '## API throughput (autocannon, 50 connections, 10 s each)',
  '',
  'the old API table',
  '',
  '## Signals: keyset pagination',
  '',
  'signals',
  '',
  '## Scans and worker memory',
  '',
  'scans',
  '',
].join('\n');

describe('a part of BENCHMARKS.md written on its own', () => {
  it("replaces its section even when the run's settings in the heading changed, and keeps the rest", () => {
    const section = '## API throughput (autocannon, 50 connections, 6 s each)\n\nthe new API table\n';
    const written = withSection(report, API_HEADING, section);
    expect(written).toContain('the new API table');
    expect(written).not.toContain('the old API table');
    expect(written.match(/## API throughput/g)).toHaveLength(1);
    expect(written.indexOf('the new API table')).toBeLessThan(written.indexOf('## Signals: keyset pagination'));
    expect(written).toContain('signals');
    expect(written).toContain('scans');
  });

  it("adds a section the report lacks before the scans' section", () => {
    const written = withSection(report, '## Events: ingestion', '## Events: ingestion, and more\n\nevents\n');
    expect(written.indexOf('events\n')).toBeLessThan(written.indexOf('## Scans and worker memory'));
    expect(written.indexOf('events\n')).toBeGreaterThan(written.indexOf('## Signals: keyset pagination'));
  });
});
