import { analyzeAttackPaths } from '../domain/attack-paths/analyze';
import { type EstateSize, largeEstate } from './attack-paths-estate';

// One measurement of the attack-path analysis, in a process of its own so that its peak memory is its own: builds
// the estate given as JSON in argv[2], then analyses it once, and prints what it measured as one JSON line.

const MIB = 1024 * 1024;
const size = JSON.parse(process.argv[2] ?? '{}') as EstateSize;
const inventory = largeEstate(size);
const rssBefore = process.memoryUsage().rss;
const heapBefore = process.memoryUsage().heapUsed;
const started = performance.now();
const analysis = analyzeAttackPaths(inventory);
const seconds = (performance.now() - started) / 1000;
const count = (kind: string) => analysis.paths.filter((p) => p.kind === kind).length;
console.log(
  JSON.stringify({
    size,
    seconds,
    status: analysis.status,
    rssBeforeMiB: rssBefore / MIB,
    // The process's peak resident memory (resourceUsage's maxRSS is in KiB), after the estate was built.
    peakRssMiB: process.resourceUsage().maxRSS / 1024,
    heapAfterMiB: (process.memoryUsage().heapUsed - heapBefore) / MIB,
    paths: { escalation: count('escalation'), exposure: count('exposure'), toxic: count('toxic_combination') },
  }),
);
