import { useState } from 'react';
import { type Outputs, trpc } from '../api';
import { Empty, ErrorBox, Loading } from '../components/ui';
import { when } from '../format';
import { useLoad } from '../hooks';

type AuditEvent = Outputs['auditLog']['list']['events'][number];

/** The tenant's audit log for admins and owners: newest first, a page at a time. */
export function AuditLogPage() {
  const [pages, setPages] = useState<string[]>([]);
  const log = useLoad(
    () => trpc.auditLog.list.query({ limit: 50, ...(pages.at(-1) ? { next_token: pages.at(-1) } : {}) }),
    [pages],
  );
  return (
    <section>
      <h1>Audit log</h1>
      <p className="muted">
        Who did what, when and from where: sign-ins, team and account changes, alert rules, accepted risk, exports and
        plan changes.
      </p>
      <ErrorBox message={log.error} onRetry={log.reload} />
      {log.loading && !log.data && <Loading what="Loading the audit log" />}
      {log.data && log.data.events.length === 0 && <Empty>Nothing recorded yet.</Empty>}
      {log.data && log.data.events.length > 0 && (
        <table className="list" aria-label="Audit log">
          <thead>
            <tr>
              <th>When</th>
              <th>Who</th>
              <th>What</th>
              <th>On</th>
              <th>From</th>
            </tr>
          </thead>
          <tbody>
            {log.data.events.map((e) => (
              <EventRow key={e.event_id} event={e} />
            ))}
          </tbody>
        </table>
      )}
      <div className="actions">
        {pages.length > 0 && (
          <button type="button" onClick={() => setPages(pages.slice(0, -1))}>
            Newer
          </button>
        )}
        {log.data?.next_token && (
          <button type="button" onClick={() => setPages([...pages, log.data?.next_token as string])}>
            Older
          </button>
        )}
      </div>
    </section>
  );
}

function EventRow({ event: e }: { event: AuditEvent }) {
  return (
    <tr data-event={e.action}>
      <td>{when(e.created_at)}</td>
      <td>{e.actor?.email ?? (e.actor ? 'a removed user' : '—')}</td>
      <td>{e.action}</td>
      <td>{e.target ?? ''}</td>
      <td>{e.client_address ?? ''}</td>
    </tr>
  );
}
