import {
  DescribeModelCommand,
  DescribeNotebookInstanceCommand,
  DescribeNotebookInstanceLifecycleConfigCommand,
  DescribeTrainingJobCommand,
  paginateListModels,
  paginateListNotebookInstances,
  paginateListTrainingJobs,
  SageMakerClient,
} from '@aws-sdk/client-sagemaker';
import type {
  LifecycleScriptSecret,
  SageMakerModel,
  SageMakerNotebook,
  SageMakerTrainingJob,
} from '../../../domain/scans/inventory';
import { type Described, describer } from './describe-each';
import { isAbsent } from './failures';
import { whereOffered } from './offered';
import { foldPages, type ReadContext, regionalPart } from './reader';
import { userDataSecrets } from './user-data';

// SageMaker, region by region where AWS offers it (offered.ts): notebook instances (GPU machines with a
// notebook server and the credentials of their role), models, and recent training jobs. Each is listed, then
// described; one AWS refuses to describe is unread (by ARN), one that went away since it was listed is skipped. A
// notebook's lifecycle configuration (shell scripts run as root, base64 as user data is) is read once per region
// however many notebooks share it, and searched for secrets as it is read: only the findings are kept.
// Training jobs accumulate for ever (AWS keeps them), so only those created within TRAINING_JOB_WINDOW_DAYS are
// read, newest first, and at most TRAINING_JOBS_PER_REGION of them: a bounded number of calls per region.

export const TRAINING_JOB_WINDOW_DAYS = 90;
export const TRAINING_JOBS_PER_REGION = 100;
const DAY_MS = 86_400_000;

type Slice<T> = Described<T>;

// SageMaker answers ValidationException for a resource that does not exist (any more).
const gone = (err: unknown) => isAbsent(err, 'Validation') || isAbsent(err, 'ResourceNotFound');
const describeEach = describer(gone);

const client = ({ session }: ReadContext, region: string) =>
  session.client((config) => new SageMakerClient(config), region);
const none = <T>(): Slice<T> => ({ items: [], unread: [] });

/** The secrets in a lifecycle configuration's scripts; none when it went away (a script not text is skipped). */
async function scriptSecrets(sagemaker: SageMakerClient, config: string): Promise<LifecycleScriptSecret[]> {
  let described;
  try {
    described = await sagemaker.send(
      new DescribeNotebookInstanceLifecycleConfigCommand({ NotebookInstanceLifecycleConfigName: config }),
    );
  } catch (err) {
    if (gone(err)) return [];
    throw err;
  }
  const scripts = [
    ...(described.OnCreate ?? []).map((hook) => ({ script: 'OnCreate' as const, content: hook.Content })),
    ...(described.OnStart ?? []).map((hook) => ({ script: 'OnStart' as const, content: hook.Content })),
  ];
  return scripts.flatMap(({ script, content }) =>
    (userDataSecrets(content) ?? []).map((secret) => ({ config, script, ...secret })),
  );
}

export const sagemakerNotebooksPart = regionalPart({
  part: 'sagemakerNotebooks',
  read: (ctx: ReadContext, region: string) =>
    whereOffered(async (): Promise<Slice<SageMakerNotebook>> => {
      const sagemaker = client(ctx, region);
      const listed = await foldPages(
        paginateListNotebookInstances({ client: sagemaker }, {}),
        [] as { name: string; arn: string }[],
        (into, page) => {
          for (const n of page.NotebookInstances ?? [])
            if (n.NotebookInstanceName && n.NotebookInstanceArn)
              into.push({ name: n.NotebookInstanceName, arn: n.NotebookInstanceArn });
          return into;
        },
      );
      const lifecycles = new Map<string, Promise<LifecycleScriptSecret[]>>();
      const lifecycleSecrets = (config: string) => {
        let found = lifecycles.get(config);
        if (!found) {
          found = scriptSecrets(sagemaker, config);
          lifecycles.set(config, found);
        }
        return found;
      };
      return describeEach(listed, async ({ name, arn }) => {
        const n = await sagemaker.send(new DescribeNotebookInstanceCommand({ NotebookInstanceName: name }));
        const config = n.NotebookInstanceLifecycleConfigName;
        return {
          name,
          arn,
          region,
          status: n.NotebookInstanceStatus ?? '',
          // Both default to Enabled when the instance is created without them.
          directInternetAccess: n.DirectInternetAccess !== 'Disabled',
          rootAccess: n.RootAccess !== 'Disabled',
          kmsKeyId: n.KmsKeyId || null,
          subnetId: n.SubnetId || null,
          lifecycleSecrets: config ? await lifecycleSecrets(config) : [],
        };
      });
    }, none<SageMakerNotebook>()),
  unreadIn: (slice) => slice.unread,
  assemble: (slices) => ({ notebooks: slices.flatMap((s) => s.items) }),
});

export const sagemakerTrainingJobsPart = regionalPart({
  part: 'sagemakerTrainingJobs',
  read: (ctx: ReadContext, region: string) =>
    whereOffered(async (): Promise<Slice<SageMakerTrainingJob>> => {
      const sagemaker = client(ctx, region);
      const listed: { name: string; arn: string }[] = [];
      const pages = paginateListTrainingJobs(
        { client: sagemaker },
        {
          CreationTimeAfter: new Date(ctx.now.getTime() - TRAINING_JOB_WINDOW_DAYS * DAY_MS),
          SortBy: 'CreationTime',
          SortOrder: 'Descending',
        },
      );
      for await (const page of pages) {
        for (const j of page.TrainingJobSummaries ?? [])
          if (j.TrainingJobName && j.TrainingJobArn) listed.push({ name: j.TrainingJobName, arn: j.TrainingJobArn });
        if (listed.length >= TRAINING_JOBS_PER_REGION) break;
      }
      return describeEach(listed.slice(0, TRAINING_JOBS_PER_REGION), async ({ name, arn }) => {
        const j = await sagemaker.send(new DescribeTrainingJobCommand({ TrainingJobName: name }));
        return {
          name,
          arn,
          region,
          createdAt: (j.CreationTime ?? ctx.now).toISOString(),
          networkIsolation: j.EnableNetworkIsolation ?? false,
          volumeKmsKeyId: j.ResourceConfig?.VolumeKmsKeyId || null,
          outputKmsKeyId: j.OutputDataConfig?.KmsKeyId || null,
          subnets: j.VpcConfig?.Subnets ?? [],
        };
      });
    }, none<SageMakerTrainingJob>()),
  unreadIn: (slice) => slice.unread,
  assemble: (slices) => ({ jobs: slices.flatMap((s) => s.items) }),
});

export const sagemakerModelsPart = regionalPart({
  part: 'sagemakerModels',
  read: (ctx: ReadContext, region: string) =>
    whereOffered(async (): Promise<Slice<SageMakerModel>> => {
      const sagemaker = client(ctx, region);
      const listed = await foldPages(
        paginateListModels({ client: sagemaker }, {}),
        [] as { name: string; arn: string }[],
        (into, page) => {
          for (const m of page.Models ?? [])
            if (m.ModelName && m.ModelArn) into.push({ name: m.ModelName, arn: m.ModelArn });
          return into;
        },
      );
      return describeEach(listed, async ({ name, arn }) => {
        const m = await sagemaker.send(new DescribeModelCommand({ ModelName: name }));
        return { name, arn, region, networkIsolation: m.EnableNetworkIsolation ?? false };
      });
    }, none<SageMakerModel>()),
  unreadIn: (slice) => slice.unread,
  assemble: (slices) => ({ models: slices.flatMap((s) => s.items) }),
});
