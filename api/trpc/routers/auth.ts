import { acceptInviteInput } from '../../../core/schemas/users';
import {
  loginInput,
  logoutInput,
  passwordResetConfirmInput,
  passwordResetInput,
  refreshInput,
  signupInput,
} from '../../../core/schemas/auth';
import { login, logout, refresh, signup } from '../../../core/identity/auth';
import { recipientLinkQuery, verifyEmailInput } from '../../../core/schemas/email';
import { confirmAlertRecipient, unsubscribeAlertRecipient } from '../../../core/alerts/alert-recipients';
import { verifyEmail } from '../../../core/identity/email-verification';
import { acceptInvitation } from '../../../core/identity/invitations';
import { confirmPasswordReset, requestPasswordReset } from '../../../core/identity/password-reset';
import { publicProcedureFor, router } from '../init';

export const authRouter = router({
  signup: publicProcedureFor('signup')
    .input(signupInput)
    .mutation(({ ctx, input }) => signup(ctx.deps, { ...input, clientAddress: ctx.clientAddress })),
  login: publicProcedureFor('login')
    .input(loginInput)
    .mutation(({ ctx, input }) => login(ctx.deps, { ...input, clientAddress: ctx.clientAddress })),
  refresh: publicProcedureFor('refreshTokens')
    .input(refreshInput)
    .mutation(({ ctx, input }) => refresh(ctx.deps, input.refresh_token)),
  logout: publicProcedureFor('logout')
    .input(logoutInput)
    .mutation(async ({ ctx, input }) => {
      await logout(ctx.deps, input.refresh_token);
      return { ok: true as const };
    }),
  acceptInvite: publicProcedureFor('acceptInvitation')
    .input(acceptInviteInput)
    .mutation(({ ctx, input }) => acceptInvitation(ctx.deps, { ...input, clientAddress: ctx.clientAddress })),
  requestPasswordReset: publicProcedureFor('requestPasswordReset')
    .input(passwordResetInput)
    .mutation(({ ctx, input }) =>
      requestPasswordReset(ctx.deps, { email: input.email, clientAddress: ctx.clientAddress }),
    ),
  confirmPasswordReset: publicProcedureFor('confirmPasswordReset')
    .input(passwordResetConfirmInput)
    .mutation(({ ctx, input }) => confirmPasswordReset(ctx.deps, { ...input, clientAddress: ctx.clientAddress })),
  verifyEmail: publicProcedureFor('verifyEmail')
    .input(verifyEmailInput)
    .mutation(({ ctx, input }) => verifyEmail(ctx.deps, { token: input.token, clientAddress: ctx.clientAddress })),
  confirmAlertRecipient: publicProcedureFor('confirmAlertRecipient')
    .input(recipientLinkQuery)
    .mutation(({ ctx, input }) => confirmAlertRecipient(ctx.deps, input.token)),
  unsubscribeAlertRecipient: publicProcedureFor('unsubscribeAlertRecipient')
    .input(recipientLinkQuery)
    .mutation(({ ctx, input }) => unsubscribeAlertRecipient(ctx.deps, input.token)),
});
