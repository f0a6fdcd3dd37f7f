import {
  type FunctionConfiguration,
  GetFunctionCommand,
  GetLayerVersionCommand,
  GetPolicyCommand,
  LambdaClient,
  paginateListEventSourceMappings,
  paginateListFunctions,
  paginateListFunctionUrlConfigs,
} from '@aws-sdk/client-lambda';
import { describeStatement, policyExposure } from '../../../domain/policies/resource-policy';
import type {
  EventSourceMapping,
  FunctionPolicyReading,
  LambdaFunction,
  LambdaLayer,
} from '../../../domain/scans/inventory';
import { findInSettings } from '../../../domain/secrets/detector';
import { type DownloadBudget, MAX_REGION_BYTES, readCodePackage } from './code-package';
import { mapLimit } from './concurrency';
import { parsePolicyDocument } from '../trust-policy';
import { isAbsent, ReadFailure } from './failures';
import { foldPages, type ReadContext, regionalPart } from './reader';

// Lambda functions, region by region: ListFunctions gives the runtime, the layers and the environment variables,
// which are searched for secrets at once (only what is found, kind and variable name, is kept: an inventory is
// stored, a secret must never enter it). Then for each function: GetFunction for its code package's presigned URL
// (read for secrets within the bounds of code-package.ts), GetPolicy for its resource policy, and
// ListFunctionUrlConfigs for its URLs. ListEventSourceMappings, once for the region (only where it has functions),
// gives what triggers each function (the queues and streams Lambda polls for it). Each of these that AWS refuses
// leaves that facet of the function unread with the reason, for the checks that read it; the function's other
// facets are judged. Last, each layer version the region's functions use (theirs or another account's) is read the
// same way as a code package (GetLayerVersion gives its presigned URL).

const PER_FUNCTION_CONCURRENCY = 4;

const denied = (err: unknown): err is ReadFailure => err instanceof ReadFailure && err.kind === 'denied';

/** Runs a read of one facet: a refusal becomes the facet's reason, anything else fails the region's read. */
async function facet<T>(read: () => Promise<T>): Promise<T | { read: false; reason: string }> {
  try {
    return await read();
  } catch (err) {
    if (denied(err)) return { read: false, reason: err.reason };
    throw err;
  }
}

/** A function that went away since ListFunctions. */
class Gone extends Error {}

/** A function's ARN without the version or alias a mapping may name (`...:function:name:live`). */
const unqualified = (arn: string): string => arn.split(':').slice(0, 7).join(':');

/** The region's event source mappings by the (unqualified) ARN of the function they trigger. */
function mappingsByFunction(lambda: LambdaClient): Promise<Map<string, EventSourceMapping[]>> {
  return foldPages(
    paginateListEventSourceMappings({ client: lambda }, {}),
    new Map<string, EventSourceMapping[]>(),
    (into, page) => {
      for (const m of page.EventSourceMappings ?? []) {
        // A self-managed Kafka cluster has no ARN: it is not a resource of the account.
        if (!m.UUID || !m.FunctionArn || !m.EventSourceArn) continue;
        const fn = unqualified(m.FunctionArn);
        into.set(fn, [...(into.get(fn) ?? []), { uuid: m.UUID, sourceArn: m.EventSourceArn, state: m.State ?? null }]);
      }
      return into;
    },
  );
}

function environmentOf(fn: FunctionConfiguration): LambdaFunction['environment'] {
  const env = fn.Environment;
  if (env?.Error?.ErrorCode) {
    return {
      read: false,
      reason: `Lambda could not decrypt the environment variables (${env.Error.ErrorCode}): they are encrypted with a KMS key Sentinel's role may not use.`,
    };
  }
  return { read: true, secrets: findInSettings(Object.entries(env?.Variables ?? {})) };
}

export const lambdaFunctionsPart = regionalPart({
  part: 'lambdaFunctions',
  async read(
    { session }: ReadContext,
    region: string,
  ): Promise<{ functions: LambdaFunction[]; layers: LambdaLayer[] }> {
    const lambda = session.client((config) => new LambdaClient(config), region);
    const listed = await foldPages(
      paginateListFunctions({ client: lambda }, {}),
      [] as FunctionConfiguration[],
      (into, page) => {
        into.push(...(page.Functions ?? []).filter((f) => f.FunctionName && f.FunctionArn));
        return into;
      },
    );
    const budget: DownloadBudget = { remaining: MAX_REGION_BYTES };
    const mappings = listed.length > 0 ? await facet(() => mappingsByFunction(lambda)) : new Map();
    const eventSources = (arn: string): LambdaFunction['eventSources'] =>
      mappings instanceof Map ? { read: true, mappings: mappings.get(arn) ?? [] } : mappings;

    const code = (fn: FunctionConfiguration): Promise<LambdaFunction['code']> =>
      facet(async () => {
        const got = await lambda.send(new GetFunctionCommand({ FunctionName: fn.FunctionArn })).catch((err) => {
          throw isAbsent(err, 'ResourceNotFound') ? new Gone() : err;
        });
        if (fn.PackageType === 'Image' || got.Code?.RepositoryType === 'ECR') return null;
        if (!got.Code?.Location) return { read: false, reason: 'Lambda gave no location for the code package.' };
        return readCodePackage(got.Code.Location, fn.CodeSize ?? 0, budget);
      });

    const policy = (fn: FunctionConfiguration, account: string): Promise<FunctionPolicyReading> =>
      facet(async () => {
        const answer = await lambda.send(new GetPolicyCommand({ FunctionName: fn.FunctionArn })).catch((err) => {
          // A function without a resource policy: nothing is opened.
          if (isAbsent(err, 'ResourceNotFound')) return { Policy: undefined };
          throw err;
        });
        if (!answer.Policy) return { read: true, publicStatements: [] };
        const exposure = policyExposure(answer.Policy, account);
        if (!exposure)
          return { read: false, reason: 'Lambda returned a resource policy that is not a policy document.' };
        const document = parsePolicyDocument(answer.Policy);
        return {
          read: true,
          publicStatements: exposure.public.map(describeStatement),
          ...(document ? { document } : {}),
        };
      });

    const urls = (fn: FunctionConfiguration): Promise<LambdaFunction['urls']> =>
      facet(async () => {
        const configs = await foldPages(
          paginateListFunctionUrlConfigs({ client: lambda }, { FunctionName: fn.FunctionArn }),
          [] as { url: string; authType: string }[],
          (into, page) => {
            for (const c of page.FunctionUrlConfigs ?? [])
              if (c.FunctionUrl) into.push({ url: c.FunctionUrl, authType: c.AuthType ?? 'NONE' });
            return into;
          },
        ).catch((err) => {
          if (isAbsent(err, 'ResourceNotFound')) return [];
          throw err;
        });
        return { read: true as const, urls: configs };
      });

    const functions = await mapLimit({
      items: listed,
      limit: PER_FUNCTION_CONCURRENCY,
      run: async (fn): Promise<LambdaFunction | null> => {
        const arn = fn.FunctionArn as string;
        const account = arn.split(':')[4] ?? '';
        try {
          return {
            name: fn.FunctionName as string,
            arn,
            region,
            runtime: fn.Runtime ?? null,
            roleArn: fn.Role ?? null,
            environment: environmentOf(fn),
            code: await code(fn),
            policy: await policy(fn, account),
            urls: await urls(fn),
            layers: (fn.Layers ?? []).flatMap((l) => (l.Arn ? [l.Arn] : [])),
            eventSources: eventSources(arn),
          };
        } catch (err) {
          if (err instanceof Gone) return null;
          throw err;
        }
      },
    });
    const read = functions.filter((f): f is LambdaFunction => f !== null);

    const layers = await mapLimit({
      items: [...new Set(read.flatMap((fn) => fn.layers))],
      limit: PER_FUNCTION_CONCURRENCY,
      run: async (arn): Promise<LambdaLayer | null> => {
        const match = /^(arn:[^:]+:lambda:[^:]+:\d{12}:layer:[^:]+):(\d+)$/.exec(arn);
        if (!match) return null;
        try {
          const content = await facet(async () => {
            const version = await lambda.send(
              new GetLayerVersionCommand({ LayerName: match[1], VersionNumber: Number(match[2]) }),
            );
            if (!version.Content?.Location)
              return { read: false as const, reason: 'Lambda gave no location for the layer package.' };
            return readCodePackage(version.Content.Location, version.Content.CodeSize ?? 0, budget);
          });
          return { arn, region, content };
        } catch (err) {
          // A layer version deleted since: the functions that use it keep running it, but nobody can read it.
          if (isAbsent(err, 'ResourceNotFound'))
            return { arn, region, content: { read: false, reason: 'The layer version no longer exists.' } };
          throw err;
        }
      },
    });
    return { functions: read, layers: layers.filter((l): l is LambdaLayer => l !== null) };
  },
  assemble: (slices) => ({
    functions: slices.flatMap((s) => s.functions),
    layers: slices.flatMap((s) => s.layers),
  }),
});
