import type { FileSecret, LambdaFunction, Unread } from '../scans/inventory';
import { describeSecrets } from '../secrets/detector';
import { failing, onPart, withUnread } from './helpers';
import type { Check, CheckResult, FailingResource } from './types';

// Lambda functions: secrets written into their environment or code, resource policies and function URLs that let
// anyone invoke them, layers from other accounts, and runtimes AWS no longer patches.

/** A facet of a function as read: what was read is judged, what was refused names the function unread. */
function byFacet<T>(
  functions: LambdaFunction[],
  facetOf: (fn: LambdaFunction) => ({ read: true } & T) | { read: false; reason: string } | null,
  judge: (fn: LambdaFunction, facet: T) => FailingResource | null,
): CheckResult {
  const resources: FailingResource[] = [];
  const unread: Unread[] = [];
  for (const fn of functions) {
    const facet = facetOf(fn);
    if (facet === null) continue;
    if (!facet.read) {
      unread.push({ kind: 'resource', scope: fn.arn, reason: facet.reason });
      continue;
    }
    const failed = judge(fn, facet);
    if (failed) resources.push(failed);
  }
  return withUnread(failing(resources), unread);
}

/** The secrets of a code package, file by file. */
function describeCode(what: string, secrets: FileSecret[]): string {
  const files = [...new Set(secrets.map((s) => s.file))];
  return files
    .map((file) =>
      describeSecrets(
        `File ${file} of ${what}`,
        secrets.filter((s) => s.file === file),
      ),
    )
    .join(' ');
}

/** Runtimes AWS has deprecated (no more security patches), as Prowler's awslambda_function_using_supported_runtimes lists them, and those deprecated since. */
export const DEPRECATED_RUNTIMES = new Set([
  'java8',
  'go1.x',
  'provided',
  'python2.7',
  'python3.6',
  'python3.7',
  'python3.8',
  'nodejs',
  'nodejs4.3',
  'nodejs4.3-edge',
  'nodejs6.10',
  'nodejs8.10',
  'nodejs10.x',
  'nodejs12.x',
  'nodejs14.x',
  'nodejs16.x',
  'dotnet5.0',
  'dotnet6',
  'dotnet7',
  'dotnetcore1.0',
  'dotnetcore2.0',
  'dotnetcore2.1',
  'dotnetcore3.1',
  'ruby2.5',
  'ruby2.7',
]);

const LAMBDA_DOCS = 'https://docs.aws.amazon.com/lambda/latest/dg/';

export const LAMBDA_CHECKS: readonly Check[] = [
  {
    id: 'exposure.lambda_secrets_in_variables',
    service: 'lambda',
    scenario: 'exposure',
    severity: 'CRITICAL',
    title: 'Secret in a Lambda function environment variable',
    description:
      "A Lambda function's environment variables hold what looks like a credential (an access key, a private key, a " +
      'token, a password). Environment variables are shown in clear to anyone who may read the function ' +
      '(lambda:GetFunctionConfiguration, which read-only roles have), are copied into every version, and end up in ' +
      'infrastructure code and logs: the credential should be treated as exposed.',
    remediation:
      'Rotate the credential first (it must be taken as known). Then store it in AWS Secrets Manager or SSM Parameter ' +
      'Store as a SecureString and have the function read it at start (the AWS Parameters and Secrets Lambda Extension ' +
      "caches it); put only the secret's ARN or name in the variable. Console: Lambda > Functions > the function > " +
      'Configuration > Environment variables > Edit, remove the value. CLI: aws lambda update-function-configuration ' +
      '--function-name NAME --environment "Variables={SECRET_ARN=arn:aws:secretsmanager:...}" (it replaces every ' +
      'variable: list them all). Sentinel shows only the kind of secret and the variable, never its value.',
    docsUrl: `${LAMBDA_DOCS}configuration-envvars.html`,
    prowler: ['awslambda_function_no_secrets_in_variables'],
    evaluate: onPart('lambdaFunctions', ({ functions }) =>
      byFacet(
        functions,
        (fn) => fn.environment,
        (fn, { secrets }) =>
          secrets.length > 0
            ? {
                resource: fn.arn,
                region: fn.region,
                detail: describeSecrets(`The environment of function ${fn.name} in ${fn.region}`, secrets),
              }
            : null,
      ),
    ),
  },
  {
    id: 'exposure.lambda_secrets_in_code',
    service: 'lambda',
    scenario: 'exposure',
    severity: 'CRITICAL',
    title: 'Secret in a Lambda function code package',
    description:
      "A file of a Lambda function's .zip code package holds what looks like a credential. Anyone who may read the " +
      'function (lambda:GetFunction) downloads the package, and the file also lives in the source repository and the ' +
      'build artifacts it came from: the credential should be treated as exposed. Sentinel reads packages up to 50 MB, ' +
      'text files up to 1 MB each, not the third-party dependencies bundled with them (node_modules, site-packages, ' +
      'vendor), and keeps only the kind, the file and the line of what it finds.',
    remediation:
      'Rotate the credential, remove it from the source and its history, and have the function read it from AWS ' +
      'Secrets Manager or SSM Parameter Store at run time. Deploy the cleaned code: console Lambda > Functions > the ' +
      'function > Code > Upload from > .zip file; or aws lambda update-function-code --function-name NAME --zip-file ' +
      'fileb://function.zip. Older published versions keep the old package: delete them (aws lambda delete-function ' +
      '--function-name NAME --qualifier VERSION) once no alias points to them.',
    docsUrl: `${LAMBDA_DOCS}configuration-function-zip.html`,
    prowler: ['awslambda_function_no_secrets_in_code'],
    evaluate: onPart('lambdaFunctions', ({ functions }) =>
      byFacet(
        functions,
        (fn) => fn.code,
        (fn, { secrets }) =>
          secrets.length > 0
            ? {
                resource: fn.arn,
                region: fn.region,
                detail: describeCode(`function ${fn.name} in ${fn.region}`, secrets),
              }
            : null,
      ),
    ),
  },
  {
    id: 'exposure.lambda_public_policy',
    service: 'lambda',
    scenario: 'exposure',
    severity: 'CRITICAL',
    title: 'Lambda function invocable by anyone',
    description:
      'The function\'s resource-based policy allows everyone (Principal "*") without a condition that limits it to ' +
      'known accounts, sources or networks: any AWS account can invoke it (or read and change it, as the statement ' +
      "allows), running its code with its role's permissions and at the account's expense.",
    remediation:
      'Remove the public statement, or narrow it with a condition (aws:SourceAccount and aws:SourceArn for an AWS ' +
      'service, aws:PrincipalOrgID for an organization). Console: Lambda > Functions > the function > Configuration > ' +
      'Permissions > Resource-based policy statements > select the statement > Delete, then add one for the service ' +
      'with its source ARN. CLI: aws lambda get-policy --function-name NAME to find the statement id, aws lambda ' +
      'remove-permission --function-name NAME --statement-id SID, and aws lambda add-permission --function-name NAME ' +
      '--statement-id SID --action lambda:InvokeFunction --principal SERVICE.amazonaws.com --source-arn ARN ' +
      '--source-account ACCOUNT.',
    docsUrl: `${LAMBDA_DOCS}access-control-resource-based.html`,
    controls: { 'aws-fsbp': ['Lambda.1'] },
    prowler: ['awslambda_function_not_publicly_accessible'],
    evaluate: onPart('lambdaFunctions', ({ functions }) =>
      byFacet(
        functions,
        (fn) => fn.policy,
        (fn, { publicStatements }) =>
          publicStatements.length > 0
            ? {
                resource: fn.arn,
                region: fn.region,
                detail: `The resource policy of function ${fn.name} in ${fn.region} is open to everyone: ${publicStatements.join('; ')}.`,
              }
            : null,
      ),
    ),
  },
  {
    id: 'exposure.lambda_url_public',
    service: 'lambda',
    scenario: 'exposure',
    severity: 'HIGH',
    title: 'Lambda function URL without authentication',
    description:
      'The function has a function URL whose auth type is NONE: anyone on the internet who knows (or guesses) the URL ' +
      "invokes the function over HTTPS, unsigned, with its role's permissions and at the account's expense, unless " +
      'the function checks every caller itself.',
    remediation:
      "Set the URL's auth type to AWS_IAM so that callers sign their requests, and grant lambda:InvokeFunctionUrl to " +
      'those who need it; or delete the URL and put the function behind API Gateway with an authorizer. Console: ' +
      'Lambda > Functions > the function > Configuration > Function URL > Edit > Auth type AWS_IAM. CLI: aws lambda ' +
      "update-function-url-config --function-name NAME --auth-type AWS_IAM (add --qualifier ALIAS for an alias's URL), " +
      'or aws lambda delete-function-url-config --function-name NAME.',
    docsUrl: `${LAMBDA_DOCS}urls-auth.html`,
    prowler: ['awslambda_function_url_public'],
    evaluate: onPart('lambdaFunctions', ({ functions }) =>
      byFacet(
        functions,
        (fn) => fn.urls,
        (fn, { urls }) => {
          const open = urls.filter((u) => u.authType === 'NONE');
          return open.length > 0
            ? {
                resource: fn.arn,
                region: fn.region,
                detail: `Function ${fn.name} in ${fn.region} answers anyone at ${open.map((u) => u.url).join(', ')} (auth type NONE).`,
              }
            : null;
        },
      ),
    ),
  },
  {
    id: 'exposure.lambda_cross_account_layers',
    service: 'lambda',
    scenario: 'exposure',
    severity: 'HIGH',
    title: 'Lambda function uses layers of another account',
    description:
      "The function runs code from a layer published by another AWS account. That code runs with the function's " +
      'role and sees its data and environment; whoever controls the other account decides what the layer contains ' +
      'when a new version is taken up. Layers AWS itself publishes (Lambda Insights, Powertools) count too: check that ' +
      'each account is one you trust.',
    remediation:
      'Copy the layers you need into your own account (download the version: aws lambda get-layer-version-by-arn ' +
      '--arn ARN gives its Content.Location; publish it: aws lambda publish-layer-version --layer-name NAME --zip-file ' +
      'fileb://layer.zip) and point the function at your copy: console Lambda > Functions > the function > Code > ' +
      'Layers > Edit; CLI aws lambda update-function-configuration --function-name NAME --layers ARN... (every layer ' +
      'the function keeps).',
    docsUrl: `${LAMBDA_DOCS}chapter-layers.html`,
    prowler: ['awslambda_function_using_cross_account_layers'],
    evaluate: onPart('lambdaFunctions', ({ functions }) =>
      failing(
        functions.flatMap((fn) => {
          const account = fn.arn.split(':')[4];
          const foreign = fn.layers.filter((layer) => layer.split(':')[4] !== account);
          return foreign.length > 0
            ? [
                {
                  resource: fn.arn,
                  region: fn.region,
                  detail: `Function ${fn.name} in ${fn.region} uses layers of other accounts: ${foreign.join(', ')}.`,
                },
              ]
            : [];
        }),
      ),
    ),
  },
  {
    id: 'exposure.lambda_runtime_deprecated',
    service: 'lambda',
    scenario: 'exposure',
    severity: 'MEDIUM',
    title: 'Lambda function on a deprecated runtime',
    description:
      'The function runs on a runtime AWS has deprecated: its language version and operating system no longer get ' +
      'security patches, and AWS blocks creating, then updating, functions on it.',
    remediation:
      'Move the function to a supported runtime of its language (test the code on it first). Console: Lambda > ' +
      'Functions > the function > Code > Runtime settings > Edit > Runtime. CLI: aws lambda ' +
      'update-function-configuration --function-name NAME --runtime nodejs22.x (or python3.13, java21, ...).',
    docsUrl: `${LAMBDA_DOCS}lambda-runtimes.html`,
    controls: { 'aws-fsbp': ['Lambda.2'] },
    prowler: ['awslambda_function_using_supported_runtimes'],
    evaluate: onPart('lambdaFunctions', ({ functions }) =>
      failing(
        functions
          .filter((fn) => fn.runtime !== null && DEPRECATED_RUNTIMES.has(fn.runtime))
          .map((fn) => ({
            resource: fn.arn,
            region: fn.region,
            detail: `Function ${fn.name} in ${fn.region} runs on ${fn.runtime}, which AWS has deprecated.`,
          })),
      ),
    ),
  },
  {
    id: 'exposure.lambda_layer_secrets',
    service: 'lambda',
    scenario: 'exposure',
    severity: 'HIGH',
    title: 'Secret in a Lambda layer',
    description:
      'A file of a layer version that functions of the account use holds what looks like a credential. Anyone who ' +
      'may read the layer (lambda:GetLayerVersion, and every account it is shared with) downloads it, and every ' +
      'function that uses it carries it: the credential should be treated as exposed. Sentinel reads the layer ' +
      'versions the functions use, with the bounds of code packages (50 MB, text files up to 1 MB, not the ' +
      'third-party dependencies bundled in node_modules, site-packages or vendor).',
    remediation:
      "Rotate the credential and remove it from the layer's source. Publish a new version without it (console: Lambda " +
      '> Layers > the layer > Create version; CLI: aws lambda publish-layer-version --layer-name NAME --zip-file ' +
      'fileb://layer.zip), move the functions to it (aws lambda update-function-configuration --function-name NAME ' +
      '--layers NEW_VERSION_ARN ...), then delete the old version (aws lambda delete-layer-version --layer-name NAME ' +
      "--version-number N). For another account's layer, tell its owner and stop using it.",
    docsUrl: `${LAMBDA_DOCS}chapter-layers.html`,
    prowler: ['awslambda_layer_no_secrets_in_content'],
    evaluate: onPart('lambdaFunctions', ({ layers }) => {
      const resources: FailingResource[] = [];
      const unread: Unread[] = [];
      for (const layer of layers) {
        if (!layer.content.read) unread.push({ kind: 'resource', scope: layer.arn, reason: layer.content.reason });
        else if (layer.content.secrets.length > 0)
          resources.push({
            resource: layer.arn,
            region: layer.region,
            detail: describeCode(`layer version ${layer.arn}`, layer.content.secrets),
          });
      }
      return withUnread(failing(resources), unread);
    }),
  },
];
