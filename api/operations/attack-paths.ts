import {
  listAttackPathsOutput,
  listAttackPathsQuery,
  searchAttackPathsOutput,
  searchAttackPathsQuery,
} from '../../core/schemas/attack-paths';
import { listAccountAttackPaths, searchTenantAttackPaths } from '../../core/attack-paths/attack-paths';
import { ACCOUNT } from './accounts';
import { endpoint } from './operation';

const ORDER =
  'Most severe first; among equals, toxic combinations, then escalation paths, then internet exposures. ' +
  '`next_token` is the opaque cursor of the previous page. Unknown query parameters are 400.';

export const attackPathOperations = [
  endpoint({
    operationId: 'listAttackPaths',
    method: 'get',
    path: `${ACCOUNT}/attack-paths`,
    tag: 'Attack paths',
    access: 'viewer',
    summary: 'What an attacker can reach in the account: escalation paths, internet exposure, toxic combinations',
    description:
      "The paths the account's latest full scan found, each with its nodes and its edges, every edge with the " +
      "evidence that allows it. `analysis` says how that scan's analysis went: an empty list means no path only " +
      `when its status is \`complete\`. ${ORDER}`,
    query: listAttackPathsQuery,
    success: { status: 200, description: 'One page of paths', schema: listAttackPathsOutput },
    errors: ['not_found', 'invalid_cursor'],
    handler: ({ deps, caller, params, query }) => listAccountAttackPaths(deps, caller, params.account_id, query),
  }),
  endpoint({
    operationId: 'searchAttackPaths',
    method: 'get',
    path: '/attack-paths',
    tag: 'Attack paths',
    access: 'viewer',
    summary: "The attack paths of all the tenant's accounts",
    description:
      "The filters of an account's list, plus one account (`aws_account_id`); one that matches nothing is an empty " +
      'page. Each path names its account. `analyses` says how many connected accounts in scope were analysed ' +
      'completely and names those that were not (partial, not evaluated, or not scanned yet): a path through ' +
      `what they could not read is missing. ${ORDER}`,
    query: searchAttackPathsQuery,
    success: { status: 200, description: 'One page of paths', schema: searchAttackPathsOutput },
    errors: ['invalid_cursor'],
    handler: ({ deps, caller, query }) => searchTenantAttackPaths(deps, caller, query),
  }),
];
