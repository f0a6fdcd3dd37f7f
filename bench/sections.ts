// How one part of the benchmark, run on its own, rewrites its section of BENCHMARKS.md and keeps the others.

/** How the API part's heading starts; the rest of it names the run's settings. */
export const API_HEADING = '## API throughput';

/**
 * BENCHMARKS.md with the section whose heading line starts with `heading` replaced by `section` (a heading may go on
 * with its run's settings, as the API's does); a report without it gets it before the scans' section (or at the end).
 */
export function withSection(markdown: string, heading: string, section: string): string {
  const line = markdown.indexOf(`\n${heading}`);
  const start = line >= 0 ? line + 1 : -1;
  if (start >= 0) {
    const end = markdown.indexOf('\n## ', start + heading.length);
    return markdown.slice(0, start) + section + (end >= 0 ? markdown.slice(end) : '');
  }
  const scans = markdown.indexOf('## Scans and worker memory');
  return scans >= 0 ? `${markdown.slice(0, scans)}${section}\n${markdown.slice(scans)}` : `${markdown}\n${section}`;
}
