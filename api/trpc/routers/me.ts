import { patchMeInput } from '../../../core/schemas/me';
import { resendVerificationLink } from '../../../core/identity/email-verification';
import { getProfile, renameSelf } from '../../../core/identity/profile';
import { procedureFor, router } from '../init';

export const meRouter = router({
  get: procedureFor('getProfile').query(({ ctx }) => getProfile(ctx.deps, ctx.caller)),
  rename: procedureFor('renameSelf')
    .input(patchMeInput)
    .mutation(({ ctx, input }) => renameSelf(ctx.deps, ctx.caller, input.name)),
  resendVerificationEmail: procedureFor('resendVerificationEmail').mutation(({ ctx }) =>
    resendVerificationLink(ctx.deps, ctx.caller),
  ),
});
