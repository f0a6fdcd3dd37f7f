import { findProfile, updateUserName } from '../../db/repositories/users';
import type { AppDeps, Caller } from '../context';
import { notFound } from '../errors';

type Deps = Pick<AppDeps, 'db'>;

export async function getProfile({ db }: Deps, caller: Caller) {
  const row = await findProfile({ db, tenantId: caller.tenantId, userId: caller.userId });
  if (!row) throw notFound('User');
  return {
    user: {
      user_id: row.id, email: row.email, name: row.name, role: row.role, created_at: row.created_at.toISOString(),
      email_verified: row.email_verified_at !== null,
    },
    tenant: { tenant_id: caller.tenantId, name: row.tenant_name, plan: row.plan, status: row.status, created_at: row.tenant_created_at.toISOString() },
  };
}

export async function renameSelf({ db }: Deps, caller: Caller, name: string) {
  const row = await updateUserName({ db, tenantId: caller.tenantId, userId: caller.userId, name });
  if (!row) throw notFound('User');
  return { name: row.name };
}
