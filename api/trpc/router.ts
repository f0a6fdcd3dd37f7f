import { createCallerFactory, router } from './init';
import { accountsRouter } from './routers/accounts';
import { alertRulesRouter } from './routers/alert-rules';
import { alertsRouter } from './routers/alerts';
import { auditLogRouter } from './routers/audit-log';
import { authRouter } from './routers/auth';
import { billingRouter } from './routers/billing';
import { complianceRouter } from './routers/compliance';
import { eventsRouter } from './routers/events';
import { exportsRouter } from './routers/exports';
import { integrationsRouter } from './routers/integrations';
import { meRouter } from './routers/me';
import { organizationsRouter } from './routers/organizations';
import { overviewRouter } from './routers/overview';
import { signalsRouter } from './routers/signals';
import { attackPathsRouter } from './routers/attack-paths';
import { usersRouter } from './routers/users';
import { trustedPrincipalsRouter } from './routers/trusted-principals';
import { detectionsRouter } from './routers/detections';

/** The dashboard's API: one sub-router per area, each procedure calling the same service as its REST route. */
export const appRouter = router({
  auth: authRouter,
  me: meRouter,
  accounts: accountsRouter,
  organizations: organizationsRouter,
  overview: overviewRouter,
  signals: signalsRouter,
  attackPaths: attackPathsRouter,
  compliance: complianceRouter,
  events: eventsRouter,
  exports: exportsRouter,
  alertRules: alertRulesRouter,
  alerts: alertsRouter,
  users: usersRouter,
  auditLog: auditLogRouter,
  billing: billingRouter,
  integrations: integrationsRouter,
  trustedPrincipals: trustedPrincipalsRouter,
  detections: detectionsRouter,
});

export type AppRouter = typeof appRouter;

/** For tests and server-side callers: `createCaller(createTrpcContext(...))` runs procedures without HTTP. */
export const createCaller = createCallerFactory(appRouter);
