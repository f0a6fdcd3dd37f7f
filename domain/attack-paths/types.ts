import type { Severity } from '../checks/types';

// The words the attack-path analysis shares between its parts: policy evaluation (policy-evaluation.ts,
// effective-permissions.ts), privilege escalation (escalation-methods.ts, escalation.ts), internet exposure
// (reachability.ts) and the compound findings built on them (toxic-combinations.ts, analyze.ts).

/** What Sentinel concludes of one request (an action on a resource by a principal). */
export type Decision =
  /** An Allow covers it with no condition left undecided, and no Deny does. */
  | 'allowed'
  /**
   * An Allow covers it only under a condition Sentinel cannot decide (an IP range, an MFA flag, a tag), or a
   * document needed to decide was not read: an attacker may meet it, so paths through it are shown as possible.
   */
  | 'possible'
  /** No Allow covers it, or a Deny with no undecided condition does. */
  | 'denied';

/** One statement of one policy, as the evidence of a decision or an edge. */
export interface StatementRef {
  /** The managed policy's ARN, `inline:<owner ARN>/<policy name>`, `boundary:<policy ARN>`, `scp:<policy id>`, or `resource:<ARN>`. */
  policy: string;
  /** The statement's Sid, when it has one. */
  sid?: string;
  /** Its position in the document's Statement list, from 0. */
  index: number;
}

/** A decision with what made it. */
export interface Evaluation {
  decision: Decision;
  /** The Allow statements that cover the request (for 'allowed' and 'possible'). */
  allowedBy: StatementRef[];
  /**
   * The Deny statements that cover it: for 'denied', the explicit Denies that decide it; for 'possible', the Denies
   * under a condition Sentinel cannot decide, which may or may not apply.
   */
  deniedBy: StatementRef[];
  /** Why the decision is only 'possible': the undecided condition keys, the unread documents. Empty otherwise. */
  undecided: string[];
}

/**
 * What a principal may do, as the escalation search asks it: the effective decision of an action on a resource,
 * with every policy type weighed (identity, group, permissions boundary, SCPs, the resource's policy).
 */
export interface PermissionOracle {
  evaluate(principalArn: string, action: string, resource: string): Evaluation;
}

/** The kinds of node a path passes through. */
export type PathNodeKind =
  | 'internet'
  | 'user'
  | 'group'
  | 'role'
  | 'instance'
  | 'load_balancer'
  | 'function'
  | 'api'
  | 'database'
  | 'cache'
  | 'search_domain'
  | 'queue'
  | 'secret'
  | 'external_account'
  | 'access_key'
  | 'event'
  | 'administrator'
  /** A sensitive permission an escalation path ends at (escalation.ts): its id is the action. */
  | 'permission'
  /** The steps of an internet exposure's chain (reachability.ts). */
  | 'internet_gateway'
  | 'subnet'
  | 'security_group';

export interface PathNode {
  /** Unique within its path: an ARN, a resource id, or a fixed word (`internet`, `administrator`). */
  id: string;
  kind: PathNodeKind;
  /** As the dashboard shows it: a name, not an ARN. */
  label: string;
  region?: string;
}

export interface PathEdge {
  from: string;
  to: string;
  /** What the step is, in a few words: `iam:PassRole + ec2:RunInstances`, `TCP 22 open`, `can assume`. */
  label: string;
  /** What shows the step: policy statements, security group and network ACL rules, routes, event ids. */
  evidence: string[];
  /** 'possible': a condition or an unread document leaves it undecided (see Decision). */
  certainty: 'certain' | 'possible';
}

export const ATTACK_PATH_KINDS = ['escalation', 'exposure', 'toxic_combination'] as const;
export type AttackPathKind = (typeof ATTACK_PATH_KINDS)[number];

/** One path: how an attacker gets from a starting point (the internet, a principal's key) to what they want. */
export interface AttackPath {
  /** Stable across scans for the same path: the rule and the nodes it joins. */
  fingerprint: string;
  kind: AttackPathKind;
  /** The escalation method's id (escalation-methods.ts) or the toxic combination's (toxic-combinations.ts). */
  rule: string;
  severity: Severity;
  title: string;
  /** The chain in one sentence, for e-mails, the checklist and the signal's detail. */
  summary: string;
  /** Where it starts (a principal's ARN, a resource id, `internet`) and where it ends. */
  source: string;
  target: string;
  region?: string;
  nodes: PathNode[];
  edges: PathEdge[];
  /** Some step is only possible (a condition or an unread document): the path may not be open. */
  certainty: 'certain' | 'possible';
}

/**
 * A resource the internet reaches (reachability.ts), on which ports, and why: the chain from the internet through
 * the gateway, route, network ACL, security group or load balancer to it.
 */
export interface InternetExposure {
  /** Its id or ARN, as its other findings name it. */
  resource: string;
  kind: PathNodeKind;
  label: string;
  region: string;
  /** What is open, as `tcp/22`, `tcp/80-443`, `all`. */
  ports: string[];
  /** Of `ports`, those only possibly open (a step of their chain is 'possible'); absent when every one is certain. */
  possiblePorts?: string[];
  /** The IAM role its code runs with (an instance profile's role, a function's execution role); null: none. */
  roleArn: string | null;
  /** An instance that answers IMDSv1 (HttpTokens optional): a request forgery there yields its role's keys. */
  imdsV1?: boolean;
  /** The reason chain, from the `internet` node to the resource's. */
  nodes: PathNode[];
  edges: PathEdge[];
  certainty: 'certain' | 'possible';
}
