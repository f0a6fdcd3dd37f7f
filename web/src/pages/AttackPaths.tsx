import { useState } from 'react';
import { type AttackPath, countsByKind, listAttackPaths } from '../attack-paths';
import { AnalysisStatus } from '../components/AnalysisStatus';
import { PathItem } from '../components/PathItem';
import { ErrorBox, Loading, Notice } from '../components/ui';
import { useAction, useLoad } from '../hooks';
import { BASE, useSearchParam } from '../router';

// The Attack paths tab of the account page: how the latest analysis went, then the paths in the service's order
// (most severe first, toxic combinations first among equals). Selecting one (?path=<path_id>, so a link opens it)
// draws it and lists its steps with their evidence.

export function AccountAttackPathsTab({
  accountId,
  lastScanAt,
  scanning,
}: {
  accountId: string;
  lastScanAt: string | null;
  scanning: boolean;
}) {
  const [more, setMore] = useState<AttackPath[]>([]);
  const [next, setNext] = useState<string | null>(null);
  // Loaded again when a scan starts and when the first one's outcome is in.
  const first = useLoad(async () => {
    const page = await listAttackPaths(accountId);
    setMore([]);
    setNext(page.next_token);
    return page;
  }, [accountId, lastScanAt, scanning]);
  const loadMore = useAction(async () => {
    if (!next) return;
    const page = await listAttackPaths(accountId, next);
    setMore((m) => [...m, ...page.paths]);
    setNext(page.next_token);
  });
  const selected = useSearchParam('path');
  const here = `${BASE}/accounts/${encodeURIComponent(accountId)}/attack-paths`;
  const paths = [...(first.data?.paths ?? []), ...more];
  return (
    <section aria-label="Attack paths">
      <h2>Attack paths</h2>
      <p className="muted">
        How an attacker could chain what the latest scan found — an open port, a role, a permission — into control of
        the account or its secrets.
      </p>
      <ErrorBox message={first.error} onRetry={first.reload} />
      {first.loading && <Loading what="Loading attack paths" />}
      {first.data && <AnalysisStatus analysis={first.data.analysis} pathCount={paths.length} />}
      {paths.length > 0 && (
        <p className="muted" data-testid="path-counts">
          {paths.length} {paths.length === 1 ? 'path' : 'paths'}
          {next ? ' so far' : ''}: {countsByKind(paths)}. Select one to see its graph and evidence.
        </p>
      )}
      <ul className="paths">
        {paths.map((p) => (
          <PathItem
            key={p.path_id}
            path={p}
            selected={p.path_id === selected}
            toggleTo={p.path_id === selected ? here : `${here}?path=${encodeURIComponent(p.path_id)}`}
          />
        ))}
      </ul>
      {selected && first.data && !paths.some((p) => p.path_id === selected) && (
        <Notice>
          {`The path in this link is not listed: the latest scan no longer finds it${next ? ', or it is further down' : ''}.`}
        </Notice>
      )}
      {next && (
        <button type="button" onClick={() => void loadMore.run()} disabled={loadMore.busy}>
          Load more paths
        </button>
      )}
      <ErrorBox message={loadMore.error} />
    </section>
  );
}
