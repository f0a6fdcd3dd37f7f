import { useId } from 'react';
import { type AttackPath, KIND_LABEL } from '../attack-paths';
import { when } from '../format';
import { BASE, Link } from '../router';
import { PathGraph } from './PathGraph';
import { PathSteps, PossibleBadge } from './PathSteps';

/**
 * One path in a list: its severity, kind and title (a link that selects it, or unselects it when selected), summary
 * and when it was found; selected, its graph and steps below. `account`: the path's account is named and linked
 * (the tenant-wide list).
 */
export function PathItem({
  path: p,
  selected,
  toggleTo,
  account = false,
}: {
  path: AttackPath;
  selected: boolean;
  toggleTo: string;
  account?: boolean;
}) {
  return (
    <li
      className={`path${selected ? ' selected' : ''}`}
      data-path={p.path_id}
      data-kind={p.kind}
      data-account={p.aws_account_id}
    >
      <p className="path-head">
        <span className={`sev sev-${p.severity.toLowerCase()}`}>{p.severity}</span>{' '}
        <span className={`path-kind kind-${p.kind.replace('_', '-')}`}>{KIND_LABEL[p.kind]}</span>{' '}
        <Link to={toggleTo} aria-current={selected ? 'true' : undefined} className="path-title">
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
        {account && (
          <>
            <Link
              to={`${BASE}/accounts/${encodeURIComponent(p.aws_account_id)}/attack-paths`}
              data-testid="path-account"
            >
              {p.aws_account_id}
            </Link>{' '}
            ·{' '}
          </>
        )}
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
