import type { AnalysesInScope as Analyses } from '../attack-paths';
import { BASE, Link } from '../router';

// How far the accounts of the tenant-wide list were analysed, said before the list: an empty list is a clean bill
// only when every account in scope was analysed completely.

const STATUS_TEXT: Record<Analyses['incomplete'][number]['status'], string> = {
  not_scanned: 'not analysed yet',
  not_evaluated: 'not evaluated',
  partial: 'partial',
};

const accounts = (n: number) => `${n} ${n === 1 ? 'account' : 'accounts'}`;

export function AnalysesInScope({ analyses, pathCount }: { analyses: Analyses; pathCount: number }) {
  const { complete, incomplete_count: incompleteCount, incomplete } = analyses;
  const none = pathCount === 0;
  return (
    <div
      className={`analysis ${incompleteCount > 0 ? 'analysis-partial' : 'analysis-complete'}`}
      role="status"
      data-testid="analyses-in-scope"
      data-complete={complete}
      data-incomplete={incompleteCount}
    >
      {complete + incompleteCount === 0 && <p>No connected account here.</p>}
      {complete > 0 && (
        <p>
          <strong>{accounts(complete)} analysed completely.</strong>
          {none && incompleteCount === 0 && ' No attack path was found in them.'}
        </p>
      )}
      {incompleteCount > 0 && (
        <>
          <p>
            <strong>{accounts(incompleteCount)} not analysed completely:</strong> a path through what their scans could
            not read is not shown.{none && ' That no path is listed does not mean there is none.'}
          </p>
          <ul className="unread" aria-label="Not analysed completely">
            {incomplete.map((a) => (
              <li key={a.aws_account_id} data-account={a.aws_account_id} data-status={a.status}>
                <Link to={`${BASE}/accounts/${encodeURIComponent(a.aws_account_id)}/attack-paths`}>
                  {a.aws_account_id}
                </Link>
                : {STATUS_TEXT[a.status]}
                {a.reason ? ` (${a.reason.replace(/\.$/, '')})` : ''}
              </li>
            ))}
            {incompleteCount > incomplete.length && <li>and {accounts(incompleteCount - incomplete.length)} more</li>}
          </ul>
        </>
      )}
    </div>
  );
}
