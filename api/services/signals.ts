import { listSignals, openSignals, scoreHistory } from '../../db/repositories/signals';
import type { Severity } from '../../domain/checks/types';
import { recoveryChecklist } from '../../domain/recovery';
import type { AppDeps, Caller } from '../context';
import { afterCursor, keysetPage } from '../cursor';
import type { ListSignalsQuery } from '../schemas/signals';
import { requireAccount } from './accounts';

type Deps = Pick<AppDeps, 'db'>;

export async function listAccountSignals({ db }: Deps, caller: Caller, awsAccountId: string, query: ListSignalsQuery) {
  const account = await requireAccount(db, caller, awsAccountId);
  const rows = await listSignals({
    db,
    filter: {
      tenantId: caller.tenantId,
      accountId: account.id,
      severity: query.severity,
      scenario: query.scenario,
      since: query.since ? new Date(query.since) : undefined,
      status: query.status,
      after: afterCursor(query.next_token),
      limit: query.limit + 1,
    },
  });
  const { page, nextToken } = keysetPage(rows, query.limit, (s) => s.detected_at);
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
    next_token: nextToken,
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
