// Every tRPC procedure, the REST operation it mirrors (whose access rule it must follow), and inputs for the
// access tests. A procedure missing here fails access.test.ts until it is added.

/** A's ids, by kind, for the isolation test. */
export interface Ids {
  account: string;
  rule: string;
  alert: string;
  user: string;
  team: string;
  signal: string;
  organization: string;
  trustedPrincipal: string;
}

export interface Entry {
  operation: string;
  /** An input the procedure refuses after the role check (an unknown id or an invalid body): nothing changes. */
  harmless?: unknown;
  /** For procedures that take an id: the input that points at another tenant's resource. */
  withIdsOf?: (ids: Ids) => unknown;
}

const UNKNOWN_ACCOUNT = { account_id: '000000000000' };
const UNKNOWN_ORG = { org_id: 'org_01NOTHING0000000000000000' };

export const PROCEDURES: Record<string, Entry> = {
  'auth.signup': { operation: 'signup' },
  'auth.login': { operation: 'login' },
  'auth.refresh': { operation: 'refreshTokens' },
  'auth.logout': { operation: 'logout' },
  'auth.acceptInvite': { operation: 'acceptInvitation' },
  'auth.requestPasswordReset': { operation: 'requestPasswordReset' },
  'auth.confirmPasswordReset': { operation: 'confirmPasswordReset' },
  'auth.verifyEmail': { operation: 'verifyEmail' },
  'auth.confirmAlertRecipient': { operation: 'confirmAlertRecipient' },
  'auth.unsubscribeAlertRecipient': { operation: 'unsubscribeAlertRecipient' },
  'billing.plans': { operation: 'listPlans' },

  'me.get': { operation: 'getProfile' },
  'me.rename': { operation: 'renameSelf', harmless: { name: '' } },
  'me.resendVerificationEmail': { operation: 'resendVerificationEmail' },
  'organizations.list': { operation: 'listOrganizations' },
  'organizations.connect': { operation: 'connectOrganization', harmless: { management_account_id: 'nope' } },
  'organizations.get': {
    operation: 'getOrganization',
    harmless: UNKNOWN_ORG,
    withIdsOf: (ids) => ({ org_id: ids.organization }),
  },
  'organizations.verify': {
    operation: 'verifyOrganization',
    harmless: UNKNOWN_ORG,
    withIdsOf: (ids) => ({ org_id: ids.organization }),
  },
  'organizations.sync': {
    operation: 'syncOrganization',
    harmless: UNKNOWN_ORG,
    withIdsOf: (ids) => ({ org_id: ids.organization }),
  },
  'organizations.remove': {
    operation: 'disconnectOrganization',
    harmless: UNKNOWN_ORG,
    withIdsOf: (ids) => ({ org_id: ids.organization, disconnect_accounts: true }),
  },
  'accounts.list': { operation: 'listAccounts' },
  'overview.get': { operation: 'getOverview' },
  'signals.search': { operation: 'searchSignals', harmless: { limit: 0 } },
  'attackPaths.search': { operation: 'searchAttackPaths', harmless: { limit: 0 } },
  'attackPaths.list': {
    operation: 'listAttackPaths',
    harmless: UNKNOWN_ACCOUNT,
    withIdsOf: (ids) => ({ account_id: ids.account }),
  },
  'accounts.connect': { operation: 'connectAccount', harmless: { aws_account_id: 'nope' } },
  'accounts.get': {
    operation: 'getAccount',
    harmless: UNKNOWN_ACCOUNT,
    withIdsOf: (ids) => ({ account_id: ids.account }),
  },
  'accounts.verify': {
    operation: 'verifyAccount',
    harmless: UNKNOWN_ACCOUNT,
    withIdsOf: (ids) => ({ account_id: ids.account }),
  },
  'accounts.scan': {
    operation: 'scanAccount',
    harmless: UNKNOWN_ACCOUNT,
    withIdsOf: (ids) => ({ account_id: ids.account }),
  },
  'accounts.disconnect': {
    operation: 'disconnectAccount',
    harmless: UNKNOWN_ACCOUNT,
    withIdsOf: (ids) => ({ account_id: ids.account }),
  },
  'signals.list': {
    operation: 'listSignals',
    harmless: UNKNOWN_ACCOUNT,
    withIdsOf: (ids) => ({ account_id: ids.account }),
  },
  'signals.scoreHistory': {
    operation: 'getScoreHistory',
    harmless: UNKNOWN_ACCOUNT,
    withIdsOf: (ids) => ({ account_id: ids.account }),
  },
  'signals.recoveryChecklist': {
    operation: 'getRecoveryChecklist',
    harmless: UNKNOWN_ACCOUNT,
    withIdsOf: (ids) => ({ account_id: ids.account }),
  },
  'signals.checks': {
    operation: 'listChecks',
    harmless: UNKNOWN_ACCOUNT,
    withIdsOf: (ids) => ({ account_id: ids.account }),
  },
  'signals.accept': {
    operation: 'acceptSignal',
    harmless: { account_id: '000000000000', signal_id: 'sig_unknown', body: { reason: 'x' } },
    withIdsOf: (ids) => ({ account_id: ids.account, signal_id: ids.signal, body: { reason: 'Taken over' } }),
  },
  'signals.undoAcceptance': {
    operation: 'undoSignalAcceptance',
    harmless: { account_id: '000000000000', signal_id: 'sig_unknown' },
    withIdsOf: (ids) => ({ account_id: ids.account, signal_id: ids.signal }),
  },
  'events.list': {
    operation: 'listAccountEvents',
    harmless: UNKNOWN_ACCOUNT,
    withIdsOf: (ids) => ({ account_id: ids.account }),
  },
  'events.forwarding': {
    operation: 'getEventForwarding',
    harmless: UNKNOWN_ACCOUNT,
    withIdsOf: (ids) => ({ account_id: ids.account }),
  },
  'events.rotateKey': {
    operation: 'rotateEventKey',
    harmless: UNKNOWN_ACCOUNT,
    withIdsOf: (ids) => ({ account_id: ids.account }),
  },
  'compliance.frameworks': { operation: 'listComplianceFrameworks' },
  'compliance.tenant': { operation: 'getTenantCompliance', harmless: { framework: 'none' } },
  'compliance.account': {
    operation: 'getAccountCompliance',
    harmless: { ...UNKNOWN_ACCOUNT, query: { framework: 'cis-aws-7.0' } },
    withIdsOf: (ids) => ({ account_id: ids.account, query: { framework: 'cis-aws-7.0' } }),
  },
  'compliance.report': {
    operation: 'getAccountComplianceReport',
    harmless: { ...UNKNOWN_ACCOUNT, query: { framework: 'cis-aws-7.0' } },
    withIdsOf: (ids) => ({ account_id: ids.account, query: { framework: 'cis-aws-7.0' } }),
  },
  'exports.csv': {
    operation: 'exportSignalsCsv',
    harmless: UNKNOWN_ACCOUNT,
    withIdsOf: (ids) => ({ account_id: ids.account }),
  },
  'exports.panic': {
    operation: 'panicExport',
    harmless: UNKNOWN_ACCOUNT,
    withIdsOf: (ids) => ({ account_id: ids.account }),
  },
  'alertRules.list': { operation: 'listAlertRules' },
  'auditLog.list': { operation: 'listAuditLog', harmless: { limit: 0 } },
  'alertRules.get': {
    operation: 'getAlertRule',
    harmless: { rule_id: 'rule_unknown' },
    withIdsOf: (ids) => ({ rule_id: ids.rule }),
  },
  'alertRules.create': { operation: 'createAlertRule', harmless: { name: 'x', channels: [] } },
  'alertRules.update': {
    operation: 'patchAlertRule',
    harmless: { rule_id: 'rule_unknown', patch: { name: 'x' } },
    withIdsOf: (ids) => ({ rule_id: ids.rule, patch: { name: 'Taken over' } }),
  },
  'alertRules.delete': {
    operation: 'deleteAlertRule',
    harmless: { rule_id: 'rule_unknown' },
    withIdsOf: (ids) => ({ rule_id: ids.rule }),
  },
  'alerts.list': { operation: 'listAlerts' },
  'alerts.acknowledge': {
    operation: 'acknowledgeAlert',
    harmless: { alert_id: 'alrt_unknown' },
    withIdsOf: (ids) => ({ alert_id: ids.alert }),
  },
  'users.list': { operation: 'listUsers' },
  'users.invite': { operation: 'inviteUser', harmless: { email: 'not-an-email', name: 'x' } },
  'users.resendInvite': {
    operation: 'resendInvitation',
    harmless: { user_id: 'usr_unknown' },
    withIdsOf: (ids) => ({ user_id: ids.user }),
  },
  'users.changeRole': {
    operation: 'changeRole',
    harmless: { user_id: 'usr_unknown', role: 'viewer' },
    withIdsOf: (ids) => ({ user_id: ids.user, role: 'viewer' }),
  },
  'users.remove': {
    operation: 'removeUser',
    harmless: { user_id: 'usr_unknown' },
    withIdsOf: (ids) => ({ user_id: ids.user }),
  },
  // Billing and the Slack install are not configured in these suites: the role check passes, then 503.
  'billing.checkout': { operation: 'startCheckout', harmless: { plan_id: 'team', success_url: 'x', cancel_url: 'y' } },
  'billing.portal': { operation: 'openBillingPortal', harmless: {} },
  'integrations.slackWorkspaces': { operation: 'listSlackWorkspaces' },
  'integrations.slackInstallStart': { operation: 'startSlackInstall', harmless: undefined },
  'integrations.slackRemove': {
    operation: 'removeSlackWorkspace',
    harmless: { team_id: 'T0UNKNOWN' },
    withIdsOf: (ids) => ({ team_id: ids.team }),
  },
  'trustedPrincipals.list': { operation: 'listTrustedPrincipals' },
  'trustedPrincipals.create': {
    operation: 'createTrustedPrincipal',
    harmless: { principal: 'nope', detections: 'all', reason: 'x', expires_at: 'never' },
  },
  'trustedPrincipals.delete': {
    operation: 'deleteTrustedPrincipal',
    harmless: { trusted_principal_id: 'trp_unknown' },
    withIdsOf: (ids) => ({ trusted_principal_id: ids.trustedPrincipal }),
  },
  'detections.list': { operation: 'listDetections' },
  'detections.create': { operation: 'createDetection', harmless: { name: 'x', sigma: 'title: [unclosed' } },
  'detections.update': {
    operation: 'patchDetection',
    harmless: { detection_id: 'det_01NOTHING0000000000000000', patch: { enabled: false } },
  },
  'detections.delete': { operation: 'deleteDetection', harmless: { detection_id: 'det_01NOTHING0000000000000000' } },
};
