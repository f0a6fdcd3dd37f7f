import { execFileSync } from 'node:child_process';
import path from 'node:path';
import type { EstateSize } from './attack-paths-estate';

// `npm run bench -- attack-paths`: the attack-path analysis of a large account (the large-account benchmark's 500
// users and 10,000 security groups, with 500 and then 5,000 roles, 1,000 customer managed policies and 2,000
// instances), each in a process of its own: how long it takes and how much memory it adds to the scan that runs it.
// Goal: under 10 s and under 500 MiB added on this machine.

export interface AttackPathRun {
  size: EstateSize;
  seconds: number;
  status: string;
  rssBeforeMiB: number;
  peakRssMiB: number;
  heapAfterMiB: number;
  paths: { escalation: number; exposure: number; toxic: number };
}

export const ATTACK_PATHS_HEADING = '## Attack-path analysis';
const GOAL_SECONDS = 10;
const GOAL_MIB = 500;

const SIZES: EstateSize[] = [500, 5_000].map((roles) => ({
  users: 500,
  roles,
  policies: 1_000,
  securityGroups: 10_000,
  instances: 2_000,
}));

export function benchAttackPaths(): AttackPathRun[] {
  return SIZES.map((size) => {
    const out = execFileSync(
      process.execPath,
      ['--import', 'tsx', path.join(__dirname, 'attack-paths-child.ts'), JSON.stringify(size)],
      { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 },
    );
    const run = JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as AttackPathRun;
    console.log(
      `attack paths, ${size.roles} roles: ${run.seconds.toFixed(2)} s, +${(run.peakRssMiB - run.rssBeforeMiB).toFixed(0)} MiB`,
    );
    return run;
  });
}

export function attackPathsSection(runs: AttackPathRun[], runNote = ''): string {
  const rows = runs.map((r) => {
    const added = r.peakRssMiB - r.rssBeforeMiB;
    const met = r.seconds < GOAL_SECONDS && added < GOAL_MIB ? 'met' : '**not met**';
    return `| ${r.size.users} | ${r.size.roles.toLocaleString('en')} | ${r.size.securityGroups.toLocaleString('en')} | ${r.size.instances.toLocaleString('en')} | ${r.seconds.toFixed(2)} | ${added.toFixed(0)} | ${r.paths.escalation} | ${r.paths.toxic} | ${r.paths.exposure} | ${r.status} | ${met} |`;
  });
  return `${ATTACK_PATHS_HEADING}

The analysis a full scan runs after its checks' collection (domain/attack-paths/): effective permissions, escalation
paths, internet exposure and toxic combinations, on an estate built in memory (bench/attack-paths-estate.ts: 20
groups, a customer managed policy pool, 5% of users able to pass roles to EC2, 3% to assume any role, one role in a
hundred an administrator, 30% of instances with a public address, a quarter of them answering IMDSv1). Each size runs
in a process of its own; "added" is its peak resident memory minus its memory once the estate was built. Goal: under
${GOAL_SECONDS} s and under ${GOAL_MIB} MiB added.

| users | roles | security groups | instances | seconds | MiB added | escalation paths | toxic combinations | exposures | analysis | goal |
| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |
${rows.join('\n')}${runNote}
`;
}
