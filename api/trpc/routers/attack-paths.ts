import { listAttackPathsQuery, searchAttackPathsQuery } from '../../../core/schemas/attack-paths';
import { listAccountAttackPaths, searchTenantAttackPaths } from '../../../core/attack-paths/attack-paths';
import { procedureFor, router } from '../init';
import { accountRef } from '../inputs';

const listInput = accountRef.extend({ query: listAttackPathsQuery.prefault({}) });

export const attackPathsRouter = router({
  list: procedureFor('listAttackPaths')
    .input(listInput)
    .query(({ ctx, input }) => listAccountAttackPaths(ctx.deps, ctx.caller, input.account_id, input.query)),
  search: procedureFor('searchAttackPaths')
    .input(searchAttackPathsQuery.prefault({}))
    .query(({ ctx, input }) => searchTenantAttackPaths(ctx.deps, ctx.caller, input)),
});
