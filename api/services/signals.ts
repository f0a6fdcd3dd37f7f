import { listSignals, openSignals, scoreHistory } from '../../db/repositories/signals';
import type { Severity } from '../../domain/checks/types';
import { recoveryChecklist } from '../../domain/recovery';
import type { AppDeps, Caller } from '../context';
import { decodeCursor, encodeCursor } from '../cursor';
import type { ListSignalsQuery } from '../schemas/signals';
import { requireAccount } from './accounts';

type Deps = Pick<AppDeps, 'db'>;

export async function listAccountSignals({ db }: Deps, caller: Caller, awsAccountId: string, query: ListSignalsQuery) {
  const account = await requireAccount(db, caller, awsAccountId);
  const after = query.next_token ? decodeCursor(query.next_token) : undefined;
  // One row more than the page tells whether another page exists without a count query.
  const rows = await listSignals({
    db,
    filter: {
      tenantId: caller.tenantId,
      accountId: account.id,
      severity: query.severity,
      scenario: query.scenario,
      since: query.since ? new Date(query.since) : undefined,
      status: query.status,
      after: after ? { at: new Date(after.at), id: after.id } : undefined,
      limit: query.limit + 1,
    },
  });
  const page = rows.slice(0, query.limit);
  const last = page[page.length - 1];
  return {
    signals: page.map((s) => ({
      signal_id: s.id,
      scenario: s.scenario,
      severity: s.severity as Severity,
      title: s.title,
      description: s.description,
      detected_at: s.detected_at.toISOString(),
      resolved_at: s.resolved_at ? s.resolved_at.toISOString() : null,
      check_id: s.check_id,
      resource: s.resource,
      region: s.region,
    })),
    count: page.length,
    next_token: rows.length > query.limit && last ? encodeCursor({ at: last.detected_at.toISOString(), id: last.id }) : null,
  };
}

export async function accountScoreHistory({ db }: Deps, caller: Caller, awsAccountId: string, days: number) {
  const account = await requireAccount(db, caller, awsAccountId);
  const rows = await scoreHistory({ db, accountId: account.id, days });
  return { history: rows.map((r) => ({ date: r.day, srs: r.srs })) };
}

export async function accountRecoveryChecklist({ db }: Deps, caller: Caller, awsAccountId: string) {
  const account = await requireAccount(db, caller, awsAccountId);
  const open = await openSignals({ db, tenantId: caller.tenantId, accountId: account.id });
  return { checklist: recoveryChecklist(open.map((s) => ({ checkId: s.check_id, severity: s.severity as Severity }))) };
}
