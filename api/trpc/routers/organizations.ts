import { z } from 'zod';
import { connectOrganizationInput } from '../../../core/schemas/organizations';
import {
  connectOrganization,
  getOrganization,
  listTenantOrganizations,
  removeOrganization,
  syncOrganizationNow,
  verifyOrganization,
} from '../../../core/organizations/organizations';
import { procedureFor, router } from '../init';
import { orgRef } from '../inputs';

// The dashboard passes `disconnect_accounts` as a boolean; REST takes it as a query string.
const removeInput = orgRef.extend({ disconnect_accounts: z.boolean().default(false) });

export const organizationsRouter = router({
  list: procedureFor('listOrganizations').query(({ ctx }) => listTenantOrganizations(ctx.deps, ctx.caller)),
  get: procedureFor('getOrganization')
    .input(orgRef)
    .query(({ ctx, input }) => getOrganization(ctx.deps, ctx.caller, input.org_id)),
  connect: procedureFor('connectOrganization')
    .input(connectOrganizationInput)
    .mutation(({ ctx, input }) => connectOrganization(ctx.deps, ctx.caller, input)),
  verify: procedureFor('verifyOrganization')
    .input(orgRef)
    .mutation(({ ctx, input }) => verifyOrganization(ctx.deps, ctx.caller, input.org_id)),
  sync: procedureFor('syncOrganization')
    .input(orgRef)
    .mutation(({ ctx, input }) => syncOrganizationNow(ctx.deps, ctx.caller, input.org_id)),
  remove: procedureFor('disconnectOrganization')
    .input(removeInput)
    .mutation(({ ctx, input }) =>
      removeOrganization(ctx.deps, ctx.caller, input.org_id, {
        disconnect_accounts: input.disconnect_accounts ? 'true' : 'false',
      }),
    ),
});
