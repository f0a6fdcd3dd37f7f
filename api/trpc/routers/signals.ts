import { listSignalsQuery, scoreHistoryQuery } from '../../schemas/signals';
import { accountRecoveryChecklist, accountScoreHistory, listAccountSignals } from '../../services/signals';
import { procedureFor, router } from '../init';
import { accountRef } from '../inputs';

// The REST query string as an object beside the path's account id: the same schema, and with nothing given
// the same defaults (prefault parses `{}`, so limit 50 and days 30 apply).
const signalsInput = accountRef.extend({ query: listSignalsQuery.prefault({}) });
const historyInput = accountRef.extend({ query: scoreHistoryQuery.prefault({}) });

export const signalsRouter = router({
  list: procedureFor('listSignals').input(signalsInput)
    .query(({ ctx, input }) => listAccountSignals(ctx.deps, ctx.caller, input.account_id, input.query)),
  scoreHistory: procedureFor('getScoreHistory').input(historyInput)
    .query(({ ctx, input }) => accountScoreHistory(ctx.deps, ctx.caller, input.account_id, input.query.days)),
  recoveryChecklist: procedureFor('getRecoveryChecklist').input(accountRef)
    .query(({ ctx, input }) => accountRecoveryChecklist(ctx.deps, ctx.caller, input.account_id)),
});
