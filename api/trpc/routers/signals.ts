import {
  acceptSignalInput,
  listSignalsQuery,
  scoreHistoryQuery,
  searchSignalsQuery,
} from '../../../core/schemas/signals';
import { accountChecks } from '../../../core/accounts/checks';
import {
  acceptSignal,
  accountRecoveryChecklist,
  accountScoreHistory,
  listAccountSignals,
  searchTenantSignals,
  undoSignalAcceptance,
} from '../../../core/signals/signals';
import { procedureFor, router } from '../init';
import { accountRef, signalRef } from '../inputs';

// The REST query string as an object beside the path's account id: the same schema, and with nothing given
// the same defaults (prefault parses `{}`, so limit 50 and days 30 apply).
const signalsInput = accountRef.extend({ query: listSignalsQuery.prefault({}) });
const historyInput = accountRef.extend({ query: scoreHistoryQuery.prefault({}) });
const acceptInput = signalRef.extend({ body: acceptSignalInput });

export const signalsRouter = router({
  // GET /signals: the REST query as the input (optional: the REST defaults).
  search: procedureFor('searchSignals')
    .input(searchSignalsQuery.prefault({}))
    .query(({ ctx, input }) => searchTenantSignals(ctx.deps, ctx.caller, input)),
  list: procedureFor('listSignals')
    .input(signalsInput)
    .query(({ ctx, input }) => listAccountSignals(ctx.deps, ctx.caller, input.account_id, input.query)),
  scoreHistory: procedureFor('getScoreHistory')
    .input(historyInput)
    .query(({ ctx, input }) => accountScoreHistory(ctx.deps, ctx.caller, input.account_id, input.query.days)),
  recoveryChecklist: procedureFor('getRecoveryChecklist')
    .input(accountRef)
    .query(({ ctx, input }) => accountRecoveryChecklist(ctx.deps, ctx.caller, input.account_id)),
  checks: procedureFor('listChecks')
    .input(accountRef)
    .query(({ ctx, input }) => accountChecks(ctx.deps, ctx.caller, input.account_id)),
  accept: procedureFor('acceptSignal')
    .input(acceptInput)
    .mutation(({ ctx, input }) => acceptSignal(ctx.deps, ctx.caller, input.account_id, input.signal_id, input.body)),
  undoAcceptance: procedureFor('undoSignalAcceptance')
    .input(signalRef)
    .mutation(({ ctx, input }) => undoSignalAcceptance(ctx.deps, ctx.caller, input.account_id, input.signal_id)),
});
