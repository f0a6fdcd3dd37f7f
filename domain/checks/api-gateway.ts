import type { ApiGatewayStage } from '../scans/inventory';
import { describeSecrets } from '../secrets/detector';
import { failing, onPart } from './helpers';
import type { Check } from './types';

// API Gateway REST API stages: secrets in stage variables, stages that keep no logs, and stages no web application
// firewall stands in front of.

const APIGW_DOCS = 'https://docs.aws.amazon.com/apigateway/latest/developerguide/';

/** A stage's ARN, as API Gateway names it. */
export const stageArn = (s: ApiGatewayStage) =>
  `arn:aws:apigateway:${s.region}::/restapis/${s.apiId}/stages/${s.stage}`;
const named = (s: ApiGatewayStage) => `Stage ${s.stage} of REST API ${s.apiName} (${s.apiId}) in ${s.region}`;

export const API_GATEWAY_CHECKS: readonly Check[] = [
  {
    id: 'exposure.apigateway_secrets_in_stage_variables',
    service: 'apigateway',
    scenario: 'exposure',
    severity: 'HIGH',
    title: 'Secret in an API Gateway stage variable',
    description:
      "A stage's variables hold what looks like a credential (a backend's API key, a password). Stage variables are " +
      'shown in clear to anyone who may read the API (apigateway:GET, which read-only roles have) and in exported ' +
      'API definitions: the credential should be treated as exposed.',
    remediation:
      'Rotate the credential. Keep it in AWS Secrets Manager and have the integration read it (a Lambda authorizer ' +
      'or the backend itself), or give the integration an IAM role instead of a key. Console: API Gateway > APIs > the ' +
      'API > Stages > the stage > Stage variables > Edit, remove the variable. CLI: aws apigateway update-stage ' +
      '--rest-api-id ID --stage-name STAGE --patch-operations op=remove,path=/variables/NAME.',
    docsUrl: `${APIGW_DOCS}stage-variables.html`,
    prowler: ['apigateway_restapi_no_secrets_in_stage_variables'],
    evaluate: onPart('apiGatewayStages', ({ stages }) =>
      failing(
        stages
          .filter((s) => s.variableSecrets.length > 0)
          .map((s) => ({
            resource: stageArn(s),
            region: s.region,
            detail: describeSecrets(`The variables of ${named(s)}`, s.variableSecrets),
          })),
      ),
    ),
  },
  {
    id: 'detection.apigateway_stage_logging_off',
    service: 'apigateway',
    scenario: 'detection',
    severity: 'MEDIUM',
    title: 'API Gateway stage without logging',
    description:
      'The REST API stage writes neither access logs nor execution logs to CloudWatch Logs: who called the API, ' +
      'from where and with what result is not recorded, so abuse of the API (credential stuffing, scraping, an ' +
      'exploited backend) cannot be seen or investigated.',
    remediation:
      'Turn on access logging (and execution logging at ERROR or INFO). Console: API Gateway > APIs > the API > ' +
      'Stages > the stage > Logs and tracing > Edit: CloudWatch logs ERROR (or INFO), Custom access logging with a ' +
      'log group ARN and a format. CLI: aws apigateway update-stage --rest-api-id ID --stage-name STAGE ' +
      '--patch-operations op=replace,path=/accessLogSettings/destinationArn,value=LOG_GROUP_ARN ' +
      'op=replace,path=/*/*/logging/loglevel,value=ERROR (the account needs a CloudWatch Logs role set once: aws ' +
      'apigateway update-account --patch-operations op=replace,path=/cloudwatchRoleArn,value=ROLE_ARN).',
    docsUrl: `${APIGW_DOCS}set-up-logging.html`,
    controls: { 'aws-fsbp': ['APIGateway.1'] },
    prowler: ['apigateway_restapi_logging_enabled'],
    evaluate: onPart('apiGatewayStages', ({ stages }) =>
      failing(
        stages
          .filter((s) => !s.logging)
          .map((s) => ({
            resource: stageArn(s),
            region: s.region,
            detail: `${named(s)} keeps no access or execution logs.`,
          })),
      ),
    ),
  },
  {
    id: 'exposure.apigateway_stage_without_waf',
    service: 'apigateway',
    scenario: 'exposure',
    severity: 'MEDIUM',
    title: 'API Gateway stage without a WAF web ACL',
    description:
      'No AWS WAF web ACL is associated with the REST API stage: nothing filters requests before they reach the ' +
      'backend (injection attempts, known bad IP addresses, request floods beyond the throttling limits).',
    remediation:
      'Associate a regional AWS WAF web ACL (with the AWS managed core rule set and a rate-based rule) with the stage. ' +
      "Console: AWS WAF > Web ACLs > the web ACL (regional, in the API's region) > Associated AWS resources > Add, " +
      'choose the API Gateway stage. CLI: aws wafv2 associate-web-acl --web-acl-arn WEB_ACL_ARN --resource-arn ' +
      'arn:aws:apigateway:REGION::/restapis/ID/stages/STAGE.',
    docsUrl: `${APIGW_DOCS}apigateway-control-access-aws-waf.html`,
    controls: { 'aws-fsbp': ['APIGateway.4'] },
    prowler: ['apigateway_restapi_waf_acl_attached'],
    evaluate: onPart('apiGatewayStages', ({ stages }) =>
      failing(
        stages
          .filter((s) => s.webAclArn === null)
          .map((s) => ({ resource: stageArn(s), region: s.region, detail: `${named(s)} has no AWS WAF web ACL.` })),
      ),
    ),
  },
];
