import { type Outputs, trpc } from './api';

// An account's attack paths (GET /accounts/{id}/attack-paths): how its latest analysis went, and the paths it found,
// most severe first and toxic combinations first among equals, as the service orders them.

export type AttackPathPage = Outputs['attackPaths']['list'];
export type Analysis = AttackPathPage['analysis'];
export type AttackPath = AttackPathPage['paths'][number];
export type PathNode = AttackPath['nodes'][number];
export type PathEdge = AttackPath['edges'][number];

/** One page of the account's paths, after `nextToken` when given. */
export function listAttackPaths(accountId: string, nextToken?: string): Promise<AttackPathPage> {
  return trpc.attackPaths.list.query({
    account_id: accountId,
    query: { limit: 100, ...(nextToken ? { next_token: nextToken } : {}) },
  });
}

export type TenantAttackPathPage = Outputs['attackPaths']['search'];
export type AnalysesInScope = TenantAttackPathPage['analyses'];

/** What the tenant-wide list is narrowed to; each filter absent shows all. */
export interface PathFilter {
  kind?: AttackPath['kind'];
  severity?: AttackPath['severity'];
  awsAccountId?: string;
}

/** One page of the tenant's paths across its accounts, after `nextToken` when given. */
export function searchAttackPaths(filter: PathFilter, nextToken?: string): Promise<TenantAttackPathPage> {
  return trpc.attackPaths.search.query({
    limit: 100,
    ...(filter.kind ? { kind: filter.kind } : {}),
    ...(filter.severity ? { severity: filter.severity } : {}),
    ...(filter.awsAccountId ? { aws_account_id: filter.awsAccountId } : {}),
    ...(nextToken ? { next_token: nextToken } : {}),
  });
}

export const KIND_LABEL: Record<AttackPath['kind'], string> = {
  toxic_combination: 'Toxic combination',
  escalation: 'Privilege escalation',
  exposure: 'Internet exposure',
};

/** What each kind of node is, in words; the service may add kinds, shown by their id until named here. */
const NODE_KIND_LABEL: Record<string, string> = {
  internet: 'Internet',
  internet_gateway: 'Internet gateway',
  subnet: 'Subnet',
  security_group: 'Security group',
  user: 'IAM user',
  group: 'IAM group',
  role: 'IAM role',
  instance: 'EC2 instance',
  load_balancer: 'Load balancer',
  function: 'Lambda function',
  api: 'API',
  database: 'Database',
  cache: 'Cache',
  search_domain: 'Search domain',
  queue: 'Queue',
  secret: 'Secrets',
  external_account: 'Outside account',
  access_key: 'Access key',
  event: 'Detection',
  administrator: 'Administrator',
  permission: 'Permission',
};

export const nodeKindLabel = (kind: string): string => NODE_KIND_LABEL[kind] ?? kind.replaceAll('_', ' ');

/** "2 toxic combinations, 1 privilege escalation": the loaded paths by kind, in the list's order. */
export function countsByKind(paths: readonly AttackPath[]): string {
  const counts = new Map<AttackPath['kind'], number>();
  for (const p of paths) counts.set(p.kind, (counts.get(p.kind) ?? 0) + 1);
  return [...counts.entries()].map(([kind, n]) => `${n} × ${KIND_LABEL[kind].toLowerCase()}`).join(', ');
}
