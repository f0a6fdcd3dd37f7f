import { type FormEvent, useState } from 'react';
import { SEVERITIES } from '../../../domain/checks/types';
import { type AttackPath, KIND_LABEL, type PathFilter, searchAttackPaths } from '../attack-paths';
import { AnalysesInScope } from '../components/AnalysesInScope';
import { PathList, usePathPages } from '../components/PathList';
import { ErrorBox, FilterSelect, Loading } from '../components/ui';
import { BASE, navigate, useSearchParam } from '../router';

// Attack paths across every account of the tenant (GET /attack-paths), in the service's order (most severe first,
// toxic combinations first among equals), each naming its account; filtered by kind, severity and account, the
// filters and the selected path (`?path=<aws_account_id>/<path_id>`) in the URL so that a link opens the same view.
// How far the accounts in scope were analysed comes first: an empty list is no all-clear on its own.

const HERE = `${BASE}/attack-paths`;
const KINDS = Object.keys(KIND_LABEL) as AttackPath['kind'][];
const AWS_ACCOUNT_ID = /^\d{12}$/;

const keyOf = (p: AttackPath) => `${p.aws_account_id}/${p.path_id}`;

/** The page's URL with `changes` applied to its query (a null value removes the parameter). */
function hrefWith(changes: Record<string, string | null | undefined>): string {
  const params = new URLSearchParams(window.location.search);
  for (const [name, value] of Object.entries(changes)) {
    if (value) params.set(name, value);
    else params.delete(name);
  }
  const query = params.toString();
  return query ? `${HERE}?${query}` : HERE;
}

const oneOf = <T extends string>(options: readonly T[], value: string | null): T | undefined =>
  options.find((o) => o === value);

export function AttackPathsPage() {
  const filter: PathFilter = {
    kind: oneOf(KINDS, useSearchParam('kind')),
    severity: oneOf(SEVERITIES, useSearchParam('severity')),
    awsAccountId: useSearchParam('account') ?? undefined,
  };
  const selected = useSearchParam('path');
  const { first, paths, next, loadMore } = usePathPages(
    (nextToken) => searchAttackPaths(filter, nextToken),
    [filter.kind, filter.severity, filter.awsAccountId],
  );
  // A new filter unselects the path: it may not be in the new list.
  const setFilter = (name: string, value: string | undefined) => navigate(hrefWith({ [name]: value, path: null }));
  return (
    <section aria-label="Attack paths">
      <h1>Attack paths</h1>
      <p className="muted">
        What an attacker could chain, in every account, from what the latest scans found — toxic combinations first.
      </p>
      <div className="filters">
        <FilterSelect
          label="Kind"
          options={KINDS}
          value={filter.kind}
          labelOf={(kind) => KIND_LABEL[kind]}
          onChange={(kind) => setFilter('kind', kind)}
        />
        <FilterSelect
          label="Severity"
          options={SEVERITIES}
          value={filter.severity}
          onChange={(severity) => setFilter('severity', severity)}
        />
        <AccountFilter value={filter.awsAccountId} onChange={(account) => setFilter('account', account)} />
      </div>
      <ErrorBox message={first.error} onRetry={first.reload} />
      {first.loading && <Loading what="Loading attack paths" />}
      {first.data && <AnalysesInScope analyses={first.data.analyses} pathCount={paths.length} />}
      <PathList
        paths={paths}
        next={next}
        loadMore={loadMore}
        loaded={first.data !== undefined}
        selected={selected}
        keyOf={keyOf}
        hrefFor={(key) => hrefWith({ path: key })}
        account
        whyMissing="the latest scan no longer finds it, or the filters leave it out"
      />
    </section>
  );
}

/** One account by its 12-digit id, applied on submit; empty for every account. */
function AccountFilter({
  value,
  onChange,
}: {
  value: string | undefined;
  onChange: (value: string | undefined) => void;
}) {
  const [text, setText] = useState(value ?? '');
  const valid = text === '' || AWS_ACCOUNT_ID.test(text.trim());
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (valid) onChange(text.trim() || undefined);
  };
  return (
    <form className="inline" onSubmit={submit} aria-label="Account filter">
      <label>
        AWS account{' '}
        <input
          value={text}
          onChange={(e) => setText(e.target.value)}
          inputMode="numeric"
          placeholder="every account"
          aria-invalid={!valid}
          size={14}
        />
      </label>{' '}
      <button type="submit" disabled={!valid}>
        Show
      </button>
      {!valid && <span className="field-error"> 12 digits</span>}
    </form>
  );
}
