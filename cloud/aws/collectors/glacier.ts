import { GetVaultAccessPolicyCommand, GlacierClient, paginateListVaults } from '@aws-sdk/client-glacier';
import type { PolicyHolder } from '../../../domain/scans/inventory';
import { mapLimit } from './concurrency';
import { readPolicy } from './policy-reading';
import { foldPages, type ReadContext, regionalPart } from './reader';

// S3 Glacier vaults, region by region: ListVaults, then GetVaultAccessPolicy per vault. A vault without an access
// policy answers ResourceNotFound (so does a vault deleted since it was listed: it then opens nothing either); a
// policy refused leaves the vault's exposure unread.

const PER_VAULT_CONCURRENCY = 4;

export const glacierVaultsPart = regionalPart({
  part: 'glacierVaults',
  async read({ session }: ReadContext, region: string): Promise<PolicyHolder[]> {
    const glacier = session.client((config) => new GlacierClient(config), region);
    const listed = await foldPages(
      paginateListVaults({ client: glacier }, { accountId: '-' }),
      [] as { name: string; arn: string }[],
      (into, page) => {
        for (const v of page.VaultList ?? [])
          if (v.VaultName && v.VaultARN) into.push({ name: v.VaultName, arn: v.VaultARN });
        return into;
      },
    );
    return mapLimit({
      items: listed,
      limit: PER_VAULT_CONCURRENCY,
      run: async (vault): Promise<PolicyHolder> => {
        const policy = await readPolicy(
          async () =>
            (await glacier.send(new GetVaultAccessPolicyCommand({ accountId: '-', vaultName: vault.name }))).policy
              ?.Policy,
          session.accountId,
          { noPolicy: 'ResourceNotFound' },
        );
        return { ...vault, region, policy };
      },
    });
  },
  assemble: (slices) => ({ vaults: slices.flat() }),
});
