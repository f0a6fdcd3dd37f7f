import {
  BatchGetProjectsCommand,
  CodeBuildClient,
  type Project,
  paginateListProjects,
} from '@aws-sdk/client-codebuild';
import type { CodeBuildProject, SourceSecret, WebhookFilter } from '../../../domain/scans/compute';
import { findInSettings, findInText } from '../../../domain/secrets/detector';
import { foldPages, type ReadContext, regionalPart } from './reader';

// CodeBuild projects, region by region: ListProjects, then BatchGetProjects by BATCH_SIZE names (its limit). Their
// plaintext environment variables and source locations are searched for secrets as they are read: only what was
// found (its kind, the variable's name or which source) is kept.

const BATCH_SIZE = 100;

/**
 * Webhook filter types that decide who may start a build with code of their own (the pushing account) or from which
 * branch: a pattern not anchored at both ends (^...$) matches more than meant, as "^main" matches "main-evil".
 */
const GATING_FILTERS = new Set(['ACTOR_ACCOUNT_ID', 'HEAD_REF', 'BASE_REF']);

/** Prowler's reading of a pattern: each alternative (split on |) starts with ^ and ends with $. */
function anchored(pattern: string): boolean {
  return pattern
    .split('|')
    .map((alternative) => alternative.trim())
    .every((alternative) => !alternative || (alternative.startsWith('^') && alternative.endsWith('$')));
}

/** Secrets in a repository location: a URL with a password, a token in its user part, or a token's fixed shape. */
function locationSecrets(source: string, location: string | undefined): SourceSecret[] {
  if (!location) return [];
  const kinds = new Set(findInText(location).map((f) => f.kind));
  if (kinds.size === 0) {
    const user = /^[a-z][a-z0-9+.-]*:\/\/([^@/\s]+)@/i.exec(location)?.[1];
    if (user) for (const f of findInSettings([['user', decodeURIComponent(user)]])) kinds.add(f.kind);
  }
  return [...kinds].map((kind) => ({ source, kind }));
}

function projectOf(p: Project, region: string): CodeBuildProject {
  const plaintext = (p.environment?.environmentVariables ?? []).filter((v) => (v.type ?? 'PLAINTEXT') === 'PLAINTEXT');
  const unanchoredFilters: WebhookFilter[] = (p.webhook?.filterGroups ?? [])
    .flat()
    .filter((f) => f.type && GATING_FILTERS.has(f.type) && f.pattern && !anchored(f.pattern))
    .map((f) => ({ type: f.type as string, pattern: f.pattern as string }));
  return {
    name: p.name ?? '',
    arn: p.arn ?? p.name ?? '',
    region,
    visibility: p.projectVisibility ?? null,
    variableSecrets: findInSettings(plaintext.map((v): [string, string] => [v.name ?? '', v.value ?? ''])),
    sourceSecrets: [
      ...locationSecrets('primary source', p.source?.location),
      ...(p.secondarySources ?? []).flatMap((s) =>
        locationSecrets(`secondary source ${s.sourceIdentifier ?? ''}`.trim(), s.location),
      ),
    ],
    unanchoredFilters,
  };
}

export const codebuildProjectsPart = regionalPart({
  part: 'codebuildProjects',
  async read({ session }: ReadContext, region: string): Promise<CodeBuildProject[]> {
    const client = session.client((config) => new CodeBuildClient(config), region);
    const names = await foldPages(paginateListProjects({ client }, {}), [] as string[], (into, page) => {
      into.push(...(page.projects ?? []));
      return into;
    });
    const projects: CodeBuildProject[] = [];
    for (let i = 0; i < names.length; i += BATCH_SIZE) {
      const { projects: batch = [] } = await client.send(
        new BatchGetProjectsCommand({ names: names.slice(i, i + BATCH_SIZE) }),
      );
      // Projects deleted since they were listed come back in projectsNotFound: nothing to judge.
      for (const p of batch) if (p.name) projects.push(projectOf(p, region));
    }
    return projects;
  },
  assemble: (slices) => ({ projects: slices.flat() }),
});
