import { BatchClient, type ContainerProperties, paginateDescribeJobDefinitions } from '@aws-sdk/client-batch';
import type { BatchJobDefinition } from '../../../domain/scans/compute';
import { findInSettings, findInText, type NamedSecret } from '../../../domain/secrets/detector';
import { foldPages, type ReadContext, regionalPart } from './reader';

// AWS Batch job definitions, region by region: the active revisions (deregistered ones cannot run), their
// containers' environment variables and commands searched for secrets as they are read. A definition's containers
// are its single container (containerProperties), its ECS properties' task containers, or its multi-node ranges'.

function containersOf(d: {
  containerProperties?: ContainerProperties;
  ecsProperties?: {
    taskProperties?: { containers?: { environment?: ContainerProperties['environment']; command?: string[] }[] }[];
  };
  nodeProperties?: { nodeRangeProperties?: { container?: ContainerProperties }[] };
}): { environment?: ContainerProperties['environment']; command?: string[] }[] {
  return [
    ...(d.containerProperties ? [d.containerProperties] : []),
    ...(d.ecsProperties?.taskProperties ?? []).flatMap((t) => t.containers ?? []),
    ...(d.nodeProperties?.nodeRangeProperties ?? []).flatMap((r) => (r.container ? [r.container] : [])),
  ];
}

function secretsOf(containers: ReturnType<typeof containersOf>): NamedSecret[] {
  const found = new Map<string, NamedSecret>();
  for (const c of containers) {
    const env = (c.environment ?? []).map((e): [string, string] => [e.name ?? '', e.value ?? '']);
    for (const s of findInSettings(env)) found.set(`${s.name}:${s.kind}`, s);
    for (const { kind } of findInText((c.command ?? []).join(' ')))
      found.set(`command:${kind}`, { name: 'command', kind });
  }
  return [...found.values()];
}

export const batchJobDefinitionsPart = regionalPart({
  part: 'batchJobDefinitions',
  read: ({ session }: ReadContext, region: string) =>
    foldPages(
      paginateDescribeJobDefinitions(
        { client: session.client((config) => new BatchClient(config), region) },
        { status: 'ACTIVE' },
      ),
      [] as BatchJobDefinition[],
      (into, page) => {
        for (const d of page.jobDefinitions ?? []) {
          if (!d.jobDefinitionName || d.status === 'INACTIVE') continue;
          into.push({
            name: d.jobDefinitionName,
            revision: d.revision ?? 0,
            arn: d.jobDefinitionArn ?? d.jobDefinitionName,
            region,
            secrets: secretsOf(containersOf(d)),
          });
        }
        return into;
      },
    ),
  assemble: (slices) => ({ jobDefinitions: slices.flat() }),
});
