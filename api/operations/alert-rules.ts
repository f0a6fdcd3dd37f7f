import {
  alertRule,
  createAlertRuleInput,
  getAlertRuleQuery,
  listAlertRulesOutput,
  patchAlertRuleInput,
} from '../../core/schemas/alerts';
import { messageBody } from '../../core/schemas/common';
import {
  createAlertRule,
  deleteAlertRule,
  getAlertRule,
  listTenantAlertRules,
  patchAlertRule,
} from '../../core/alerts/alert-rules';
import { endpoint } from './operation';

export const alertRuleOperations = [
  endpoint({
    operationId: 'listAlertRules',
    method: 'get',
    path: '/alert-rules',
    tag: 'Alert rules',
    access: 'viewer',
    summary: "The tenant's alert rules, oldest first",
    description:
      'Channel secrets (Slack webhook URLs, PagerDuty routing keys) are masked: `****` and their last 4 characters.',
    success: { status: 200, description: 'Every rule', schema: listAlertRulesOutput },
    errors: [],
    handler: ({ deps, caller }) => listTenantAlertRules(deps, caller),
  }),
  endpoint({
    operationId: 'getAlertRule',
    method: 'get',
    path: '/alert-rules/{rule_id}',
    tag: 'Alert rules',
    access: 'viewer',
    summary: 'One alert rule',
    description:
      'Channel secrets are masked unless `reveal=true`, which only admins and owners may ask (403 otherwise); ' +
      'each reveal is logged with who asked.',
    query: getAlertRuleQuery,
    success: { status: 200, description: 'The rule', schema: alertRule },
    errors: ['not_found', 'forbidden'],
    handler: ({ deps, caller, params, query }) => getAlertRule(deps, caller, params.rule_id, query),
  }),
  endpoint({
    operationId: 'createAlertRule',
    method: 'post',
    path: '/alert-rules',
    tag: 'Alert rules',
    access: 'member',
    summary: 'Create an alert rule',
    description:
      'Channel types `chat` and `paging` are accepted for `slack` and `pagerduty`. A Slack `team_id` must be ' +
      'installed for the tenant; a `webhook_url` must be under the configured Slack prefix. A rule lists at most 20 ' +
      'e-mail addresses across its channels, and a tenant has at most 25 live rules (then 403 `plan_limit_exceeded`).',
    body: createAlertRuleInput,
    success: { status: 201, description: 'The rule', schema: alertRule },
    errors: ['plan_limit_exceeded'],
    handler: ({ deps, caller, body }) => createAlertRule(deps, caller, body),
  }),
  endpoint({
    operationId: 'patchAlertRule',
    method: 'patch',
    path: '/alert-rules/{rule_id}',
    tag: 'Alert rules',
    access: 'member',
    summary: 'Change an alert rule',
    description: 'Any of the fields; lists are replaced, not merged.',
    body: patchAlertRuleInput,
    success: { status: 200, description: 'The updated rule', schema: alertRule },
    errors: ['not_found'],
    handler: ({ deps, caller, params, body }) => patchAlertRule(deps, caller, params.rule_id, body),
  }),
  endpoint({
    operationId: 'deleteAlertRule',
    method: 'delete',
    path: '/alert-rules/{rule_id}',
    tag: 'Alert rules',
    access: 'member',
    summary: 'Delete an alert rule',
    description: 'Its alerts stay listed.',
    success: { status: 200, description: 'Deleted', schema: messageBody },
    errors: ['not_found'],
    handler: ({ deps, caller, params }) => deleteAlertRule(deps, caller, params.rule_id),
  }),
];
