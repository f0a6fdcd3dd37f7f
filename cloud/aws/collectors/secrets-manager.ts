import { GetResourcePolicyCommand, paginateListSecrets, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { Secret } from '../../../domain/scans/inventory';
import { mapLimit } from './concurrency';
import { readPolicy } from './policy-reading';
import { foldPages, type ReadContext, regionalPart } from './reader';

// Secrets Manager secrets, region by region: ListSecrets (rotation), then GetResourcePolicy per secret. Never a
// secret's value: Sentinel reads what protects a secret, not what it holds. A policy refused leaves the secret's
// exposure unread; a secret deleted since it was listed is left out.

const PER_SECRET_CONCURRENCY = 4;
const PAGE_SIZE = 100;

type Listed = Omit<Secret, 'policy'>;

export const secretsPart = regionalPart({
  part: 'secrets',
  async read({ session }: ReadContext, region: string): Promise<Secret[]> {
    const sm = session.client((config) => new SecretsManagerClient(config), region);
    const listed = await foldPages(
      paginateListSecrets({ client: sm, pageSize: PAGE_SIZE }, {}),
      [] as Listed[],
      (into, page) => {
        for (const s of page.SecretList ?? []) {
          if (!s.Name || !s.ARN) continue;
          into.push({
            name: s.Name,
            arn: s.ARN,
            region,
            rotationEnabled: s.RotationEnabled ?? false,
            createdAt: s.CreatedDate?.toISOString() ?? null,
            lastAccessedAt: s.LastAccessedDate?.toISOString() ?? null,
          });
        }
        return into;
      },
    );
    const secrets = await mapLimit({
      items: listed,
      limit: PER_SECRET_CONCURRENCY,
      run: async (secret): Promise<Secret | null> => {
        const policy = await readPolicy(
          async () => (await sm.send(new GetResourcePolicyCommand({ SecretId: secret.arn }))).ResourcePolicy,
          session.accountId,
          { gone: 'ResourceNotFound' },
        );
        return policy ? { ...secret, policy } : null;
      },
    });
    return secrets.filter((s): s is Secret => s !== null);
  },
  assemble: (slices) => ({ secrets: slices.flat() }),
});
