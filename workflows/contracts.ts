import { defineQuery, defineSignal, defineUpdate, WorkflowIdReusePolicy } from '@temporalio/workflow';
import type { AccountStatus, ScanTrigger } from '../domain/accounts/status';
import type { ServiceGroup } from '../domain/events/types';
import type { PendingRescan } from './event-rescans';
import { AWS_ACCOUNT_ID, TENANT_ID } from './search-attributes';
import type { MemberState, OrganizationStatus } from '../domain/accounts/organizations';

// The contract of every workflow: its id, its input and result, its messages and the failure types it raises.
// Shared by the workflows (handlers), the activities and the API (callers), so none imports another's code.

/** The account's entity workflow: one per tenant and AWS account (a reconnected account reuses it). */
export const accountWorkflowId = (tenantId: string, awsAccountId: string) => `account:${tenantId}:${awsAccountId}`;
/**
 * The workflow id of a scan that ran as a child workflow: the scan id. Scans now run as an activity of the account
 * workflow whose activity id is the scan id; children remain only in histories recorded before (see `scanWorkflow`).
 */
export const scanWorkflowId = (scanId: string) => scanId;
/** An alert delivery's workflow: started twice for one delivery, it runs once. */
export const deliveryWorkflowId = (deliveryId: string) => `delivery-${deliveryId}`;
/** A panic export's workflow id is the export id. */
export const exportWorkflowId = (exportId: string) => exportId;

export type { AccountStatus, ScanTrigger };

export interface ScanRequest {
  scanId: string;
  trigger: ScanTrigger;
  /** A targeted rescan (trigger `event`): the service groups it reads. */
  groups?: ServiceGroup[];
}

/** What survives continue-as-new. */
export interface CarriedState {
  status: AccountStatus;
  scanIntervalMinutes: number;
  planRevision?: number;
  firstScanId?: string;
  scansCompleted: number;
  pendingScans: ScanRequest[];
  /** The scheduled timer had fired when the run handed over: the new run scans at once. */
  scheduledScanDue: boolean;
  /** Absent in runs carried over before these existed. */
  fairnessWeight?: number;
  recentScans?: CompletedScan[];
  /** A targeted rescan waiting for the account's events to quiet down (workflows/event-rescans.ts). */
  pendingRescan?: PendingRescan;
}

export interface AccountWorkflowInput {
  tenantId: string;
  accountId: string;
  awsAccountId: string;
  scanIntervalMinutes: number;
  /** The tenant's plan revision the interval comes from (tenants.plan_revision). */
  planRevision?: number;
  carried?: CarriedState;
  /** Continue-as-new after this many scans at the latest (tests lower it); Temporal may suggest it sooner. */
  maxScansPerRun?: number;
  /**
   * Continue-as-new, between scans, after this many `eventsReceived` signals (tests lower it), or when Temporal
   * suggests it: an account whose events keep coming must not outgrow its history before its next scan.
   */
  maxEventSignalsPerRun?: number;
  /**
   * The share of the task queue the tenant's scans get while tasks are backlogged (its plan's weight; see
   * `scanPriority`). Absent in workflows started before it existed: weight 1 until verification or a plan change.
   */
  fairnessWeight?: number;
  /** False: the account's scans carry no fairness key and queue first-in first-out (TEMPORAL_FAIRNESS=false). */
  fairness?: boolean;
}

/** A scan the account workflow ran, with its outcome (the state query keeps the last few). */
export interface CompletedScan extends ScanOutcome {
  scanId: string;
}

export interface AccountWorkflowState {
  status: AccountStatus;
  scanIntervalMinutes: number;
  planRevision: number;
  scansCompleted: number;
  firstScanId?: string;
  pendingScans: ScanRequest[];
  /** When the next scheduled scan is due (ISO time); absent until the first timer is armed. */
  nextScheduledScanAt?: string;
  fairnessWeight: number;
  /** The last RECENT_SCANS scans, newest last. */
  recentScans: CompletedScan[];
  /** Service groups waiting for a targeted rescan after events, if any. */
  pendingRescan?: PendingRescan;
}

/** How many completed scans the state query shows. */
export const RECENT_SCANS = 20;

export interface ScanWorkflowInput {
  tenantId: string;
  accountId: string;
  awsAccountId: string;
  scanId: string;
  trigger: ScanTrigger;
  groups?: ServiceGroup[];
}

/**
 * The input of the runScan activity: given the trigger, it records the scan as running first; with `fireAlerts`
 * it fires the alert rules once the scan is saved. Both are absent when the scan's child workflow ran those steps
 * as activities of their own (recordScanStarted, evaluateAlerts).
 */
export interface RunScanInput {
  scanId: string;
  tenantId: string;
  accountId: string;
  trigger?: ScanTrigger;
  fireAlerts?: boolean;
  /** A targeted rescan: only these service groups are read (domain/events/types.ts). */
  groups?: ServiceGroup[];
}

/** What runScan answers: the scan's outcome and, when it fired the alert rules, the deliveries to start. */
export interface RunScanResult extends ScanOutcome {
  deliveryIds?: string[];
}

/**
 * Attempts of a scan's collection activity. Each retry reads only what failed before (its reads are kept); on
 * the last one what still fails is left unread and the scan completes with the rest.
 */
export const SCAN_ATTEMPTS = 3;

export interface ScanOutcome {
  status: 'succeeded' | 'failed';
  failureReason?: string;
  /** The score the scan recorded (absent when it recorded none: too little read, or it could not complete at all). */
  srs?: number;
  /** Alert deliveries the scan's findings caused (each runs in a delivery workflow of its own). */
  deliveries?: number;
}

export interface ExportWorkflowInput {
  exportId: string;
  tenantId: string;
  accountId: string;
  /** How long the stored package is kept (EXPORT_RETENTION_SECONDS); the default for exports started without it. */
  retainSeconds?: number;
}

/** The package outlives its 15-minute link by a grace period (a download started at the last second), no more. */
export const DEFAULT_EXPORT_RETENTION_SECONDS = 30 * 60;

export interface ExportRetentionInput {
  exportId: string;
  tenantId: string;
  storageKey: string;
  retainSeconds: number;
}

export const exportRetentionWorkflowId = (exportId: string) => `${exportId}:retention`;

export interface ExportWorkflowResult {
  storageKey: string;
}

/** ApplicationFailure type of an export whose package could not be built (the API answers 503 export_failed). */
export const EXPORT_FAILED = 'ExportFailed';
/** ApplicationFailure type: the export row is no longer running (the API gave up on it), so building is pointless. */
export const EXPORT_ABANDONED = 'ExportAbandoned';

export interface AlertDeliveryInput {
  tenantId: string;
  deliveryId: string;
}

/**
 * What every start of an alert's delivery workflow sets, whether a scan's workflow starts it (workflows/scan.ts) or
 * an event batch's dispatch does (core/events/dispatch-batches.ts): its id, so that a delivery started twice runs
 * once; its input; and the search attributes the Web UI finds it by.
 */
export function deliveryStart({
  tenantId,
  awsAccountId,
  deliveryId,
}: {
  tenantId: string;
  awsAccountId: string;
  deliveryId: string;
}) {
  return {
    workflowId: deliveryWorkflowId(deliveryId),
    args: [{ tenantId, deliveryId }] as [AlertDeliveryInput],
    workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
    typedSearchAttributes: [
      { key: TENANT_ID, value: tenantId },
      { key: AWS_ACCOUNT_ID, value: awsAccountId },
    ],
  };
}

/** ApplicationFailure types of an alert delivery attempt; the permanent one is not retried. */
export const DELIVERY_RETRYABLE = 'DeliveryRetryable';
export const DELIVERY_PERMANENT = 'DeliveryPermanent';

/** ApplicationFailure type of a verification whose role cannot be assumed (the API answers 422). */
export const ROLE_ASSUMPTION_FAILED = 'RoleAssumptionFailed';
/** ApplicationFailure type of a verification that could not run at all (the API answers 503). */
export const VERIFICATION_UNAVAILABLE = 'VerificationUnavailable';
/** ApplicationFailure type of a command the account's state does not allow (the API answers 409). */
export const INVALID_ACCOUNT_STATE = 'InvalidAccountState';

/** Assumes the role; on success the account turns ACTIVE and its first scan starts at once. Idempotent. */
export const verifyUpdate = defineUpdate<{ status: 'ACTIVE'; firstScanId: string }>('verify');

/** Queues a manual scan of an ACTIVE account; answers with the scan's id (its activity id in the account workflow). */
export const scanNowUpdate = defineUpdate<{ scanId: string }>('scanNow');

/**
 * The tenant's plan changed: scans follow the new interval from now on. Signals may arrive in any order (the API
 * sends them after its commit, holding no lock): a revision older than the one the workflow has is ignored.
 */
export const planChangedMessage = defineSignal<[PlanChange]>('planChanged');
export interface PlanChange {
  scanIntervalMinutes: number;
  /** tenants.plan_revision of the plan the interval comes from; absent in signals sent before revisions existed. */
  planRevision?: number;
  /** The new plan's fairness weight; absent in signals sent before weights existed. */
  fairnessWeight?: number;
}

/** Ends the account's lifecycle: scheduled scans stop. The customer's role is left alone. */
export const disconnectUpdate = defineUpdate<{ status: 'DISCONNECTED' }>('disconnect');

export const stateQuery = defineQuery<AccountWorkflowState>('state');

/**
 * Batches of the account's events touched these service groups (core/events/dispatch-batches.ts; `batchId` the newest):
 * they are rescanned once the account's events quiet down (workflows/event-rescans.ts). Told again (a retried
 * dispatch), the groups are merged into the same waiting rescan.
 */
export const eventsReceivedMessage = defineSignal<[EventsReceived]>('eventsReceived');
export interface EventsReceived {
  batchId: string;
  groups: ServiceGroup[];
}

/** An AWS Organization's entity workflow: one per connected organization (a new connect is a new organization id). */
export const organizationWorkflowId = (tenantId: string, orgId: string) => `organization:${tenantId}:${orgId}`;

export interface OrganizationWorkflowInput {
  tenantId: string;
  orgId: string;
  /** Minutes between syncs until an activity reports the configured value (ORGANIZATION_SYNC_MINUTES). */
  syncIntervalMinutes: number;
  carried?: OrganizationCarriedState;
  /** Continue-as-new after this many syncs at the latest (tests lower it); Temporal may suggest it sooner. */
  maxSyncsPerRun?: number;
}

/** What survives continue-as-new. */
export interface OrganizationCarriedState {
  status: OrganizationStatus;
  syncIntervalMinutes: number;
  awsOrganizationId?: string;
  accountsFound: number;
  syncsCompleted: number;
  /** A sync was due when the run handed over: the new run syncs at once. */
  syncDue: boolean;
  lastSync?: OrganizationSyncOutcome;
}

/** The state query: what a run carries over, and whether a sync is running now. */
export interface OrganizationWorkflowState extends OrganizationCarriedState {
  syncing: boolean;
}

/** What verifying an organization found: the organization and how many accounts it holds, or why it could not. */
export type OrganizationVerifyResult =
  | { ok: true; awsOrganizationId: string; accountsFound: number; syncIntervalMinutes: number }
  | { ok: false; reason: string; code: string };

/** A sync of the organization's member accounts: how many ended in each state, or why the organization could not be read. */
export interface OrganizationSyncOutcome {
  ok: boolean;
  error?: string;
  states?: Partial<Record<MemberState, number>>;
  /** ORGANIZATION_SYNC_MINUTES as the worker has it: the next sync follows it. */
  syncIntervalMinutes: number;
}

/** Reads the organization through its management role; on success it turns ACTIVE and the first sync runs at once. Idempotent. */
export const verifyOrganizationUpdate = defineUpdate<{
  status: 'ACTIVE';
  awsOrganizationId: string;
  accountsFound: number;
}>('verifyOrganization');

/** Asks for a sync now (an ACTIVE organization only); several requests before it runs make one sync. */
export const syncOrganizationUpdate = defineUpdate<{ queued: true }>('syncOrganization');

/** Ends the organization's lifecycle: syncs stop; the accounts it connected stay as they are. */
export const disconnectOrganizationUpdate = defineUpdate<{ status: 'DISCONNECTED' }>('disconnectOrganization');

export const organizationStateQuery = defineQuery<OrganizationWorkflowState>('organizationState');
