import { complianceQuery } from '../../../core/schemas/compliance';
import {
  accountCompliance,
  accountComplianceReport,
  listFrameworks,
  tenantCompliance,
} from '../../../core/reports/compliance';
import { procedureFor, router } from '../init';
import { accountRef } from '../inputs';

const accountComplianceInput = accountRef.extend({ query: complianceQuery });

export const complianceRouter = router({
  frameworks: procedureFor('listComplianceFrameworks').query(() => listFrameworks()),
  tenant: procedureFor('getTenantCompliance')
    .input(complianceQuery)
    .query(({ ctx, input }) => tenantCompliance(ctx.deps, ctx.caller, input.framework)),
  account: procedureFor('getAccountCompliance')
    .input(accountComplianceInput)
    .query(({ ctx, input }) => accountCompliance(ctx.deps, ctx.caller, input.account_id, input.query.framework)),
  /** The HTML report as text, for the dashboard to save as a file. */
  report: procedureFor('getAccountComplianceReport')
    .input(accountComplianceInput)
    .query(({ ctx, input }) => accountComplianceReport(ctx.deps, ctx.caller, input.account_id, input.query.framework)),
});
