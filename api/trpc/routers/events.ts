import { listEventsQuery, rotateEventKeyInput } from '../../../core/schemas/events';
import { getEventForwarding, listAccountEvents, rotateEventKey } from '../../../core/accounts/account-events';
import { procedureFor, router } from '../init';
import { accountRef } from '../inputs';

// The account's event stream for the dashboard. Ingestion (POST /ingest/aws/events) is not here: EventBridge calls
// it with the account's key, never a user's token.
const eventsInput = accountRef.extend({ query: listEventsQuery.prefault({}) });
const rotateInput = accountRef.extend({ body: rotateEventKeyInput });

export const eventsRouter = router({
  list: procedureFor('listAccountEvents')
    .input(eventsInput)
    .query(({ ctx, input }) => listAccountEvents(ctx.deps, ctx.caller, input.account_id, input.query)),
  forwarding: procedureFor('getEventForwarding')
    .input(accountRef)
    .query(({ ctx, input }) => getEventForwarding(ctx.deps, ctx.caller, input.account_id)),
  rotateKey: procedureFor('rotateEventKey')
    .input(rotateInput)
    .mutation(({ ctx, input }) => rotateEventKey(ctx.deps, ctx.caller, input.account_id, input.body)),
});
