import { ROLE_NAME } from '../onboarding/role';
import type { Check } from './types';

// Connectivity: whether Sentinel can still assume the account's role. Nothing else can be checked while it cannot.

export const CONNECTIVITY_CHECK_ID = 'connectivity.role_unassumable';

export const CONNECTIVITY_CHECK: Check = {
  id: CONNECTIVITY_CHECK_ID,
  service: 'account',
  scenario: 'connectivity',
  severity: 'CRITICAL',
  title: 'Sentinel can no longer assume the role',
  description: 'The cross-account role could not be assumed, so the account is not being monitored.',
  remediation:
    `Check that the role (${ROLE_NAME} unless you named it otherwise) still exists in the account, that ` +
    'its trust policy names the Sentinel account with the ExternalId shown on the account page, and that SecurityAudit ' +
    'and ViewOnlyAccess are still attached; re-create it from the Terraform snippet or CLI script if needed, then run a scan. In the console: IAM > Roles > the role > Trust relationships and Permissions. With the CLI: aws iam get-role --role-name SentinelReadOnly and aws iam list-attached-role-policies --role-name SentinelReadOnly.',
  docsUrl: 'https://docs.aws.amazon.com/IAM/latest/UserGuide/troubleshoot_roles.html',
  // An inventory only exists when the role worked; the scan records the failing case itself (connectivityFinding).
  evaluate: () => ({ status: 'pass' }),
};

export const COVERAGE_LOST_CHECK_ID = 'connectivity.coverage_lost';

export const COVERAGE_LOST_CHECK: Check = {
  id: COVERAGE_LOST_CHECK_ID,
  service: 'account',
  scenario: 'connectivity',
  severity: 'HIGH',
  title: 'Sentinel can read too little of the account to score it',
  description:
    'The role was assumed, but fewer than half of the checks could be evaluated: AWS refused or failed most of ' +
    'what Sentinel read. The scan recorded no score (the last one stands), and open findings in what could not be read ' +
    'stay open.',
  remediation:
    "Open the account's checks to see what could not be read and why. Usually the SecurityAudit or ViewOnlyAccess " +
    'policy was detached from the role, a permissions boundary was added to it, or a service control policy denies ' +
    'its calls; re-create the role from the Terraform snippet or CLI script, or exempt it from the SCP, then run a scan. In the console: IAM > Roles > the role > Permissions, and AWS Organizations > Policies for the SCPs. With the CLI: aws iam list-attached-role-policies --role-name SentinelReadOnly and aws organizations list-policies-for-target --target-id <account id> --filter SERVICE_CONTROL_POLICY.',
  docsUrl: 'https://docs.aws.amazon.com/organizations/latest/userguide/orgs_manage_policies_scps.html',
  // Decided by evaluateInventory from the other checks' outcomes, not from the inventory itself.
  evaluate: () => ({ status: 'pass' }),
};
