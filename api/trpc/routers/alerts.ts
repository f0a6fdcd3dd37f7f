import { listAlertsQuery } from '../../../core/schemas/alerts';
import { acknowledgeAlert, listTenantAlerts } from '../../../core/alerts/alerts';
import { procedureFor, router } from '../init';
import { alertRef } from '../inputs';

export const alertsRouter = router({
  list: procedureFor('listAlerts')
    .input(listAlertsQuery.prefault({}))
    .query(({ ctx, input }) => listTenantAlerts(ctx.deps, ctx.caller, input)),
  acknowledge: procedureFor('acknowledgeAlert')
    .input(alertRef)
    .mutation(({ ctx, input }) => acknowledgeAlert(ctx.deps, ctx.caller, input.alert_id)),
});
