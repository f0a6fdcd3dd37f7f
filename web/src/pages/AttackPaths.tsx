import { listAttackPaths } from '../attack-paths';
import { AnalysisStatus } from '../components/AnalysisStatus';
import { PathList, usePathPages } from '../components/PathList';
import { ErrorBox, Loading } from '../components/ui';
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
  // Loaded again when a scan starts and when the first one's outcome is in.
  const { first, paths, next, loadMore } = usePathPages(
    (nextToken) => listAttackPaths(accountId, nextToken),
    [accountId, lastScanAt, scanning],
  );
  const selected = useSearchParam('path');
  const here = `${BASE}/accounts/${encodeURIComponent(accountId)}/attack-paths`;
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
      <PathList
        paths={paths}
        next={next}
        loadMore={loadMore}
        loaded={first.data !== undefined}
        selected={selected}
        keyOf={(p) => p.path_id}
        hrefFor={(key) => (key ? `${here}?path=${encodeURIComponent(key)}` : here)}
        whyMissing="the latest scan no longer finds it"
      />
    </section>
  );
}
