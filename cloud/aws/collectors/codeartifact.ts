import {
  CodeartifactClient,
  ListPackageVersionsCommand,
  type PackageFormat,
  paginateListPackages,
  paginateListRepositories,
} from '@aws-sdk/client-codeartifact';
import type { CodeArtifactPackage, Unread } from '../../../domain/scans/inventory';
import { mapLimit } from './concurrency';
import { isAbsent, ReadFailure } from './failures';
import { whereOffered } from './offered';
import { foldPages, type ReadContext, regionalPart } from './reader';

// CodeArtifact's packages open to dependency confusion, region by region where AWS offers it (offered.ts), as
// Prowler's codeartifact_packages_external_public_publishing_disabled reads them: ListRepositories, then per
// repository ListPackages asked for the packages whose origin controls let upstream versions in (upstream=ALLOW,
// a filter of the API, so packages that block them cost no call), then per such package ListPackageVersions for its
// latest version's origin (one version, by publication time). A package published into the domain that still
// takes versions from upstream is one a public package of the same name and a higher version can replace.
//
// The calls per repository are bounded: at most PACKAGES_PER_REPOSITORY packages that allow upstream versions are
// read (a ListPackages page and a ListPackageVersions each); a repository with more is named unread with what was
// read kept. A repository whose packages AWS refuses is unread, as is a package whose versions it refuses; one
// deleted meanwhile is skipped.

export const PACKAGES_PER_REPOSITORY = 200;
const PAGE_SIZE = 100;
const PER_PACKAGE_CONCURRENCY = 4;

interface Repository {
  name: string;
  arn: string;
  domain: string;
  domainOwner: string;
}

interface Slice {
  packages: CodeArtifactPackage[];
  unread: Unread[];
}

const denied = (err: unknown) => err instanceof ReadFailure && err.kind === 'denied';
const origin = (type: string | undefined): CodeArtifactPackage['latestOrigin'] =>
  type === 'INTERNAL' || type === 'EXTERNAL' ? type : 'UNKNOWN';

type Listed = Omit<CodeArtifactPackage, 'latestOrigin'>;

/** The packages of a repository that allow upstream versions, at most the bound; `more`: the bound was reached. */
async function upstreamAllowed(
  codeartifact: CodeartifactClient,
  repository: Repository,
  region: string,
): Promise<{ listed: Listed[]; more: boolean }> {
  const listed: Listed[] = [];
  const pages = paginateListPackages(
    { client: codeartifact, pageSize: PAGE_SIZE },
    {
      domain: repository.domain,
      domainOwner: repository.domainOwner,
      repository: repository.name,
      upstream: 'ALLOW',
    },
  );
  for await (const page of pages) {
    for (const p of page.packages ?? []) {
      if (!p.package || !p.format) continue;
      if (listed.length === PACKAGES_PER_REPOSITORY) return { listed, more: true };
      listed.push({
        arn: `${repository.arn}/${p.namespace ? `${p.namespace}:` : ''}${p.package}`,
        domain: repository.domain,
        repository: repository.name,
        format: p.format,
        namespace: p.namespace || null,
        name: p.package,
        region,
      });
    }
  }
  return { listed, more: false };
}

async function readRepository(
  codeartifact: CodeartifactClient,
  repository: Repository,
  region: string,
): Promise<Slice> {
  let found: { listed: Listed[]; more: boolean };
  try {
    found = await upstreamAllowed(codeartifact, repository, region);
  } catch (err) {
    if (isAbsent(err, 'ResourceNotFound')) return { packages: [], unread: [] };
    if (!denied(err)) throw err;
    return { packages: [], unread: [{ kind: 'resource', scope: repository.arn, reason: (err as ReadFailure).reason }] };
  }
  const unread: Unread[] = found.more
    ? [
        {
          kind: 'resource',
          scope: repository.arn,
          reason: `More than ${PACKAGES_PER_REPOSITORY} of its packages allow upstream versions: the first ${PACKAGES_PER_REPOSITORY} were read.`,
        },
      ]
    : [];
  const packages = await mapLimit({
    items: found.listed,
    limit: PER_PACKAGE_CONCURRENCY,
    run: async (p): Promise<CodeArtifactPackage | null> => {
      try {
        const { versions = [] } = await codeartifact.send(
          new ListPackageVersionsCommand({
            domain: repository.domain,
            domainOwner: repository.domainOwner,
            repository: repository.name,
            format: p.format as PackageFormat,
            namespace: p.namespace ?? undefined,
            package: p.name,
            sortBy: 'PUBLISHED_TIME',
            maxResults: 1,
          }),
        );
        return { ...p, latestOrigin: origin(versions[0]?.origin?.originType) };
      } catch (err) {
        if (isAbsent(err, 'ResourceNotFound')) return null;
        if (!denied(err)) throw err;
        unread.push({ kind: 'resource', scope: p.arn, reason: (err as ReadFailure).reason });
        return null;
      }
    },
  });
  return { packages: packages.filter((p): p is CodeArtifactPackage => p !== null), unread };
}

export const codeartifactPackagesPart = regionalPart({
  part: 'codeartifactPackages',
  read: ({ session }: ReadContext, region: string) =>
    whereOffered(
      async (): Promise<Slice> => {
        const codeartifact = session.client((config) => new CodeartifactClient(config), region);
        const repositories = await foldPages(
          paginateListRepositories({ client: codeartifact }, {}),
          [] as Repository[],
          (into, page) => {
            for (const r of page.repositories ?? [])
              if (r.name && r.arn && r.domainName && r.domainOwner)
                into.push({ name: r.name, arn: r.arn, domain: r.domainName, domainOwner: r.domainOwner });
            return into;
          },
        );
        const slices: Slice[] = [];
        // Repositories one after the other: each reads its packages four at a time.
        for (const repository of repositories) slices.push(await readRepository(codeartifact, repository, region));
        return { packages: slices.flatMap((s) => s.packages), unread: slices.flatMap((s) => s.unread) };
      },
      { packages: [], unread: [] },
    ),
  unreadIn: (slice) => slice.unread,
  assemble: (slices) => ({ packages: slices.flatMap((s) => s.packages) }),
});
