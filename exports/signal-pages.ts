import type { Db } from '../db/client';
import { acceptances, signalsPage } from '../db/repositories/exports';
import type { AcceptanceSource } from '../domain/records/exports';
import type { SignalSource } from './records';

/**
 * Every signal of an account, open and resolved, oldest first, a page at a time with the page's acceptances:
 * only one page is in memory, however many signals the account has. The CSV export and the panic package read
 * signals this way.
 */
export async function* signalPages({
  db,
  tenantId,
  accountId,
  pageSize = 1_000,
}: {
  db: Db;
  tenantId: string;
  accountId: string;
  pageSize?: number;
}): AsyncGenerator<SignalSource[]> {
  let after: { at: string; id: string } | undefined;
  for (;;) {
    const rows = await signalsPage({ db, tenantId, accountId, after, limit: pageSize });
    if (rows.length > 0) {
      const accepted = new Map<string, AcceptanceSource[]>();
      for (const a of await acceptances({ db, tenantId, accountId, signalIds: rows.map((r) => r.id) })) {
        accepted.set(a.signal_id, [...(accepted.get(a.signal_id) ?? []), a]);
      }
      yield rows.map(({ cursor_at: _, ...row }) => ({ ...row, acceptances: accepted.get(row.id) ?? [] }));
    }
    const last = rows[rows.length - 1];
    if (!last || rows.length < pageSize) return;
    after = { at: last.cursor_at, id: last.id };
  }
}
