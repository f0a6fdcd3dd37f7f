import type { Unread } from '../scans/inventory';
import { failing, onPart, withUnread } from './helpers';
import type { Check, FailingResource } from './types';

// Bedrock: what lets a stolen key run models on the account's bill unseen (LLM-jacking: invocation logging off,
// long-term API keys, full access granted), and what protects what the account's models and agents hold
// (customer managed keys, guardrails). Checked in the regions where AWS offers Bedrock.

const FULL_ACCESS_POLICY = 'AmazonBedrockFullAccess';
const INVOCATION_LOGGING = 'model-invocation-logging';
/** The contextual grounding filters a guardrail needs to block ungrounded and irrelevant answers. */
const GROUNDING_TYPES = ['GROUNDING', 'RELEVANCE'] as const;

export const BEDROCK_CHECKS: readonly Check[] = [
  {
    id: 'exposure.bedrock_custom_model_not_cmk',
    service: 'bedrock',
    scenario: 'exposure',
    severity: 'CRITICAL',
    title: 'Bedrock custom model not encrypted with a customer managed key',
    description:
      "The custom model (fine-tuned or continued pre-trained on the account's data) is encrypted with a key AWS " +
      "owns: nobody can audit its use in CloudTrail, restrict it with a key policy or revoke it, and the model's " +
      'weights carry what it was trained on.',
    remediation:
      'The key of a custom model is chosen when it is created. Create a customer managed KMS key (KMS console > ' +
      "Create key, or aws kms create-key) whose policy lets the customization job's role use it, then run the " +
      'customization again with it: Bedrock console > Custom models > Customize model, Model encryption > Customize ' +
      'encryption settings, or aws bedrock create-model-customization-job ... --custom-model-kms-key-id KEY_ARN. Move ' +
      'what uses the old model to the new one and delete the old one (aws bedrock delete-custom-model ' +
      '--model-identifier MODEL_ARN).',
    docsUrl: 'https://docs.aws.amazon.com/bedrock/latest/userguide/encryption-custom-job.html',
    prowler: ['bedrock_custom_model_encrypted_with_cmk'],
    evaluate: onPart('bedrockCustomModels', ({ models }) =>
      failing(
        models
          .filter((m) => m.kmsKeyArn === null)
          .map((m) => ({
            resource: m.arn,
            region: m.region,
            detail: `Custom model ${m.name} in ${m.region} is encrypted with an AWS owned key.`,
          })),
      ),
    ),
  },
  {
    id: 'detection.bedrock_invocation_logging_off',
    service: 'bedrock',
    scenario: 'detection',
    severity: 'HIGH',
    title: 'Bedrock model invocation logging off',
    description:
      'Bedrock does not log model invocations in the region. Whoever gets hold of a key that may call Bedrock can ' +
      "run models there on the account's bill (LLM-jacking) and leave no record of the prompts, the models or the " +
      'volume: CloudTrail records that InvokeModel was called, not what it ran, and the first sign is the invoice.',
    remediation:
      'In the Bedrock console of the region open Settings > Model invocation logging, turn it on, choose the data ' +
      'to log and an S3 bucket or CloudWatch Logs log group (with a role Bedrock can assume to write there), and ' +
      'save. With the CLI: aws bedrock put-model-invocation-logging-configuration --region REGION ' +
      '--logging-config \'{"cloudWatchConfig": {"logGroupName": "bedrock-invocations", "roleArn": "ROLE_ARN"}, ' +
      '"textDataDeliveryEnabled": true}\'. Do it in every region where Bedrock is offered, used or not: an attacker ' +
      'picks the region nobody watches.',
    docsUrl: 'https://docs.aws.amazon.com/bedrock/latest/userguide/model-invocation-logging.html',
    prowler: ['bedrock_model_invocation_logging_enabled'],
    evaluate: onPart('bedrockInvocationLogging', ({ regions }) =>
      failing(
        regions
          .filter((r) => r.destination === null)
          .map((r) => ({
            resource: INVOCATION_LOGGING,
            region: r.region,
            detail: `Bedrock model invocation logging is off in ${r.region}.`,
          })),
      ),
    ),
  },
  {
    id: 'detection.bedrock_invocation_logs_unencrypted',
    service: 'bedrock',
    scenario: 'detection',
    severity: 'HIGH',
    title: 'Bedrock invocation logs not encrypted with a KMS key',
    description:
      'Bedrock logs model invocations (prompts and completions, which carry whatever users and applications sent ' +
      'the model) to a CloudWatch Logs log group that has no KMS key: anyone allowed to read the log group reads ' +
      'them, with no key policy to narrow it and no record of key use. Logs delivered to S3 are encrypted at rest ' +
      'by S3 in any case (every bucket has default encryption) and are not judged here.',
    remediation:
      'Create a customer managed KMS key whose key policy allows the CloudWatch Logs service principal of the ' +
      'region (logs.REGION.amazonaws.com) to use it, then associate it with the log group: CloudWatch console > Log ' +
      'groups > the group > Actions > Edit log group > KMS key ARN, or aws logs associate-kms-key --log-group-name ' +
      'GROUP --kms-key-id KEY_ARN. Data logged from then on is encrypted with the key.',
    docsUrl: 'https://docs.aws.amazon.com/AmazonCloudWatch/latest/logs/encrypt-log-data-kms.html',
    prowler: ['bedrock_model_invocation_logs_encryption_enabled'],
    evaluate: onPart('bedrockInvocationLogging', ({ regions }) =>
      failing(
        regions.flatMap((r): FailingResource[] => {
          const group = r.destination?.logGroup;
          if (!group || group.kmsKeyId !== null) return [];
          return [
            {
              resource: INVOCATION_LOGGING,
              region: r.region,
              detail: `Bedrock logs model invocations in ${r.region} to log group ${group.name}, which has no KMS key.`,
            },
          ];
        }),
      ),
    ),
  },
  {
    id: 'exposure.bedrock_guardrail_no_prompt_attack_filter',
    service: 'bedrock',
    scenario: 'exposure',
    severity: 'HIGH',
    title: 'Bedrock guardrail does not block prompt attacks at high strength',
    description:
      'The guardrail has no prompt attack filter, or one below HIGH strength on input: jailbreaks and prompt ' +
      'injections that turn a model or an agent against its instructions (and against the data and tools it ' +
      'reaches) pass it.',
    remediation:
      'In the Bedrock console open Guardrails > the guardrail > Working draft > Edit, under Content filters turn on ' +
      'Prompt attacks with the High threshold, save and create a version. With the CLI, aws bedrock ' +
      "update-guardrail --guardrail-identifier ID with the guardrail's whole configuration and, in " +
      '--content-policy-config, the filter {"type": "PROMPT_ATTACK", "inputStrength": "HIGH", "outputStrength": ' +
      '"NONE"}; then aws bedrock create-guardrail-version --guardrail-identifier ID, and use the new version.',
    docsUrl: 'https://docs.aws.amazon.com/bedrock/latest/userguide/guardrails-prompt-attack.html',
    prowler: ['bedrock_guardrail_prompt_attack_filter_enabled'],
    evaluate: onPart('bedrockGuardrails', ({ guardrails }) =>
      failing(
        guardrails
          .filter((g) => g.promptAttackStrength !== 'HIGH')
          .map((g) => ({
            resource: g.arn,
            region: g.region,
            detail:
              g.promptAttackStrength === null
                ? `Guardrail ${g.name} in ${g.region} has no prompt attack filter.`
                : `Guardrail ${g.name} in ${g.region} filters prompt attacks at ${g.promptAttackStrength} strength, not HIGH.`,
          })),
      ),
    ),
  },
  {
    id: 'exposure.bedrock_guardrail_no_sensitive_info_filter',
    service: 'bedrock',
    scenario: 'exposure',
    severity: 'HIGH',
    title: 'Bedrock guardrail does not filter sensitive information',
    description:
      'The guardrail has no sensitive information filter (no PII type and no regular expression to block or ' +
      'mask): personal data, credentials and other secrets in prompts or answers pass it, into the model and out ' +
      'of it.',
    remediation:
      'In the Bedrock console open Guardrails > the guardrail > Working draft > Edit > Add sensitive information ' +
      'filters, choose the PII types (and regular expressions for your own identifiers) to block or mask, save and ' +
      'create a version. With the CLI, aws bedrock update-guardrail --guardrail-identifier ID with the whole ' +
      'configuration and --sensitive-information-policy-config \'{"piiEntitiesConfig": [{"type": "EMAIL", "action": ' +
      '"ANONYMIZE"}, ...]}\', then aws bedrock create-guardrail-version --guardrail-identifier ID.',
    docsUrl: 'https://docs.aws.amazon.com/bedrock/latest/userguide/guardrails-sensitive-filters.html',
    prowler: ['bedrock_guardrail_sensitive_information_filter_enabled'],
    evaluate: onPart('bedrockGuardrails', ({ guardrails }) =>
      failing(
        guardrails
          .filter((g) => !g.sensitiveInformation)
          .map((g) => ({
            resource: g.arn,
            region: g.region,
            detail: `Guardrail ${g.name} in ${g.region} neither blocks nor masks sensitive information.`,
          })),
      ),
    ),
  },
  {
    id: 'exposure.bedrock_guardrail_no_grounding_filter',
    service: 'bedrock',
    scenario: 'exposure',
    severity: 'HIGH',
    title: 'Bedrock guardrail does not block ungrounded answers',
    description:
      'The guardrail lacks a GROUNDING or a RELEVANCE contextual grounding filter that is on, blocks and has a ' +
      'threshold above 0: answers that the source material does not support, or that do not answer the question, ' +
      "reach users as if they were the application's own. A filter whose action or on/off state AWS did not report " +
      'is named as unread.',
    remediation:
      'In the Bedrock console open Guardrails > the guardrail > Working draft > Edit > Add contextual grounding ' +
      'check, turn on both the grounding and the relevance check with the Block action and a threshold above 0 ' +
      '(0.7 is a common start), save and create a version. With the CLI, aws bedrock update-guardrail ' +
      '--guardrail-identifier ID with the whole configuration and --contextual-grounding-policy-config ' +
      '\'{"filtersConfig": [{"type": "GROUNDING", "threshold": 0.7, "action": "BLOCK", "enabled": true}, {"type": ' +
      '"RELEVANCE", "threshold": 0.7, "action": "BLOCK", "enabled": true}]}\', then aws bedrock ' +
      'create-guardrail-version --guardrail-identifier ID.',
    docsUrl: 'https://docs.aws.amazon.com/bedrock/latest/userguide/guardrails-contextual-grounding-check.html',
    prowler: ['bedrock_guardrail_contextual_grounding_filter_enabled'],
    evaluate: onPart('bedrockGuardrails', ({ guardrails }) => {
      const resources: FailingResource[] = [];
      const unread: Unread[] = [];
      for (const g of guardrails) {
        const reasons: string[] = [];
        let unknown = false;
        for (const type of GROUNDING_TYPES) {
          const filter = g.groundingFilters.find((f) => f.type === type);
          if (!filter) reasons.push(`has no ${type} filter`);
          else if (filter.enabled === false) reasons.push(`has its ${type} filter turned off`);
          else if (filter.action !== null && filter.action !== 'BLOCK')
            reasons.push(`has its ${type} filter on action ${filter.action}, which detects without blocking`);
          else if (!(filter.threshold > 0)) reasons.push(`has its ${type} filter at threshold 0, which nothing trips`);
          else if (filter.action === null || filter.enabled === null) unknown = true;
        }
        if (reasons.length > 0)
          resources.push({
            resource: g.arn,
            region: g.region,
            detail: `Guardrail ${g.name} in ${g.region} ${reasons.join(' and ')}.`,
          });
        else if (unknown)
          unread.push({
            kind: 'resource',
            scope: g.arn,
            reason:
              'Bedrock did not report whether its contextual grounding filters are on and block (enabled, action).',
          });
      }
      return withUnread(failing(resources), unread);
    }),
  },
  {
    id: 'exposure.bedrock_agent_without_guardrail',
    service: 'bedrock',
    scenario: 'exposure',
    severity: 'HIGH',
    title: 'Bedrock agent without a guardrail',
    description:
      'The agent applies no guardrail to its sessions: prompt attacks, harmful content and sensitive information ' +
      'reach the model and come back unfiltered, while the agent can call the actions and read the knowledge bases ' +
      'it is given.',
    remediation:
      'In the Bedrock console open Agents > the agent > Edit in Agent builder > Guardrail details > Edit, choose a ' +
      'guardrail and its version, save and prepare the agent. With the CLI, aws bedrock-agent update-agent ' +
      '--agent-id ID (with its current name, role and foundation model) --guardrail-configuration ' +
      'guardrailIdentifier=GUARDRAIL_ID,guardrailVersion=VERSION, then aws bedrock-agent prepare-agent --agent-id ID.',
    docsUrl: 'https://docs.aws.amazon.com/bedrock/latest/userguide/agents-guardrail.html',
    prowler: ['bedrock_agent_guardrail_enabled'],
    evaluate: onPart('bedrockAgents', ({ agents }) =>
      failing(
        agents
          .filter((a) => a.guardrailId === null)
          .map((a) => ({
            resource: a.id,
            region: a.region,
            detail: `Agent ${a.name} (${a.id}) in ${a.region} has no guardrail.`,
          })),
      ),
    ),
  },
  {
    id: 'exposure.bedrock_knowledge_base_not_cmk',
    service: 'bedrock',
    scenario: 'exposure',
    severity: 'HIGH',
    title: 'Bedrock knowledge base data source not encrypted with a customer managed key',
    description:
      "The knowledge base's data source has no customer managed KMS key: the documents it ingests rest, while " +
      'Bedrock processes them, under a key AWS owns, which nobody can audit, restrict with a key policy or revoke.',
    remediation:
      'In the Bedrock console open Knowledge Bases > the knowledge base > the data source > Edit > Advanced ' +
      'settings, choose a customer managed KMS key for transient data storage and save. With the CLI, aws ' +
      'bedrock-agent update-data-source --knowledge-base-id KB_ID --data-source-id DS_ID (with its name and ' +
      "configuration) --server-side-encryption-configuration kmsKeyArn=KEY_ARN. The knowledge base's role must be " +
      'allowed to use the key.',
    docsUrl: 'https://docs.aws.amazon.com/bedrock/latest/userguide/encryption-kb.html',
    prowler: ['bedrock_knowledge_base_encrypted_with_cmk'],
    evaluate: onPart('bedrockAgents', ({ dataSources }) =>
      failing(
        dataSources
          .filter((d) => d.kmsKeyArn === null)
          .map((d) => ({
            resource: `${d.knowledgeBaseId}/${d.id}`,
            region: d.region,
            detail:
              `Data source ${d.name} of knowledge base ${d.knowledgeBaseName} in ${d.region} has no customer managed ` +
              'KMS key.',
          })),
      ),
    ),
  },
  {
    id: 'iam.bedrock_full_access_attached',
    service: 'bedrock',
    scenario: 'iam',
    severity: 'HIGH',
    title: 'AmazonBedrockFullAccess attached',
    description:
      'A user, group or role has the AWS managed policy AmazonBedrockFullAccess, which allows every Bedrock action ' +
      'on every resource: invoking any model in any region, turning off invocation logging, and changing guardrails, ' +
      "agents and custom models. Its credentials, once stolen, serve for LLM-jacking at the account's expense.",
    remediation:
      'Replace the policy with one that allows only the models and actions the principal uses (for an application, ' +
      'bedrock:InvokeModel on the ARNs of its models). In the IAM console open the user, group or role > ' +
      'Permissions, attach the narrower policy, then select AmazonBedrockFullAccess > Remove. With the CLI: aws iam ' +
      'detach-role-policy --role-name NAME --policy-arn arn:aws:iam::aws:policy/AmazonBedrockFullAccess (or ' +
      'detach-user-policy --user-name, detach-group-policy --group-name).',
    docsUrl: 'https://docs.aws.amazon.com/bedrock/latest/userguide/security-iam-awsmanpol.html',
    prowler: ['bedrock_full_access_policy_attached'],
    evaluate: onPart('iamPrincipals', ({ users, groups, roles }) =>
      failing(
        [
          ...users.map((u) => ({ kind: 'IAM user', ...u })),
          ...groups.map((g) => ({ kind: 'IAM group', ...g })),
          ...roles.map((r) => ({ kind: 'IAM role', ...r })),
        ]
          .filter((p) => p.managedPolicies.includes(FULL_ACCESS_POLICY))
          .map((p) => ({ resource: p.arn, detail: `${p.kind} ${p.name} has ${FULL_ACCESS_POLICY} attached.` })),
      ),
    ),
  },
  {
    id: 'iam.bedrock_long_term_api_key',
    service: 'bedrock',
    scenario: 'iam',
    severity: 'HIGH',
    title: 'Long-term Bedrock API key in use',
    description:
      'An IAM user has an active long-term Bedrock API key (a service-specific credential for ' +
      'bedrock.amazonaws.com) that has not expired, possibly one that never does. It is a bearer token: pasted into ' +
      'a script, a notebook or a chat, it lets anyone call Bedrock as the user until it expires or is deleted. AWS ' +
      'recommends short-term keys (valid up to 12 hours) outside exploration.',
    remediation:
      "Move the application to short-term Bedrock API keys or to its role's credentials, then delete the key: IAM " +
      'console > Users > the user > Security credentials > API keys for Amazon Bedrock > Actions > Delete (or ' +
      'Deactivate first); or aws iam delete-service-specific-credential --user-name USER ' +
      '--service-specific-credential-id KEY_ID. An SCP can deny iam:CreateServiceSpecificCredential for ' +
      'bedrock.amazonaws.com (condition iam:ServiceSpecificCredentialServiceName).',
    docsUrl: 'https://docs.aws.amazon.com/bedrock/latest/userguide/api-keys.html',
    prowler: ['bedrock_api_key_no_long_term_credentials'],
    evaluate: onPart('bedrockApiKeys', ({ keys }, { now }) =>
      failing(
        keys
          .filter((k) => k.status === 'Active' && (k.expiresAt === null || Date.parse(k.expiresAt) > Date.parse(now)))
          .map((k) => ({
            resource: k.id,
            detail:
              `IAM user ${k.userName} has an active long-term Bedrock API key (${k.id}) ` +
              (k.expiresAt === null ? 'that never expires.' : `that expires on ${k.expiresAt.slice(0, 10)}.`),
          })),
      ),
    ),
  },
];
