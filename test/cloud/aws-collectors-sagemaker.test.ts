import {
  CreateModelCommand,
  CreateNotebookInstanceCommand,
  CreateNotebookInstanceLifecycleConfigCommand,
  CreateTrainingJobCommand,
  SageMakerClient,
} from '@aws-sdk/client-sagemaker';
import { checkById } from '../../domain/checks/catalog';
import type { Inventory } from '../../domain/scans/inventory';
import {
  accessDenied,
  type AwsRequest,
  type CannedAnswer,
  createSentinelRole,
  type CustomerAccount,
  customerConfig,
  jsonError,
  motoDifferences,
  motoGaps,
  REGION,
} from '../helpers/aws';
import { inTwoPages, ok, useCollectorSuite } from '../helpers/collector-suite';

/** DescribeModel with the network isolation the model was created with (see above). */
function withModelIsolation(request: AwsRequest, answer: CannedAnswer): CannedAnswer | undefined {
  if (request.operation !== 'DescribeModel' || answer.status !== 200) return motoDifferences(request, answer);
  const body = JSON.parse(answer.body) as { ModelName?: string };
  const isolated = /^(isolated|kept)-/.test(body.ModelName ?? '') || body.ModelName === 'model-a';
  return { ...answer, body: JSON.stringify({ ...body, EnableNetworkIsolation: isolated }) };
}

// The SageMaker parts end to end: notebook instances, training jobs and models seeded in moto through the SDK,
// collected through Sentinel's role and the front, and evaluated by the checks. moto 5.2 drops a model's
// EnableNetworkIsolation (it describes every model as not isolated): the front gives DescribeModel's answer the
// setting AWS would have kept, true for the models these tests create isolated (named isolated-… or kept-…).

const OTHER_REGION = 'eu-west-1';
const IMAGE = '382416733822.dkr.ecr.us-east-1.amazonaws.com/linear-learner:1';
const SAGEMAKER_CHECKS = [
  'exposure.sagemaker_notebook_direct_internet',
  'exposure.sagemaker_notebook_root_access',
  'exposure.sagemaker_notebook_not_cmk',
  'exposure.sagemaker_notebook_outside_vpc',
  'exposure.sagemaker_notebook_lifecycle_secrets',
  'exposure.sagemaker_training_job_no_network_isolation',
  'exposure.sagemaker_training_job_volume_unencrypted',
  'exposure.sagemaker_training_job_outside_vpc',
  'exposure.sagemaker_model_no_network_isolation',
];

/** Each SageMaker check's failing resources as `resource@region`, or its status when it does not fail. */
function outcomes(inventory: Inventory): Record<string, string[] | string> {
  return Object.fromEntries(
    SAGEMAKER_CHECKS.map((id) => {
      const result = checkById(id)!.evaluate(inventory, { now: inventory.collectedAt });
      return [
        id,
        result.status === 'fail' ? result.resources.map((r) => `${r.resource}@${r.region}`).sort() : result.status,
      ];
    }),
  );
}

describe('SageMaker collection against moto', () => {
  const suite = useCollectorSuite();
  const { client } = suite;
  beforeEach(() => {
    suite.front.rewrite = withModelIsolation;
  });

  const role = (customer: CustomerAccount) => `arn:aws:iam::${customer.accountId}:role/sagemaker-execution`;
  const sagemaker = (customer: CustomerAccount, region: string) =>
    client(new SageMakerClient(customerConfig(customer, region)));

  /** A lifecycle configuration whose start script is `script` (its create script sets up conda, and holds nothing). */
  const lifecycle = async (customer: CustomerAccount, region: string, name: string, script: string) => {
    const content = (text: string) => [{ Content: Buffer.from(text).toString('base64') }];
    await sagemaker(customer, region).send(
      new CreateNotebookInstanceLifecycleConfigCommand({
        NotebookInstanceLifecycleConfigName: name,
        OnCreate: content('#!/bin/bash\nset -e\nconda create -y -n analysis python=3.12\n'),
        OnStart: content(script),
      }),
    );
  };

  const notebook = async (
    customer: CustomerAccount,
    region: string,
    name: string,
    locked: boolean,
    lifecycleConfig?: string,
  ) => {
    const { NotebookInstanceArn } = await sagemaker(customer, region).send(
      new CreateNotebookInstanceCommand({
        NotebookInstanceName: name,
        LifecycleConfigName: lifecycleConfig,
        InstanceType: 'ml.p3.2xlarge',
        RoleArn: role(customer),
        DirectInternetAccess: locked ? 'Disabled' : 'Enabled',
        RootAccess: locked ? 'Disabled' : 'Enabled',
        KmsKeyId: locked ? `arn:aws:kms:${region}:${customer.accountId}:key/notebooks` : undefined,
        SubnetId: locked ? 'subnet-0a1b2c3d' : undefined,
        SecurityGroupIds: locked ? ['sg-0a1b2c3d'] : undefined,
      }),
    );
    return NotebookInstanceArn as string;
  };

  const trainingJob = async (customer: CustomerAccount, region: string, name: string, locked: boolean) => {
    const key = `arn:aws:kms:${region}:${customer.accountId}:key/training`;
    const { TrainingJobArn } = await sagemaker(customer, region).send(
      new CreateTrainingJobCommand({
        TrainingJobName: name,
        AlgorithmSpecification: { TrainingImage: IMAGE, TrainingInputMode: 'File' },
        RoleArn: role(customer),
        OutputDataConfig: { S3OutputPath: 's3://training-output/churn', KmsKeyId: locked ? key : undefined },
        ResourceConfig: {
          InstanceType: 'ml.p3.2xlarge',
          InstanceCount: 1,
          VolumeSizeInGB: 50,
          VolumeKmsKeyId: locked ? key : undefined,
        },
        StoppingCondition: { MaxRuntimeInSeconds: 3600 },
        VpcConfig: locked ? { Subnets: ['subnet-0a1b2c3d'], SecurityGroupIds: ['sg-0a1b2c3d'] } : undefined,
        EnableNetworkIsolation: locked,
      }),
    );
    return TrainingJobArn as string;
  };

  const model = async (customer: CustomerAccount, region: string, name: string, isolated: boolean) => {
    const { ModelArn } = await sagemaker(customer, region).send(
      new CreateModelCommand({
        ModelName: name,
        ExecutionRoleArn: role(customer),
        PrimaryContainer: { Image: IMAGE },
        EnableNetworkIsolation: isolated,
      }),
    );
    return ModelArn as string;
  };

  it('finds an open notebook, a loose training job and a model without isolation, and passes the locked-down ones', async () => {
    const { customer, target } = await suite.connectedCustomer();
    // Two notebooks share a start script that exports a warehouse's access key; the secure one fetches its secret.
    await lifecycle(
      customer,
      REGION,
      'warehouse-setup',
      '#!/bin/bash\nset -e\n# warehouse access\nexport AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n',
    );
    await lifecycle(
      customer,
      OTHER_REGION,
      'fetch-setup',
      '#!/bin/bash\nexport DB_PASSWORD=$(aws secretsmanager get-secret-value --secret-id warehouse --query SecretString --output text)\n',
    );
    const lab = await notebook(customer, REGION, 'open-lab', false, 'warehouse-setup');
    const twin = await notebook(customer, REGION, 'open-lab-twin', true, 'warehouse-setup');
    await notebook(customer, OTHER_REGION, 'secure-lab', true, 'fetch-setup');
    const loose = await trainingJob(customer, REGION, 'loose-job', false);
    await trainingJob(customer, OTHER_REGION, 'tight-job', true);
    const open = await model(customer, REGION, 'open-model', false);
    await model(customer, OTHER_REGION, 'isolated-model', true);
    await createSentinelRole({ customer, externalId: target.externalId });

    const inventory = await suite.provider.collectInventory(target);

    expect(ok(inventory.sagemakerNotebooks).notebooks.find((n) => n.name === 'secure-lab')).toEqual({
      name: 'secure-lab',
      arn: expect.stringContaining(':notebook-instance/secure-lab'),
      region: OTHER_REGION,
      status: expect.any(String),
      directInternetAccess: false,
      rootAccess: false,
      kmsKeyId: `arn:aws:kms:${OTHER_REGION}:${customer.accountId}:key/notebooks`,
      subnetId: 'subnet-0a1b2c3d',
      lifecycleSecrets: [],
    });
    expect(ok(inventory.sagemakerNotebooks).notebooks.find((n) => n.name === 'open-lab')?.lifecycleSecrets).toEqual([
      { config: 'warehouse-setup', script: 'OnStart', line: 4, kind: 'aws_secret_access_key' },
    ]);
    // A configuration shared by two notebooks is read once.
    expect(
      suite.front.requests
        .filter((r) => r.operation === 'DescribeNotebookInstanceLifecycleConfig')
        .map((r) => r.region),
    ).toEqual(expect.arrayContaining([REGION, OTHER_REGION]));
    expect(
      suite.front.requests.filter(
        (r) => r.operation === 'DescribeNotebookInstanceLifecycleConfig' && r.region === REGION,
      ),
    ).toHaveLength(1);
    expect(ok(inventory.sagemakerTrainingJobs).jobs.find((j) => j.name === 'tight-job')).toMatchObject({
      region: OTHER_REGION,
      networkIsolation: true,
      volumeKmsKeyId: `arn:aws:kms:${OTHER_REGION}:${customer.accountId}:key/training`,
      outputKmsKeyId: `arn:aws:kms:${OTHER_REGION}:${customer.accountId}:key/training`,
      subnets: ['subnet-0a1b2c3d'],
    });
    const notebookFails = [`${lab}@${REGION}`];
    const jobFails = [`${loose}@${REGION}`];
    expect(outcomes(inventory)).toEqual({
      'exposure.sagemaker_notebook_direct_internet': notebookFails,
      'exposure.sagemaker_notebook_root_access': notebookFails,
      'exposure.sagemaker_notebook_not_cmk': notebookFails,
      'exposure.sagemaker_notebook_outside_vpc': notebookFails,
      'exposure.sagemaker_notebook_lifecycle_secrets': [`${lab}@${REGION}`, `${twin}@${REGION}`].sort(),
      'exposure.sagemaker_training_job_no_network_isolation': jobFails,
      'exposure.sagemaker_training_job_volume_unencrypted': jobFails,
      'exposure.sagemaker_training_job_outside_vpc': jobFails,
      'exposure.sagemaker_model_no_network_isolation': [`${open}@${REGION}`],
    });
    // Only recent training jobs are listed, newest first: the number of calls does not grow with the history.
    const listJobs = suite.front.requests.filter((r) => r.operation === 'ListTrainingJobs' && r.region === REGION);
    expect(listJobs.map((r) => JSON.parse(r.body) as Record<string, unknown>)).toEqual([
      expect.objectContaining({
        CreationTimeAfter: expect.any(Number),
        SortBy: 'CreationTime',
        SortOrder: 'Descending',
      }),
    ]);
    expect([
      inventory.sagemakerNotebooks.unread,
      inventory.sagemakerTrainingJobs.unread,
      inventory.sagemakerModels.unread,
    ]).toEqual([undefined, undefined, undefined]);
  });

  it('leaves unread a notebook AWS refuses to describe and a region an SCP denies, and skips a model deleted meanwhile', async () => {
    const { customer, target } = await suite.connectedCustomer();
    const hidden = await notebook(customer, REGION, 'hidden-lab', false);
    const shown = await notebook(customer, REGION, 'shown-lab', false);
    // Its notebook is described, but not the scripts that judge it: it is not passed, it is unread.
    await lifecycle(customer, REGION, 'denied-setup', '#!/bin/bash\necho ready\n');
    const scripted = await notebook(customer, REGION, 'scripted-lab', false, 'denied-setup');
    await notebook(customer, OTHER_REGION, 'denied-lab', false);
    await model(customer, REGION, 'deleted-model', false);
    await model(customer, REGION, 'kept-model', true);
    await createSentinelRole({ customer, externalId: target.externalId });
    suite.front.answer = (request: AwsRequest) => {
      if (request.operation === 'DescribeNotebookInstance' && request.body.includes('hidden-lab'))
        return accessDenied(request);
      if (request.operation === 'DescribeNotebookInstanceLifecycleConfig') return accessDenied(request);
      if (request.service === 'sagemaker' && request.region === OTHER_REGION) return accessDenied(request);
      if (request.operation === 'DescribeModel' && request.body.includes('deleted-model'))
        return jsonError(400, 'ValidationException', 'Could not find model "deleted-model".');
      return motoGaps(request);
    };

    const inventory = await suite.provider.collectInventory(target);

    expect(ok(inventory.sagemakerNotebooks).notebooks.map((n) => n.name)).toEqual(['shown-lab']);
    expect(inventory.sagemakerNotebooks.unread).toEqual([
      {
        kind: 'region',
        scope: OTHER_REGION,
        reason: expect.stringMatching(/^AWS denied Sentinel's role SageMaker ListNotebookInstances/),
      },
      {
        kind: 'resource',
        scope: hidden,
        reason: expect.stringMatching(/^AWS denied Sentinel's role SageMaker DescribeNotebookInstance/),
      },
      {
        kind: 'resource',
        scope: scripted,
        reason: expect.stringMatching(/^AWS denied Sentinel's role SageMaker DescribeNotebookInstanceLifecycleConfig/),
      },
    ]);
    expect(ok(inventory.sagemakerModels).models.map((m) => m.name)).toEqual(['kept-model']);
    expect(
      checkById('exposure.sagemaker_notebook_root_access')!.evaluate(inventory, { now: inventory.collectedAt }),
    ).toMatchObject({
      status: 'fail',
      resources: [{ resource: shown }],
      unread: [{ scope: OTHER_REGION }, { scope: hidden }, { scope: scripted }],
    });
  });

  it('follows the pages of the notebook, training job and model lists', async () => {
    const { customer, target } = await suite.connectedCustomer();
    for (const name of ['lab-a', 'lab-b', 'lab-c']) await notebook(customer, REGION, name, name !== 'lab-c');
    for (const name of ['job-a', 'job-b']) await trainingJob(customer, REGION, name, name === 'job-a');
    for (const name of ['model-a', 'model-b']) await model(customer, REGION, name, name === 'model-a');
    await createSentinelRole({ customer, externalId: target.externalId });
    const LISTS: Record<string, string> = {
      ListNotebookInstances: 'NotebookInstances',
      ListTrainingJobs: 'TrainingJobSummaries',
      ListModels: 'Models',
    };
    const splits = Object.entries(LISTS).map(([operation, items]) => {
      inTwoPages(suite, {
        is: (r) => r.operation === operation,
        items,
        token: 'NextToken',
        rewrite: withModelIsolation,
      });
      return { operation, rewrite: suite.front.rewrite, answer: suite.front.answer };
    });
    const split = (r: AwsRequest) => splits.find((s) => s.operation === r.operation) ?? splits[0]!;
    suite.front.rewrite = (r, a) => split(r).rewrite(r, a);
    suite.front.answer = (r) => split(r).answer(r);

    const inventory = await suite.provider.collectInventory(target);

    expect(
      ok(inventory.sagemakerNotebooks)
        .notebooks.map((n) => n.name)
        .sort(),
    ).toEqual(['lab-a', 'lab-b', 'lab-c']);
    expect(
      ok(inventory.sagemakerTrainingJobs)
        .jobs.map((j) => j.name)
        .sort(),
    ).toEqual(['job-a', 'job-b']);
    expect(
      ok(inventory.sagemakerModels)
        .models.map((m) => m.name)
        .sort(),
    ).toEqual(['model-a', 'model-b']);
    expect(outcomes(inventory)['exposure.sagemaker_notebook_root_access']).toEqual([
      expect.stringContaining(':notebook-instance/lab-c@'),
    ]);
    for (const operation of Object.keys(LISTS))
      expect(suite.front.requests.filter((r) => r.operation === operation && r.region === REGION)).toHaveLength(2);
  });
});
