// The account's IAM as documents (GetAccountAuthorizationDetails, and the AWS managed policies attached), for the
// attack-path analysis (domain/attack-paths/): who holds which policy, what each policy's default version says,
// which service control policies bound the account's principals and which resource control policies its resources.

/** A policy document as AWS holds it, parsed from its (URL-encoded) JSON; null when it is not JSON Sentinel can read. */
export type PolicyJson = Record<string, unknown>;

export interface InlinePolicy {
  name: string;
  document: PolicyJson | null;
}

interface PrincipalPolicies {
  name: string;
  arn: string;
  /** The managed policies attached to it (customer and AWS managed), by ARN. */
  attached: string[];
  inline: InlinePolicy[];
}

export interface AuthorizationUser extends PrincipalPolicies {
  /** The groups it belongs to, by name. */
  groups: string[];
  /** Its permissions boundary's policy ARN; null: none. */
  boundary: string | null;
}

export type AuthorizationGroup = PrincipalPolicies;

export interface AuthorizationRole extends PrincipalPolicies {
  /** Its permissions boundary's policy ARN; null: none. */
  boundary: string | null;
  /** Its trust policy (AssumeRolePolicyDocument); null when it is not a document Sentinel can read. */
  trust: PolicyJson | null;
  /** The instance profiles that hold it, by ARN: an instance launched with one acts as the role. */
  instanceProfiles: string[];
}

export interface ManagedPolicyDocument {
  arn: string;
  name: string;
  /** Its default version's document; null when it is not a document Sentinel can read. */
  document: PolicyJson | null;
}

/** A policy of AWS Organizations, by its id and name, as DescribePolicy gives its document. */
export interface OrganizationPolicy {
  id: string;
  name: string;
  /** null when it is not a document Sentinel can read. */
  document: PolicyJson | null;
}

/** One level of the organization (the root, an OU, the account) and the policies of a type attached to it. */
export interface OrganizationPolicyLevel {
  target: string;
  policies: OrganizationPolicy[];
}

/** The service control policies that apply to the account, from the organization's root down to the account. */
export type ServiceControlPolicies =
  | {
      read: true;
      /** Each level (the root, each OU, the account): an action must be allowed at every level. */
      levels: OrganizationPolicyLevel[];
    }
  /**
   * No SCP applies: the account is in no organization, or is its management account (SCPs do not bound it), or the
   * organization has not enabled SCPs.
   */
  | { read: true; levels: [] }
  /**
   * Not readable from this account (a member account that is not a delegated administrator of the organization's
   * policies cannot list them): not weighed, so a request they would deny may be taken as allowed.
   */
  | { read: false; reason: string };

/**
 * The resource control policies (RCPs) that apply to the account's resources, from the organization's root down to
 * the account. They limit what anyone, the account's principals and other accounts' alike, may do to the account's
 * resources, for the services RCPs cover (domain/attack-paths/resource-control-policies.ts); they grant nothing.
 */
export type ResourceControlPolicies =
  | {
      read: true;
      /** Each level (the root, each OU, the account): an action on a resource must be allowed at every level. */
      levels: OrganizationPolicyLevel[];
    }
  /**
   * No RCP applies: the account is in no organization, or is its management account (AWS documents that RCPs do not
   * affect its resources), or the organization has not enabled RCPs.
   */
  | { read: true; levels: [] }
  /**
   * Not readable from this account (as for SCPs, a member account that is not a delegated administrator cannot list
   * them): not weighed, so a request they would deny may be taken as allowed.
   */
  | { read: false; reason: string };

export interface IamAuthorization {
  users: AuthorizationUser[];
  groups: AuthorizationGroup[];
  /** Every role but service-linked ones (AWS's) and Sentinel's own. */
  roles: AuthorizationRole[];
  /** Every managed policy attached to a principal or set as a boundary, AWS managed ones included. */
  policies: ManagedPolicyDocument[];
  serviceControlPolicies: ServiceControlPolicies;
  resourceControlPolicies: ResourceControlPolicies;
}
