import { auditLogOutput, auditLogQuery } from '../../core/schemas/audit-log';
import { tenantAuditLog } from '../../core/audit-log';
import { endpoint } from './operation';

export const auditLogOperations = [
  endpoint({
    operationId: 'listAuditLog',
    method: 'get',
    path: '/audit-log',
    tag: 'Audit log',
    access: 'admin',
    summary: "The tenant's audit log, newest first",
    description:
      'Logins, refresh-token reuse, password resets, team changes, accounts connected, verified and disconnected, ' +
      'alert rules created, changed, deleted and their secrets revealed, accepted risk, exports and their downloads, plan ' +
      'changes: who, what, when and from which address. Kept at least 400 days. Filter by `action` or `user_id`; page ' +
      'with `limit` and `next_token`.',
    query: auditLogQuery,
    success: { status: 200, description: 'A page of events', schema: auditLogOutput },
    errors: ['invalid_cursor'],
    handler: ({ deps, caller, query }) => tenantAuditLog(deps, caller, query),
  }),
];
