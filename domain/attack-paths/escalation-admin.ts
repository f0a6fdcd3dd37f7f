import type { IamAuthorization } from '../scans/iam-authorization';
import { isAdministrator, permissionOracle } from './effective-permissions';
import { names, type Principal } from './escalation-principals';
import type { Evaluation, PermissionOracle } from './types';

// What the escalation search counts as an administrator: what effective-permissions.ts's isAdministrator says
// (every action on every resource, or granting itself any policy past its boundary), certainly or possibly. The one
// place the search decides it.

const NOT_ADMINISTRATOR: Evaluation = { decision: 'denied', allowedBy: [], deniedBy: [], undecided: [] };

/** The actions one of which an Allow must name for a principal to be an administrator: others are not asked. */
const adminActions = (kind: 'User' | 'Role') => ['*', `iam:Put${kind}Policy`, `iam:Attach${kind}Policy`];

/** Whether the principal (a user or a role) is an administrator, and by what. */
export function administratorOf(oracle: PermissionOracle, principal: Principal): Evaluation {
  const kind = principal.kind === 'role' ? 'Role' : 'User';
  if (!adminActions(kind).some((action) => names(principal, action))) return NOT_ADMINISTRATOR;
  return isAdministrator(oracle, principal.arn);
}

/**
 * Whether the user would be an administrator once in the group. The oracle answers for principals as the IAM data
 * holds them, so the question goes to an oracle over the same data with the user added to the group: the user's own
 * policies, its boundary and the SCPs are weighed with the group's, as they would be.
 */
export function administratorAfterJoining(iam: IamAuthorization, user: Principal, group: Principal): Evaluation {
  if (!adminActions('User').some((action) => names(group, action))) return NOT_ADMINISTRATOR;
  const joined: IamAuthorization = {
    ...iam,
    users: iam.users.map((u) => (u.arn === user.arn ? { ...u, groups: [...u.groups, group.name] } : u)),
  };
  return isAdministrator(permissionOracle(joined), user.arn);
}
