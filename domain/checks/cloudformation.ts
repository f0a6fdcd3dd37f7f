import { describeSecrets } from '../secrets/detector';
import { failing, onPart } from './helpers';
import type { Check } from './types';

// CloudFormation stacks: secrets published in their outputs, and stacks one call deletes with all their resources.

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
  {
    id: 'exposure.cloudformation_termination_protection_off',
    service: 'cloudformation',
    scenario: 'exposure',
    severity: 'LOW',
    title: 'CloudFormation stack without termination protection',
    description:
      'Termination protection is off for the stack: one DeleteStack call (a mistake, a script run against the wrong ' +
      'account, or someone with stolen credentials destroying what they can) deletes the stack and every resource it ' +
      'created that has no retain policy, databases and buckets included.',
    remediation:
      'Turn termination protection on for the stacks that hold lasting resources. Console: CloudFormation > Stacks > ' +
      'the stack > Stack actions > Edit termination protection > Activated. CLI: aws cloudformation ' +
      'update-termination-protection --enable-termination-protection --stack-name STACK. Nested stacks follow their ' +
      'root stack: turn it on there.',
    docsUrl: 'https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/using-cfn-protect-stacks.html',
    prowler: ['cloudformation_stacks_termination_protection_enabled'],
    evaluate: onPart('cloudformationStacks', ({ stacks }) =>
      failing(
        stacks
          .filter((stack) => !stack.terminationProtection && !stack.nested)
          .map((stack) => ({
            resource: stack.id,
            region: stack.region,
            detail: `Stack ${stack.name} in ${stack.region} can be deleted without first turning termination protection off.`,
          })),
      ),
    ),
  },
];
