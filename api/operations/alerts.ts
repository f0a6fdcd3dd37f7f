import { ackAlertOutput, listAlertsOutput, listAlertsQuery } from '../../core/schemas/alerts';
import { acknowledgeAlert, listTenantAlerts } from '../../core/alerts/alerts';
import { endpoint } from './operation';

export const alertOperations = [
  endpoint({
    operationId: 'listAlerts',
    method: 'get',
    path: '/alerts',
    tag: 'Alerts',
    access: 'viewer',
    summary: "The tenant's alerts, newest first",
    description: '`next_token` is the opaque cursor of the previous page. Unknown query parameters are 400.',
    query: listAlertsQuery,
    success: { status: 200, description: 'One page of alerts', schema: listAlertsOutput },
    errors: ['invalid_cursor'],
    handler: ({ deps, caller, query }) => listTenantAlerts(deps, caller, query),
  }),
  endpoint({
    operationId: 'acknowledgeAlert',
    method: 'post',
    path: '/alerts/{alert_id}/ack',
    tag: 'Alerts',
    access: 'member',
    summary: 'Acknowledge an alert',
    description: "Idempotent: acknowledging again answers the first acknowledgement's time.",
    success: { status: 200, description: 'Acknowledged', schema: ackAlertOutput },
    errors: ['not_found'],
    handler: ({ deps, caller, params }) => acknowledgeAlert(deps, caller, params.alert_id),
  }),
];
