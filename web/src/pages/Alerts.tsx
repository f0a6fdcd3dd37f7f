import { useState } from 'react';
import { type Outputs, trpc } from '../api';
import { Empty, ErrorBox, IncompleteMark, Loading } from '../components/ui';
import { when } from '../format';
import { useAction, useLoad, usePoll } from '../hooks';
import { useCan } from '../me';
import { BASE, Link } from '../router';

type Alert = Outputs['alerts']['list']['alerts'][number];

export function AlertsPage() {
  const [more, setMore] = useState<Alert[]>([]);
  const [next, setNext] = useState<string | null>(null);
  const alerts = useLoad(async () => {
    const page = await trpc.alerts.list.query({ limit: 50 });
    setMore([]);
    setNext(page.next_token);
    return page;
  }, []);
  const loadMore = useAction(async () => {
    if (!next) return;
    const page = await trpc.alerts.list.query({ limit: 50, next_token: next });
    setMore((m) => [...m, ...page.alerts]);
    setNext(page.next_token);
  });
  // A live list: new alerts show up without a reload (while only the first page is shown).
  usePoll(alerts.reload, more.length === 0, 5000);
  const all = [...(alerts.data?.alerts ?? []), ...more];
  return (
    <section>
      <h1>Alerts</h1>
      <p className="muted">
        Alerts fire from your <Link to={`${BASE}/alert-rules`}>alert rules</Link>; acknowledging one stops its
        notifications until its findings change.
      </p>
      <ErrorBox message={alerts.error} onRetry={alerts.reload} />
      {alerts.loading && <Loading what="Loading alerts" />}
      {!alerts.loading && alerts.data && all.length === 0 && <Empty>No alerts yet.</Empty>}
      {all.length > 0 && (
        <table className="list" aria-label="Alerts">
          <thead>
            <tr>
              <th>Fired</th>
              <th>Account</th>
              <th>SRS</th>
              <th>Scenarios</th>
              <th>Acknowledged</th>
            </tr>
          </thead>
          <tbody>
            {all.map((a) => (
              <AlertRow key={a.alert_id} alert={a} />
            ))}
          </tbody>
        </table>
      )}
      {next && (
        <button type="button" onClick={() => void loadMore.run()} disabled={loadMore.busy}>
          Load more alerts
        </button>
      )}
      <ErrorBox message={loadMore.error} />
    </section>
  );
}

function AlertRow({ alert }: { alert: Alert }) {
  const canAck = useCan('member');
  const [ackedHere, setAckedHere] = useState<string | null>(null);
  const acknowledgedAt = alert.acknowledged_at ?? ackedHere;
  const ack = useAction(() => trpc.alerts.acknowledge.mutate({ alert_id: alert.alert_id }));
  return (
    <tr data-alert={alert.alert_id}>
      <td>{when(alert.fired_at)}</td>
      <td>
        <Link to={`${BASE}/accounts/${alert.aws_account_id}`}>{alert.aws_account_id}</Link>
      </td>
      <td>
        {alert.srs_at_trigger}
        {alert.srs_complete_at_trigger === false && (
          <IncompleteMark title="The score this alert fired on could not read every core source of the account" />
        )}
      </td>
      <td>{alert.scenarios_triggered.join(', ') || '—'}</td>
      <td>
        {acknowledgedAt ? (
          <span className="acked">Acknowledged {when(acknowledgedAt)}</span>
        ) : canAck ? (
          <button
            type="button"
            disabled={ack.busy}
            onClick={() => void ack.run().then((r) => r && setAckedHere(r.acknowledged_at))}
          >
            Acknowledge
          </button>
        ) : (
          'Not yet'
        )}
        <ErrorBox message={ack.error} />
      </td>
    </tr>
  );
}
