import { hasRole } from '../../../domain/tenancy/roles';
import { connectAccountInput, listAccountsQuery } from '../../../core/schemas/accounts';
import {
  accountDetail,
  connectAccount,
  disconnectAccount,
  listTenantAccounts,
  requestScan,
  verifyAccount,
} from '../../../core/accounts/accounts';
import { requireAccount } from '../../../core/accounts/require-account';
import { procedureFor, router } from '../init';
import { accountRef } from '../inputs';

export const accountsRouter = router({
  // The REST query as the input; with none, the REST defaults (one page of up to 250, in the order connected).
  list: procedureFor('listAccounts')
    .input(listAccountsQuery.prefault({}))
    .query(({ ctx, input }) => listTenantAccounts(ctx.deps, ctx.caller, input)),
  connect: procedureFor('connectAccount')
    .input(connectAccountInput)
    .mutation(({ ctx, input }) => connectAccount(ctx.deps, ctx.caller, input)),
  get: procedureFor('getAccount')
    .input(accountRef)
    .query(async ({ ctx, input }) => {
      const account = await requireAccount(ctx.deps.db, ctx.caller, input.account_id);
      // For operators (admins and owners; null for the others): the account's workflow in the Temporal UI (the REST
      // body does not carry workflow ids).
      const { uiUrl, namespace } = ctx.deps.config.temporal;
      const temporal_ui_url = hasRole(ctx.caller.role, 'admin')
        ? `${uiUrl}/namespaces/${encodeURIComponent(namespace)}/workflows/${encodeURIComponent(account.workflow_id)}`
        : null;
      return { ...accountDetail(account), temporal_ui_url };
    }),
  verify: procedureFor('verifyAccount')
    .input(accountRef)
    .mutation(({ ctx, input }) => verifyAccount(ctx.deps, ctx.caller, input.account_id)),
  scan: procedureFor('scanAccount')
    .input(accountRef)
    .mutation(({ ctx, input }) => requestScan(ctx.deps, ctx.caller, input.account_id)),
  disconnect: procedureFor('disconnectAccount')
    .input(accountRef)
    .mutation(({ ctx, input }) => disconnectAccount(ctx.deps, ctx.caller, input.account_id)),
});
