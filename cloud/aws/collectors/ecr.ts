import { ECRClient, GetRepositoryPolicyCommand, paginateDescribeRepositories } from '@aws-sdk/client-ecr';
import type { EcrRepository } from '../../../domain/scans/inventory';
import { mapLimit } from './concurrency';
import { readPolicy } from './policy-reading';
import { foldPages, type ReadContext, regionalPart } from './reader';

// ECR private repositories, region by region: DescribeRepositories (scan on push, tag mutability), then
// GetRepositoryPolicy per repository. A repository without a policy answers RepositoryPolicyNotFound; one whose
// policy is refused keeps its other settings and leaves its exposure unread; one deleted since it was listed is
// left out.

const PER_REPOSITORY_CONCURRENCY = 4;
const PAGE_SIZE = 1000;

type Listed = Omit<EcrRepository, 'policy'>;

export const ecrRepositoriesPart = regionalPart({
  part: 'ecrRepositories',
  async read({ session }: ReadContext, region: string): Promise<EcrRepository[]> {
    const ecr = session.client((config) => new ECRClient(config), region);
    const listed = await foldPages(
      paginateDescribeRepositories({ client: ecr, pageSize: PAGE_SIZE }, {}),
      [] as Listed[],
      (into, page) => {
        for (const r of page.repositories ?? []) {
          if (!r.repositoryName || !r.repositoryArn) continue;
          into.push({
            name: r.repositoryName,
            arn: r.repositoryArn,
            region,
            scanOnPush: r.imageScanningConfiguration?.scanOnPush ?? false,
            tagsImmutable: (r.imageTagMutability ?? 'MUTABLE').startsWith('IMMUTABLE'),
          });
        }
        return into;
      },
    );
    const repositories = await mapLimit({
      items: listed,
      limit: PER_REPOSITORY_CONCURRENCY,
      run: async (repository): Promise<EcrRepository | null> => {
        const policy = await readPolicy(
          async () => (await ecr.send(new GetRepositoryPolicyCommand({ repositoryName: repository.name }))).policyText,
          session.accountId,
          { noPolicy: 'RepositoryPolicyNotFound', gone: 'RepositoryNotFound' },
        );
        return policy ? { ...repository, policy } : null;
      },
    });
    return repositories.filter((r): r is EcrRepository => r !== null);
  },
  assemble: (slices) => ({ repositories: slices.flat() }),
});
