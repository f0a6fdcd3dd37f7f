import {
  BatchClient,
  type ContainerProperties,
  type JobDefinition,
  paginateDescribeJobDefinitions,
} from '@aws-sdk/client-batch';
import type { BatchJobDefinition } from '../../../domain/scans/compute';
import { findInSettings, findInText, type NamedSecret } from '../../../domain/secrets/detector';
import { foldPages, type ReadContext, regionalPart } from './reader';

// AWS Batch job definitions, region by region: the active revisions (deregistered ones cannot run), their
// containers' environment variables and commands searched for secrets as they are read. A definition's containers
// are its single container (containerProperties), its ECS properties' task containers, or its multi-node ranges'.

/** What a container is given: its environment and its command. */
type Container = Pick<ContainerProperties, 'environment' | 'command'>;

function containersOf(d: JobDefinition): Container[] {
  return [
    ...(d.containerProperties ? [d.containerProperties] : []),
    ...(d.ecsProperties?.taskProperties ?? []).flatMap((t) => t.containers ?? []),
    ...(d.nodeProperties?.nodeRangeProperties ?? []).flatMap((r) => (r.container ? [r.container] : [])),
  ];
}

/** A command's flags with their values (`--password X`, `--password=X`), to judge by the flags' names. */
function flagsOf(command: readonly string[]): [string, string][] {
  return command.flatMap((arg, i): [string, string][] => {
    const flag = /^-{1,2}([A-Za-z][\w.-]*)(?:=(.*))?$/.exec(arg);
    if (!flag) return [];
    const value = flag[2] ?? command[i + 1];
    return value !== undefined && !value.startsWith('-') ? [[flag[1] as string, value]] : [];
  });
}

/** The secrets a job definition gives its containers, each kind once per variable (or command). */
export function definitionSecrets(definition: JobDefinition): NamedSecret[] {
  const found = new Map<string, NamedSecret>();
  for (const c of containersOf(definition)) {
    const env = (c.environment ?? []).map((e): [string, string] => [e.name ?? '', e.value ?? '']);
    for (const s of findInSettings(env)) found.set(`${s.name}:${s.kind}`, s);
    const command = c.command ?? [];
    const kinds = [
      ...findInText(command.join(' ')).map((f) => f.kind),
      ...findInSettings(flagsOf(command)).map((f) => f.kind),
    ];
    for (const kind of kinds) found.set(`command:${kind}`, { name: 'command', kind });
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
            secrets: definitionSecrets(d),
          });
        }
        return into;
      },
    ),
  assemble: (slices) => ({ jobDefinitions: slices.flat() }),
});
