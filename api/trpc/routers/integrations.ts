import { listSlackWorkspaces, removeSlackWorkspace, startSlackInstall } from '../../../core/integrations/slack-install';
import { procedureFor, router } from '../init';
import { teamRef } from '../inputs';

export const integrationsRouter = router({
  slackWorkspaces: procedureFor('listSlackWorkspaces').query(({ ctx }) => listSlackWorkspaces(ctx.deps, ctx.caller)),
  // A mutation, unlike the REST GET: it stores a single-use state, and the dashboard calls it on a click.
  slackInstallStart: procedureFor('startSlackInstall').mutation(({ ctx }) => startSlackInstall(ctx.deps, ctx.caller)),
  slackRemove: procedureFor('removeSlackWorkspace')
    .input(teamRef)
    .mutation(({ ctx, input }) => removeSlackWorkspace(ctx.deps, ctx.caller, input.team_id)),
});
