import { createAlertRuleInput, getAlertRuleQuery, patchAlertRuleInput } from '../../../core/schemas/alerts';
import {
  createAlertRule,
  deleteAlertRule,
  getAlertRule,
  listTenantAlertRules,
  patchAlertRule,
} from '../../../core/alerts/alert-rules';
import { procedureFor, router } from '../init';
import { ruleRef } from '../inputs';

export const alertRulesRouter = router({
  list: procedureFor('listAlertRules').query(({ ctx }) => listTenantAlertRules(ctx.deps, ctx.caller)),
  get: procedureFor('getAlertRule')
    .input(ruleRef.extend({ query: getAlertRuleQuery.prefault({}) }))
    .query(({ ctx, input }) => getAlertRule(ctx.deps, ctx.caller, input.rule_id, input.query)),
  create: procedureFor('createAlertRule')
    .input(createAlertRuleInput)
    .mutation(({ ctx, input }) => createAlertRule(ctx.deps, ctx.caller, input)),
  update: procedureFor('patchAlertRule')
    .input(ruleRef.extend({ patch: patchAlertRuleInput }))
    .mutation(({ ctx, input }) => patchAlertRule(ctx.deps, ctx.caller, input.rule_id, input.patch)),
  delete: procedureFor('deleteAlertRule')
    .input(ruleRef)
    .mutation(({ ctx, input }) => deleteAlertRule(ctx.deps, ctx.caller, input.rule_id)),
});
