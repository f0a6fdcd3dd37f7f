import { openSignalsCsv } from '../../../core/exports/csv-export';
import { requestPanicExport } from '../../../core/exports/panic-export';
import { procedureFor, router } from '../init';
import { accountRef } from '../inputs';

export const exportsRouter = router({
  // The dashboard saves the text as a file. Collected in memory: an account holds thousands of signals at
  // most, and a REST client that wants a stream has GET /accounts/{account_id}/export.
  csv: procedureFor('exportSignalsCsv')
    .input(accountRef)
    .query(async ({ ctx, input }) => {
      const csv = await openSignalsCsv(ctx.deps, ctx.caller, input.account_id);
      let text = '';
      for await (const chunk of csv.chunks) text += chunk;
      return { filename: csv.filename, csv: text };
    }),
  panic: procedureFor('panicExport')
    .input(accountRef)
    .mutation(({ ctx, input }) => requestPanicExport(ctx.deps, ctx.caller, input.account_id)),
});
