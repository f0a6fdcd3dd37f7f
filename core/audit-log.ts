import { insertAuditEvent, listAuditEvents, type NewAuditEvent } from '../db/repositories/audit-log';
import type { AuditAction } from '../domain/tenancy/audit';
import { newId } from '../domain/ids';
import type { AppDeps, Caller } from './deps';
import { afterCursor, keysetPage } from './pagination/cursor';
import type { AuditLogQuery } from './schemas/audit-log';

// The audit log: every security-relevant action, who did it, when and from which address. Written in the
// transaction of the action where there is one, so an action and its record stand or fall together.

type Details = NewAuditEvent['details'];

/** Records an action of a signed-in user. */
export function audit(
  db: AppDeps['db'],
  caller: Caller,
  action: AuditAction,
  target: string | null,
  details: Details = {},
) {
  return insertAuditEvent({
    db,
    event: {
      id: newId('auditEvent'),
      tenant_id: caller.tenantId,
      actor_user_id: caller.userId,
      actor_email: caller.email,
      action,
      target,
      client_address: caller.clientAddress ?? null,
      details,
    },
  });
}

/** Records an action without a signed-in caller: a login, a signed download, a Stripe event. */
export function auditAs(
  db: AppDeps['db'],
  event: {
    tenantId: string;
    actor?: { userId: string; email: string } | null;
    action: AuditAction;
    target: string | null;
    clientAddress?: string | null;
    details?: Details;
  },
) {
  return insertAuditEvent({
    db,
    event: {
      id: newId('auditEvent'),
      tenant_id: event.tenantId,
      actor_user_id: event.actor?.userId ?? null,
      actor_email: event.actor?.email ?? null,
      action: event.action,
      target: event.target,
      client_address: event.clientAddress ?? null,
      details: event.details ?? {},
    },
  });
}

export async function tenantAuditLog({ db }: Pick<AppDeps, 'db'>, caller: Caller, query: AuditLogQuery) {
  const rows = await listAuditEvents({
    db,
    tenantId: caller.tenantId,
    after: afterCursor(query.next_token),
    limit: query.limit + 1,
    action: query.action,
    userId: query.user_id,
  });
  const { page, nextToken } = keysetPage(rows, query.limit, (e) => e.created_at);
  return {
    events: page.map((e) => ({
      event_id: e.id,
      action: e.action,
      actor:
        e.actor_email === null && e.actor_user_id === null ? null : { user_id: e.actor_user_id, email: e.actor_email },
      target: e.target,
      client_address: e.client_address,
      details: e.details,
      created_at: e.created_at.toISOString(),
    })),
    next_token: nextToken,
  };
}
