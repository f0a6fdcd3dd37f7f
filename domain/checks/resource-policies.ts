import { describeStatement } from '../policies/resource-policy';
import type { PolicyReading, Unread } from '../scans/inventory';
import { daysSince, failing, onPart, withUnread } from './helpers';
import type { Check, CheckResult, FailingResource } from './types';

// Resources opened to the world or to other accounts by their own resource policies (queues, keys, repositories,
// vaults, topics, secrets, sending identities, event buses, log policies), and the hygiene of keys and secrets.
// Every policy is read once, by domain/policies/resource-policy.ts; a resource whose policy could not be read is
// named unread, never taken for private.

interface Holder {
  name: string;
  arn: string;
  region: string;
  policy: PolicyReading;
}

/** The resources whose policy could not be read. */
const unreadPolicies = (holders: readonly Holder[]): Unread[] =>
  holders.flatMap((h): Unread[] =>
    h.policy.read ? [] : [{ kind: 'resource', scope: h.arn, reason: h.policy.reason }],
  );

/** Fails the resources whose policy lets everyone in, naming what it allows; the unreadable ones are unread. */
function openToEveryone(holders: readonly Holder[], noun: string): CheckResult {
  const resources = holders.flatMap((h): FailingResource[] => {
    if (!h.policy.read || h.policy.exposure.public.length === 0) return [];
    const statements = h.policy.exposure.public.map(describeStatement).join('; ');
    return [
      {
        resource: h.arn,
        region: h.region,
        detail: `${noun} ${h.name} in ${h.region} is open to everyone: ${statements}.`,
      },
    ];
  });
  return withUnread(failing(resources), unreadPolicies(holders));
}

/** Fails the resources whose policy names other accounts, naming them; the unreadable ones are unread. */
function sharedWithOtherAccounts(holders: readonly Holder[], noun: string): CheckResult {
  const resources = holders.flatMap((h): FailingResource[] => {
    if (!h.policy.read || h.policy.exposure.external.length === 0) return [];
    const accounts = [...new Set(h.policy.exposure.external.map((e) => e.account))].sort();
    const statements = [...new Set(h.policy.exposure.external.map((e) => describeStatement(e.statement)))].join('; ');
    return [
      {
        resource: h.arn,
        region: h.region,
        detail: `${noun} ${h.name} in ${h.region} grants account${accounts.length > 1 ? 's' : ''} ${accounts.join(', ')} access: ${statements}.`,
      },
    ];
  });
  return withUnread(failing(resources), unreadPolicies(holders));
}

/** How long a secret may go unread before it is taken for unused (Security Hub's default for SecretsManager.3). */
export const SECRET_UNUSED_DAYS = 90;

const POLICY_REVIEW =
  'Access Analyzer (IAM > Access analyzer > Create analyzer, type Account) lists every resource shared outside the ' +
  'account and alerts when a new one is.';

export const RESOURCE_POLICY_CHECKS: readonly Check[] = [
  {
    id: 'exposure.sqs_queue_public',
    service: 'sqs',
    scenario: 'exposure',
    severity: 'CRITICAL',
    title: 'SQS queue open to everyone',
    description:
      'The queue\'s access policy allows everyone (Principal "*") with no condition that limits it to known ' +
      'accounts, organizations or networks: anyone on the internet with an AWS account can read, delete or inject ' +
      'messages, which exposes the data the queue carries and lets an attacker feed forged work to its consumers.',
    remediation:
      'In the SQS console open the queue > Access policy > Edit, and replace "Principal": "*" with the accounts or roles ' +
      'that need the queue (or add a condition such as aws:SourceArn for the topic or bucket that sends to it), then Save. ' +
      'With the CLI, read the policy (aws sqs get-queue-attributes --queue-url URL --attribute-names Policy), edit it and ' +
      'write it back (aws sqs set-queue-attributes --queue-url URL --attributes file://attributes.json, where the file holds ' +
      `{"Policy": "<the policy as a JSON string>"}). ${POLICY_REVIEW}`,
    docsUrl:
      'https://docs.aws.amazon.com/AWSSimpleQueueService/latest/SQSDeveloperGuide/sqs-security-best-practices.html',
    prowler: ['sqs_queues_not_publicly_accessible'],
    evaluate: onPart('sqsQueues', ({ queues }) => openToEveryone(queues, 'SQS queue')),
  },
  {
    id: 'exposure.sqs_queue_unencrypted',
    service: 'sqs',
    scenario: 'exposure',
    severity: 'MEDIUM',
    title: 'SQS queue not encrypted at rest',
    description:
      'The queue has no server-side encryption (neither SQS-managed keys nor a KMS key), so the messages it holds are ' +
      'stored unencrypted, and data protection rules that require encryption at rest are not met.',
    remediation:
      'In the SQS console open the queue > Edit > Encryption, enable server-side encryption with Amazon SQS key (SSE-SQS), ' +
      'or with a KMS key when access to the messages must also be granted through the key policy, and Save. With the CLI: ' +
      'aws sqs set-queue-attributes --queue-url URL --attributes SqsManagedSseEnabled=true (or KmsMasterKeyId=KEY_ARN). ' +
      'Messages already in the queue are not re-encrypted; new ones are.',
    docsUrl:
      'https://docs.aws.amazon.com/AWSSimpleQueueService/latest/SQSDeveloperGuide/sqs-server-side-encryption.html',
    controls: { 'aws-fsbp': ['SQS.1'] },
    prowler: ['sqs_queues_server_side_encryption_enabled'],
    evaluate: onPart('sqsQueues', ({ queues }) =>
      failing(
        queues
          .filter((q) => !q.encrypted)
          .map((q) => ({
            resource: q.arn,
            region: q.region,
            detail: `SQS queue ${q.name} in ${q.region} is not encrypted at rest.`,
          })),
      ),
    ),
  },
  {
    id: 'exposure.sqs_queue_cross_account',
    service: 'sqs',
    scenario: 'exposure',
    severity: 'MEDIUM',
    title: 'SQS queue shared with another account',
    description:
      "The queue's access policy lets principals of another AWS account use it. That is how a queue receives from a " +
      "partner or another workload's account, but every account named is trusted with the queue's messages: one that " +
      'is not known, or no longer needs it, reads or injects messages unseen.',
    remediation:
      'Check each account named in the finding. In the SQS console open the queue > Access policy > Edit and remove the ' +
      "statements (or principals) of the accounts that should not have it, then Save; with the CLI, edit the queue's policy " +
      'as read by aws sqs get-queue-attributes --queue-url URL --attribute-names Policy and write it back with aws sqs ' +
      `set-queue-attributes --queue-url URL --attributes file://attributes.json. ${POLICY_REVIEW}`,
    docsUrl:
      'https://docs.aws.amazon.com/AWSSimpleQueueService/latest/SQSDeveloperGuide/sqs-basic-examples-of-sqs-policies.html',
    evaluate: onPart('sqsQueues', ({ queues }) => sharedWithOtherAccounts(queues, 'SQS queue')),
  },
  {
    id: 'exposure.kms_key_public',
    service: 'kms',
    scenario: 'exposure',
    severity: 'CRITICAL',
    title: 'KMS key open to everyone',
    description:
      'The key policy of a customer managed KMS key allows everyone (Principal "*") with no condition that limits it to ' +
      'known accounts (kms:CallerAccount, aws:PrincipalOrgID, ...): any AWS principal can use the key as the policy allows, ' +
      "typically to decrypt what it protects or to change the key's policy, which defeats the encryption it stands for.",
    remediation:
      'In the KMS console open Customer managed keys > the key > Key policy > Edit (switch to policy view), and replace ' +
      '"Principal": "*" with the account\'s root (arn:aws:iam::ACCOUNT:root) or the roles that use the key, or add a ' +
      'kms:CallerAccount condition; then Save. With the CLI: aws kms get-key-policy --key-id KEY_ID --policy-name default ' +
      '--output text > policy.json, edit it, then aws kms put-key-policy --key-id KEY_ID --policy-name default --policy ' +
      'file://policy.json.',
    docsUrl: 'https://docs.aws.amazon.com/kms/latest/developerguide/key-policies.html',
    controls: { 'aws-fsbp': ['KMS.5'] },
    prowler: ['kms_key_not_publicly_accessible'],
    evaluate: onPart('kmsKeyPolicies', ({ keys }) =>
      openToEveryone(
        keys.map((k) => ({ ...k, name: k.id })),
        'KMS key',
      ),
    ),
  },
  {
    id: 'threat.kms_key_pending_deletion',
    service: 'kms',
    scenario: 'threat',
    severity: 'CRITICAL',
    title: 'KMS key scheduled for deletion',
    description:
      'A customer managed KMS key is scheduled for deletion. Once deleted, everything encrypted under it (volumes, ' +
      'snapshots, buckets, databases, secrets) can never be decrypted again: scheduling keys for deletion is how an ' +
      'attacker with KMS rights holds data to ransom or destroys it, and an unintended deletion loses the data as surely. ' +
      'The deletion can be cancelled until the date in the finding.',
    remediation:
      'If the deletion was not intended, cancel it before its date: in the KMS console open Customer managed keys > the ' +
      'key > Key actions > Cancel key deletion, then Key actions > Enable (a cancelled key stays disabled); or run aws kms ' +
      'cancel-key-deletion --key-id KEY_ID and aws kms enable-key --key-id KEY_ID. Find who scheduled it in CloudTrail ' +
      '(event ScheduleKeyDeletion). If it was intended, confirm nothing still needs the key (its CloudTrail Decrypt ' +
      'events) and accept the finding.',
    docsUrl: 'https://docs.aws.amazon.com/kms/latest/developerguide/deleting-keys.html',
    controls: { 'aws-fsbp': ['KMS.3'] },
    prowler: ['kms_cmk_not_deleted_unintentionally'],
    evaluate: onPart('kmsKeyPolicies', ({ keys }) =>
      failing(
        keys
          .filter((k) => k.state === 'PendingDeletion' || k.state === 'PendingReplicaDeletion')
          .map((k) => ({
            resource: k.arn,
            region: k.region,
            detail: `KMS key ${k.id} in ${k.region} is scheduled for deletion${k.deletionDate ? ` on ${k.deletionDate.slice(0, 10)}` : ''}.`,
          })),
      ),
    ),
  },
  {
    id: 'exposure.kms_key_cross_account',
    service: 'kms',
    scenario: 'exposure',
    severity: 'MEDIUM',
    title: 'KMS key shared with another account',
    description:
      'The key policy of a customer managed KMS key lets principals of another AWS account use the key. Sharing a key is ' +
      'how encrypted snapshots, images or logs are used across accounts, but every account named can decrypt what the ' +
      'key protects (as far as the policy allows): one that is not known, or no longer needs it, keeps that power.',
    remediation:
      'Check each account named in the finding. In the KMS console open Customer managed keys > the key > Key policy > ' +
      'Edit, remove the statements (or principals) of the accounts that should not use the key, and Save. With the CLI: aws ' +
      'kms get-key-policy --key-id KEY_ID --policy-name default --output text > policy.json, edit it, then aws kms ' +
      `put-key-policy --key-id KEY_ID --policy-name default --policy file://policy.json. ${POLICY_REVIEW}`,
    docsUrl: 'https://docs.aws.amazon.com/kms/latest/developerguide/key-policy-modifying-external-accounts.html',
    evaluate: onPart('kmsKeyPolicies', ({ keys }) =>
      sharedWithOtherAccounts(
        keys.map((k) => ({ ...k, name: k.id })),
        'KMS key',
      ),
    ),
  },
  {
    id: 'exposure.ecr_repository_public',
    service: 'ecr',
    scenario: 'exposure',
    severity: 'CRITICAL',
    title: 'ECR repository open to everyone',
    description:
      'The repository\'s policy allows everyone (Principal "*") with no condition that limits it: anyone with an AWS ' +
      'account can pull its images, with the code and often the credentials baked into them, and, when the policy allows ' +
      'pushes, replace an image the account runs with their own.',
    remediation:
      'In the ECR console open Private registry > Repositories > the repository > Permissions > Edit policy JSON, replace ' +
      '"Principal": "*" with the accounts or roles that pull from it (or delete the statement), and Save. With the CLI: aws ' +
      'ecr get-repository-policy --repository-name NAME, edit the policy, then aws ecr set-repository-policy ' +
      '--repository-name NAME --policy-text file://policy.json (or aws ecr delete-repository-policy --repository-name NAME). ' +
      'Images meant for the public belong in ECR Public.',
    docsUrl: 'https://docs.aws.amazon.com/AmazonECR/latest/userguide/repository-policies.html',
    prowler: ['ecr_repositories_not_publicly_accessible'],
    evaluate: onPart('ecrRepositories', ({ repositories }) => openToEveryone(repositories, 'ECR repository')),
  },
  {
    id: 'exposure.ecr_repository_cross_account',
    service: 'ecr',
    scenario: 'exposure',
    severity: 'MEDIUM',
    title: 'ECR repository shared with another account',
    description:
      "The repository's policy lets principals of another AWS account use it. Sharing images across an organization's " +
      'accounts is common, but every account named can pull the images (and push, if the policy allows): one that is not ' +
      'known, or no longer needs it, keeps that access unseen.',
    remediation:
      'Check each account named in the finding. In the ECR console open the repository > Permissions > Edit policy JSON, ' +
      'remove the statements (or principals) of the accounts that should not have it, and Save. With the CLI: aws ecr ' +
      'get-repository-policy --repository-name NAME, edit the policy, then aws ecr set-repository-policy --repository-name ' +
      `NAME --policy-text file://policy.json. ${POLICY_REVIEW}`,
    docsUrl: 'https://docs.aws.amazon.com/AmazonECR/latest/userguide/repository-policy-examples.html',
    evaluate: onPart('ecrRepositories', ({ repositories }) => sharedWithOtherAccounts(repositories, 'ECR repository')),
  },
  {
    id: 'exposure.ecr_scan_on_push_off',
    service: 'ecr',
    scenario: 'exposure',
    severity: 'MEDIUM',
    title: 'ECR repository does not scan images on push',
    description:
      'Images pushed to the repository are not scanned for known vulnerabilities, so an image with a vulnerable package ' +
      'reaches the workloads that run it without anyone being told.',
    remediation:
      'In the ECR console open the repository > Edit > Image scan settings, turn on "Scan on push" and Save; or run aws ' +
      'ecr put-image-scanning-configuration --repository-name NAME --image-scanning-configuration scanOnPush=true. To scan ' +
      'every repository, set a registry scanning rule instead (Private registry > Settings > Scanning, or aws ecr ' +
      'put-registry-scanning-configuration), with Amazon Inspector for continuous scanning.',
    docsUrl: 'https://docs.aws.amazon.com/AmazonECR/latest/userguide/image-scanning.html',
    controls: { 'aws-fsbp': ['ECR.1'] },
    prowler: ['ecr_repositories_scan_images_on_push_enabled'],
    evaluate: onPart('ecrRepositories', ({ repositories }) =>
      failing(
        repositories
          .filter((r) => !r.scanOnPush)
          .map((r) => ({
            resource: r.arn,
            region: r.region,
            detail: `ECR repository ${r.name} in ${r.region} does not scan images on push.`,
          })),
      ),
    ),
  },
  {
    id: 'exposure.ecr_tags_mutable',
    service: 'ecr',
    scenario: 'exposure',
    severity: 'LOW',
    title: 'ECR repository tags can be overwritten',
    description:
      "The repository's image tags are mutable: whoever can push can move a tag such as latest or v1.2 to another image, " +
      'and the workloads that pull by tag then run it, which is how a poisoned image slips into a deployment unnoticed.',
    remediation:
      'In the ECR console open the repository > Edit > Image tag mutability, choose Immutable and Save; or run aws ecr ' +
      'put-image-tag-mutability --repository-name NAME --image-tag-mutability IMMUTABLE. Release pipelines then push a new ' +
      'tag per build (or pull by digest).',
    docsUrl: 'https://docs.aws.amazon.com/AmazonECR/latest/userguide/image-tag-mutability.html',
    controls: { 'aws-fsbp': ['ECR.2'] },
    prowler: ['ecr_repositories_tag_immutability'],
    evaluate: onPart('ecrRepositories', ({ repositories }) =>
      failing(
        repositories
          .filter((r) => !r.tagsImmutable)
          .map((r) => ({
            resource: r.arn,
            region: r.region,
            detail: `ECR repository ${r.name} in ${r.region} lets a push overwrite an existing tag.`,
          })),
      ),
    ),
  },
  {
    id: 'exposure.glacier_vault_public',
    service: 'glacier',
    scenario: 'exposure',
    severity: 'CRITICAL',
    title: 'S3 Glacier vault open to everyone',
    description:
      'The vault\'s access policy allows everyone (Principal "*") with no condition that limits it: anyone with an AWS ' +
      'account can act on its archives as the policy allows, retrieving the backups it keeps or deleting them.',
    remediation:
      'In the S3 Glacier console open the vault > Permissions > Edit policy, replace "Principal": "*" with the accounts ' +
      'or roles that need it (or remove the statement), and Save. With the CLI: aws glacier get-vault-access-policy ' +
      '--account-id - --vault-name NAME, edit the policy, then aws glacier set-vault-access-policy --account-id - ' +
      '--vault-name NAME --policy \'{"Policy": "<the policy as a JSON string>"}\' (or aws glacier delete-vault-access-policy ' +
      '--account-id - --vault-name NAME).',
    docsUrl: 'https://docs.aws.amazon.com/amazonglacier/latest/dev/vault-access-policy.html',
    prowler: ['glacier_vaults_policy_public_access'],
    evaluate: onPart('glacierVaults', ({ vaults }) => openToEveryone(vaults, 'Glacier vault')),
  },
  {
    id: 'exposure.glacier_vault_cross_account',
    service: 'glacier',
    scenario: 'exposure',
    severity: 'MEDIUM',
    title: 'S3 Glacier vault shared with another account',
    description:
      "The vault's access policy lets principals of another AWS account act on its archives. Every account named can " +
      'retrieve (or delete, if allowed) the backups it keeps: one that is not known, or no longer needs it, keeps that ' +
      'access unseen.',
    remediation:
      'Check each account named in the finding. In the S3 Glacier console open the vault > Permissions > Edit policy, ' +
      'remove the statements of the accounts that should not have it, and Save; with the CLI, edit the policy read by aws ' +
      'glacier get-vault-access-policy --account-id - --vault-name NAME and write it back with aws glacier ' +
      `set-vault-access-policy. ${POLICY_REVIEW}`,
    docsUrl: 'https://docs.aws.amazon.com/amazonglacier/latest/dev/vault-access-policy.html',
    evaluate: onPart('glacierVaults', ({ vaults }) => sharedWithOtherAccounts(vaults, 'Glacier vault')),
  },
  {
    id: 'exposure.sns_topic_public',
    service: 'sns',
    scenario: 'exposure',
    severity: 'HIGH',
    title: 'SNS topic open to everyone',
    description:
      'The topic\'s access policy allows everyone (Principal "*") with no condition that limits it to the account ' +
      '(aws:SourceOwner, aws:SourceAccount, ...) or known networks: anyone with an AWS account can publish to it (forged ' +
      'alerts or orders reach every subscriber) or subscribe to it and receive what it carries.',
    remediation:
      'In the SNS console open the topic > Edit > Access policy, replace "Principal": "*" with the accounts or services ' +
      'that publish and subscribe (or add an aws:SourceOwner or aws:SourceAccount condition naming the account), and Save. ' +
      'With the CLI: aws sns get-topic-attributes --topic-arn ARN, edit the Policy, then aws sns set-topic-attributes ' +
      '--topic-arn ARN --attribute-name Policy --attribute-value file://policy.json.',
    docsUrl: 'https://docs.aws.amazon.com/sns/latest/dg/sns-security-best-practices.html',
    controls: { 'aws-fsbp': ['SNS.4'] },
    prowler: ['sns_topics_not_publicly_accessible'],
    evaluate: onPart('snsTopics', ({ topics }) => openToEveryone(topics, 'SNS topic')),
  },
  {
    id: 'exposure.sns_topic_unencrypted',
    service: 'sns',
    scenario: 'exposure',
    severity: 'MEDIUM',
    title: 'SNS topic not encrypted at rest',
    description:
      'The topic has no KMS key: the messages SNS stores while it delivers them are not encrypted under a key the ' +
      'account controls, and data protection rules that require encryption at rest are not met.',
    remediation:
      'In the SNS console open the topic > Edit > Encryption, enable encryption, choose a KMS key (alias/aws/sns, or a ' +
      'customer managed key when publishers in other accounts or services need it) and Save. With the CLI: aws sns ' +
      'set-topic-attributes --topic-arn ARN --attribute-name KmsMasterKeyId --attribute-value alias/aws/sns.',
    docsUrl: 'https://docs.aws.amazon.com/sns/latest/dg/sns-server-side-encryption.html',
    controls: { 'aws-fsbp': ['SNS.1'] },
    prowler: ['sns_topics_kms_encryption_at_rest_enabled'],
    evaluate: onPart('snsTopics', ({ topics }) =>
      failing(
        topics
          .filter((t) => !t.encrypted)
          .map((t) => ({
            resource: t.arn,
            region: t.region,
            detail: `SNS topic ${t.name} in ${t.region} is not encrypted with a KMS key.`,
          })),
      ),
    ),
  },
  {
    id: 'exposure.sns_http_subscription',
    service: 'sns',
    scenario: 'exposure',
    severity: 'HIGH',
    title: 'SNS subscription delivers over plain HTTP',
    description:
      "A confirmed subscription delivers the topic's messages to an http:// endpoint: every message crosses the network " +
      'in clear text, open to interception and tampering on the way.',
    remediation:
      'Subscribe the endpoint over HTTPS and remove the HTTP subscription: in the SNS console open the topic > Create ' +
      'subscription (protocol HTTPS, endpoint https://...), confirm it, then select the HTTP subscription > Delete. With ' +
      'the CLI: aws sns subscribe --topic-arn TOPIC_ARN --protocol https --notification-endpoint https://HOST/PATH, then ' +
      'aws sns unsubscribe --subscription-arn SUBSCRIPTION_ARN.',
    docsUrl: 'https://docs.aws.amazon.com/sns/latest/dg/sns-http-https-endpoint-as-subscriber.html',
    prowler: ['sns_subscription_not_using_http_endpoints'],
    evaluate: onPart('snsTopics', ({ subscriptions }) =>
      failing(
        subscriptions
          .filter((s) => s.protocol === 'http')
          .map((s) => ({
            resource: s.arn,
            region: s.region,
            detail: `A subscription of SNS topic ${s.topicArn.split(':').pop()} in ${s.region} delivers over HTTP${s.endpointHost ? ` to ${s.endpointHost}` : ''}.`,
          })),
      ),
    ),
  },
  {
    id: 'exposure.sns_topic_cross_account',
    service: 'sns',
    scenario: 'exposure',
    severity: 'LOW',
    title: 'SNS topic shared with another account',
    description:
      "The topic's access policy lets principals of another AWS account use it. That is how another account's queues " +
      'subscribe, but every account named can publish to or subscribe to the topic as the policy allows: one that is not ' +
      'known, or no longer needs it, keeps that access unseen.',
    remediation:
      'Check each account named in the finding. In the SNS console open the topic > Edit > Access policy, remove the ' +
      'statements (or principals) of the accounts that should not have it, and Save; with the CLI, edit the Policy read by ' +
      'aws sns get-topic-attributes --topic-arn ARN and write it back with aws sns set-topic-attributes --topic-arn ARN ' +
      `--attribute-name Policy --attribute-value file://policy.json. ${POLICY_REVIEW}`,
    docsUrl: 'https://docs.aws.amazon.com/sns/latest/dg/sns-access-policy-use-cases.html',
    evaluate: onPart('snsTopics', ({ topics }) => sharedWithOtherAccounts(topics, 'SNS topic')),
  },
  {
    id: 'exposure.secret_public',
    service: 'secretsmanager',
    scenario: 'exposure',
    severity: 'CRITICAL',
    title: 'Secrets Manager secret open to everyone',
    description:
      'The secret\'s resource policy allows everyone (Principal "*") with no condition that limits it: anyone with an ' +
      'AWS account can act on the secret as the policy allows, typically read its value (a database password, an API ' +
      'key) or replace it.',
    remediation:
      'In the Secrets Manager console open the secret > Overview > Resource permissions > Edit permissions, replace ' +
      '"Principal": "*" with the roles that read the secret (or remove the statement), and Save. With the CLI: aws ' +
      'secretsmanager get-resource-policy --secret-id ARN, edit it, then aws secretsmanager put-resource-policy ' +
      '--secret-id ARN --resource-policy file://policy.json --block-public-policy (or aws secretsmanager ' +
      'delete-resource-policy --secret-id ARN). Then rotate the secret: it may already have been read.',
    docsUrl: 'https://docs.aws.amazon.com/secretsmanager/latest/userguide/auth-and-access_resource-policies.html',
    prowler: ['secretsmanager_not_publicly_accessible'],
    evaluate: onPart('secrets', ({ secrets }) => openToEveryone(secrets, 'Secret')),
  },
  {
    id: 'exposure.secret_cross_account',
    service: 'secretsmanager',
    scenario: 'exposure',
    severity: 'MEDIUM',
    title: 'Secrets Manager secret shared with another account',
    description:
      "The secret's resource policy lets principals of another AWS account act on it, typically read its value. Every " +
      'account named holds the credential it keeps: one that is not known, or no longer needs it, keeps that access unseen.',
    remediation:
      'Check each account named in the finding. In the Secrets Manager console open the secret > Resource permissions > ' +
      'Edit permissions, remove the statements of the accounts that should not have it, and Save. With the CLI: aws ' +
      'secretsmanager get-resource-policy --secret-id ARN, edit it, then aws secretsmanager put-resource-policy --secret-id ' +
      `ARN --resource-policy file://policy.json. ${POLICY_REVIEW}`,
    docsUrl: 'https://docs.aws.amazon.com/secretsmanager/latest/userguide/auth-and-access_examples_cross.html',
    evaluate: onPart('secrets', ({ secrets }) => sharedWithOtherAccounts(secrets, 'Secret')),
  },
  {
    id: 'exposure.secret_rotation_off',
    service: 'secretsmanager',
    scenario: 'exposure',
    severity: 'MEDIUM',
    title: 'Secrets Manager secret without automatic rotation',
    description:
      'Automatic rotation is off for the secret: the credential it keeps never changes, so a copy leaked once (in a log, ' +
      "a laptop, a former employee's notes) works for as long as the secret lives.",
    remediation:
      'In the Secrets Manager console open the secret > Rotation > Edit rotation, turn on Automatic rotation, choose a ' +
      'schedule (30 days, say) and the rotation function (Secrets Manager creates one for RDS, Redshift and DocumentDB ' +
      'credentials), and Save. With the CLI: aws secretsmanager rotate-secret --secret-id ARN --rotation-lambda-arn ' +
      'FUNCTION_ARN --rotation-rules AutomaticallyAfterDays=30.',
    docsUrl: 'https://docs.aws.amazon.com/secretsmanager/latest/userguide/rotating-secrets.html',
    controls: { 'aws-fsbp': ['SecretsManager.1'] },
    prowler: ['secretsmanager_automatic_rotation_enabled'],
    evaluate: onPart('secrets', ({ secrets }) =>
      failing(
        secrets
          .filter((s) => !s.rotationEnabled)
          .map((s) => ({
            resource: s.arn,
            region: s.region,
            detail: `Secret ${s.name} in ${s.region} does not rotate automatically.`,
          })),
      ),
    ),
  },
  {
    id: 'exposure.secret_unused',
    service: 'secretsmanager',
    scenario: 'exposure',
    severity: 'LOW',
    title: 'Secrets Manager secret unused',
    description:
      `The secret's value has not been retrieved for more than ${SECRET_UNUSED_DAYS} days (or ever, and it is older ` +
      'than that): the credential it keeps is probably no longer needed, yet it still works for whoever can read it.',
    remediation:
      'Confirm nothing still reads the secret (its CloudTrail GetSecretValue events), revoke the credential where it is ' +
      'valid, then delete the secret: in the Secrets Manager console open the secret > Actions > Delete secret (a waiting ' +
      'period of 7 to 30 days lets you restore it); or run aws secretsmanager delete-secret --secret-id ARN ' +
      '--recovery-window-in-days 30.',
    docsUrl: 'https://docs.aws.amazon.com/secretsmanager/latest/userguide/manage_delete-secret.html',
    controls: { 'aws-fsbp': ['SecretsManager.3'] },
    prowler: ['secretsmanager_secret_unused'],
    evaluate: onPart('secrets', ({ secrets }, { now }) =>
      failing(
        secrets.flatMap((s): FailingResource[] => {
          const since = s.lastAccessedAt ?? s.createdAt;
          if (!since || daysSince(since, now) <= SECRET_UNUSED_DAYS) return [];
          const what = s.lastAccessedAt
            ? `was last read on ${s.lastAccessedAt.slice(0, 10)}`
            : `has never been read since it was created on ${since.slice(0, 10)}`;
          return [{ resource: s.arn, region: s.region, detail: `Secret ${s.name} in ${s.region} ${what}.` }];
        }),
      ),
    ),
  },
  {
    id: 'exposure.ses_identity_public',
    service: 'ses',
    scenario: 'exposure',
    severity: 'HIGH',
    title: 'SES identity open to everyone',
    description:
      'A sending authorization policy of the SES identity (a domain or an email address) allows everyone (Principal ' +
      '"*") with no condition that limits it: anyone with an AWS account can send email as the domain or address, with ' +
      'its reputation and its DKIM signature, which makes phishing from it look genuine.',
    remediation:
      'In the SES console open Identities > the identity > Authorization, edit the policy to name the accounts allowed to ' +
      'send (or delete it), and Save. With the CLI: aws sesv2 get-email-identity-policies --email-identity IDENTITY, then ' +
      'aws sesv2 update-email-identity-policy --email-identity IDENTITY --policy-name NAME --policy file://policy.json (or ' +
      'aws sesv2 delete-email-identity-policy --email-identity IDENTITY --policy-name NAME).',
    docsUrl: 'https://docs.aws.amazon.com/ses/latest/dg/sending-authorization-policies.html',
    prowler: ['ses_identity_not_publicly_accessible'],
    evaluate: onPart('sesIdentities', ({ identities }) => openToEveryone(identities, 'SES identity')),
  },
  {
    id: 'exposure.ses_identity_cross_account',
    service: 'ses',
    scenario: 'exposure',
    severity: 'LOW',
    title: 'SES identity lets another account send',
    description:
      'A sending authorization policy of the SES identity lets another AWS account send email as the domain or address. ' +
      'That is how a delegated sender is set up, but every account named can send as the identity: one that is not ' +
      'known, or no longer needs it, can send mail that looks genuine.',
    remediation:
      'Check each account named in the finding. In the SES console open Identities > the identity > Authorization, ' +
      'remove the statements of the accounts that should not send, and Save; with the CLI, aws sesv2 ' +
      'update-email-identity-policy --email-identity IDENTITY --policy-name NAME --policy file://policy.json.',
    docsUrl: 'https://docs.aws.amazon.com/ses/latest/dg/sending-authorization.html',
    evaluate: onPart('sesIdentities', ({ identities }) => sharedWithOtherAccounts(identities, 'SES identity')),
  },
  {
    id: 'exposure.eventbridge_bus_public',
    service: 'eventbridge',
    scenario: 'exposure',
    severity: 'HIGH',
    title: 'EventBridge event bus open to everyone',
    description:
      'The event bus\'s resource policy allows everyone (Principal "*") with no condition that limits it to an ' +
      'organization or known accounts: anyone with an AWS account can put events on it, which its rules then act on ' +
      '(start workflows, invoke functions, notify people) as if they came from the account.',
    remediation:
      'In the EventBridge console open Event buses > the bus > Permissions (Manage permissions), replace "Principal": ' +
      '"*" with the accounts that send events, or add an aws:PrincipalOrgID condition, and Update. With the CLI: aws events ' +
      'describe-event-bus --name NAME, then aws events remove-permission --event-bus-name NAME --statement-id SID (or aws ' +
      'events put-permission --event-bus-name NAME --policy file://policy.json with the corrected policy).',
    docsUrl: 'https://docs.aws.amazon.com/eventbridge/latest/userguide/eb-event-bus-perms.html',
    prowler: ['eventbridge_bus_exposed'],
    evaluate: onPart('eventBuses', ({ buses }) => openToEveryone(buses, 'Event bus')),
  },
  {
    id: 'exposure.eventbridge_bus_cross_account',
    service: 'eventbridge',
    scenario: 'exposure',
    severity: 'MEDIUM',
    title: 'EventBridge event bus shared with another account',
    description:
      "The event bus's resource policy lets principals of another AWS account put events on it (or manage its rules, " +
      'if allowed): its rules act on what they send. One account that is not known, or no longer needs it, can trigger ' +
      "the bus's targets.",
    remediation:
      'Check each account named in the finding. In the EventBridge console open the bus > Permissions, remove the ' +
      'statements of the accounts that should not send, and Update; or run aws events remove-permission --event-bus-name ' +
      `NAME --statement-id SID. ${POLICY_REVIEW}`,
    docsUrl: 'https://docs.aws.amazon.com/eventbridge/latest/userguide/eb-event-bus-perms.html',
    prowler: ['eventbridge_bus_cross_account_access'],
    evaluate: onPart('eventBuses', ({ buses }) => sharedWithOtherAccounts(buses, 'Event bus')),
  },
  {
    id: 'exposure.log_resource_policy_public',
    service: 'cloudwatch',
    scenario: 'exposure',
    severity: 'HIGH',
    title: 'CloudWatch Logs resource policy open to everyone',
    description:
      'A CloudWatch Logs resource policy allows everyone (Principal "*") with no condition that limits it: anyone with ' +
      'an AWS account can act on the log groups its statements name as it allows, reading what applications log or ' +
      'writing forged entries into them.',
    remediation:
      'List the policies (CloudWatch console > Logs > Log groups > Actions > Resource policies, or aws logs ' +
      'describe-resource-policies), then replace "Principal": "*" with the service or accounts that deliver the logs, with ' +
      'an aws:SourceAccount or aws:SourceArn condition, and write it back with aws logs put-resource-policy --policy-name ' +
      'NAME --policy-document file://policy.json (or remove it with aws logs delete-resource-policy --policy-name NAME).',
    docsUrl: 'https://docs.aws.amazon.com/AmazonCloudWatchLogs/latest/APIReference/API_PutResourcePolicy.html',
    prowler: ['cloudwatch_log_group_not_publicly_accessible'],
    evaluate: onPart('logResourcePolicies', ({ policies }) =>
      openToEveryone(
        policies.map((p) => ({ ...p, arn: p.name })),
        'Resource policy',
      ),
    ),
  },
];
