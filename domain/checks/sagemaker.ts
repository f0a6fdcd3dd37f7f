import { SECRET_KINDS } from '../secrets/detector';
import { failing, onPart } from './helpers';
import type { Check } from './types';

// SageMaker: notebook instances (GPU machines with a notebook server and their role's credentials) reachable from
// and able to reach the internet, or left unencrypted; training jobs and models free to send data out of the
// account. Checked in the regions where AWS offers SageMaker; training jobs from the recent ones the collector
// reads (cloud/aws/collectors/sagemaker.ts).

export const SAGEMAKER_CHECKS: readonly Check[] = [
  {
    id: 'exposure.sagemaker_notebook_lifecycle_secrets',
    service: 'sagemaker',
    scenario: 'exposure',
    severity: 'HIGH',
    title: 'Secret in a SageMaker notebook lifecycle script',
    description:
      "A script of the notebook instance's lifecycle configuration holds a credential (a key, a token, a password " +
      'assigned in the script). Anyone allowed sagemaker:DescribeNotebookInstanceLifecycleConfig reads it, and every ' +
      'user of the notebook can read it on the instance, where the script runs as root.',
    remediation:
      'Move the secret to Secrets Manager and have the script fetch it with the instance role (aws secretsmanager ' +
      'get-secret-value), then rotate the secret, since it was readable. In the SageMaker console open Notebook > ' +
      'Lifecycle configurations > the configuration, edit the Start notebook and Create notebook scripts and update. ' +
      'With the CLI, aws sagemaker update-notebook-instance-lifecycle-config --notebook-instance-lifecycle-config-name ' +
      'NAME --on-start Content=$(base64 -w0 start.sh).',
    docsUrl: 'https://docs.aws.amazon.com/sagemaker/latest/dg/notebook-lifecycle-config.html',
    prowler: ['sagemaker_notebook_instance_no_secrets'],
    evaluate: onPart('sagemakerNotebooks', ({ notebooks }) =>
      failing(
        notebooks
          .filter((n) => n.lifecycleSecrets.length > 0)
          .map((n) => ({
            resource: n.arn,
            region: n.region,
            detail:
              `The lifecycle configuration of notebook instance ${n.name} in ${n.region} holds ` +
              n.lifecycleSecrets
                .map((f) => `${SECRET_KINDS[f.kind]} in ${f.config}'s ${f.script} script, line ${f.line}`)
                .join('; ') +
              '.',
          })),
      ),
    ),
  },
  {
    id: 'exposure.sagemaker_notebook_direct_internet',
    service: 'sagemaker',
    scenario: 'exposure',
    severity: 'HIGH',
    title: 'SageMaker notebook instance with direct internet access',
    description:
      "SageMaker gives the notebook instance its own route to the internet, outside the account's VPC: code run in " +
      "the notebook (or a package it installs) can send data and the instance role's credentials anywhere, with no " +
      'security group, network ACL or flow log of the account in the way.',
    remediation:
      'Direct internet access is chosen when the instance is created. Create a new notebook instance in a VPC ' +
      'subnet with Direct internet access set to Disable (SageMaker console > Notebook instances > Create > Network, ' +
      'or aws sagemaker create-notebook-instance ... --subnet-id SUBNET --security-group-ids SG ' +
      '--direct-internet-access Disabled), give the subnet the routes it needs (VPC endpoints, a NAT gateway), move ' +
      'the notebooks over, then stop and delete the old instance (aws sagemaker stop-notebook-instance and ' +
      'delete-notebook-instance --notebook-instance-name NAME).',
    docsUrl: 'https://docs.aws.amazon.com/sagemaker/latest/dg/appendix-notebook-and-internet-access.html',
    controls: { 'aws-fsbp': ['SageMaker.1'] },
    prowler: ['sagemaker_notebook_instance_without_direct_internet_access_configured'],
    evaluate: onPart('sagemakerNotebooks', ({ notebooks }) =>
      failing(
        notebooks
          .filter((n) => n.directInternetAccess)
          .map((n) => ({
            resource: n.arn,
            region: n.region,
            detail: `Notebook instance ${n.name} in ${n.region} has direct internet access.`,
          })),
      ),
    ),
  },
  {
    id: 'exposure.sagemaker_notebook_root_access',
    service: 'sagemaker',
    scenario: 'exposure',
    severity: 'HIGH',
    title: 'SageMaker notebook instance gives its users root access',
    description:
      "The notebook instance's users can become root: they can change the instance's software and network settings, " +
      "read what other users left on it, and persist code that runs with the instance role's credentials.",
    remediation:
      'Stop the instance, turn root access off and start it again: SageMaker console > Notebook instances > the ' +
      'instance > Stop, then Edit > Permissions and encryption > Root access > Disable > Update; or aws sagemaker ' +
      'stop-notebook-instance --notebook-instance-name NAME, aws sagemaker update-notebook-instance ' +
      '--notebook-instance-name NAME --root-access Disabled, aws sagemaker start-notebook-instance ' +
      '--notebook-instance-name NAME. Lifecycle configurations still run as root.',
    docsUrl: 'https://docs.aws.amazon.com/sagemaker/latest/dg/nbi-root-access.html',
    controls: { 'aws-fsbp': ['SageMaker.3'] },
    prowler: ['sagemaker_notebook_instance_root_access_disabled'],
    evaluate: onPart('sagemakerNotebooks', ({ notebooks }) =>
      failing(
        notebooks
          .filter((n) => n.rootAccess)
          .map((n) => ({
            resource: n.arn,
            region: n.region,
            detail: `Notebook instance ${n.name} in ${n.region} gives its users root access.`,
          })),
      ),
    ),
  },
  {
    id: 'exposure.sagemaker_notebook_not_cmk',
    service: 'sagemaker',
    scenario: 'exposure',
    severity: 'HIGH',
    title: 'SageMaker notebook instance volume not encrypted with a customer managed key',
    description:
      "The notebook instance's storage volume (the notebooks, datasets and credentials users leave on it) has no " +
      'customer managed KMS key: nobody can restrict who uses its key or revoke it, and data protection rules that ' +
      'require a key of the account are not met.',
    remediation:
      'The key is chosen when the instance is created. Create a notebook instance with a customer managed key ' +
      '(SageMaker console > Notebook instances > Create > Permissions and encryption > Encryption key, or aws ' +
      'sagemaker create-notebook-instance ... --kms-key-id KEY_ARN), move the notebooks and data over, then stop and ' +
      'delete the old instance (aws sagemaker delete-notebook-instance --notebook-instance-name NAME).',
    docsUrl: 'https://docs.aws.amazon.com/sagemaker/latest/dg/encryption-at-rest-nbi.html',
    prowler: ['sagemaker_notebook_instance_encryption_enabled'],
    evaluate: onPart('sagemakerNotebooks', ({ notebooks }) =>
      failing(
        notebooks
          .filter((n) => n.kmsKeyId === null)
          .map((n) => ({
            resource: n.arn,
            region: n.region,
            detail: `Notebook instance ${n.name} in ${n.region} has no customer managed KMS key.`,
          })),
      ),
    ),
  },
  {
    id: 'exposure.sagemaker_notebook_outside_vpc',
    service: 'sagemaker',
    scenario: 'exposure',
    severity: 'HIGH',
    title: 'SageMaker notebook instance outside a VPC',
    description:
      "The notebook instance has no network interface in one of the account's VPCs: its traffic runs on SageMaker's " +
      'own network, out of reach of the security groups, network ACLs, VPC endpoints and flow logs that govern and ' +
      'record the rest of the account.',
    remediation:
      'The VPC is chosen when the instance is created. Create a notebook instance in a subnet of your VPC ' +
      '(SageMaker console > Notebook instances > Create > Network > VPC, subnet and security groups, or aws ' +
      'sagemaker create-notebook-instance ... --subnet-id SUBNET --security-group-ids SG), move the notebooks over, ' +
      'then delete the old instance (aws sagemaker delete-notebook-instance --notebook-instance-name NAME).',
    docsUrl: 'https://docs.aws.amazon.com/sagemaker/latest/dg/appendix-notebook-and-internet-access.html',
    controls: { 'aws-fsbp': ['SageMaker.2'] },
    prowler: ['sagemaker_notebook_instance_vpc_settings_configured'],
    evaluate: onPart('sagemakerNotebooks', ({ notebooks }) =>
      failing(
        notebooks
          .filter((n) => n.subnetId === null)
          .map((n) => ({
            resource: n.arn,
            region: n.region,
            detail: `Notebook instance ${n.name} in ${n.region} is not in a VPC.`,
          })),
      ),
    ),
  },
  {
    id: 'exposure.sagemaker_training_job_no_network_isolation',
    service: 'sagemaker',
    scenario: 'exposure',
    severity: 'HIGH',
    title: 'SageMaker training job without network isolation',
    description:
      'The training job ran its container with network access: code in the training image or its dependencies ' +
      "could send the training data out, or fetch what it liked, while it ran with the job role's permissions.",
    remediation:
      'A training job cannot be changed; start the next ones isolated. In the SageMaker console > Training jobs > ' +
      'Create training job > Network, tick Enable network isolation; with the CLI, aws sagemaker create-training-job ' +
      '... --enable-network-isolation; with the SageMaker Python SDK, Estimator(..., ' +
      'enable_network_isolation=True). SageMaker still moves the input and output data for the container.',
    docsUrl: 'https://docs.aws.amazon.com/sagemaker/latest/dg/mkt-algo-model-internet-free.html',
    prowler: ['sagemaker_training_jobs_network_isolation_enabled'],
    evaluate: onPart('sagemakerTrainingJobs', ({ jobs }) =>
      failing(
        jobs
          .filter((j) => !j.networkIsolation)
          .map((j) => ({
            resource: j.arn,
            region: j.region,
            detail: `Training job ${j.name} in ${j.region} (created ${j.createdAt.slice(0, 10)}) ran without network isolation.`,
          })),
      ),
    ),
  },
  {
    id: 'exposure.sagemaker_training_job_volume_unencrypted',
    service: 'sagemaker',
    scenario: 'exposure',
    severity: 'HIGH',
    title: 'SageMaker training job storage not encrypted with a customer managed key',
    description:
      "The training job's ML storage volumes (where the training data and checkpoints are copied) had no customer " +
      'managed KMS key: nobody can audit or revoke the key that protected them, and data protection rules that ' +
      'require a key of the account are not met.',
    remediation:
      'A training job cannot be changed; give the next ones keys. In the SageMaker console > Training jobs > Create ' +
      'training job, set the Encryption key under Resource configuration and under Output data configuration; with ' +
      'the CLI, aws sagemaker create-training-job ... --resource-config ...,VolumeKmsKeyId=KEY_ARN ' +
      '--output-data-config S3OutputPath=s3://BUCKET/PATH,KmsKeyId=KEY_ARN; with the SageMaker Python SDK, ' +
      'Estimator(..., volume_kms_key=KEY_ARN, output_kms_key=KEY_ARN).',
    docsUrl: 'https://docs.aws.amazon.com/sagemaker/latest/dg/encryption-at-rest.html',
    prowler: ['sagemaker_training_jobs_volume_and_output_encryption_enabled'],
    evaluate: onPart('sagemakerTrainingJobs', ({ jobs }) =>
      failing(
        jobs
          .filter((j) => j.volumeKmsKeyId === null)
          .map((j) => ({
            resource: j.arn,
            region: j.region,
            detail:
              `Training job ${j.name} in ${j.region} had no customer managed KMS key for its storage volumes` +
              (j.outputKmsKeyId === null ? ' nor for its output.' : '.'),
          })),
      ),
    ),
  },
  {
    id: 'exposure.sagemaker_training_job_outside_vpc',
    service: 'sagemaker',
    scenario: 'exposure',
    severity: 'HIGH',
    title: 'SageMaker training job outside a VPC',
    description:
      "The training job ran on SageMaker's own network rather than in the account's VPC: its traffic escaped the " +
      'security groups, VPC endpoints policies and flow logs that govern and record the rest of the account.',
    remediation:
      'A training job cannot be changed; run the next ones in your VPC. In the SageMaker console > Training jobs > ' +
      'Create training job > Network, choose the VPC, private subnets and security groups; with the CLI, aws ' +
      'sagemaker create-training-job ... --vpc-config Subnets=SUBNET,SecurityGroupIds=SG; with the SageMaker Python ' +
      'SDK, Estimator(..., subnets=[...], security_group_ids=[...]). The subnets need an S3 VPC endpoint or a NAT ' +
      'gateway to reach the data.',
    docsUrl: 'https://docs.aws.amazon.com/sagemaker/latest/dg/train-vpc.html',
    prowler: ['sagemaker_training_jobs_vpc_settings_configured'],
    evaluate: onPart('sagemakerTrainingJobs', ({ jobs }) =>
      failing(
        jobs
          .filter((j) => j.subnets.length === 0)
          .map((j) => ({
            resource: j.arn,
            region: j.region,
            detail: `Training job ${j.name} in ${j.region} ran outside a VPC.`,
          })),
      ),
    ),
  },
  {
    id: 'exposure.sagemaker_model_no_network_isolation',
    service: 'sagemaker',
    scenario: 'exposure',
    severity: 'HIGH',
    title: 'SageMaker model without network isolation',
    description:
      "The model's containers can make network calls wherever they are hosted (endpoints, batch transform): code in " +
      "the inference image or its dependencies can send the requests it serves, or the role's credentials, out of " +
      'the account.',
    remediation:
      'Network isolation is set when the model is created. Create the model again with it (SageMaker console > ' +
      'Inference > Models > Create model > Network > Enable network isolation, or aws sagemaker create-model ... ' +
      '--enable-network-isolation), create an endpoint configuration with the new model (aws sagemaker ' +
      'create-endpoint-config), update the endpoint to it (aws sagemaker update-endpoint), and delete the old model ' +
      '(aws sagemaker delete-model --model-name NAME).',
    docsUrl: 'https://docs.aws.amazon.com/sagemaker/latest/dg/mkt-algo-model-internet-free.html',
    prowler: ['sagemaker_models_network_isolation_enabled'],
    evaluate: onPart('sagemakerModels', ({ models }) =>
      failing(
        models
          .filter((m) => !m.networkIsolation)
          .map((m) => ({
            resource: m.arn,
            region: m.region,
            detail: `Model ${m.name} in ${m.region} has no network isolation.`,
          })),
      ),
    ),
  },
];
