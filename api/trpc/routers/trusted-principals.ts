import { createTrustedPrincipalInput, listTrustedPrincipalsQuery } from '../../../core/schemas/trusted-principals';
import {
  createTrustedPrincipal,
  deleteTrustedPrincipal,
  listTenantTrustedPrincipals,
} from '../../../core/events/trusted-principals';
import { procedureFor, router } from '../init';
import { trustedPrincipalRef } from '../inputs';

export const trustedPrincipalsRouter = router({
  list: procedureFor('listTrustedPrincipals')
    .input(listTrustedPrincipalsQuery.prefault({}))
    .query(({ ctx, input }) => listTenantTrustedPrincipals(ctx.deps, ctx.caller, input)),
  create: procedureFor('createTrustedPrincipal')
    .input(createTrustedPrincipalInput)
    .mutation(({ ctx, input }) => createTrustedPrincipal(ctx.deps, ctx.caller, input)),
  delete: procedureFor('deleteTrustedPrincipal')
    .input(trustedPrincipalRef)
    .mutation(({ ctx, input }) => deleteTrustedPrincipal(ctx.deps, ctx.caller, input.trusted_principal_id)),
});
