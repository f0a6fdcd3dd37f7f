import { useState } from 'react';
import { type Outputs, trpc } from '../api';
import { Empty, ErrorBox, Loading, saveText } from '../components/ui';
import { detectionLabel } from '../events';
import { when } from '../format';
import { useAction, useLoad } from '../hooks';
import { BASE, Link } from '../router';

// Compliance with CIS AWS Foundations v7.0: the tenant's accounts side by side, and one account control by control
// (the Compliance tab of the account page), with the report to hand over.

const FRAMEWORK = 'cis-aws-7.0';

type AccountCompliance = Outputs['compliance']['account'];
type Control = AccountCompliance['controls'][number];
type Status = Control['status'];

const STATUSES: readonly Status[] = ['failed', 'accepted', 'not_evaluated', 'partial', 'passed', 'manual'];
const LABEL: Record<Status, string> = {
  passed: 'Passed',
  partial: 'Partial',
  failed: 'Failed',
  accepted: 'Accepted risk',
  not_evaluated: 'Not evaluated',
  manual: 'Manual',
};

function StatusMark({ status }: { status: Status }) {
  return (
    <span
      className={`control-status control-${status.replace('_', '-')}`}
      title={status === 'partial' ? 'Everything read passed, but part of it could not be read' : undefined}
    >
      {LABEL[status]}
    </span>
  );
}

function SummaryCounts({ summary }: { summary: AccountCompliance['summary'] }) {
  return (
    <span className="summary-counts">
      {STATUSES.map((s) => (
        <span key={s} data-summary={s}>
          <StatusMark status={s} /> {summary[s]}
        </span>
      ))}
    </span>
  );
}

/** Every monitored account of the tenant with its CIS summary. */
export function CompliancePage() {
  const tenant = useLoad(() => trpc.compliance.tenant.query({ framework: FRAMEWORK }), []);
  const t = tenant.data;
  return (
    <section>
      <h1>Compliance</h1>
      {t && (
        <p className="muted">
          {t.name} v{t.version}, from each account&apos;s latest scan.
        </p>
      )}
      <ErrorBox message={tenant.error} onRetry={tenant.reload} />
      {tenant.loading && !t && <Loading what="Loading compliance" />}
      {t && t.accounts.length === 0 && <Empty>No accounts to report on yet: connect one on the Accounts page.</Empty>}
      {t && t.accounts.length > 0 && (
        <table className="list" aria-label="Compliance by account">
          <thead>
            <tr>
              <th>Account</th>
              <th>Scanned</th>
              {STATUSES.map((s) => (
                <th key={s}>{LABEL[s]}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {t.accounts.map((a) => (
              <tr key={a.aws_account_id} data-account={a.aws_account_id}>
                <td>
                  <Link to={`${BASE}/accounts/${a.aws_account_id}/compliance`}>
                    {a.display_name ?? a.aws_account_id}
                  </Link>
                  {a.display_name && (
                    <>
                      <br />
                      <span className="muted">{a.aws_account_id}</span>
                    </>
                  )}
                </td>
                <td>{a.scanned_at ? when(a.scanned_at) : 'not scanned yet'}</td>
                {STATUSES.map((s) => (
                  <td key={s} data-summary={s}>
                    {a.summary[s]}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/** One account's controls, grouped by section, filtered by status, with the evidence and the report. */
export function AccountComplianceTab({ accountId, lastScanAt }: { accountId: string; lastScanAt: string | null }) {
  const compliance = useLoad(
    () => trpc.compliance.account.query({ account_id: accountId, query: { framework: FRAMEWORK } }),
    [accountId, lastScanAt],
  );
  const report = useAction(() =>
    trpc.compliance.report.query({ account_id: accountId, query: { framework: FRAMEWORK } }),
  );
  const [status, setStatus] = useState<Status | ''>('');
  const c = compliance.data;
  const shown = c ? c.controls.filter((control) => !status || control.status === status) : [];
  const sections = [...new Set(shown.map((control) => control.section))];
  return (
    <section aria-label="Compliance">
      <h2>Compliance</h2>
      <ErrorBox message={compliance.error} onRetry={compliance.reload} />
      {!c && !compliance.error && <Loading what="Loading compliance" />}
      {c && (
        <>
          <p>
            <strong>
              {c.name} v{c.version}
            </strong>{' '}
            <span className="muted">
              {c.scanned_at ? `from the scan of ${when(c.scanned_at)}` : 'the account has not been scanned yet'}
            </span>
          </p>
          <p>
            <SummaryCounts summary={c.summary} />
          </p>
          <div className="filters">
            <label>
              Status{' '}
              <select value={status} onChange={(e) => setStatus(e.target.value as Status | '')}>
                <option value="">All</option>
                {STATUSES.map((s) => (
                  <option key={s} value={s}>
                    {LABEL[s]}
                  </option>
                ))}
              </select>
            </label>
            <button
              type="button"
              disabled={report.busy}
              onClick={() => void report.run().then((r) => r && saveText(r.filename, r.html, 'text/html'))}
            >
              {report.busy ? 'Preparing the report…' : 'Download the report (HTML)'}
            </button>
          </div>
          <ErrorBox message={report.error} />
          {shown.length === 0 && <Empty>No control has this status.</Empty>}
          {sections.map((section) => (
            <div key={section} className="control-section">
              <h3>{section}</h3>
              <table className="list controls" aria-label={section}>
                <thead>
                  <tr>
                    <th>Control</th>
                    <th>Status</th>
                    <th>Checks and evidence</th>
                  </tr>
                </thead>
                <tbody>
                  {shown
                    .filter((control) => control.section === section)
                    .map((control) => (
                      <ControlRow key={control.id} accountId={accountId} control={control} />
                    ))}
                </tbody>
              </table>
            </div>
          ))}
        </>
      )}
    </section>
  );
}

/** The evidence events gave: signals of detections mapped to the control, not of its checks. */
function EventEvidence({ control }: { control: Control }) {
  const fromEvents = control.failing_resources.filter((f) => !control.check_ids.includes(f.check_id));
  if (fromEvents.length === 0) return null;
  return (
    <div className="control-check control-events">
      From events:
      <ul className="evidence">
        {fromEvents.map((f) => (
          <li key={f.signal_id}>
            {detectionLabel(f.check_id).title}: {f.resource}{' '}
            <span className="muted">
              {f.region}
              {f.accepted ? ' · risk accepted' : ''}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}

function ControlRow({ accountId, control }: { accountId: string; control: Control }) {
  return (
    <tr data-control={control.id} data-status={control.status}>
      <td>
        <strong>{control.id}</strong> {control.title}
        <br />
        <span className="muted">
          {control.profile}
          {control.automated ? '' : ', manual in CIS'}
        </span>
      </td>
      <td>
        <StatusMark status={control.status} />
      </td>
      <td>
        {control.check_ids.map((checkId) => {
          const failing = control.failing_resources.filter((f) => f.check_id === checkId);
          return (
            <div key={checkId} className="control-check">
              <code>{checkId}</code>
              {failing.length > 0 && (
                <>
                  {' '}
                  <Link to={`${BASE}/accounts/${accountId}?check=${encodeURIComponent(checkId)}`}>
                    {failing.length} finding{failing.length === 1 ? '' : 's'}
                  </Link>
                  <ul className="evidence">
                    {failing.map((f) => (
                      <li key={f.signal_id}>
                        {f.resource}{' '}
                        <span className="muted">
                          {f.region}
                          {f.accepted ? ' · risk accepted' : ''}
                        </span>
                      </li>
                    ))}
                  </ul>
                </>
              )}
            </div>
          );
        })}
        <EventEvidence control={control} />
        {control.status === 'partial' && (
          <p className="control-unread">
            Passed where read; not read: {[...new Set(control.unread.map((u) => u.scope))].join(', ')}
          </p>
        )}
        {control.notes.length > 0 && <p className="muted">{control.notes.join(' · ')}</p>}
        {control.attestation && <p className="attestation">To attest: {control.attestation}</p>}
      </td>
    </tr>
  );
}
