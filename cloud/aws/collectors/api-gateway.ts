import { APIGatewayClient, GetStagesCommand, paginateGetRestApis } from '@aws-sdk/client-api-gateway';
import type { ApiGatewayStage, Unread } from '../../../domain/scans/inventory';
import { findInSettings } from '../../../domain/secrets/detector';
import { mapLimit } from './concurrency';
import { isAbsent, ReadFailure } from './failures';
import { foldPages, type ReadContext, regionalPart } from './reader';

// API Gateway REST APIs, region by region: GetRestApis, then GetStages for each API's stages: their variables
// (searched for secrets at once: only the kind and the variable name are kept), their logging and their WAF web
// ACL. An API whose stages AWS refuses is unread; the region's others are judged.

const PER_API_CONCURRENCY = 4;
/** Execution logging levels that write to CloudWatch Logs. */
const LOGGING_LEVELS = new Set(['INFO', 'ERROR']);

interface Slice {
  stages: ApiGatewayStage[];
  unread: Unread[];
}

export const apiGatewayStagesPart = regionalPart({
  part: 'apiGatewayStages',
  async read({ session }: ReadContext, region: string): Promise<Slice> {
    const apigateway = session.client((config) => new APIGatewayClient(config), region);
    const apis = await foldPages(
      paginateGetRestApis({ client: apigateway }, {}),
      [] as { id: string; name: string }[],
      (into, page) => {
        for (const api of page.items ?? []) if (api.id) into.push({ id: api.id, name: api.name ?? api.id });
        return into;
      },
    );
    const unread: Unread[] = [];
    const stages = await mapLimit({
      items: apis,
      limit: PER_API_CONCURRENCY,
      run: async (api): Promise<ApiGatewayStage[]> => {
        try {
          const { item = [] } = await apigateway.send(new GetStagesCommand({ restApiId: api.id }));
          return item.map((stage) => ({
            apiId: api.id,
            apiName: api.name,
            stage: stage.stageName ?? '',
            region,
            variableSecrets: findInSettings(Object.entries(stage.variables ?? {})),
            logging:
              Boolean(stage.accessLogSettings?.destinationArn) ||
              Object.values(stage.methodSettings ?? {}).some((m) => LOGGING_LEVELS.has(m.loggingLevel ?? 'OFF')),
            webAclArn: stage.webAclArn || null,
          }));
        } catch (err) {
          if (isAbsent(err, 'NotFound')) return []; // deleted since it was listed
          if (!(err instanceof ReadFailure && err.kind === 'denied')) throw err;
          unread.push({ kind: 'resource', scope: api.id, reason: err.reason });
          return [];
        }
      },
    });
    return { stages: stages.flat(), unread };
  },
  unreadIn: (slice) => slice.unread,
  assemble: (slices) => ({ stages: slices.flatMap((s) => s.stages) }),
});
