import { auditLogQuery } from '../../../core/schemas/audit-log';
import { tenantAuditLog } from '../../../core/audit-log';
import { procedureFor, router } from '../init';

export const auditLogRouter = router({
  list: procedureFor('listAuditLog')
    .input(auditLogQuery.prefault({}))
    .query(({ ctx, input }) => tenantAuditLog(ctx.deps, ctx.caller, input)),
});
