import { findTenant } from '../../db/repositories/tenants';
import { findUser, updateUserName } from '../../db/repositories/users';
import type { AppDeps, Caller } from '../context';
import { notFound } from '../errors';

type Deps = Pick<AppDeps, 'db'>;

export async function getProfile({ db }: Deps, caller: Caller) {
  const [user, tenant] = await Promise.all([
    findUser({ db, tenantId: caller.tenantId, userId: caller.userId }),
    findTenant({ db, tenantId: caller.tenantId }),
  ]);
  if (!user || !tenant) throw notFound('User');
  return {
    user: {
      user_id: user.id, email: user.email, name: user.name, role: user.role, created_at: user.created_at.toISOString(),
      email_verified: user.email_verified_at !== null,
    },
    tenant: { tenant_id: tenant.id, name: tenant.name, plan: tenant.plan, status: tenant.status, created_at: tenant.created_at.toISOString() },
  };
}

export async function renameSelf({ db }: Deps, caller: Caller, name: string) {
  const row = await updateUserName({ db, tenantId: caller.tenantId, userId: caller.userId, name });
  if (!row) throw notFound('User');
  return { name: row.name };
}
