import { SEVERITIES } from '../../../domain/checks/types';
import { SRS_BAND_FLOORS } from '../../../domain/scoring/srs-bands';
import { type Outputs, trpc } from '../api';
import { type Bar, BarChart } from '../components/BarChart';
import { ScoreChart } from '../components/ScoreChart';
import { Empty, ErrorBox, IncompleteMark, Loading, SrsBadge } from '../components/ui';
import { when } from '../format';
import { useLoad } from '../hooks';
import { useCan } from '../me';
import { BASE, Link } from '../router';

type Overview = Outputs['overview']['get'];
type Band = keyof Overview['accounts']['by_srs_band'];

// The overview's SRS bands (domain/scoring/srs-bands.ts), coloured like the score badges, with critical darker than the red
// of "at risk" so the worst accounts stand out within it.
const F = SRS_BAND_FLOORS;
const BANDS: readonly (readonly [Band, string, string | undefined, string])[] = [
  ['critical', 'Critical', `<${F.poor}`, 'srs-critical'],
  ['poor', 'Poor', `${F.poor}–${F.fair - 1}`, 'srs-risk'],
  ['fair', 'Fair', `${F.fair}–${F.good - 1}`, 'srs-warn'],
  ['good', 'Good', `${F.good}+`, 'srs-good'],
  ['unscored', 'Unscored', undefined, 'srs-none'],
];
const STATUSES = ['ACTIVE', 'PENDING', 'DISCONNECTED'] as const;

/** The home page: every account of the tenant at a glance, and what needs someone's attention. */
export function OverviewPage() {
  const overview = useLoad(() => trpc.overview.get.query(), []);
  const canConnect = useCan('member');
  const o = overview.data;
  return (
    <section>
      <h1>Overview</h1>
      <ErrorBox message={overview.error} onRetry={overview.reload} />
      {overview.loading && !o && <Loading what="Loading the overview" />}
      {o && o.accounts.total === 0 && (
        <Empty>
          No AWS accounts yet.{' '}
          {canConnect ? (
            <>
              Connect one on the <Link to={`${BASE}/accounts`}>Accounts</Link> page, or a whole organization on the{' '}
              <Link to={`${BASE}/organizations`}>Organizations</Link> page.
            </>
          ) : (
            'Ask a member of your team to connect one.'
          )}
        </Empty>
      )}
      {o && o.accounts.total > 0 && <Figures overview={o} />}
    </section>
  );
}

function Figures({ overview: o }: { overview: Overview }) {
  const bands: Bar[] = BANDS.map(([key, label, note, className]) => ({
    key,
    label,
    note,
    value: o.accounts.by_srs_band[key],
    className,
  }));
  // How many accounts of each band have a score that could not read every core source: a band is what was read.
  const incomplete = BANDS.flatMap(([key, label]) => {
    const n = key === 'unscored' ? 0 : o.accounts.incomplete_by_srs_band[key];
    return n > 0 ? [`${label} ${n}`] : [];
  });
  return (
    <>
      <p className="muted">As of {when(o.generated_at)}.</p>
      <div className="cards">
        <section className="card" aria-label="Accounts by status">
          <h3>Accounts</h3>
          <p className="big" data-figure="accounts-total">
            {o.accounts.total}
          </p>
          <ul className="counts">
            {STATUSES.map((s) => (
              <li key={s} data-status={s}>
                <span className={`status status-${s.toLowerCase()}`}>{s}</span>{' '}
                <strong>{o.accounts.by_status[s]}</strong>
              </li>
            ))}
          </ul>
        </section>
        <section className="card" aria-label="Accounts by SRS band">
          <h3>Security Risk Score</h3>
          <BarChart bars={bands} label="Accounts by SRS band" />
          {incomplete.length > 0 && (
            <p className="muted" data-figure="incomplete-scores">
              Incomplete scores (not every core source read): {incomplete.join(', ')}
            </p>
          )}
        </section>
        <OpenFindings findings={o.open_signals} />
      </div>
      <h2>Average SRS</h2>
      <ScoreChart
        history={o.srs_trend.map((p) => ({
          date: p.day,
          srs: Math.round(p.average_srs * 10) / 10,
          complete: p.complete_accounts === p.accounts,
        }))}
        label="Average SRS"
        empty="No scores yet: the trend starts with the first scan."
      />
      <WorstAccounts accounts={o.worst_accounts} />
      <Changes changes={o.changes_24h} />
      <Attention attention={o.attention} />
    </>
  );
}

function OpenFindings({ findings }: { findings: Overview['open_signals'] }) {
  const scenarios = Object.entries(findings.by_scenario)
    .filter(([, n]) => n > 0)
    .sort(([, a], [, b]) => b - a);
  return (
    <section className="card" aria-label="Open findings">
      <h3>Open findings</h3>
      <p className="big" data-figure="open-findings">
        {findings.total}
      </p>
      <ul className="counts">
        {SEVERITIES.map((s) => (
          <li key={s} data-severity={s}>
            <span className={`sev sev-${s.toLowerCase()}`}>{s}</span> <strong>{findings.by_severity[s]}</strong>
          </li>
        ))}
      </ul>
      {scenarios.length > 0 && (
        <ul className="counts">
          {scenarios.map(([s, n]) => (
            <li key={s} data-scenario={s}>
              <span className="scenario-name">{s}</span> <strong>{n}</strong>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function AccountName({ id, name }: { id: string; name: string | null }) {
  return <Link to={`${BASE}/accounts/${id}`}>{name ? `${name} (${id})` : id}</Link>;
}

function WorstAccounts({ accounts }: { accounts: Overview['worst_accounts'] }) {
  return (
    <section aria-label="Lowest scores">
      <h2>Lowest scores</h2>
      {accounts.length === 0 ? (
        <Empty>No account has a score yet.</Empty>
      ) : (
        <table className="list" aria-label="Worst accounts">
          <thead>
            <tr>
              <th>Account</th>
              <th>SRS</th>
              <th>Open findings</th>
              <th>Tags</th>
            </tr>
          </thead>
          <tbody>
            {accounts.map((a) => (
              <tr key={a.aws_account_id} data-account={a.aws_account_id}>
                <td>
                  <AccountName id={a.aws_account_id} name={a.display_name} />
                </td>
                <td>
                  <SrsBadge srs={a.current_srs} />
                  {a.score_complete === false && <IncompleteMark />}
                </td>
                <td>{a.open_signals}</td>
                <td>{a.tags.join(', ')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function Changes({ changes }: { changes: Overview['changes_24h'] }) {
  return (
    <section aria-label="Last 24 hours">
      <h2>Last 24 hours</h2>
      <p>
        <strong data-figure="new-signals">{changes.new_signals}</strong> new findings,{' '}
        <strong data-figure="resolved-signals">{changes.resolved_signals}</strong> resolved.
      </p>
      {changes.accounts.length > 0 && (
        <table className="list" aria-label="Changes by account">
          <thead>
            <tr>
              <th>Account</th>
              <th>New</th>
              <th>Resolved</th>
            </tr>
          </thead>
          <tbody>
            {changes.accounts.map((a) => (
              <tr key={a.aws_account_id} data-account={a.aws_account_id}>
                <td>
                  <AccountName id={a.aws_account_id} name={a.display_name} />
                </td>
                <td>{a.new_signals}</td>
                <td>{a.resolved_signals}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function Attention({ attention }: { attention: Overview['attention'] }) {
  const { incomplete_coverage: incomplete, failing_scans: failing } = attention;
  return (
    <section aria-label="Needs attention">
      <h2>Needs attention</h2>
      {incomplete.length === 0 && failing.length === 0 && (
        <Empty>Nothing: every scan read every core source and succeeded.</Empty>
      )}
      {failing.length > 0 && (
        <>
          <h3>Failing scans</h3>
          <ul className="attention">
            {failing.map((a) => (
              <li key={a.aws_account_id} data-account={a.aws_account_id}>
                <AccountName id={a.aws_account_id} name={a.display_name} />{' '}
                <span className="muted">failed {when(a.failed_at)}</span>
                {a.failure_reason && <p>{a.failure_reason}</p>}
              </li>
            ))}
          </ul>
        </>
      )}
      {incomplete.length > 0 && (
        <>
          <h3>Incomplete coverage</h3>
          <ul className="attention">
            {incomplete.map((a) => (
              <li key={a.aws_account_id} data-account={a.aws_account_id}>
                <AccountName id={a.aws_account_id} name={a.display_name} />{' '}
                <span className="muted">
                  {a.coverage ? `${a.coverage.evaluated} of ${a.coverage.total} checks evaluated` : 'not fully read'}
                </span>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
