import type { Analysis } from '../attack-paths';
import { when } from '../format';

// How the account's latest attack-path analysis went, said before the list: an empty list is a clean bill only
// when the analysis read everything it needs.

export function AnalysisStatus({ analysis, pathCount }: { analysis: Analysis; pathCount: number }) {
  const none = pathCount === 0;
  return (
    <div
      className={`analysis analysis-${analysis.status.replace('_', '-')}`}
      role="status"
      data-testid="analysis-status"
      data-status={analysis.status}
    >
      {analysis.status === 'complete' && (
        <p>
          <strong>Analysis complete.</strong> The scan of {when(analysis.analyzed_at)} read everything the analysis
          needs.{none && ' It found no attack path in this account.'}
        </p>
      )}
      {analysis.status === 'partial' && (
        <>
          <p>
            <strong>Partial analysis.</strong> The scan of {when(analysis.analyzed_at)} could not read everything the
            analysis needs: a path through what it missed is not shown, and paths found before stay listed.
            {none && ' No path was found in what it read; that does not mean there is none.'}
          </p>
          {analysis.unread.length > 0 && (
            <ul className="unread" aria-label="Not read">
              {analysis.unread.map((u) => (
                <li key={u.scope}>
                  <code>{u.scope}</code>: {u.reason}
                </li>
              ))}
            </ul>
          )}
        </>
      )}
      {analysis.status === 'not_evaluated' && (
        <p>
          <strong>Not evaluated.</strong> The latest scan could not analyse the account (
          {(analysis.reason ?? 'the IAM documents were not read').replace(/\.$/, '')}), so{' '}
          {none
            ? 'no path is known — which does not mean there is none.'
            : 'the paths below are those of an earlier scan.'}
        </p>
      )}
      {analysis.status === 'not_scanned' && (
        <p>
          <strong>Not analysed yet.</strong> Attack paths show once a scan has analysed this account.
        </p>
      )}
    </div>
  );
}
