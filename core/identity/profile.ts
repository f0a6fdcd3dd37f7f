import { findProfile, updateUserName } from '../../db/repositories/users';
import { readCacheLookups } from '../../observability/metrics';
import type { CachedTenant, CachedUser } from '../../db/read-cache';
import type { AppDeps, Caller } from '../deps';
import { notFound } from '../errors';
import { audit } from '../audit-log';

type Deps = Pick<AppDeps, 'db' | 'readCache'>;

/**
 * The caller and their tenant: from this process's cache when it holds both (authentication has just kept the
 * caller; db/read-cache.ts forgets either as soon as PostgreSQL announces a change to it), else in one query.
 */
export async function getProfile({ db, readCache }: Deps, caller: Caller) {
  const cachedUser = readCache?.get(caller.tenantId, caller.userId);
  const cachedTenant = readCache?.getTenant(caller.tenantId);
  readCacheLookups.inc({ read: 'tenant', result: cachedTenant ? 'hit' : 'miss' });
  if (cachedUser && cachedTenant) return keptProfile(cachedUser, caller.tenantId, cachedTenant);
  const readAt = readCache?.generation(caller.tenantId) ?? 0;
  const row = await findProfile({ db, tenantId: caller.tenantId, userId: caller.userId });
  if (!row) throw notFound('User');
  const tenant: CachedTenant = {
    name: row.tenant_name,
    plan: row.plan,
    status: row.status,
    created_at: row.tenant_created_at,
  };
  readCache?.keepTenant(caller.tenantId, tenant, readAt);
  return profileBody(row, caller.tenantId, tenant);
}

type ProfileBody = ReturnType<typeof profileBody>;

// The answer for a kept user and tenant, built once and frozen, so its JSON is written once too (api/operations/
// express.ts). The read cache replaces a kept user or tenant when either changes, never the object itself: a new
// pair of objects is a new answer.
const keptProfiles = new WeakMap<CachedUser, { tenant: CachedTenant; body: ProfileBody }>();

function keptProfile(user: CachedUser, tenantId: string, tenant: CachedTenant): ProfileBody {
  const kept = keptProfiles.get(user);
  if (kept?.tenant === tenant) return kept.body;
  const body = profileBody(user, tenantId, tenant);
  Object.freeze(body.user);
  Object.freeze(body.tenant);
  keptProfiles.set(user, { tenant, body: Object.freeze(body) });
  return body;
}

function profileBody(
  user: Omit<CachedUser, 'tenant_id' | 'sessions_valid_after'>,
  tenantId: string,
  tenant: CachedTenant,
) {
  return {
    user: {
      user_id: user.id,
      email: user.email,
      name: user.name,
      role: user.role,
      created_at: user.created_at.toISOString(),
      email_verified: user.email_verified_at !== null,
    },
    tenant: {
      tenant_id: tenantId,
      name: tenant.name,
      plan: tenant.plan,
      status: tenant.status,
      created_at: tenant.created_at.toISOString(),
    },
  };
}

/** PATCH /me: a change of the name is in the audit log, with the name before and after. */
export async function renameSelf({ db }: Deps, caller: Caller, name: string) {
  return db.transaction().execute(async (trx) => {
    const row = await updateUserName({ db: trx, tenantId: caller.tenantId, userId: caller.userId, name });
    if (!row) throw notFound('User');
    if (row.previous_name !== row.name) {
      await audit(trx, caller, 'user.name_changed', `user:${caller.userId}`, { from: row.previous_name, to: row.name });
    }
    return { name: row.name };
  });
}
