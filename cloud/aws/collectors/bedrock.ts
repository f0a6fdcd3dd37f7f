import {
  BedrockClient,
  GetCustomModelCommand,
  GetGuardrailCommand,
  GetModelInvocationLoggingConfigurationCommand,
  paginateListCustomModels,
  paginateListGuardrails,
} from '@aws-sdk/client-bedrock';
import { CloudWatchLogsClient, DescribeLogGroupsCommand } from '@aws-sdk/client-cloudwatch-logs';
import { IAMClient, ListServiceSpecificCredentialsCommand } from '@aws-sdk/client-iam';
import type {
  BedrockApiKey,
  BedrockCustomModel,
  BedrockGuardrail,
  BedrockInvocationLogging,
} from '../../../domain/scans/inventory';
import { type Described, describer } from './describe-each';
import { isAbsent, ReadFailure } from './failures';
import { whereOffered } from './offered';
import { foldPages, globalPart, type ReadContext, regionalPart } from './reader';

// Bedrock, region by region where AWS offers it (offered.ts): model invocation logging (without it nobody can
// tell whose prompts a stolen key ran, the trace of LLM-jacking), the customer's custom models and guardrails;
// and, account-wide, the long-term Bedrock API keys of IAM users. A model or guardrail that AWS refuses to
// describe is unread; the region's others are evaluated. One that went away since it was listed is no longer
// of interest.

/** ListServiceSpecificCredentials' largest page. */
const API_KEYS_PAGE = 1000;
const BEDROCK_SERVICE = 'bedrock.amazonaws.com';

type Slice<T> = Described<T>;

const denied = (err: unknown) => err instanceof ReadFailure && err.kind === 'denied';
const gone = (err: unknown) => isAbsent(err, 'ResourceNotFound');
const describeEach = describer(gone);

export const bedrockInvocationLoggingPart = regionalPart({
  part: 'bedrockInvocationLogging',
  read: ({ session }: ReadContext, region: string) =>
    whereOffered(
      async (): Promise<Slice<BedrockInvocationLogging>> => {
        const bedrock = session.client((config) => new BedrockClient(config), region);
        const { loggingConfig } = await bedrock.send(new GetModelInvocationLoggingConfigurationCommand({}));
        const s3Bucket = loggingConfig?.s3Config?.bucketName || null;
        const logGroupName = loggingConfig?.cloudWatchConfig?.logGroupName || null;
        if (!s3Bucket && !logGroupName) return { items: [{ region, destination: null }], unread: [] };
        if (!logGroupName) return { items: [{ region, destination: { s3Bucket, logGroup: null } }], unread: [] };
        const logs = session.client((config) => new CloudWatchLogsClient(config), region);
        try {
          const { logGroups = [] } = await logs.send(
            new DescribeLogGroupsCommand({ logGroupNamePrefix: logGroupName }),
          );
          const group = logGroups.find((g) => g.logGroupName === logGroupName);
          const logGroup = { name: logGroupName, kmsKeyId: group?.kmsKeyId ?? null };
          return { items: [{ region, destination: { s3Bucket, logGroup } }], unread: [] };
        } catch (err) {
          if (!denied(err)) throw err;
          return {
            items: [{ region, destination: { s3Bucket, logGroup: null } }],
            unread: [{ kind: 'resource', scope: `${logGroupName}@${region}`, reason: (err as ReadFailure).reason }],
          };
        }
      },
      { items: [], unread: [] },
    ),
  unreadIn: (slice) => slice.unread,
  assemble: (slices) => ({ regions: slices.flatMap((s) => s.items) }),
});

export const bedrockCustomModelsPart = regionalPart({
  part: 'bedrockCustomModels',
  read: ({ session }: ReadContext, region: string) =>
    whereOffered(
      async (): Promise<Slice<BedrockCustomModel>> => {
        const bedrock = session.client((config) => new BedrockClient(config), region);
        // Owned models only: the key of a model shared in from another account is that account's to choose.
        const listed = await foldPages(
          paginateListCustomModels({ client: bedrock }, { isOwned: true }),
          [] as { name: string; arn: string }[],
          (into, page) => {
            for (const m of page.modelSummaries ?? [])
              if (m.modelArn && m.modelName) into.push({ name: m.modelName, arn: m.modelArn });
            return into;
          },
        );
        return describeEach(listed, async ({ name, arn }) => {
          // By name: the names of the models an account owns are unique in their region.
          const model = await bedrock.send(new GetCustomModelCommand({ modelIdentifier: name }));
          return { name, arn, region, kmsKeyArn: model.modelKmsKeyArn || null };
        });
      },
      { items: [], unread: [] },
    ),
  unreadIn: (slice) => slice.unread,
  assemble: (slices) => ({ models: slices.flatMap((s) => s.items) }),
});

export const bedrockGuardrailsPart = regionalPart({
  part: 'bedrockGuardrails',
  read: ({ session }: ReadContext, region: string) =>
    whereOffered(
      async (): Promise<Slice<BedrockGuardrail>> => {
        const bedrock = session.client((config) => new BedrockClient(config), region);
        // Without an identifier ListGuardrails lists each guardrail once, by its working draft.
        const listed = await foldPages(
          paginateListGuardrails({ client: bedrock }, {}),
          [] as { id: string; arn: string; name: string }[],
          (into, page) => {
            for (const g of page.guardrails ?? [])
              if (g.id && g.arn) into.push({ id: g.id, arn: g.arn, name: g.name ?? g.id });
            return into;
          },
        );
        return describeEach(listed, async ({ id, arn, name }) => {
          const g = await bedrock.send(new GetGuardrailCommand({ guardrailIdentifier: id }));
          const promptAttack = g.contentPolicy?.filters?.find((f) => f.type === 'PROMPT_ATTACK');
          const sensitive = g.sensitiveInformationPolicy;
          return {
            id,
            arn,
            name,
            region,
            promptAttackStrength: promptAttack?.inputStrength ?? null,
            sensitiveInformation: (sensitive?.piiEntities ?? []).length + (sensitive?.regexes ?? []).length > 0,
            groundingFilters: (g.contextualGroundingPolicy?.filters ?? []).map((f) => ({
              type: f.type ?? '',
              threshold: f.threshold ?? 0,
              action: f.action ?? null,
              enabled: f.enabled ?? null,
            })),
          };
        });
      },
      { items: [], unread: [] },
    ),
  unreadIn: (slice) => slice.unread,
  assemble: (slices) => ({ guardrails: slices.flatMap((s) => s.items) }),
});

/**
 * Long-term Bedrock API keys: IAM lists the service-specific credentials of every user at once (AllUsers), one
 * page of up to 1,000 at a time; short-term Bedrock API keys are not IAM credentials and are not listed.
 */
export const bedrockApiKeysPart = globalPart({
  part: 'bedrockApiKeys',
  async read({ session }: ReadContext) {
    const iam = session.client((config) => new IAMClient(config));
    const keys: BedrockApiKey[] = [];
    let marker: string | undefined;
    do {
      const page = await iam.send(
        new ListServiceSpecificCredentialsCommand({
          AllUsers: true,
          ServiceName: BEDROCK_SERVICE,
          MaxItems: API_KEYS_PAGE,
          Marker: marker,
        }),
      );
      for (const c of page.ServiceSpecificCredentials ?? []) {
        if (!c.ServiceSpecificCredentialId || c.ServiceName !== BEDROCK_SERVICE) continue;
        keys.push({
          id: c.ServiceSpecificCredentialId,
          userName: c.UserName ?? '',
          status: c.Status ?? 'Active',
          createdAt: (c.CreateDate ?? new Date(0)).toISOString(),
          expiresAt: c.ExpirationDate ? c.ExpirationDate.toISOString() : null,
        });
      }
      marker = page.IsTruncated ? page.Marker : undefined;
    } while (marker);
    return { value: { keys } };
  },
});
