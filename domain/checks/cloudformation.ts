import { describeSecrets } from '../secrets/detector';
import { failing, onPart } from './helpers';
import type { Check } from './types';

// CloudFormation stacks: secrets published in their outputs.

export const CLOUDFORMATION_CHECKS: readonly Check[] = [
  {
    id: 'exposure.cloudformation_secrets_in_outputs',
    service: 'cloudformation',
    scenario: 'exposure',
    severity: 'CRITICAL',
    title: 'Secret in a CloudFormation stack output',
    description:
      "A stack's outputs hold what looks like a credential. Outputs are shown in clear to anyone who may describe the " +
      'stack (cloudformation:DescribeStacks, which read-only roles have), in the console and in every deployment log; ' +
      'an exported output is readable by every stack of the region: the credential should be treated as exposed.',
    remediation:
      'Rotate the credential. Remove the output from the template and, where a value must be passed on, pass the ARN ' +
      'or name of the secret in AWS Secrets Manager or SSM Parameter Store instead (a dynamic reference, ' +
      '{{resolve:secretsmanager:NAME}}, reads it where it is used). Console: CloudFormation > Stacks > the stack > ' +
      'Update > Replace current template, upload the corrected template. CLI: aws cloudformation deploy ' +
      '--template-file template.yaml --stack-name STACK (or update-stack). An output other stacks import cannot be ' +
      'removed until they stop importing it (aws cloudformation list-imports --export-name NAME).',
    docsUrl: 'https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/outputs-section-structure.html',
    prowler: ['cloudformation_stack_outputs_find_secrets'],
    evaluate: onPart('cloudformationStacks', ({ stacks }) =>
      failing(
        stacks
          .filter((stack) => stack.outputSecrets.length > 0)
          .map((stack) => ({
            resource: stack.id,
            region: stack.region,
            detail: describeSecrets(`The outputs of stack ${stack.name} in ${stack.region}`, stack.outputSecrets),
          })),
      ),
    ),
  },
];
