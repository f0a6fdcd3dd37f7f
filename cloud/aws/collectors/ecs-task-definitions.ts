import {
  type ContainerDefinition,
  DescribeTaskDefinitionCommand,
  ECSClient,
  paginateListTaskDefinitions,
} from '@aws-sdk/client-ecs';
import type { EcsContainer, EcsTaskDefinition, Unread } from '../../../domain/scans/inventory';
import { findInSettings } from '../../../domain/secrets/detector';
import { mapLimit } from './concurrency';
import { ReadFailure } from './failures';
import { foldPages, type ReadContext, regionalPart } from './reader';

// ECS task definitions, region by region: only the latest ACTIVE revision of each family, which is what new tasks
// and service deployments run (older revisions are history; an INACTIVE one can no longer be run). ListTaskDefinitions
// (status ACTIVE) lists every active revision's ARN; the highest revision of each family is then described
// (DescribeTaskDefinition). Its containers' environment variables are searched for secrets at once, and only what is
// found (kind and variable name) is kept. A definition AWS refuses is unread; the region's others are judged.

const PER_DEFINITION_CONCURRENCY = 4;

interface Slice {
  taskDefinitions: EcsTaskDefinition[];
  unread: Unread[];
}

/** family and revision from `arn:aws:ecs:REGION:ACCOUNT:task-definition/FAMILY:REVISION`. */
function familyOf(arn: string): { family: string; revision: number } | undefined {
  const match = /task-definition\/(.+):(\d+)$/.exec(arn);
  return match ? { family: match[1] as string, revision: Number(match[2]) } : undefined;
}

function containerOf(c: ContainerDefinition): EcsContainer {
  return {
    name: c.name ?? '',
    privileged: c.privileged ?? false,
    readonlyRootFilesystem: c.readonlyRootFilesystem ?? false,
    user: c.user || null,
    logDriver: c.logConfiguration?.logDriver ?? null,
    environmentSecrets: findInSettings(
      (c.environment ?? []).map((e): [string, string] => [e.name ?? '', e.value ?? '']),
    ),
  };
}

export const ecsTaskDefinitionsPart = regionalPart({
  part: 'ecsTaskDefinitions',
  async read({ session }: ReadContext, region: string): Promise<Slice> {
    const ecs = session.client((config) => new ECSClient(config), region);
    const latest = await foldPages(
      paginateListTaskDefinitions({ client: ecs }, { status: 'ACTIVE', sort: 'DESC' }),
      new Map<string, { arn: string; revision: number }>(),
      (into, page) => {
        for (const arn of page.taskDefinitionArns ?? []) {
          const named = familyOf(arn);
          if (!named) continue;
          const known = into.get(named.family);
          if (!known || known.revision < named.revision) into.set(named.family, { arn, revision: named.revision });
        }
        return into;
      },
    );
    const unread: Unread[] = [];
    const described = await mapLimit({
      items: [...latest.values()],
      limit: PER_DEFINITION_CONCURRENCY,
      run: async ({ arn }): Promise<EcsTaskDefinition | null> => {
        try {
          const { taskDefinition: td } = await ecs.send(new DescribeTaskDefinitionCommand({ taskDefinition: arn }));
          if (!td) return null;
          return {
            family: td.family ?? '',
            revision: td.revision ?? 0,
            arn: td.taskDefinitionArn ?? arn,
            region,
            networkMode: td.networkMode ?? null,
            pidMode: td.pidMode ?? null,
            ipcMode: td.ipcMode ?? null,
            containers: (td.containerDefinitions ?? []).map(containerOf),
          };
        } catch (err) {
          if (!(err instanceof ReadFailure && err.kind === 'denied')) throw err;
          unread.push({ kind: 'resource', scope: arn, reason: err.reason });
          return null;
        }
      },
    });
    return { taskDefinitions: described.filter((d): d is EcsTaskDefinition => d !== null), unread };
  },
  unreadIn: (slice) => slice.unread,
  assemble: (slices) => ({ taskDefinitions: slices.flatMap((s) => s.taskDefinitions) }),
});
