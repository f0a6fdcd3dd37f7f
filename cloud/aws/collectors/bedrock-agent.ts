import {
  BedrockAgentClient,
  GetAgentCommand,
  GetDataSourceCommand,
  paginateListAgents,
  paginateListDataSources,
  paginateListKnowledgeBases,
} from '@aws-sdk/client-bedrock-agent';
import type { BedrockAgent, BedrockDataSource, Unread } from '../../../domain/scans/inventory';
import { mapLimit } from './concurrency';
import { isAbsent, ReadFailure } from './failures';
import { whereOffered } from './offered';
import { foldPages, type ReadContext, regionalPart } from './reader';

// Bedrock agents and knowledge bases, region by region where AWS offers Bedrock (offered.ts). ListAgents says
// which guardrail each agent applies, GetAgent which IAM role it acts with; a knowledge base's encryption key is set
// on each of its data sources (GetDataSource). An agent, knowledge base or data source AWS refuses to show is
// unread; the others are evaluated.

const PER_RESOURCE_CONCURRENCY = 4;

interface Slice {
  agents: BedrockAgent[];
  dataSources: BedrockDataSource[];
  unread: Unread[];
}

const denied = (err: unknown) => err instanceof ReadFailure && err.kind === 'denied';
const gone = (err: unknown) => isAbsent(err, 'ResourceNotFound');

export const bedrockAgentsPart = regionalPart({
  part: 'bedrockAgents',
  read: ({ session }: ReadContext, region: string) =>
    whereOffered(
      async (): Promise<Slice> => {
        const client = session.client((config) => new BedrockAgentClient(config), region);
        const listed = await foldPages(
          paginateListAgents({ client }, {}),
          [] as Omit<BedrockAgent, 'roleArn'>[],
          (into, page) => {
            for (const a of page.agentSummaries ?? []) {
              if (!a.agentId) continue;
              const guardrailId = a.guardrailConfiguration?.guardrailIdentifier || null;
              into.push({ id: a.agentId, name: a.agentName ?? a.agentId, region, guardrailId });
            }
            return into;
          },
        );
        const knowledgeBases = await foldPages(
          paginateListKnowledgeBases({ client }, {}),
          [] as { id: string; name: string }[],
          (into, page) => {
            for (const kb of page.knowledgeBaseSummaries ?? [])
              if (kb.knowledgeBaseId) into.push({ id: kb.knowledgeBaseId, name: kb.name ?? kb.knowledgeBaseId });
            return into;
          },
        );
        const unread: Unread[] = [];
        const refused = (scope: string, err: unknown) => {
          if (!denied(err)) throw err;
          unread.push({ kind: 'resource', scope, reason: (err as ReadFailure).reason });
        };
        const agents = (
          await mapLimit({
            items: listed,
            limit: PER_RESOURCE_CONCURRENCY,
            run: async (agent): Promise<BedrockAgent[]> => {
              try {
                const answer = await client.send(new GetAgentCommand({ agentId: agent.id }));
                return [{ ...agent, roleArn: answer.agent?.agentResourceRoleArn || null }];
              } catch (err) {
                if (!gone(err)) refused(agent.id, err);
                return [];
              }
            },
          })
        ).flat();
        const perBase = await mapLimit({
          items: knowledgeBases,
          limit: PER_RESOURCE_CONCURRENCY,
          run: async (kb): Promise<BedrockDataSource[]> => {
            let listed: { id: string; name: string }[];
            try {
              listed = await foldPages(
                paginateListDataSources({ client }, { knowledgeBaseId: kb.id }),
                [] as { id: string; name: string }[],
                (into, page) => {
                  for (const ds of page.dataSourceSummaries ?? [])
                    if (ds.dataSourceId) into.push({ id: ds.dataSourceId, name: ds.name ?? ds.dataSourceId });
                  return into;
                },
              );
            } catch (err) {
              if (gone(err)) return [];
              refused(kb.id, err);
              return [];
            }
            const sources: BedrockDataSource[] = [];
            for (const ds of listed) {
              try {
                const { dataSource } = await client.send(
                  new GetDataSourceCommand({ knowledgeBaseId: kb.id, dataSourceId: ds.id }),
                );
                sources.push({
                  id: ds.id,
                  name: ds.name,
                  knowledgeBaseId: kb.id,
                  knowledgeBaseName: kb.name,
                  region,
                  kmsKeyArn: dataSource?.serverSideEncryptionConfiguration?.kmsKeyArn || null,
                });
              } catch (err) {
                if (!gone(err)) refused(`${kb.id}/${ds.id}`, err);
              }
            }
            return sources;
          },
        });
        return { agents, dataSources: perBase.flat(), unread };
      },
      { agents: [], dataSources: [], unread: [] },
    ),
  unreadIn: (slice) => slice.unread,
  assemble: (slices) => ({
    agents: slices.flatMap((s) => s.agents),
    dataSources: slices.flatMap((s) => s.dataSources),
  }),
});
