import { FORWARDER_ROLE_NAME } from '../onboarding/forwarder-templates';
import { str } from './cloudtrail-record';
import type { AccountEvent, DetectionContext } from './types';

// Trusted principals (docs/decisions.md, "Trusted principals"): the tenant's own automation (a CI role, Terraform's
// role) named once, with a reason and an expiry, for some detections or all. A call it makes is stored like any
// other and listed with the trusted principal that suppressed each detection, but opens no signal for those
// detections. And Sentinel's own roles: whatever they do in the account is never news, for every detection.
//
// A trusted principal is an IAM role, an IAM user, or the sessions of a role. A role stands for every session of it:
// CloudTrail names the caller of a session `arn:aws:sts::<account>:assumed-role/<role>/<session>` (`userIdentity.arn`;
// `sessionContext.sessionIssuer.arn` is the same role with its path). Names compare within their account: a role of
// the same name in another account is another principal. The root user is never one: its use is always news.

/** How long a trusted principal may be trusted at most: a year, then it is named again. */
export const MAX_TRUSTED_PRINCIPAL_DAYS = 365;
/** Why it is trusted: required, 1-500 characters, as for an accepted risk. */
export const TRUSTED_PRINCIPAL_REASON_CHARS = 500;

/** What a principal's ARN names: a role (and its sessions), a user, or a role's sessions by name or name prefix. */
export type PrincipalPattern =
  | { kind: 'role'; partition: string; account: string; name: string }
  | { kind: 'user'; partition: string; account: string; name: string }
  | { kind: 'session'; partition: string; account: string; role: string; session: string; prefix: boolean };

// IAM names: letters, digits and +=,.@_- (a role or user name at most 64 characters, a path segments of them).
const NAME = '[\\w+=,.@-]{1,64}';
const PARTITION = '(aws|aws-cn|aws-us-gov|aws-iso|aws-iso-b)';
const IAM_ARN = new RegExp(`^arn:${PARTITION}:iam::(\\d{12}):(role|user)/(?:[\\w+=,.@-]+/)*(${NAME})$`);
const SESSION_ARN = new RegExp(`^arn:${PARTITION}:sts::(\\d{12}):assumed-role/(${NAME})/([\\w+=,.@-]{0,64})(\\*?)$`);
/** The longest ARN IAM accepts in a policy. */
export const MAX_PRINCIPAL_CHARS = 2048;

/** The principal an ARN names, or why it names none that can be trusted. */
export function parsePrincipal(arn: string): { ok: true; pattern: PrincipalPattern } | { ok: false; reason: string } {
  if (arn.length > MAX_PRINCIPAL_CHARS)
    return { ok: false, reason: `is longer than ${MAX_PRINCIPAL_CHARS} characters` };
  const iam = IAM_ARN.exec(arn);
  if (iam) {
    const [, partition, account, kind, name] = iam as unknown as [string, string, string, 'role' | 'user', string];
    return { ok: true, pattern: { kind, partition, account, name } };
  }
  const session = SESSION_ARN.exec(arn);
  if (session) {
    const [, partition, account, role, name, star] = session as unknown as [
      string,
      string,
      string,
      string,
      string,
      string,
    ];
    const prefix = star === '*';
    // A session name is 2-64 characters; a prefix before `*` may be shorter, even empty (every session of the role).
    if (!prefix && name.length < 2) return { ok: false, reason: 'names no session: end it with a session name or `*`' };
    return { ok: true, pattern: { kind: 'session', partition, account, role, session: name, prefix } };
  }
  if (/^arn:[^:]*:iam::\d{12}:root$/.test(arn))
    return { ok: false, reason: 'is the root user, which is never trusted' };
  if (arn.includes('*') && !arn.endsWith('*'))
    return { ok: false, reason: 'may hold a `*` only at its end, after an assumed-role session name prefix' };
  if (arn.endsWith('*') && !arn.includes(':assumed-role/'))
    return {
      ok: false,
      reason: 'may end with `*` only as a role session ARN (arn:aws:sts::<account>:assumed-role/<role>/*)',
    };
  return {
    ok: false,
    reason:
      'is not an IAM role, IAM user or role session ARN (arn:aws:iam::<account>:role/<name>, ' +
      'arn:aws:iam::<account>:user/<name>, arn:aws:sts::<account>:assumed-role/<role>/<session or prefix*>)',
  };
}

/** Who made a CloudTrail call, as trusted principals compare it: the caller's ARN, and for a session its role. */
export interface CallPrincipal {
  partition: string;
  account: string;
  /** An IAM user's name, when a user called. */
  user: string | null;
  /** The role whose session called, when a session called. */
  role: string | null;
  /** The session's name, when a session called. */
  session: string | null;
}

/** The caller of a CloudTrail call, or null for an event of no principal (a GuardDuty finding, a Health event). */
export function callPrincipal(event: AccountEvent): CallPrincipal | null {
  const arn = str(event.detail, 'userIdentity', 'arn');
  if (!arn) return null;
  const user = IAM_ARN.exec(arn);
  if (user?.[3] === 'user')
    return { partition: user[1]!, account: user[2]!, user: user[4]!, role: null, session: null };
  const session = SESSION_ARN.exec(arn);
  if (!session || session[5] === '*') return null;
  // The session ARN names the role without its path, as the trusted role's ARN may hold one: they compare by name,
  // which is unique in its account whatever the path.
  return { partition: session[1]!, account: session[2]!, user: null, role: session[3]!, session: session[4]! };
}

/** Whether the call's principal is the one a trusted principal names. Never across accounts or partitions. */
export function principalMatches(pattern: PrincipalPattern, caller: CallPrincipal): boolean {
  if (pattern.partition !== caller.partition || pattern.account !== caller.account) return false;
  switch (pattern.kind) {
    case 'user':
      return caller.user === pattern.name;
    case 'role':
      return caller.role === pattern.name;
    case 'session':
      return (
        caller.role === pattern.role &&
        caller.session !== null &&
        (pattern.prefix ? caller.session.startsWith(pattern.session) : caller.session === pattern.session)
      );
  }
}

/** A trusted principal in force for the account, as ingestion reads it. */
export interface TrustedPrincipal {
  id: string;
  principal: string;
  /** The detections it suppresses; null: every one. */
  detections: readonly string[] | null;
}

/** The first trusted principal that suppresses `detectionId` for this event's caller, or null. */
export function suppressingPrincipal(
  caller: CallPrincipal | null,
  detectionId: string,
  trusted: readonly TrustedPrincipal[],
): TrustedPrincipal | null {
  if (!caller) return null;
  return (
    trusted.find((t) => {
      if (t.detections !== null && !t.detections.includes(detectionId)) return false;
      const parsed = parsePrincipal(t.principal);
      return parsed.ok && principalMatches(parsed.pattern, caller);
    }) ?? null
  );
}

/** The forwarder's role: the one the Terraform snippet and CLI script create, or a CloudFormation stack's, per region. */
export const FORWARDER_ROLE = new RegExp(`^${FORWARDER_ROLE_NAME}(-[a-z0-9-]+)?$`);

/**
 * Whether Sentinel's own roles made the call: the role Sentinel scans the account with, or the forwarder's, of the
 * event's own account. Its scans read what some detections watch (an instance's user data); nothing it does is news.
 */
export function bySentinel(event: AccountEvent, context: DetectionContext): boolean {
  const caller = callPrincipal(event);
  if (!caller?.role || caller.account !== event.account) return false;
  return (context.roleName !== null && caller.role === context.roleName) || FORWARDER_ROLE.test(caller.role);
}
