import type { BackupSelection, Collected, RdsCluster, RdsInstance, Unread } from '../../domain/scans/inventory';
import type { SandboxSeed } from './databases';

// The sandbox's RDS databases as their parameter groups, engine versions and AWS Backup plans show them: most force
// TLS, run a version RDS still offers and are in the account's backup plan; each with its own odds of not, so some
// accounts fail each check and most pass it. Seeded per database, so the rest of the account is the same.

/** Engine versions RDS offers (the sandbox's current ones) and retired ones a forgotten database still runs. */
const OFFERED: Readonly<Record<string, string>> = { postgres: '16.4', mysql: '8.0.39', 'aurora-postgresql': '16.4' };
const RETIRED: Readonly<Record<string, string>> = { postgres: '10.21', mysql: '5.6.51', 'aurora-postgresql': '11.9' };

/** The RDS instances with their ARN, engine version, and what their parameter group and RDS's offer say. */
export function withRdsHardening(seed: SandboxSeed, instances: RdsInstance[]): RdsInstance[] {
  return instances.map((db) => {
    const random = seed.randomFor(seed.id, 'rds-hardening', db.id);
    const retired = random() < 0.15 * seed.neglect;
    return {
      ...db,
      arn: `arn:aws:rds:${db.region}:${seed.id}:db:${db.id}`,
      engineVersion: (retired ? RETIRED : OFFERED)[db.engine] ?? '1.0',
      clusterId: null,
      tlsEnforced: random() >= 0.25 * seed.neglect,
      engineVersionOffered: !retired,
    };
  });
}

/** Whether a DB cluster's parameter group forces TLS (DocumentDB and Neptune are not read for it). */
export function clusterTls(seed: SandboxSeed, cluster: Pick<RdsCluster, 'id' | 'engine'>): boolean {
  if (cluster.engine === 'docdb' || cluster.engine === 'neptune') return false;
  return seed.randomFor(seed.id, 'rds-cluster-tls', cluster.id)() >= 0.3 * seed.neglect;
}

/**
 * The account's backup plan: in every region it uses, every RDS database (`arn:aws:rds:*:*:db:*` and the clusters'
 * pattern); or its instances by ARN, one now and then left out, and the clusters of its home region; or (on a few
 * accounts) no plan at all.
 */
export function sandboxBackupSelections(
  seed: SandboxSeed,
  instances: RdsInstance[],
  readable: <T extends { region: string }>(items: T[]) => T[],
  regional: (service: string) => Unread[],
): Collected<{ selections: BackupSelection[] }> {
  const random = seed.randomFor(seed.id, 'backup-plans');
  const shape = random();
  const planId = seed.hexId(36, seed.id, 'backup-plan');
  const selection = (region: string, name: string, resources: string[]): BackupSelection => ({
    region,
    planId,
    planName: `${seed.company}-daily`,
    name,
    resources,
    notResources: [],
  });
  const named = () =>
    seed.regions.map((region, i) =>
      selection(region, 'named-databases', [
        ...instances.filter((db) => db.region === region && random() >= 0.3 * seed.neglect).map((db) => db.arn),
        ...(i === 0 ? ['arn:aws:rds:*:*:cluster:*'] : []),
      ]),
    );
  const selections =
    shape < 0.15 * seed.neglect
      ? []
      : shape < 0.6
        ? seed.regions.map((region) =>
            selection(region, 'databases', ['arn:aws:rds:*:*:db:*', 'arn:aws:rds:*:*:cluster:*']),
          )
        : named();
  const unread = regional('AWS Backup ListBackupPlans');
  const value = { selections: readable(selections) };
  return unread.length > 0 ? { status: 'ok', value, unread } : { status: 'ok', value };
}
