import { accountOperations } from './accounts';
import { alertRuleOperations } from './alert-rules';
import { alertOperations } from './alerts';
import { auditLogOperations } from './audit-log';
import { authOperations } from './auth';
import { billingOperations } from './billing';
import { complianceOperations } from './compliance';
import { detectionOperations } from './detections';
import { openApiJson } from '../openapi/document';
import { docsOperations } from './docs';
import { emailLinkOperations } from './email-links';
import { eventOperations } from './events';
import { exportOperations } from './exports';
import { healthOperations } from './health';
import { integrationOperations } from './integrations';
import { meOperations } from './me';
import { overviewOperations } from './overview';
import type { Endpoint } from './operation';
import { organizationOperations } from './organizations';
import { signalOperations } from './signals';
import { attackPathOperations } from './attack-paths';
import { trustedPrincipalOperations } from './trusted-principals';
import { userOperations } from './users';

// Every operation the REST API serves, one declaration each, one file per area (the OpenAPI tag). A declaration
// is the route (method, path, aliases), who may call it (`access`: a role, or PUBLIC), what it takes (`body`,
// `query`: zod schemas the route parses), what it answers (`success`, `errors`) and its `handler`. From this
// list come the Express routes (./express.ts), the OpenAPI document (../openapi/document.ts) and each tRPC
// procedure's role (`procedureFor(operationId)` in ../trpc/init.ts).
//
// To add an endpoint: add an `endpoint({...})` to its area's file (a new area is a new file listed below, and a
// tag in ../openapi/registry.ts). The handler gets `{ deps, caller, params, body, query, req }`, already
// authenticated, role-checked and parsed, and returns the JSON body of its success status (nothing for a 204);
// a stream, a file or a page is written with `respond(res => ...)`. A new path parameter is described in
// ./path-params.ts. The role matrix and OpenAPI tests then cover the endpoint as they find it here.

export const OPERATIONS: readonly Endpoint[] = [
  ...healthOperations,
  ...authOperations,
  ...meOperations,
  ...accountOperations,
  ...eventOperations,
  ...organizationOperations,
  ...overviewOperations,
  ...signalOperations,
  ...attackPathOperations,
  ...complianceOperations,
  ...exportOperations,
  ...alertRuleOperations,
  ...alertOperations,
  ...emailLinkOperations,
  ...userOperations,
  ...auditLogOperations,
  ...integrationOperations,
  ...billingOperations,
  ...trustedPrincipalOperations,
  ...docsOperations(() => openApiJson(OPERATIONS)),
  ...detectionOperations,
];
