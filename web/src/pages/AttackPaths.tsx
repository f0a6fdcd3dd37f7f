import { useId, useState } from 'react';
import { type AttackPath, KIND_LABEL, listAttackPaths } from '../attack-paths';
import { AnalysisStatus } from '../components/AnalysisStatus';
import { PathGraph } from '../components/PathGraph';
import { PathSteps, PossibleBadge } from '../components/PathSteps';
import { ErrorBox, Loading, Notice } from '../components/ui';
import { when } from '../format';
import { useAction, useLoad } from '../hooks';
import { BASE, Link, useSearchParam } from '../router';

// The Attack paths tab of the account page: how the latest analysis went, then the paths in the service's order
// (most severe first, toxic combinations first among equals). Selecting one (?path=<path_id>, so a link opens it)
// draws it and lists its steps with their evidence.

/** "2 toxic combinations, 1 privilege escalation": the loaded paths by kind, in the list's order. */
function countsByKind(paths: readonly AttackPath[]): string {
  const counts = new Map<AttackPath['kind'], number>();
  for (const p of paths) counts.set(p.kind, (counts.get(p.kind) ?? 0) + 1);
  return [...counts.entries()].map(([kind, n]) => `${n} × ${KIND_LABEL[kind].toLowerCase()}`).join(', ');
}

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
          <PathItem key={p.path_id} path={p} selected={p.path_id === selected} here={here} />
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

function PathItem({ path: p, selected, here }: { path: AttackPath; selected: boolean; here: string }) {
  return (
    <li className={`path${selected ? ' selected' : ''}`} data-path={p.path_id} data-kind={p.kind}>
      <p className="path-head">
        <span className={`sev sev-${p.severity.toLowerCase()}`}>{p.severity}</span>{' '}
        <span className={`path-kind kind-${p.kind.replace('_', '-')}`}>{KIND_LABEL[p.kind]}</span>{' '}
        <Link
          to={selected ? here : `${here}?path=${encodeURIComponent(p.path_id)}`}
          aria-current={selected ? 'true' : undefined}
          className="path-title"
        >
          {p.title}
        </Link>
        {p.certainty === 'possible' && (
          <>
            {' '}
            <PossibleBadge />
          </>
        )}
      </p>
      <p>{p.summary}</p>
      <p className="muted">
        {p.region ?? 'Account-wide'} · first found {when(p.first_found_at)} · last found {when(p.found_at)} · rule{' '}
        <code>{p.rule}</code>
      </p>
      {selected && <PathDetail path={p} />}
    </li>
  );
}

function PathDetail({ path }: { path: AttackPath }) {
  const stepsId = useId();
  return (
    <section className="path-detail" aria-label={`The path: ${path.title}`}>
      <PathGraph path={path} stepsId={stepsId} />
      <h4>Steps and evidence</h4>
      <PathSteps path={path} id={stepsId} />
    </section>
  );
}
