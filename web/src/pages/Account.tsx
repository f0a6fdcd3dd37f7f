import { type FormEvent, useState } from 'react';
import { SCENARIOS, SEVERITIES } from '../../../domain/checks/types';
import { type Inputs, type Outputs, trpc } from '../api';
import { groupByService } from '../check-groups';
import { ScoreChart } from '../components/ScoreChart';
import { Empty, ErrorBox, FilterSelect, IncompleteMark, Loading, Notice, saveText, SrsBadge } from '../components/ui';
import { awaitingFirstScan, BAND_LABEL, srsBand, when } from '../format';
import { type Loaded, useAction, useLoad, usePoll } from '../hooks';
import { useCan } from '../me';
import { BASE, Link, useSearchParam } from '../router';
import { AccountAttackPathsTab } from './AttackPaths';
import { AccountComplianceTab } from './Compliance';
import { AccountEventsTab, EventStatus } from './Events';

type Signal = Outputs['signals']['list']['signals'][number];
type CheckReport = Outputs['signals']['checks'];
type Check = CheckReport['checks'][number];
type AcceptBody = Inputs['signals']['accept']['body'];
type Filters = Pick<Inputs['signals']['list']['query'] & object, 'severity' | 'scenario'>;

export type AccountTab = 'overview' | 'compliance' | 'events' | 'attack-paths';

export function AccountPage({ accountId, tab }: { accountId: string; tab: AccountTab }) {
  const account = useLoad(() => trpc.accounts.get.query({ account_id: accountId }), [accountId]);
  const scanning = account.data ? awaitingFirstScan(account.data) : false;
  // Reloaded when a scan starts and when the first one's outcome is in.
  const history = useLoad(
    () => trpc.signals.scoreHistory.query({ account_id: accountId, query: { days: 90 } }),
    [accountId, account.data?.last_scan_at, scanning],
  );
  const checks = useLoad(
    () => trpc.signals.checks.query({ account_id: accountId }),
    [accountId, account.data?.last_scan_at, scanning],
  );
  usePoll(account.reload, scanning, 3000);
  if (account.error) {
    return (
      <section>
        <p>
          <Link to={`${BASE}/accounts`}>← Accounts</Link>
        </p>
        <ErrorBox message={account.error} onRetry={account.reload} />
      </section>
    );
  }
  if (!account.data) return <Loading what="Loading the account" />;
  const a = account.data;
  return (
    <section>
      <p>
        <Link to={`${BASE}/accounts`}>← Accounts</Link>
      </p>
      <h1>
        {a.display_name ?? a.aws_account_id} <span className="muted">{a.display_name ? a.aws_account_id : ''}</span>
      </h1>
      <nav className="tabs" aria-label="Account views">
        <Link to={`${BASE}/accounts/${accountId}`} className={tab === 'overview' ? 'active' : ''}>
          Overview
        </Link>
        <Link to={`${BASE}/accounts/${accountId}/compliance`} className={tab === 'compliance' ? 'active' : ''}>
          Compliance
        </Link>
        <Link to={`${BASE}/accounts/${accountId}/events`} className={tab === 'events' ? 'active' : ''}>
          Events
        </Link>
        <Link to={`${BASE}/accounts/${accountId}/attack-paths`} className={tab === 'attack-paths' ? 'active' : ''}>
          Attack paths
        </Link>
      </nav>
      {tab === 'compliance' && <AccountComplianceTab accountId={accountId} lastScanAt={a.last_scan_at} />}
      {tab === 'events' && <AccountEventsTab accountId={accountId} disconnected={a.status === 'DISCONNECTED'} />}
      {tab === 'attack-paths' && (
        <AccountAttackPathsTab accountId={accountId} lastScanAt={a.last_scan_at} scanning={scanning} />
      )}
      {tab === 'overview' && (
        <Overview
          account={a}
          accountId={accountId}
          checks={checks}
          history={history}
          scanning={scanning}
          onScoreChange={account.reload}
        />
      )}
    </section>
  );
}

type AccountDetail = Outputs['accounts']['get'];
type History = Outputs['signals']['scoreHistory'];

function Overview({
  account: a,
  accountId,
  checks,
  history,
  scanning,
  onScoreChange,
}: {
  account: AccountDetail;
  accountId: string;
  checks: Loaded<CheckReport>;
  history: Loaded<History>;
  scanning: boolean;
  onScoreChange: () => void;
}) {
  return (
    <>
      <div className="cards">
        <div className="card">
          <h3>Security Risk Score</h3>
          <div className="big">
            <SrsBadge srs={a.current_srs} />
            {a.score_complete === false && <IncompleteMark />}
          </div>
          <p className="muted">{BAND_LABEL[srsBand(a.current_srs)]}</p>
          {a.score_complete === false && (
            <p className="muted">
              Incomplete: the latest scan could not read every core source of the account (IAM, CloudTrail, EC2, S3,
              ...), so this score covers only what it read (see Coverage). Optional sources (AWS Health, Cost Explorer,
              AWS Budgets) never make a score incomplete.
            </p>
          )}
        </div>
        <div className="card">
          <h3>Status</h3>
          <p>
            <span className={`status status-${a.status.toLowerCase()}`}>{a.status}</span>
          </p>
          <p className="muted">
            Last scan {when(a.last_scan_at)}
            <br />
            Last successful scan {when(a.last_successful_scan_at)}
          </p>
          <EventStatus accountId={accountId} active={a.status !== 'DISCONNECTED'} />
        </div>
        <ExportCard accountId={accountId} />
      </div>
      <CoverageCard report={checks} />
      {a.temporal_ui_url && (
        <p className="operator">
          Operators:{' '}
          <a href={a.temporal_ui_url} target="_blank" rel="noreferrer noopener">
            open this account&apos;s workflow in the Temporal UI
          </a>
        </p>
      )}
      <h2>Score history</h2>
      <ErrorBox message={history.error} onRetry={history.reload} />
      {history.data ? <ScoreChart history={history.data.history} /> : !history.error && <Loading />}
      {scanning && (
        <p className="loading" role="status">
          The first scan is running; findings appear when it ends…
        </p>
      )}
      {/* Keyed by the last scan, so findings, history and checklist load again when a scan lands. */}
      <Findings key={`f${a.last_scan_at}`} accountId={accountId} onScoreChange={onScoreChange} />
      <ChecksTable report={checks} />
      <Checklist key={`c${a.last_scan_at}`} accountId={accountId} />
    </>
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
      <button
        type="button"
        disabled={csv.busy}
        onClick={() => void csv.run().then((r) => r && saveText(r.filename, r.csv, 'text/csv'))}
      >
        {csv.busy ? 'Exporting…' : 'Export findings (CSV)'}
      </button>
      {canPanic && (
        <button
          type="button"
          className="danger"
          disabled={panic.busy}
          onClick={() => void panic.run().then((r) => r && setLink(r.download_url))}
        >
          {panic.busy ? 'Building the package…' : 'Panic export'}
        </button>
      )}
      <ErrorBox message={csv.error ?? panic.error} />
      {link && (
        <Notice>
          Emergency package ready: <a href={link}>download it</a> (the link works for 15 minutes).
        </Notice>
      )}
    </div>
  );
}

/** Open findings, with the accepted ones apart; accepting or undoing re-scores the account, so `onScoreChange` reloads it. */
function Findings({ accountId, onScoreChange }: { accountId: string; onScoreChange: () => void }) {
  const canAccept = useCan('member');
  const [filters, setFilters] = useState<Filters>({});
  // A compliance control links to its check's findings (?check=...).
  const checkId = useSearchParam('check') ?? undefined;
  const [more, setMore] = useState<Signal[]>([]);
  const [next, setNext] = useState<string | null>(null);
  const signals = useLoad(async () => {
    const page = await trpc.signals.list.query({
      account_id: accountId,
      query: { ...filters, check_id: checkId, status: 'open', limit: 200 },
    });
    setMore([]);
    setNext(page.next_token);
    return page;
  }, [accountId, filters.severity, filters.scenario, checkId]);
  const loadMore = useAction(async () => {
    if (!next) return;
    const page = await trpc.signals.list.query({
      account_id: accountId,
      query: { ...filters, check_id: checkId, status: 'open', limit: 200, next_token: next },
    });
    setMore((m) => [...m, ...page.signals]);
    setNext(page.next_token);
  });
  const all = [...(signals.data?.signals ?? []), ...more];
  const open = all.filter((s) => !s.accepted);
  const accepted = all.filter((s) => s.accepted);
  const groups = SCENARIOS.map((scenario) => ({
    scenario,
    bySeverity: SEVERITIES.map((severity) => ({
      severity,
      items: open.filter((s) => s.scenario === scenario && s.severity === severity),
    })).filter((g) => g.items.length > 0),
  })).filter((g) => g.bySeverity.length > 0);
  const changed = () => {
    signals.reload();
    onScoreChange();
  };
  const finding = (s: Signal) => (
    <Finding key={s.signal_id} signal={s} accountId={accountId} canAccept={canAccept} onChange={changed} />
  );
  return (
    <section aria-label="Open findings">
      <h2>Open findings</h2>
      <div className="filters">
        <FilterSelect
          label="Severity"
          options={SEVERITIES}
          value={filters.severity}
          onChange={(severity) => setFilters({ ...filters, severity })}
        />
        <FilterSelect
          label="Scenario"
          options={SCENARIOS}
          value={filters.scenario}
          onChange={(scenario) => setFilters({ ...filters, scenario })}
        />
      </div>
      {checkId && (
        <Notice>
          Showing the findings of the check <code>{checkId}</code>.{' '}
          <Link to={`${BASE}/accounts/${accountId}`}>Show every finding</Link>
        </Notice>
      )}
      <ErrorBox message={signals.error} onRetry={signals.reload} />
      {signals.loading && <Loading what="Loading findings" />}
      {!signals.loading && signals.data && all.length === 0 && (
        <Empty>
          {filters.severity || filters.scenario ? 'No open findings match these filters.' : 'No open findings. Nice.'}
        </Empty>
      )}
      {!signals.loading && open.length === 0 && accepted.length > 0 && (
        <Empty>No open findings besides the accepted risks below.</Empty>
      )}
      {groups.map((g) => (
        <div key={g.scenario} className="scenario" data-scenario={g.scenario}>
          <h3>{g.scenario}</h3>
          {g.bySeverity.map(({ severity, items }) => (
            <div key={severity}>
              <h4>
                <span className={`sev sev-${severity.toLowerCase()}`}>{severity}</span> {items.length}
              </h4>
              <ul className="signals">{items.map(finding)}</ul>
            </div>
          ))}
        </div>
      ))}
      {accepted.length > 0 && (
        <section className="scenario accepted-risks" aria-label="Accepted risks">
          <h3>Accepted risks ({accepted.length})</h3>
          <p className="muted">
            Not counted in the score, and no alert fires for them, until they expire or the acceptance is undone.
          </p>
          <ul className="signals">{accepted.map(finding)}</ul>
        </section>
      )}
      {next && (
        <button type="button" onClick={() => void loadMore.run()} disabled={loadMore.busy}>
          Load more findings
        </button>
      )}
      <ErrorBox message={loadMore.error} />
    </section>
  );
}

function Finding({
  signal: s,
  accountId,
  canAccept,
  onChange,
}: {
  signal: Signal;
  accountId: string;
  canAccept: boolean;
  onChange: () => void;
}) {
  const [accepting, setAccepting] = useState(false);
  const undo = useAction(() => trpc.signals.undoAcceptance.mutate({ account_id: accountId, signal_id: s.signal_id }));
  return (
    <li className="signal" data-signal={s.signal_id}>
      {s.accepted && (
        <>
          <span className={`sev sev-${s.severity.toLowerCase()}`}>{s.severity}</span>{' '}
        </>
      )}
      <strong>{s.title}</strong>{' '}
      <span className="muted">
        {s.resource} · {s.region} · since {when(s.detected_at)}
      </span>
      <p>{s.description}</p>
      {s.mitre.length > 0 && (
        <p className="mitre muted">
          MITRE ATT&amp;CK:{' '}
          {s.mitre.map((m) => (
            <span
              key={`${m.tactic}/${m.technique}`}
              className="mitre-tag"
              title={`${m.tactic_name}: ${m.technique_name}`}
            >
              {m.tactic} {m.tactic_name} · {m.technique} {m.technique_name}
            </span>
          ))}
        </p>
      )}
      {s.accepted && (
        <p className="acceptance">
          <span className="accepted-badge">Accepted · not in the score</span> by {s.accepted.by_email} on{' '}
          {when(s.accepted.accepted_at)},{' '}
          {s.accepted.expires_at ? `until ${when(s.accepted.expires_at)}` : 'until undone'}: <q>{s.accepted.reason}</q>
          {s.accepted.scope !== 'signal' &&
            ` · with every later occurrence of this detection by ${s.accepted.principal ?? 'anyone'}`}
        </p>
      )}
      {canAccept && !s.accepted && !accepting && (
        <button type="button" className="small" onClick={() => setAccepting(true)}>
          Accept risk
        </button>
      )}
      {accepting && (
        <AcceptForm
          accountId={accountId}
          signalId={s.signal_id}
          onDone={(saved) => {
            setAccepting(false);
            if (saved) onChange();
          }}
        />
      )}
      {canAccept && s.accepted && (
        <button
          type="button"
          className="small"
          disabled={undo.busy}
          onClick={() => void undo.run().then((r) => r && onChange())}
        >
          {undo.busy ? 'Undoing…' : 'Undo acceptance'}
        </button>
      )}
      <ErrorBox message={undo.error} />
    </li>
  );
}

// The service's limits on an acceptance (core/schemas/signals.ts); checked here first, so a slip is named at once.
const MAX_REASON = 500;
const MAX_ACCEPTANCE_DAYS = 365;
const DAY_MS = 86_400_000;

/** A date input's value (yyyy-mm-dd) for the local calendar day of `d`. */
function dayValue(d: Date): string {
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/** The last moment of a local calendar day: an acceptance "until 30 June" lasts all of 30 June where the user is. */
function endOfDay(value: string): Date {
  return new Date(`${value}T23:59:59.999`);
}

/** The days the expiry input offers: today, up to the last day that ends within 365 days. */
function expiryBounds(now: Date): { min: string; max: string } {
  const limit = now.getTime() + MAX_ACCEPTANCE_DAYS * DAY_MS;
  const last = new Date(limit);
  const max =
    endOfDay(dayValue(last)).getTime() > limit
      ? new Date(last.getFullYear(), last.getMonth(), last.getDate() - 1)
      : last;
  return { min: dayValue(now), max: dayValue(max) };
}

function acceptanceProblem(reason: string, until: string, now: Date): string | null {
  if (!reason) return 'Give the reason this risk is accepted.';
  if (reason.length > MAX_REASON) return `The reason must be at most ${MAX_REASON} characters.`;
  if (!until) return null;
  const end = endOfDay(until).getTime();
  if (Number.isNaN(end)) return 'The expiry is not a date.';
  if (end <= now.getTime()) return 'The expiry must be today or later.';
  if (end > now.getTime() + MAX_ACCEPTANCE_DAYS * DAY_MS)
    return `The expiry must be at most ${MAX_ACCEPTANCE_DAYS} days ahead.`;
  return null;
}

function AcceptForm({
  accountId,
  signalId,
  onDone,
}: {
  accountId: string;
  signalId: string;
  onDone: (saved: boolean) => void;
}) {
  const accept = useAction((body: AcceptBody) =>
    trpc.signals.accept.mutate({ account_id: accountId, signal_id: signalId, body }),
  );
  const [problem, setProblem] = useState<string | null>(null);
  const [bounds] = useState(() => expiryBounds(new Date()));
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const reason = String(form.get('reason') ?? '').trim();
    const until = String(form.get('until') ?? '');
    const found = acceptanceProblem(reason, until, new Date());
    setProblem(found);
    if (found) return;
    const result = await accept.run({ reason, ...(until ? { expires_at: endOfDay(until).toISOString() } : {}) });
    if (result) onDone(true);
  };
  return (
    <form className="accept-form" onSubmit={submit} onChange={() => setProblem(null)} aria-label="Accept this risk">
      <label>
        Reason{' '}
        <textarea name="reason" required maxLength={MAX_REASON} rows={2} placeholder="Why this risk is acceptable" />
      </label>
      <label>
        Until (optional) <input type="date" name="until" min={bounds.min} max={bounds.max} />
      </label>
      <p className="muted">
        An accepted finding stays listed but counts in no score and fires no alert; without a date, until someone undoes
        it.
      </p>
      <button type="submit" disabled={accept.busy}>
        {accept.busy ? 'Accepting…' : 'Accept'}
      </button>
      <button type="button" className="link" onClick={() => onDone(false)}>
        Cancel
      </button>
      <ErrorBox message={problem ?? accept.error} />
    </form>
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
              <p>
                {step.description}{' '}
                <a href={step.docs_url} target="_blank" rel="noreferrer noopener">
                  AWS documentation
                </a>
              </p>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

const isRegion = (scope: string) => /^[a-z]{2}(-[a-z]+)+-\d+$/.test(scope);
/** A check that ran but could not read some of what it looks at: its result covers only the rest. */
const partlyRead = (c: Check) => c.status !== 'not_evaluated' && c.unread.length > 0;

/** How much of the account the latest scan could evaluate, what it could not read, and why. */
function CoverageCard({ report }: { report: Loaded<CheckReport> }) {
  const r = report.data;
  const gaps = r ? r.checks.filter((c) => c.status === 'not_evaluated' || c.unread.length > 0) : [];
  const scopes = [...new Set(gaps.flatMap((c) => c.unread))].sort();
  const regions = scopes.filter(isRegion);
  const resources = scopes.filter((scope) => !isRegion(scope));
  return (
    <section className="card coverage" aria-label="Coverage">
      <h3>Coverage</h3>
      <ErrorBox message={report.error} onRetry={report.reload} />
      {!r && !report.error && <Loading />}
      {r && r.scan_id === null && <p className="muted">Coverage shows once the first scan has run.</p>}
      {r && r.scan_id !== null && (
        <>
          <p>
            <strong>
              {r.coverage.evaluated} of {r.coverage.total} checks evaluated
            </strong>{' '}
            <span className="muted">by the scan of {when(r.scanned_at)}</span>
          </p>
          {gaps.length === 0 && <p className="muted">Every check read everything it looks at.</p>}
          {regions.length > 0 && (
            <p>
              Regions not read: <Scopes scopes={regions} />
            </p>
          )}
          {resources.length > 0 && (
            <p>
              Resources not read: <Scopes scopes={resources} />
            </p>
          )}
          {gaps.length > 0 && (
            <>
              <p className="muted">The score leaves out what Sentinel could not see. Checks not fully read:</p>
              <ul className="gaps">
                {gaps.map((c) => (
                  <li key={c.check_id}>
                    <strong>{c.title}</strong> <CheckStatusMark check={c} />
                    {c.reason && <> {c.reason}</>}
                  </li>
                ))}
              </ul>
            </>
          )}
        </>
      )}
    </section>
  );
}

function Scopes({ scopes }: { scopes: string[] }) {
  return (
    <>
      {scopes.map((scope) => (
        <code key={scope} className="scope" data-testid="unread-scope">
          {scope}
        </code>
      ))}
    </>
  );
}

const STATUS_LABEL: Record<Check['status'], string> = {
  passed: 'Passed',
  failed: 'Failed',
  not_evaluated: 'Not evaluated',
};
const STATUS_ORDER: Record<Check['status'], number> = { failed: 0, not_evaluated: 1, passed: 2 };

function CheckStatusMark({ check }: { check: Check }) {
  return (
    <>
      <span className={`check-status check-${check.status.replace('_', '-')}`}>{STATUS_LABEL[check.status]}</span>
      {partlyRead(check) && (
        <>
          {' '}
          <span className="check-status check-partial">Partly read</span>
        </>
      )}
    </>
  );
}

/**
 * Every check of the catalogue in the latest scan, grouped by the AWS service it judges (web/src/check-groups.ts): the
 * groups with failed checks first, each with its coverage and failures; in a group, failed first, then not evaluated,
 * then passed, most severe first in each.
 */
function ChecksTable({ report }: { report: Loaded<CheckReport> }) {
  const checks = [...(report.data?.checks ?? [])].sort(
    (a, b) =>
      STATUS_ORDER[a.status] - STATUS_ORDER[b.status] ||
      SEVERITIES.indexOf(a.severity) - SEVERITIES.indexOf(b.severity) ||
      a.title.localeCompare(b.title),
  );
  const groups = groupByService(checks);
  const count = (status: Check['status']) => checks.filter((c) => c.status === status).length;
  return (
    <section aria-label="Checks">
      <h2>Checks</h2>
      <ErrorBox message={report.error} onRetry={report.reload} />
      {!report.data && !report.error && <Loading />}
      {checks.length > 0 && (
        <>
          <p className="muted">
            {count('failed')} failed · {count('not_evaluated')} not evaluated · {count('passed')} passed
            {checks.some(partlyRead) && ` · ${checks.filter(partlyRead).length} partly read`} ·{' '}
            {groups.length === 1 ? '1 service' : `${groups.length} services`}
          </p>
          <table className="list checks" aria-label="Check results">
            <thead>
              <tr>
                <th>Check</th>
                <th>Severity</th>
                <th>Status</th>
                <th>Failing resources</th>
                <th>Reason</th>
                <th>Not read</th>
              </tr>
            </thead>
            {groups.map((group) => (
              <tbody key={group.service} data-service={group.service} aria-label={group.label}>
                <tr className="service-group">
                  <th colSpan={6} scope="rowgroup">
                    {group.label}{' '}
                    <span className="muted" data-testid="service-coverage">
                      {group.evaluated} of {group.total} evaluated
                    </span>
                    {group.failed > 0 && (
                      <>
                        {' '}
                        <span className="check-status check-failed" data-testid="service-failed">
                          {group.failed} failed
                        </span>
                      </>
                    )}
                  </th>
                </tr>
                {group.checks.map((c) => (
                  <tr key={c.check_id} data-check={c.check_id} data-status={c.status}>
                    <td>
                      {c.title}
                      <br />
                      <span className="muted">{c.check_id}</span>
                    </td>
                    <td>
                      <span className={`sev sev-${c.severity.toLowerCase()}`}>{c.severity}</span>
                    </td>
                    <td>
                      <CheckStatusMark check={c} />
                    </td>
                    <td>{c.status === 'not_evaluated' ? '—' : c.failing_resources}</td>
                    <td className="reason">{c.reason ?? '—'}</td>
                    <td>{c.unread.length > 0 ? c.unread.join(', ') : '—'}</td>
                  </tr>
                ))}
              </tbody>
            ))}
          </table>
        </>
      )}
    </section>
  );
}
