import { ROLE_NAME } from '../onboarding';
import type { Check } from './types';

// Connectivity: whether Sentinel can still assume the account's role. Nothing else can be checked while it cannot.

export const CONNECTIVITY_CHECK_ID = 'connectivity.role_unassumable';

export const CONNECTIVITY_CHECK: Check = {
  id: CONNECTIVITY_CHECK_ID,
  scenario: 'connectivity',
  severity: 'CRITICAL',
  title: 'Sentinel can no longer assume the role',
  description: 'The cross-account role could not be assumed, so the account is not being monitored.',
  remediation: `Check that the role (${ROLE_NAME} unless you named it otherwise) still exists in the account, that `
    + 'its trust policy names the Sentinel account with the ExternalId shown on the account page, and that SecurityAudit '
    + 'and ViewOnlyAccess are still attached; re-create it from the Terraform snippet or CLI script if needed, then run a scan.',
  docsUrl: 'https://docs.aws.amazon.com/IAM/latest/UserGuide/troubleshoot_roles.html',
  // An inventory only exists when the role worked; the scan records the failing case itself (connectivityFinding).
  evaluate: () => ({ status: 'pass' }),
};
