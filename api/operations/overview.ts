import { overviewOutput, overviewQuery } from '../../core/schemas/overview';
import { tenantOverview } from '../../core/reports/overview';
import { endpoint } from './operation';

export const overviewOperations = [
  endpoint({
    operationId: 'getOverview',
    method: 'get',
    path: '/overview',
    tag: 'Overview',
    access: 'viewer',
    summary: 'The portfolio at a glance: scores, open signals, the last 24 hours, what needs attention',
    description:
      'Covers the accounts not disconnected (`accounts.total` and `by_status` count every account). An open signal ' +
      'counts unless its risk is accepted. The score bands are listed under `accounts.by_srs_band`.',
    query: overviewQuery,
    success: { status: 200, description: 'The overview', schema: overviewOutput },
    errors: [],
    handler: ({ deps, caller }) => tenantOverview(deps, caller),
  }),
];
