import { describeSecrets } from '../secrets/detector';
import { failing, onPart } from './helpers';
import type { Check } from './types';

// Step Functions state machines: secrets written into their definitions, and executions that leave no log.

export const STEP_FUNCTIONS_CHECKS: readonly Check[] = [
  {
    id: 'exposure.stepfunctions_secrets_in_definition',
    service: 'stepfunctions',
    scenario: 'exposure',
    severity: 'CRITICAL',
    title: 'Secret in a Step Functions state machine definition',
    description:
      "A state machine's definition holds what looks like a credential (an API key in a task's parameters, a token " +
      'in an HTTP header). Definitions are shown in clear to anyone who may describe the state machine ' +
      "(states:DescribeStateMachine, which read-only roles have), and are copied into every execution's history " +
      'and version: the credential should be treated as exposed.',
    remediation:
      'Rotate the credential. Keep it in AWS Secrets Manager and have the state machine read it when it runs (an ' +
      'HTTP Task takes it from an EventBridge connection; other tasks call secretsmanager:GetSecretValue through the ' +
      'AWS SDK integration), or in SSM Parameter Store. Console: Step Functions > State machines > the state machine > ' +
      'Edit, remove the value, Save. CLI: aws stepfunctions update-state-machine --state-machine-arn ARN ' +
      '--definition file://definition.json.',
    docsUrl: 'https://docs.aws.amazon.com/step-functions/latest/dg/connect-third-party-apis.html',
    prowler: ['stepfunctions_statemachine_no_secrets_in_definition'],
    evaluate: onPart('stateMachines', ({ machines }) =>
      failing(
        machines
          .filter((m) => m.definitionSecrets.length > 0)
          .map((m) => ({
            resource: m.arn,
            region: m.region,
            detail: describeSecrets(`The definition of state machine ${m.name} in ${m.region}`, m.definitionSecrets),
          })),
      ),
    ),
  },
  {
    id: 'detection.stepfunctions_logging_off',
    service: 'stepfunctions',
    scenario: 'detection',
    severity: 'MEDIUM',
    title: 'Step Functions state machine without logging',
    description:
      "The state machine's logging level is OFF: its executions' inputs, outputs and errors are not sent to " +
      'CloudWatch Logs, so misuse of the workflow (or of the credentials of its role) leaves no trace beyond the ' +
      'execution history, which is deleted after 90 days.',
    remediation:
      'Turn logging on at ERROR or ALL. Console: Step Functions > State machines > the state machine > Edit > Config > ' +
      'Logging, choose a log level and a log group, Save. CLI: aws stepfunctions update-state-machine ' +
      '--state-machine-arn ARN --logging-configuration \'{"level": "ERROR", "includeExecutionData": false, ' +
      '"destinations": [{"cloudWatchLogsLogGroup": {"logGroupArn": "LOG_GROUP_ARN:*"}}]}\' (the state machine\'s role ' +
      'needs the CloudWatch Logs delivery permissions).',
    docsUrl: 'https://docs.aws.amazon.com/step-functions/latest/dg/cw-logs.html',
    controls: { 'aws-fsbp': ['StepFunctions.1'] },
    prowler: ['stepfunctions_statemachine_logging_enabled'],
    evaluate: onPart('stateMachines', ({ machines }) =>
      failing(
        machines
          .filter((m) => m.logLevel === 'OFF')
          .map((m) => ({
            resource: m.arn,
            region: m.region,
            detail: `State machine ${m.name} in ${m.region} does not log its executions (logging level OFF).`,
          })),
      ),
    ),
  },
];
