import { tenantOverview } from '../../../core/reports/overview';
import { procedureFor, router } from '../init';

export const overviewRouter = router({
  get: procedureFor('getOverview').query(({ ctx }) => tenantOverview(ctx.deps, ctx.caller)),
});
