import { changeRoleInput, inviteUserInput } from '../../../core/schemas/users';
import { resendInvitation } from '../../../core/identity/invitations';
import { changeRole, inviteUser, listTeam, removeUser } from '../../../core/identity/users';
import { procedureFor, router } from '../init';
import { userRef } from '../inputs';

export const usersRouter = router({
  list: procedureFor('listUsers').query(({ ctx }) => listTeam(ctx.deps, ctx.caller)),
  invite: procedureFor('inviteUser')
    .input(inviteUserInput)
    .mutation(({ ctx, input }) => inviteUser(ctx.deps, ctx.caller, input)),
  resendInvite: procedureFor('resendInvitation')
    .input(userRef)
    .mutation(({ ctx, input }) => resendInvitation(ctx.deps, ctx.caller, input.user_id)),
  changeRole: procedureFor('changeRole')
    .input(userRef.extend(changeRoleInput.shape))
    .mutation(({ ctx, input }) => changeRole(ctx.deps, ctx.caller, input.user_id, input.role)),
  remove: procedureFor('removeUser')
    .input(userRef)
    .mutation(async ({ ctx, input }) => {
      await removeUser(ctx.deps, ctx.caller, input.user_id);
      return { ok: true as const };
    }),
});
