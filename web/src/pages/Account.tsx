import { useState } from 'react';
import { SCENARIOS, SEVERITIES } from '../../../domain/checks/types';
import { type Inputs, type Outputs, trpc } from '../api';
import { ScoreChart } from '../components/ScoreChart';
import { Empty, ErrorBox, Loading, Notice, saveText, SrsBadge } from '../components/ui';
import { BAND_LABEL, srsBand, when } from '../format';
import { useAction, useLoad, usePoll } from '../hooks';
import { useCan } from '../me';
import { BASE, Link } from '../router';

type Signal = Outputs['signals']['list']['signals'][number];
type Filters = Pick<Inputs['signals']['list']['query'] & object, 'severity' | 'scenario'>;

export function AccountPage({ accountId }: { accountId: string }) {
  const account = useLoad(() => trpc.accounts.get.query({ account_id: accountId }), [accountId]);
  const history = useLoad(() => trpc.signals.scoreHistory.query({ account_id: accountId, query: { days: 90 } }), [accountId, account.data?.last_scan_at]);
  const isAdmin = useCan('admin');
  const scanning = account.data?.status === 'ACTIVE' && account.data.last_scan_at === null;
  usePoll(account.reload, scanning, 3000);
  if (account.error) {
    return (
      <section>
        <p><Link to={`${BASE}/accounts`}>← Accounts</Link></p>
        <ErrorBox message={account.error} onRetry={account.reload} />
      </section>
    );
  }
  if (!account.data) return <Loading what="Loading the account" />;
  const a = account.data;
  return (
    <section>
      <p><Link to={`${BASE}/accounts`}>← Accounts</Link></p>
      <h1>{a.display_name ?? a.aws_account_id} <span className="muted">{a.display_name ? a.aws_account_id : ''}</span></h1>
      <div className="cards">
        <div className="card">
          <h3>Security Risk Score</h3>
          <div className="big"><SrsBadge srs={a.current_srs} /></div>
          <p className="muted">{BAND_LABEL[srsBand(a.current_srs)]}</p>
        </div>
        <div className="card">
          <h3>Status</h3>
          <p><span className={`status status-${a.status.toLowerCase()}`}>{a.status}</span></p>
          <p className="muted">Last scan {when(a.last_scan_at)}<br />Last successful scan {when(a.last_successful_scan_at)}</p>
        </div>
        <ExportCard accountId={accountId} />
      </div>
      {isAdmin && (
        <p className="operator">
          Operators: <a href={a.temporal_ui_url} target="_blank" rel="noreferrer noopener">open this account&apos;s workflow in the Temporal UI</a>
        </p>
      )}
      <h2>Score history</h2>
      <ErrorBox message={history.error} onRetry={history.reload} />
      {history.data ? <ScoreChart history={history.data.history} /> : !history.error && <Loading />}
      {scanning && <p className="loading" role="status">The first scan is running; findings appear when it ends…</p>}
      {/* Keyed by the last scan, so findings, history and checklist load again when a scan lands. */}
      <Findings key={`f${a.last_scan_at}`} accountId={accountId} />
      <Checklist key={`c${a.last_scan_at}`} accountId={accountId} />
    </section>
  );
}

function ExportCard({ accountId }: { accountId: string }) {
  const canPanic = useCan('member');
  const csv = useAction(() => trpc.exports.csv.query({ account_id: accountId }));
  const panic = useAction(() => trpc.exports.panic.mutate({ account_id: accountId }));
  const [link, setLink] = useState<string | null>(null);
  return (
    <div className="card">
      <h3>Exports</h3>
      <button type="button" disabled={csv.busy} onClick={() => void csv.run().then((r) => r && saveText(r.filename, r.csv, 'text/csv'))}>
        {csv.busy ? 'Exporting…' : 'Export findings (CSV)'}
      </button>
      {canPanic && (
        <button type="button" className="danger" disabled={panic.busy} onClick={() => void panic.run().then((r) => r && setLink(r.download_url))}>
          {panic.busy ? 'Building the package…' : 'Panic export'}
        </button>
      )}
      <ErrorBox message={csv.error ?? panic.error} />
      {link && <Notice>Emergency package ready: <a href={link}>download it</a> (the link works for 15 minutes).</Notice>}
    </div>
  );
}

function Findings({ accountId }: { accountId: string }) {
  const [filters, setFilters] = useState<Filters>({});
  const [more, setMore] = useState<Signal[]>([]);
  const [next, setNext] = useState<string | null>(null);
  const signals = useLoad(async () => {
    const page = await trpc.signals.list.query({ account_id: accountId, query: { ...filters, status: 'open', limit: 200 } });
    setMore([]);
    setNext(page.next_token);
    return page;
  }, [accountId, filters.severity, filters.scenario]);
  const loadMore = useAction(async () => {
    if (!next) return;
    const page = await trpc.signals.list.query({ account_id: accountId, query: { ...filters, status: 'open', limit: 200, next_token: next } });
    setMore((m) => [...m, ...page.signals]);
    setNext(page.next_token);
  });
  const all = [...(signals.data?.signals ?? []), ...more];
  const groups = SCENARIOS.map((scenario) => ({
    scenario,
    bySeverity: SEVERITIES.map((severity) => ({ severity, items: all.filter((s) => s.scenario === scenario && s.severity === severity) }))
      .filter((g) => g.items.length > 0),
  })).filter((g) => g.bySeverity.length > 0);
  return (
    <section aria-label="Open findings">
      <h2>Open findings</h2>
      <div className="filters">
        <FilterSelect label="Severity" options={SEVERITIES} value={filters.severity}
          onChange={(severity) => setFilters({ ...filters, severity })} />
        <FilterSelect label="Scenario" options={SCENARIOS} value={filters.scenario}
          onChange={(scenario) => setFilters({ ...filters, scenario })} />
      </div>
      <ErrorBox message={signals.error} onRetry={signals.reload} />
      {signals.loading && <Loading what="Loading findings" />}
      {!signals.loading && signals.data && all.length === 0 && (
        <Empty>{filters.severity || filters.scenario ? 'No open findings match these filters.' : 'No open findings. Nice.'}</Empty>
      )}
      {groups.map((g) => (
        <div key={g.scenario} className="scenario" data-scenario={g.scenario}>
          <h3>{g.scenario}</h3>
          {g.bySeverity.map(({ severity, items }) => (
            <div key={severity}>
              <h4><span className={`sev sev-${severity.toLowerCase()}`}>{severity}</span> {items.length}</h4>
              <ul className="signals">
                {items.map((s) => (
                  <li key={s.signal_id} className="signal">
                    <strong>{s.title}</strong> <span className="muted">{s.resource} · {s.region} · since {when(s.detected_at)}</span>
                    <p>{s.description}</p>
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </div>
      ))}
      {next && <button type="button" onClick={() => void loadMore.run()} disabled={loadMore.busy}>Load more findings</button>}
      <ErrorBox message={loadMore.error} />
    </section>
  );
}

/** A filter over one field: "All" (undefined) or one of `options`. */
function FilterSelect<T extends string>({ label, options, value, onChange }: {
  label: string; options: readonly T[]; value: T | undefined; onChange: (value: T | undefined) => void;
}) {
  return (
    <label>{label}{' '}
      <select value={value ?? ''} onChange={(e) => onChange((e.target.value || undefined) as T | undefined)}>
        <option value="">All</option>
        {options.map((o) => <option key={o} value={o}>{o}</option>)}
      </select>
    </label>
  );
}

function Checklist({ accountId }: { accountId: string }) {
  const checklist = useLoad(() => trpc.signals.recoveryChecklist.query({ account_id: accountId }), [accountId]);
  return (
    <section aria-label="Recovery checklist">
      <h2>Recovery checklist</h2>
      <ErrorBox message={checklist.error} onRetry={checklist.reload} />
      {!checklist.data && !checklist.error && <Loading />}
      {checklist.data && (
        <ol className="checklist">
          {checklist.data.checklist.map((step) => (
            <li key={step.step}>
              <strong>{step.title}</strong>
              <p>{step.description} <a href={step.docs_url} target="_blank" rel="noreferrer noopener">AWS documentation</a></p>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
