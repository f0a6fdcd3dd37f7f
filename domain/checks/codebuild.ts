import type { Unread } from '../scans/inventory';
import { SECRET_KINDS, describeSecrets } from '../secrets/detector';
import { failing, onPart, withUnread } from './helpers';
import type { Check } from './types';

// CodeBuild: what a build project exposes. Its builds run with its service role's permissions and often deploy:
// credentials in its variables or repository URL, public build logs, and webhooks anyone can trigger from a branch
// of their own are ways into the account and its software supply chain.

export const CODEBUILD_CHECKS: readonly Check[] = [
  {
    id: 'exposure.codebuild_variable_secrets',
    service: 'codebuild',
    scenario: 'exposure',
    severity: 'CRITICAL',
    title: 'Secret in CodeBuild plaintext environment variable',
    description:
      'A PLAINTEXT environment variable of the build project holds what looks like a credential. Plaintext variables ' +
      'are shown to anyone allowed codebuild:BatchGetProjects and printed in build logs by any step that echoes its ' +
      'environment. Sentinel names the variable and the kind of secret, never the value.',
    remediation:
      'Rotate the credential, store it in Secrets Manager or SSM Parameter Store, and make the variable a reference ' +
      'to it: CodeBuild console > the project > Edit > Environment > Additional configuration > Environment variables, ' +
      'Type Secrets Manager (value secret-id:json-key) or Parameter; or aws codebuild update-project --name NAME ' +
      '--environment file://environment.json with {"name": "VAR", "value": "SECRET_ID", "type": "SECRETS_MANAGER"}. ' +
      "Give the project's service role secretsmanager:GetSecretValue (or ssm:GetParameters) on it.",
    docsUrl:
      'https://docs.aws.amazon.com/codebuild/latest/userguide/build-spec-ref.html#build-spec.env.secrets-manager',
    controls: { 'aws-fsbp': ['CodeBuild.2'] },
    prowler: ['codebuild_project_no_secrets_in_variables'],
    evaluate: onPart('codebuildProjects', ({ projects }) =>
      failing(
        projects
          .filter((p) => p.variableSecrets.length > 0)
          .map((p) => ({
            resource: p.arn,
            region: p.region,
            detail: describeSecrets(`CodeBuild project ${p.name} in ${p.region}`, p.variableSecrets),
          })),
      ),
    ),
  },
  {
    id: 'exposure.codebuild_source_credentials',
    service: 'codebuild',
    scenario: 'exposure',
    severity: 'CRITICAL',
    title: 'Credentials in CodeBuild source repository URL',
    description:
      'A source location of the build project is a repository URL with a token or a password in it (a personal ' +
      'access token or app password for Bitbucket, GitHub or GitLab). The URL is shown to anyone allowed to read the ' +
      'project and in its build logs, and the credential reaches the repository, often with write access. Sentinel names ' +
      'the source and the kind of credential, never the URL.',
    remediation:
      "Revoke the token or password at the repository host. Connect the source through CodeBuild's source " +
      'credentials or an AWS CodeConnections connection instead: CodeBuild console > the project > Edit > Source > ' +
      'Connect using OAuth or a connection, with a repository URL without credentials; or aws codebuild ' +
      'import-source-credentials --server-type BITBUCKET --auth-type BASIC_AUTH --username USER --token TOKEN, then ' +
      'aws codebuild update-project --name NAME --source type=BITBUCKET,location=https://bitbucket.org/OWNER/REPO.git.',
    docsUrl: 'https://docs.aws.amazon.com/codebuild/latest/userguide/access-tokens.html',
    controls: { 'aws-fsbp': ['CodeBuild.1'] },
    prowler: ['codebuild_project_source_repo_url_no_sensitive_credentials'],
    evaluate: onPart('codebuildProjects', ({ projects }) =>
      failing(
        projects
          .filter((p) => p.sourceSecrets.length > 0)
          .map((p) => ({
            resource: p.arn,
            region: p.region,
            detail:
              `CodeBuild project ${p.name} in ${p.region} has ` +
              p.sourceSecrets.map((s) => `${SECRET_KINDS[s.kind]} in the location of its ${s.source}`).join('; ') +
              '.',
          })),
      ),
    ),
  },
  {
    id: 'exposure.codebuild_project_public',
    service: 'codebuild',
    scenario: 'exposure',
    severity: 'HIGH',
    title: 'Publicly visible CodeBuild project',
    description:
      "The build project's visibility is PUBLIC_READ: anyone on the internet can read its build results, logs and " +
      'artifacts, where environment values, internal host names and secrets printed by a build step end up.',
    remediation:
      'Make the project private: CodeBuild console > the project > Edit > Project configuration > Public build access: ' +
      'clear "Enable public build access"; or aws codebuild update-project-visibility --project-arn ARN ' +
      '--project-visibility PRIVATE.',
    docsUrl: 'https://docs.aws.amazon.com/codebuild/latest/userguide/public-builds.html',
    prowler: ['codebuild_project_not_publicly_accessible'],
    evaluate: onPart('codebuildProjects', ({ projects }) =>
      withUnread(
        failing(
          projects
            .filter((p) => p.visibility !== null && p.visibility !== 'PRIVATE')
            .map((p) => ({
              resource: p.arn,
              region: p.region,
              detail: `CodeBuild project ${p.name} in ${p.region} is visible to everyone (${p.visibility}).`,
            })),
        ),
        projects
          .filter((p) => p.visibility === null)
          .map(
            (p): Unread => ({
              kind: 'resource',
              scope: p.arn,
              reason: "CodeBuild did not report the project's visibility (projectVisibility).",
            }),
          ),
      ),
    ),
  },
  {
    id: 'exposure.codebuild_webhook_unanchored_filter',
    service: 'codebuild',
    scenario: 'exposure',
    severity: 'HIGH',
    title: 'CodeBuild webhook filter not anchored',
    description:
      'A webhook filter of the build project on who pushed (ACTOR_ACCOUNT_ID) or on which branch (HEAD_REF, BASE_REF) ' +
      'is a pattern not anchored at both ends (^...$), so it matches more than meant: "12345" also matches the account ' +
      '"123456", "refs/heads/main" also matches "refs/heads/main-attacker". Someone outside the team can then start a ' +
      "build of their code with the project's role and secrets, as in the CodeBreach attack on AWS's own repositories.",
    remediation:
      'Anchor every alternative of the pattern: ^refs/heads/main$, ^(12345|67890)$ written as ^12345$|^67890$. ' +
      'CodeBuild console > the project > Edit > Primary source webhook events > the filter group > pattern; or aws ' +
      'codebuild update-webhook --project-name NAME --filter-groups file://filters.json.',
    docsUrl: 'https://docs.aws.amazon.com/codebuild/latest/userguide/github-webhook.html',
    prowler: ['codebuild_project_webhook_filters_use_anchored_patterns'],
    evaluate: onPart('codebuildProjects', ({ projects }) =>
      failing(
        projects
          .filter((p) => p.unanchoredFilters.length > 0)
          .map((p) => ({
            resource: p.arn,
            region: p.region,
            detail:
              `CodeBuild project ${p.name} in ${p.region} has webhook filters not anchored with ^...$: ` +
              p.unanchoredFilters.map((f) => `${f.type} '${f.pattern}'`).join(', ') +
              '.',
          })),
      ),
    ),
  },
];
