import type { Db } from '../../db/client';
import { setAccountScore } from '../../db/repositories/accounts';
import { listOpenSignalsWithAcceptance } from '../../db/repositories/signals';
import { asOpenSignals, scoreOf } from '../../domain/signals/lifecycle';

/**
 * Sets the account's score from its open signals as they are at `at`, outside a scan: signals opened by events and
 * acceptances given or undone count at once. Only an account that has a score is rescored (its first full scan gives
 * it one), and no score-history point is written (scans keep those). Call it in the transaction that changed the
 * signals, with the account's row locked.
 */
export async function rescoreAccount({
  db,
  account,
  at,
}: {
  db: Db;
  account: { id: string; current_srs: number | null };
  at: Date;
}): Promise<void> {
  if (account.current_srs === null) return;
  const srs = scoreOf(asOpenSignals(await listOpenSignalsWithAcceptance({ db, accountId: account.id }), at));
  await setAccountScore({ db, accountId: account.id, srs, at });
}
