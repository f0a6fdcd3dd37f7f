import { useState } from 'react';
import { type AttackPath, countsByKind } from '../attack-paths';
import { type Action, useAction, useLoad } from '../hooks';
import { PathItem } from './PathItem';
import { ErrorBox, Notice } from './ui';

// A list of attack paths as the service pages it (most severe first, toxic combinations first among equals): the
// first page, then more on request; one path selected by a key in the URL, drawn in place.

interface Page {
  paths: AttackPath[];
  next_token: string | null;
}

/** The first page `load` answers (again whenever `deps` change), and the pages after it loaded on request. */
export function usePathPages<P extends Page>(load: (nextToken?: string) => Promise<P>, deps: readonly unknown[]) {
  const [more, setMore] = useState<AttackPath[]>([]);
  const [next, setNext] = useState<string | null>(null);
  const first = useLoad(async () => {
    const page = await load();
    setMore([]);
    setNext(page.next_token);
    return page;
  }, deps);
  const loadMore = useAction(async () => {
    if (!next) return;
    const page = await load(next);
    setMore((m) => [...m, ...page.paths]);
    setNext(page.next_token);
  });
  return { first, paths: [...(first.data?.paths ?? []), ...more], next, loadMore };
}

export function PathList({
  paths,
  next,
  loadMore,
  loaded,
  selected,
  keyOf,
  hrefFor,
  account = false,
  whyMissing,
}: {
  paths: readonly AttackPath[];
  next: string | null;
  loadMore: Action<[], void>;
  /** The first page is in: a selected path not in the list is then said to be missing. */
  loaded: boolean;
  /** The selected path's key (from the URL), or null. */
  selected: string | null;
  keyOf: (path: AttackPath) => string;
  /** The URL that selects the path with this key, or (null) selects none. */
  hrefFor: (key: string | null) => string;
  account?: boolean;
  /** Why a selected path may not be listed, besides being further down. */
  whyMissing: string;
}) {
  return (
    <>
      {paths.length > 0 && (
        <p className="muted" data-testid="path-counts">
          {paths.length} {paths.length === 1 ? 'path' : 'paths'}
          {next ? ' so far' : ''}: {countsByKind(paths)}. Select one to see its graph and evidence.
        </p>
      )}
      <ul className="paths">
        {paths.map((p) => {
          const key = keyOf(p);
          return (
            <PathItem
              key={key}
              path={p}
              account={account}
              selected={key === selected}
              toggleTo={hrefFor(key === selected ? null : key)}
            />
          );
        })}
      </ul>
      {selected && loaded && !paths.some((p) => keyOf(p) === selected) && (
        <Notice>{`The path in this link is not listed: ${whyMissing}${next ? ', or it is further down' : ''}.`}</Notice>
      )}
      {next && (
        <button type="button" onClick={() => void loadMore.run()} disabled={loadMore.busy}>
          Load more paths
        </button>
      )}
      <ErrorBox message={loadMore.error} />
    </>
  );
}
