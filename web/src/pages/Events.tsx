import { useState } from 'react';
import { CONNECTION_NAME } from '../../../domain/onboarding/forwarder-templates';
import { EventForwardingDetails } from '../components/EventForwarding';
import { Empty, ErrorBox, Loading } from '../components/ui';
import {
  type AccountEvent,
  detectionLabel,
  type EventPage,
  type KeyRotation,
  listEvents,
  rotateEventKey,
} from '../events';
import { ago, when } from '../format';
import { type Loaded, useAction, useLoad, usePoll } from '../hooks';
import { useCan } from '../me';
import { BASE, Link } from '../router';

// The Events tab of the account page: what the account's EventBridge forwarder delivered (newest first), the
// detections each event set off, whether the forwarder delivers at all, and the forwarder's key.

const PAGE_SIZE = 50;
/** While no event has come yet the forwarder is probably being set up: look often. Then now and again. */
const WAITING_POLL_MS = 10_000;
const LIVE_POLL_MS = 30_000;

/** When the forwarder last delivered (one event's page answers it), looked up again every few seconds while `active`. */
function useLastEvent(accountId: string, active: boolean): Loaded<EventPage> {
  const status = useLoad(() => listEvents(accountId, { limit: 1 }), [accountId]);
  const waiting = status.data !== undefined && status.data.last_event_received_at === null;
  usePoll(status.reload, active, waiting ? WAITING_POLL_MS : LIVE_POLL_MS);
  return status;
}

function Received({ at }: { at: string }) {
  return (
    <time dateTime={at} title={when(at)}>
      {ago(at)}
    </time>
  );
}

/** The Status card's line on the account overview: whether events arrive, linking to the timeline. */
export function EventStatus({ accountId, active }: { accountId: string; active: boolean }) {
  const status = useLastEvent(accountId, active);
  const last = status.data?.last_event_received_at;
  return (
    <p className="event-status" data-testid="event-status">
      {status.error && <span className="muted">Events could not be read just now.</span>}
      {status.data &&
        (last ? (
          <>
            Last event received <Received at={last} />
          </>
        ) : (
          <span className="loading">{active ? 'Waiting for the first event…' : 'No event received.'}</span>
        ))}{' '}
      <Link to={`${BASE}/accounts/${encodeURIComponent(accountId)}/events`}>Events</Link>
    </p>
  );
}

export function AccountEventsTab({ accountId, disconnected }: { accountId: string; disconnected: boolean }) {
  const canRotate = useCan('member') && !disconnected;
  const status = useLastEvent(accountId, !disconnected);
  const [onlyDetections, setOnlyDetections] = useState(false);
  const last = status.data?.last_event_received_at ?? null;
  return (
    <section aria-label="Events">
      <h2>Events</h2>
      <p className="muted">
        What the account&apos;s EventBridge forwarder delivered in the last 30 days, newest first. An event that sets
        off a detection opens a finding at once, without waiting for the next scan.
      </p>
      <ErrorBox message={status.error} onRetry={status.reload} />
      {!status.data && !status.error && <Loading what="Loading events" />}
      {status.data &&
        (last ? (
          <p className="event-status" data-testid="last-event">
            Last event received <Received at={last} />
          </p>
        ) : (
          <p className="event-status waiting" data-testid="last-event">
            <strong>No event received yet — set up the event forwarder.</strong>{' '}
            <span className="muted">
              The Terraform, the AWS CLI script and the forwarder&apos;s CloudFormation template of the connect step
              create it
              {canRotate ? '; if its key is lost, rotate it below and put the new one in the forwarder' : ''}.
            </span>
          </p>
        ))}
      {canRotate && <RotateKey accountId={accountId} />}
      <div className="filters">
        <label className="check">
          <input type="checkbox" checked={onlyDetections} onChange={(e) => setOnlyDetections(e.target.checked)} /> Only
          detections
        </label>
      </div>
      {/* Loaded again when an event arrives, so the newest shows without a reload. */}
      {status.data && <Timeline accountId={accountId} onlyDetections={onlyDetections} lastReceived={last} />}
    </section>
  );
}

function Timeline({
  accountId,
  onlyDetections,
  lastReceived,
}: {
  accountId: string;
  onlyDetections: boolean;
  lastReceived: string | null;
}) {
  const [more, setMore] = useState<AccountEvent[]>([]);
  const [next, setNext] = useState<string | null>(null);
  const filter = onlyDetections ? { detection: 'any' } : {};
  const first = useLoad(async () => {
    const page = await listEvents(accountId, { ...filter, limit: PAGE_SIZE });
    setMore([]);
    setNext(page.next_token);
    return page;
  }, [accountId, onlyDetections, lastReceived]);
  const loadMore = useAction(async () => {
    if (!next) return;
    const page = await listEvents(accountId, { ...filter, limit: PAGE_SIZE, next_token: next });
    setMore((m) => [...m, ...page.events]);
    setNext(page.next_token);
  });
  const events = [...(first.data?.events ?? []), ...more];
  return (
    <>
      <ErrorBox message={first.error} onRetry={first.reload} />
      {first.loading && <Loading what="Loading events" />}
      {!first.loading && first.data && events.length === 0 && (
        <Empty>
          {onlyDetections
            ? 'No event of the last 30 days set off a detection.'
            : lastReceived
              ? 'No event in the last 30 days.'
              : 'No events yet.'}
        </Empty>
      )}
      {!first.loading && events.length > 0 && (
        <table className="list events" aria-label="Event timeline">
          <thead>
            <tr>
              <th>Time</th>
              <th>Event</th>
              <th>Source</th>
              <th>Region</th>
              <th>Actor</th>
              <th>Source IP</th>
              <th>Detections</th>
            </tr>
          </thead>
          <tbody>
            {events.map((e) => (
              <EventRow key={e.event_id} event={e} accountId={accountId} />
            ))}
          </tbody>
        </table>
      )}
      {next && !first.loading && (
        <button type="button" onClick={() => void loadMore.run()} disabled={loadMore.busy}>
          {loadMore.busy ? 'Loading…' : 'Load more'}
        </button>
      )}
      <ErrorBox message={loadMore.error} />
    </>
  );
}

function EventRow({ event: e, accountId }: { event: AccountEvent; accountId: string }) {
  const detected = e.detections.length > 0;
  return (
    <tr data-event={e.event_id} className={detected ? 'event-detected' : undefined}>
      <td className="nowrap">
        <Received at={e.time} />
      </td>
      <td>
        <strong>{e.event_name ?? e.detail_type}</strong>
        {e.event_name && (
          <>
            <br />
            <span className="muted">{e.detail_type}</span>
          </>
        )}
      </td>
      <td>
        <code>{e.source}</code>
      </td>
      <td className="nowrap">{e.region}</td>
      <td className="actor">{e.actor ?? '—'}</td>
      <td>{e.source_ip ?? '—'}</td>
      <td>
        {detected ? (
          e.detections.map((id) => <DetectionBadge key={id} id={id} accountId={accountId} />)
        ) : (
          <span className="muted">—</span>
        )}
      </td>
    </tr>
  );
}

/** A detection the event set off, linking to the findings it opened (their check id is the detection's id). */
function DetectionBadge({ id, accountId }: { id: string; accountId: string }) {
  const { title, severity } = detectionLabel(id);
  return (
    <Link
      to={`${BASE}/accounts/${encodeURIComponent(accountId)}?check=${encodeURIComponent(id)}`}
      className={`detection sev ${severity ? `sev-${severity.toLowerCase()}` : 'sev-low'}`}
      data-detection={id}
      title={`${id}: show its findings`}
    >
      {title}
    </Link>
  );
}

/** A new key for the forwarder, shown once; the one it replaces keeps working 24 hours. */
function RotateKey({ accountId }: { accountId: string }) {
  const rotate = useAction(() => rotateEventKey(accountId));
  const [issued, setIssued] = useState<KeyRotation | null>(null);
  const run = () => {
    const sure = window.confirm(
      'Issue a new event key? The current key keeps working for 24 hours: put the new one in the ' +
        'forwarder of every region before then.',
    );
    if (sure) void rotate.run().then((r) => r && setIssued(r));
  };
  return (
    <div className="rotate-key">
      <button type="button" className="small" disabled={rotate.busy} onClick={run}>
        {rotate.busy ? 'Rotating…' : 'Rotate event key'}
      </button>
      <ErrorBox message={rotate.error} />
      {issued && (
        <section className="setup new-key" aria-label="New event key">
          <h3>New event key</h3>
          <p>
            This key is shown only now. Put it in the EventBridge connection <code>{CONNECTION_NAME}</code> of every
            region the forwarder runs in (its API key value). The previous key keeps working until{' '}
            <strong data-testid="previous-key-expires">{when(issued.previous_key_expires_at)}</strong>.
          </p>
          <EventForwardingDetails forwarding={issued.event_forwarding} />
          <button type="button" className="link" onClick={() => setIssued(null)}>
            Hide the key
          </button>
        </section>
      )}
    </div>
  );
}
