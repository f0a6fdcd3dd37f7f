import type { Priority } from '@temporalio/common';
import type { ActivityOptions } from '@temporalio/workflow';
import { DELIVERY_PERMANENT, SCAN_ATTEMPTS } from './contracts';

// Every activity option set of the workflows: timeouts, heartbeats, retry policies and priorities, each named for
// what it is used for. Every `proxyActivities` call takes one of these. A new workflow picks a set here (or adds
// one, with the reason for its values) rather than writing its own.
//
// Changing a value changes what every workflow using the set does from its next activity on, running workflows
// included: change one on purpose, never as a side effect of tidying up.

/**
 * Work a caller waits on (verify, disconnect) goes ahead of any backlog of scan activities on the shared task
 * queue: priority 1; everything else has the default, 3. Without it, a tenant verifying while thousands of scans
 * are queued waits behind all of them and gets a 503 at the API's deadline.
 */
export const INTERACTIVE: Priority = { priorityKey: 1 };

/**
 * Verifying an account or an organization (verifyAccount, verifyOrganization). A caller is waiting: give up after
 * two minutes (STS or our own credentials broken; the API answers 503 and the user tries again) rather than hold
 * the account or organization busy, and its disconnection blocked, for as long as an outage lasts.
 */
export const VERIFY: ActivityOptions = {
  startToCloseTimeout: '1 minute',
  scheduleToCloseTimeout: '2 minutes',
  retry: { initialInterval: '1 second', maximumInterval: '20 seconds', backoffCoefficient: 2 },
  priority: INTERACTIVE,
};

/** Marking an account or an organization disconnected (markAccountDisconnected, markOrganizationDisconnected). */
export const MARK_DISCONNECTED: ActivityOptions = {
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute', backoffCoefficient: 2 },
  priority: INTERACTIVE,
};

/**
 * A record that must not be lost, retried until the database answers however long an outage lasts:
 * - recordScanFailed: a scan row must never stay "running";
 * - evaluateAlerts: the scan is saved by then, and giving up would lose its alerts for good (the next scan only
 *   sees the findings it opens itself); it is idempotent per scan;
 * - giveUpDelivery: a delivery that failed for good is recorded as failed.
 */
export const UNTIL_DATABASE_ANSWERS: ActivityOptions = {
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '2 seconds', maximumInterval: '1 minute', backoffCoefficient: 2 },
};

/**
 * A scan's collection (runScan) reads every region of the account: minutes for a large one, hours at worst. It
 * heartbeats every 10 seconds once it has run that long (a short scan sends none: heartbeats are billed), so a lost
 * worker shows within a minute; a retry reads only what the attempts before did not.
 */
export const RUN_SCAN: ActivityOptions = {
  startToCloseTimeout: '3 hours',
  heartbeatTimeout: '1 minute',
  retry: {
    initialInterval: '5 seconds',
    maximumInterval: '1 minute',
    backoffCoefficient: 2,
    maximumAttempts: SCAN_ATTEMPTS,
  },
};

/** recordScanStarted, the first step of a scan that runs as a child `scanWorkflow` (legacy: workflows/scan.ts). */
export const RECORD_SCAN_STARTED: ActivityOptions = {
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '2 seconds', maximumInterval: '1 minute', backoffCoefficient: 2, maximumAttempts: 10 },
};

/**
 * An organization's sync (syncOrganization) connects and verifies each new member account in turn, so a large
 * organization's first sync takes minutes; it heartbeats per account. One that still fails is left to the next sync.
 */
export const SYNC_ORGANIZATION: ActivityOptions = {
  startToCloseTimeout: '30 minutes',
  heartbeatTimeout: '2 minutes',
  retry: { initialInterval: '5 seconds', maximumInterval: '2 minutes', backoffCoefficient: 2, maximumAttempts: 5 },
};

/**
 * Sending an alert (deliverAlert). A failing channel keeps retrying for up to a day: quickly at first, then at most
 * every 30 minutes, so a channel that was down for hours is reached soon after it returns. Peers' Retry-After
 * overrides the delay; a permanent failure is not retried.
 */
export const DELIVER_ALERT: ActivityOptions = {
  startToCloseTimeout: '1 minute',
  // The activity heartbeats while sending: a worker that dies mid-send is noticed within seconds.
  heartbeatTimeout: '10 seconds',
  scheduleToCloseTimeout: '24 hours',
  retry: {
    initialInterval: '5 seconds',
    backoffCoefficient: 2,
    maximumInterval: '30 minutes',
    nonRetryableErrorTypes: [DELIVERY_PERMANENT],
  },
};

/** Building a panic export's package (buildAccountExport): the API waits for it, so a few quick retries only. */
export const BUILD_EXPORT: ActivityOptions = {
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '1 second', maximumInterval: '5 seconds', backoffCoefficient: 2, maximumAttempts: 3 },
};

/** Recording a panic export as failed (recordExportFailed). */
export const RECORD_EXPORT_FAILED: ActivityOptions = {
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds', backoffCoefficient: 2 },
};

/** Deleting an export's package once its retention is over (removeExportPackage): retried until the store answers. */
export const REMOVE_EXPORT_PACKAGE: ActivityOptions = {
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '10 seconds', maximumInterval: '10 minutes', backoffCoefficient: 2 },
};

/**
 * The daily retention run (pruneExpiredRecords), retried until the database answers. Batches heartbeat: a dead
 * worker is noticed within a minute; the whole run may take long on a large estate.
 */
export const PRUNE_EXPIRED_RECORDS: ActivityOptions = {
  startToCloseTimeout: '2 hours',
  heartbeatTimeout: '1 minute',
  retry: { initialInterval: '10 seconds', maximumInterval: '10 minutes', backoffCoefficient: 2 },
};

/** The minutely dispatch of left-over event batches (dispatchLeftOverEventBatches): the next run is a minute away. */
export const DISPATCH_EVENT_BATCHES: ActivityOptions = {
  startToCloseTimeout: '5 minutes',
  retry: { initialInterval: '5 seconds', maximumInterval: '30 seconds', backoffCoefficient: 2, maximumAttempts: 3 },
};

/** The forwarding watch (watchEventForwarding): the next run is HEARTBEAT_INTERVAL_MINUTES away. */
export const WATCH_EVENT_FORWARDING: ActivityOptions = {
  startToCloseTimeout: '5 minutes',
  retry: { initialInterval: '5 seconds', maximumInterval: '30 seconds', backoffCoefficient: 2, maximumAttempts: 3 },
};
