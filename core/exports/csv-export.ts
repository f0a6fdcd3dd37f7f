import { signalPages } from '../../exports/signal-pages';
import { findTenant } from '../../db/repositories/tenants';
import { getPlan } from '../../domain/tenancy/plans';
import { csvTable } from '../../exports/csv';
import { SIGNAL_COLUMNS, signalCsvRecord, signalRecord } from '../../exports/records';
import type { AppDeps, Caller } from '../deps';
import { AppError } from '../errors';
import { requireAccount } from '../accounts/require-account';
import { audit } from '../audit-log';

export interface CsvExport {
  filename: string;
  /** The CSV text, a header row then a page of signals per chunk; pulled as the client reads. */
  chunks: AsyncIterable<string>;
}

/**
 * Opens the CSV export of every signal of an account (plans with the `csv_export` feature). The first page
 * is read before anything is sent, so a missing account, the plan or a database failure are still JSON errors.
 */
export async function openSignalsCsv(
  { db }: Pick<AppDeps, 'db'>,
  caller: Caller,
  awsAccountId: string,
): Promise<CsvExport> {
  const account = await requireAccount(db, caller, awsAccountId);
  const tenant = await findTenant({ db, tenantId: caller.tenantId });
  const plan = getPlan(tenant?.plan ?? 'solo');
  if (!plan.features.includes('csv_export')) {
    throw new AppError(
      'plan_feature_unavailable',
      `CSV export is part of the Team, Agency and Enterprise plans, not the ${plan.name} plan`,
    );
  }
  await audit(db, caller, 'export.csv_downloaded', `account:${awsAccountId}`);
  const pages = signalPages({ db, tenantId: caller.tenantId, accountId: account.id });
  const at = new Date();
  let next = await pages.next();
  async function* records() {
    try {
      for (; !next.done; next = await pages.next())
        yield next.value.map((s) => signalCsvRecord(signalRecord(account.aws_account_id, s, at)));
    } finally {
      // The client may hang up mid-way: stop reading pages.
      await pages.return(undefined);
    }
  }
  const day = new Date().toISOString().slice(0, 10).replace(/-/g, '');
  return {
    filename: `sentinel-${account.aws_account_id}-signals-${day}.csv`,
    chunks: csvTable(SIGNAL_COLUMNS, records()),
  };
}
