import { useState } from 'react';
import { type Outputs, trpc } from '../api';
import { Empty, ErrorBox, IncompleteMark, Loading, Notice, SrsBadge } from '../components/ui';
import { when } from '../format';
import { useAction, useLoad } from '../hooks';
import { useCan } from '../me';
import { type OuNode, ouTree } from '../ou-tree';
import { BASE, Link, navigate } from '../router';

type Detail = Outputs['organizations']['get'];
type Member = Detail['accounts'][number];
type MemberState = Member['state'];

const STATE_LABEL: Record<MemberState, string> = {
  monitored: 'Monitored',
  awaiting_role: 'Awaiting the member role',
  not_monitored_plan_limit: 'Not monitored: plan limit',
  disconnected: 'Disconnected',
  management_account: 'Management account',
};

/** One organization: its OU tree with each account's state and score, its last sync, sync now and disconnect. */
export function OrganizationPage({ orgId }: { orgId: string }) {
  const organization = useLoad(() => trpc.organizations.get.query({ org_id: orgId }), [orgId]);
  const canEdit = useCan('member');
  const o = organization.data;
  return (
    <section>
      <p>
        <Link to={`${BASE}/organizations`}>← Organizations</Link>
      </p>
      <ErrorBox message={organization.error} onRetry={organization.reload} />
      {organization.loading && !o && <Loading what="Loading the organization" />}
      {o && (
        <>
          <h1>{o.display_name ?? o.aws_organization_id ?? o.management_account_id}</h1>
          <p>
            <span className={`status status-${o.status.toLowerCase()}`}>{o.status}</span>{' '}
            <span className="muted">
              management account {o.management_account_id}
              {o.aws_organization_id ? ` · ${o.aws_organization_id}` : ''}
            </span>
          </p>
          <p>Last sync {when(o.last_sync_at)}</p>
          {o.last_sync_error && (
            <div className="error" role="alert">
              The last sync failed: {o.last_sync_error}
            </div>
          )}
          {canEdit && o.status !== 'DISCONNECTED' && (
            <Actions
              orgId={orgId}
              active={o.status === 'ACTIVE'}
              monitored={o.account_counts.monitored}
              onSynced={organization.reload}
            />
          )}
          <h2>Accounts</h2>
          {o.accounts.length === 0 ? (
            <Empty>No accounts listed yet: they appear after the first sync.</Empty>
          ) : (
            <ul className="ou-tree" aria-label="Organization tree">
              <OuBranch node={ouTree(o.accounts)} />
            </ul>
          )}
        </>
      )}
    </section>
  );
}

function OuBranch({ node }: { node: OuNode<Member> }) {
  return (
    <li className="ou" data-ou={node.path}>
      <span className="ou-name">{node.name}</span>{' '}
      <span className="muted">
        {node.total} account{node.total === 1 ? '' : 's'}
      </span>
      <ul>
        {node.accounts.map((a) => (
          <MemberItem key={a.aws_account_id} account={a} />
        ))}
        {node.children.map((child) => (
          <OuBranch key={child.path} node={child} />
        ))}
      </ul>
    </li>
  );
}

function MemberItem({ account: a }: { account: Member }) {
  const label = a.name ? `${a.name} (${a.aws_account_id})` : a.aws_account_id;
  return (
    <li className="member" data-account={a.aws_account_id} data-state={a.state}>
      {a.state === 'monitored' ? (
        <Link to={`${BASE}/accounts/${a.aws_account_id}`}>{label}</Link>
      ) : (
        <span>{label}</span>
      )}{' '}
      <span className={`member-state state-${a.state.replaceAll('_', '-')}`}>{STATE_LABEL[a.state]}</span>{' '}
      {a.state === 'monitored' && <SrsBadge srs={a.current_srs} />}
      {a.state === 'monitored' && a.score_complete === false && <IncompleteMark />}
      {a.aws_status !== 'ACTIVE' && <span className="muted"> AWS: {a.aws_status}</span>}
      {a.reason && <p className="muted">{a.reason}</p>}
    </li>
  );
}

/** Sync now (once verified: a pending organization has nothing to sync yet) and Disconnect. */
function Actions({
  orgId,
  active,
  monitored,
  onSynced,
}: {
  orgId: string;
  active: boolean;
  monitored: number;
  onSynced: () => void;
}) {
  const [notice, setNotice] = useState<string | null>(null);
  const [alsoAccounts, setAlsoAccounts] = useState(false);
  const sync = useAction(() => trpc.organizations.sync.mutate({ org_id: orgId }));
  const remove = useAction(() =>
    trpc.organizations.remove.mutate({ org_id: orgId, disconnect_accounts: alsoAccounts }),
  );
  const runSync = async () => {
    setNotice(null);
    if (await sync.run()) {
      setNotice('Sync started: the accounts update when it ends.');
      onSynced();
    }
  };
  const disconnect = async () => {
    const what = alsoAccounts
      ? 'the organization and its monitored accounts'
      : 'the organization (its accounts stay monitored)';
    if (!window.confirm(`Disconnect ${what}? The roles in your AWS accounts stay.`)) return;
    if (await remove.run()) navigate(`${BASE}/organizations`);
  };
  return (
    <div className="actions org-actions">
      {active && (
        <button type="button" onClick={() => void runSync()} disabled={sync.busy}>
          {sync.busy ? 'Syncing…' : 'Sync now'}
        </button>
      )}
      <label className="check">
        <input type="checkbox" checked={alsoAccounts} onChange={(e) => setAlsoAccounts(e.target.checked)} />
        Also disconnect its {monitored} monitored account{monitored === 1 ? '' : 's'}
      </label>
      <button type="button" className="danger" onClick={() => void disconnect()} disabled={remove.busy}>
        Disconnect
      </button>
      <ErrorBox message={sync.error ?? remove.error} />
      {notice && <Notice>{notice}</Notice>}
    </div>
  );
}
