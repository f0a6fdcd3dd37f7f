import { defineSearchAttributeKey } from '@temporalio/common';

// Search attributes make accounts and scans findable in the Temporal Web UI (e.g. the query
// `SentinelAwsAccountId = "123456789012"`). They must be registered on the namespace: `npm start` and the
// tests do it; production operators run `temporal operator search-attribute create` (see docs/operations.md, "Temporal Web UI").
export const TENANT_ID = defineSearchAttributeKey('SentinelTenantId', 'KEYWORD');
export const AWS_ACCOUNT_ID = defineSearchAttributeKey('SentinelAwsAccountId', 'KEYWORD');
export const ACCOUNT_STATUS = defineSearchAttributeKey('SentinelAccountStatus', 'KEYWORD');

export const ALL_SEARCH_ATTRIBUTES = [TENANT_ID, AWS_ACCOUNT_ID, ACCOUNT_STATUS];
