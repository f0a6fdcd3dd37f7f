import { describeUnread } from '../../../domain/checks/evaluate';
import {
  type Collected,
  type Inventory,
  onlyParts,
  type PartName,
  type Parts,
  type Unread,
} from '../../../domain/scans/inventory';
import type { Checkpoint, ReadOutcome } from '../../../domain/scans/scan-progress';
import { type CollectionProgress, type ExpectedForwarder, IncompleteCollectionError } from '../../types';
import { accessAnalyzersPart } from './access-analyzer';
import { acmCertificatesPart } from './acm';
import { alternateContactsPart } from './account';
import { autoScalingPart } from './autoscaling';
import { backupSelectionsPart } from './backup';
import { batchJobDefinitionsPart } from './batch';
import {
  bedrockApiKeysPart,
  bedrockCustomModelsPart,
  bedrockGuardrailsPart,
  bedrockInvocationLoggingPart,
} from './bedrock';
import { bedrockAgentsPart } from './bedrock-agent';
import { apiGatewayStagesPart } from './api-gateway';
import { anomaliesPart, anomalyMonitorsPart, budgetsPart, costsPart } from './billing';
import { cloudformationStacksPart } from './cloudformation-stacks';
import { cloudfrontDistributionsPart } from './cloudfront';
import { cloudtrailPart } from './cloudtrail';
import { codebuildProjectsPart } from './codebuild';
import { configRecordersPart } from './config';
import { credentialReportPart } from './credential-report';
import { ebsEncryptionByDefaultPart } from './ebs';
import { ecsServicesPart } from './ecs';
import { eksClustersPart } from './eks';
import { ecsTaskDefinitionsPart } from './ecs-task-definitions';
import { instancesPart, publicImagesPart, publicSnapshotsPart, securityGroupsPart } from './ec2';
import { instanceUserDataPart } from './ec2-user-data';
import { ecrRepositoriesPart } from './ecr';
import { efsFileSystemsPart } from './efs';
import { loadBalancersPart } from './elbv2';
import { eventBusesPart } from './event-buses';
import { eventForwarderPart } from './event-forwarder';
import { failureOf } from './failures';
import { gluePart } from './glue';
import { glacierVaultsPart } from './glacier';
import { guarddutyPart } from './guardduty';
import { healthPart } from './health';
import {
  awsManagedPoliciesPart,
  iamPrincipalsPart,
  iamSummaryPart,
  instanceProfilesPart,
  passwordPolicyPart,
} from './iam';
import { iamAuthorizationPart } from './iam-authorization';
import { rootVirtualMfaPart, serverCertificatesPart } from './iam-certificates';
import { metricAlarmsPart } from './metric-alarms';
import { networkTopologyPart } from './network-topology';
import { kmsKeyPoliciesPart, kmsKeysPart } from './kms';
import { lambdaFunctionsPart } from './lambda';
import { launchTemplatesPart } from './launch-templates';
import { lightsailDatabasesPart, lightsailInstancesPart } from './lightsail';
import { logResourcePoliciesPart } from './log-policies';
import { rdsClustersPart, rdsInstancesPart, rdsSnapshotsPart } from './rds';
import { dmsPart } from './dms';
import { ebsSnapshotBlockPublicAccessPart, ebsSnapshotsPart, ebsVolumesPart } from './ebs-storage';
import { elasticacheReplicationGroupsPart } from './elasticache';
import { kafkaClustersPart } from './kafka';
import { kinesisStreamsPart } from './kinesis';
import { opensearchDomainsPart } from './opensearch';
import { redshiftClustersPart } from './redshift';
import { type AnyReader, type ReadContext, sharedReads } from './reader';
import { enabledRegions } from './regions';
import { s3AccountBlockPublicAccessPart, s3BucketsPart } from './s3';
import { sagemakerModelsPart, sagemakerNotebooksPart, sagemakerTrainingJobsPart } from './sagemaker';
import { secretsPart } from './secrets-manager';
import { s3AccessPointsPart, s3MultiRegionAccessPointsPart } from './s3-access-points';
import { organizationPart } from './organization';
import { cloudtrailActivityPart } from './cloudtrail-activity';
import { securityHubPart } from './security-hub';
import { sesIdentitiesPart } from './ses';
import { snsTopicsPart } from './sns';
import { sqsQueuesPart } from './sqs';
import type { Session } from './session';
import { ssmDocumentsPart } from './ssm-documents';
import { codeartifactPackagesPart } from './codeartifact';
import { elasticIpsPart } from './elastic-ips';
import { hostedZoneRecordsPart, registeredDomainsPart } from './route53';
import { stateMachinesPart } from './step-functions';
import { networkAclsPart, vpcFlowLogsPart } from './vpc';
import { instanceMetadataDefaultsPart, publicIpSubnetsPart, transitGatewaysPart, vpcEndpointsPart } from './vpc-edges';

// Reads a customer's account through their role as a set of independent reads: one per global part, one per
// regional part and enabled region (after the region list itself). Each read settles on its own: read, or
// failed with a reason. What failed for good (a refusal, an answer no retry will change) leaves its part or
// region unread and the rest is evaluated. What may succeed on a second try (throttling past the SDK's retries,
// 5xx, timeouts) makes the collection throw IncompleteCollectionError once every other read has settled, so the
// scan's next attempt reads only that again; on the last attempt it too is left unread.

export const READERS: readonly AnyReader[] = Object.freeze([
  iamSummaryPart,
  passwordPolicyPart,
  credentialReportPart,
  iamPrincipalsPart,
  iamAuthorizationPart,
  s3AccountBlockPublicAccessPart,
  s3BucketsPart,
  securityGroupsPart,
  instancesPart,
  publicSnapshotsPart,
  publicImagesPart,
  cloudtrailPart,
  guarddutyPart,
  costsPart,
  anomaliesPart,
  budgetsPart,
  alternateContactsPart,
  healthPart,
  serverCertificatesPart,
  rootVirtualMfaPart,
  awsManagedPoliciesPart,
  instanceProfilesPart,
  metricAlarmsPart,
  configRecordersPart,
  securityHubPart,
  accessAnalyzersPart,
  ebsEncryptionByDefaultPart,
  networkAclsPart,
  vpcFlowLogsPart,
  rdsInstancesPart,
  efsFileSystemsPart,
  kmsKeysPart,
  anomalyMonitorsPart,
  eventForwarderPart,
  instanceUserDataPart,
  launchTemplatesPart,
  autoScalingPart,
  codebuildProjectsPart,
  gluePart,
  batchJobDefinitionsPart,
  instanceMetadataDefaultsPart,
  publicIpSubnetsPart,
  transitGatewaysPart,
  vpcEndpointsPart,
  loadBalancersPart,
  networkTopologyPart,
  rdsClustersPart,
  rdsSnapshotsPart,
  dmsPart,
  redshiftClustersPart,
  opensearchDomainsPart,
  kafkaClustersPart,
  elasticacheReplicationGroupsPart,
  kinesisStreamsPart,
  ebsVolumesPart,
  ebsSnapshotsPart,
  ebsSnapshotBlockPublicAccessPart,
  bedrockInvocationLoggingPart,
  bedrockCustomModelsPart,
  bedrockGuardrailsPart,
  bedrockAgentsPart,
  bedrockApiKeysPart,
  sagemakerNotebooksPart,
  sagemakerTrainingJobsPart,
  sagemakerModelsPart,
  eksClustersPart,
  ecsServicesPart,
  sqsQueuesPart,
  kmsKeyPoliciesPart,
  ecrRepositoriesPart,
  glacierVaultsPart,
  snsTopicsPart,
  secretsPart,
  sesIdentitiesPart,
  eventBusesPart,
  logResourcePoliciesPart,
  s3AccessPointsPart,
  s3MultiRegionAccessPointsPart,
  organizationPart,
  cloudtrailActivityPart,
  lambdaFunctionsPart,
  ecsTaskDefinitionsPart,
  cloudformationStacksPart,
  stateMachinesPart,
  ssmDocumentsPart,
  apiGatewayStagesPart,
  codeartifactPackagesPart,
  registeredDomainsPart,
  hostedZoneRecordsPart,
  elasticIpsPart,
  cloudfrontDistributionsPart,
  acmCertificatesPart,
  lightsailInstancesPart,
  lightsailDatabasesPart,
  backupSelectionsPart,
]);

const REGIONS = 'regions';
const readKey = (part: PartName, region?: string) => (region ? `${part}@${region}` : part);

/**
 * The shape of the reads a checkpoint keeps, in its keys. Raise it when a part's value changes shape (a field
 * added): a scan retried across a deploy then reads again what an older worker read, rather than evaluating an
 * old shape with today's checks (v2 added the instances' metadata options, v3 the trails' delivery and the budgets'
 * alerts, v4 the instances' public addresses and security groups, the RDS instances' VPC and certificate, the
 * buckets' public grants, the roles' trust, the risky policies and GuardDuty's protection plans; v5 the security
 * groups' wide public ranges, every EBS volume and the snapshotted ones, the RDS databases' TLS and engine versions;
 * v6 the functions' execution roles and every resource policy's document, for the attack-path analysis; v7 the
 * functions' event source mappings and the resource control policies of the IAM documents' part).
 */
const READ_FORMAT = 'v7:';

/** The reads of a checkpoint kept in today's format, by read key; older ones are dropped (read again). */
function currentReads(checkpoint: Checkpoint): [string, ReadOutcome][] {
  return Object.entries(checkpoint).flatMap(([key, outcome]): [string, ReadOutcome][] =>
    key.startsWith(READ_FORMAT) ? [[key.slice(READ_FORMAT.length), outcome]] : [],
  );
}

export interface CollectInput {
  session: Session;
  now: Date;
  /** Reads settled by an earlier attempt of this scan (see READ_FORMAT): they are not read again. */
  checkpoint?: Checkpoint;
  /** Parts taken as they are, by part name (Cost Explorer's stored answers): they are not read. */
  reuse?: Checkpoint;
  /** Called as each read settles for good, so the caller can keep it for a later attempt. */
  onRead?: (key: string, outcome: ReadOutcome) => void;
  onProgress?: (progress: CollectionProgress) => void;
  /** The scan's last attempt: what fails now is left unread rather than retried. */
  finalAttempt: boolean;
  /** Aborted: the collection is given up (see CollectOptions.signal). */
  signal?: AbortSignal;
  /** Only these parts are read (a targeted rescan); the others are OUTSIDE_TARGETED_SCAN. */
  parts?: readonly PartName[];
  /** The event forwarder the account should have (CollectOptions.eventForwarder); absent: it is not read. */
  eventForwarder?: ExpectedForwarder;
}

async function settle(
  read: () => Promise<{ value: unknown; unread?: Unread[] }>,
  finalAttempt: boolean,
): Promise<ReadOutcome> {
  try {
    const { value, unread } = await read();
    return unread && unread.length > 0 ? { status: 'ok', value, unread } : { status: 'ok', value };
  } catch (err) {
    const { reason, retryable } = failureOf(err);
    return { status: 'failed', reason, retryable: retryable && !finalAttempt };
  }
}

export async function collectAccountInventory({
  session,
  now,
  checkpoint = {},
  reuse = {},
  onRead,
  onProgress,
  finalAttempt,
  signal,
  parts,
  eventForwarder,
}: CollectInput): Promise<Inventory> {
  const readers = parts ? READERS.filter((r) => parts.includes(r.reader.part)) : READERS;
  const ctx: ReadContext = { session, now, eventForwarder, shared: sharedReads() };
  const outcomes = new Map<string, ReadOutcome>([...currentReads(checkpoint), ...Object.entries(reuse)]);
  const retry: { key: string; reason: string }[] = [];
  let total = 1;
  let done = 0;
  const run = async (key: string, read: () => Promise<{ value: unknown; unread?: Unread[] }>): Promise<void> => {
    let outcome = outcomes.get(key);
    if (!outcome) {
      outcome = await settle(read, finalAttempt);
      // A read cut short by the abort is no outcome: it is neither kept nor reported, and a later attempt reads it.
      if (signal?.aborted) return;
      if (outcome.status === 'failed' && outcome.retryable) retry.push({ key, reason: outcome.reason });
      else {
        outcomes.set(key, outcome);
        onRead?.(`${READ_FORMAT}${key}`, outcome);
      }
    }
    done += 1;
    onProgress?.({ done, total, last: key });
  };

  await run(REGIONS, async () => ({ value: await enabledRegions(session) }));
  const listed = outcomes.get(REGIONS);
  const regions = listed?.status === 'ok' ? (listed.value as string[]) : [];
  const reads = readers.flatMap((r) =>
    r.scope === 'global'
      ? [run(readKey(r.reader.part), () => r.reader.read(ctx))]
      : regions.map((region) =>
          run(readKey(r.reader.part, region), async () => {
            const value = await r.reader.read(ctx, region);
            return { value, unread: r.reader.unreadIn?.(value) };
          }),
        ),
  );
  total += reads.length;
  await Promise.all(reads);
  signal?.throwIfAborted();
  if (retry.length > 0) throw new IncompleteCollectionError(retry);

  const collected = Object.fromEntries(
    readers.map((r): [PartName, Collected<unknown>] => {
      const part = r.reader.part;
      if (r.scope === 'global') return [part, asCollected(outcomes.get(readKey(part)))];
      if (listed?.status !== 'ok') {
        return [
          part,
          {
            status: 'not_evaluated',
            reason: `The account's regions could not be listed: ${listed?.status === 'failed' ? listed.reason : 'unknown'}`,
          },
        ];
      }
      return [
        part,
        regionalPart(
          regions.map((region) => [region, outcomes.get(readKey(part, region))]),
          r.reader.assemble,
        ),
      ];
    }),
  ) as unknown as Parts;
  const inventory = { collectedAt: now.toISOString(), regions: { enabled: regions }, ...collected } as Inventory;
  return parts ? onlyParts(inventory, parts) : inventory;
}

function asCollected(outcome: ReadOutcome | undefined): Collected<unknown> {
  if (!outcome) return { status: 'not_evaluated', reason: 'Not read.' };
  if (outcome.status === 'failed') return { status: 'not_evaluated', reason: outcome.reason };
  return outcome.unread
    ? { status: 'ok', value: outcome.value, unread: outcome.unread }
    : { status: 'ok', value: outcome.value };
}

/** A regional part from its regions' reads: the regions that failed are unread; none read at all is not evaluated. */
function regionalPart(
  byRegion: [string, ReadOutcome | undefined][],
  assemble: (slices: unknown[]) => unknown,
): Collected<unknown> {
  const slices: unknown[] = [];
  const unread: Unread[] = [];
  for (const [region, outcome] of byRegion) {
    if (outcome?.status === 'ok') {
      slices.push(outcome.value);
      unread.push(...(outcome.unread ?? []));
    } else
      unread.push({
        kind: 'region',
        scope: region,
        reason: outcome?.status === 'failed' ? outcome.reason : 'Not read.',
      });
  }
  if (slices.length === 0 && byRegion.length > 0) {
    const reasons = new Set(unread.map((u) => u.reason));
    return {
      status: 'not_evaluated',
      reason: reasons.size === 1 ? ([...reasons][0] as string) : `Not read in any region: ${describeUnread(unread)}`,
      unread,
    };
  }
  const value = assemble(slices);
  return unread.length > 0 ? { status: 'ok', value, unread } : { status: 'ok', value };
}
