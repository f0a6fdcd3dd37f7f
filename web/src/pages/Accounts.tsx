import { type FormEvent, useState } from 'react';
import { ACCOUNT_STATUSES } from '../../../domain/accounts/status';
import { type Inputs, type Outputs, trpc } from '../api';
import { EventForwardingDetails } from '../components/EventForwarding';
import { CopyBlock, Empty, ErrorBox, IncompleteMark, Loading, Notice, saveText, SrsBadge } from '../components/ui';
import { nameAndTags } from '../connect-form';
import { awaitingFirstScan, when } from '../format';
import { useAction, useLoad, usePoll } from '../hooks';
import { useCan } from '../me';
import { BASE, Link } from '../router';

type Connected = Outputs['accounts']['connect'];
type Summary = Outputs['accounts']['list']['accounts'][number];
type ListInput = Exclude<Inputs['accounts']['list'], void | undefined>;
type Filters = Pick<ListInput, 'tag' | 'status' | 'sort'>;

const PAGE_SIZE = 25;

export function AccountsPage() {
  const [filters, setFilters] = useState<Filters>({});
  // The cursors of the pages before this one: "Previous" pops one, a new filter starts again from the first page.
  const [pages, setPages] = useState<string[]>([]);
  const accounts = useLoad(
    () =>
      trpc.accounts.list.query({ ...filters, limit: PAGE_SIZE, ...(pages.at(-1) ? { next_token: pages.at(-1) } : {}) }),
    [filters.tag, filters.status, filters.sort, pages],
  );
  const canEdit = useCan('member');
  const [connected, setConnected] = useState<Connected | null>(null);
  // The account just verified: the notice links to its page, where the first event shows when it arrives.
  const [verified, setVerified] = useState<string | null>(null);
  const filtered = Boolean(filters.tag || filters.status);
  const filter = (next: Filters) => {
    setFilters(next);
    setPages([]);
  };
  // Until every active account has its first score, look again every few seconds: the first scan takes a moment.
  usePoll(accounts.reload, Boolean(accounts.data?.accounts.some(awaitingFirstScan)), 3000);
  return (
    <section>
      <h1>Accounts</h1>
      {canEdit && (
        <ConnectForm
          onConnected={(c) => {
            setConnected(c);
            setVerified(null);
            accounts.reload();
          }}
        />
      )}
      {connected && (
        <SetupSteps
          account={connected}
          onVerified={() => {
            setVerified(connected.aws_account_id);
            setConnected(null);
            accounts.reload();
          }}
        />
      )}
      {verified && (
        <Notice>
          {verified} verified: the first scan is running.{' '}
          <Link to={`${BASE}/accounts/${verified}/events`}>See its events</Link> as the forwarder starts delivering
          them.
        </Notice>
      )}
      <ListFilters filters={filters} onChange={filter} />
      <ErrorBox message={accounts.error} onRetry={accounts.reload} />
      {accounts.loading && !accounts.data && <Loading what="Loading accounts" />}
      {accounts.data && accounts.data.total === 0 && !filtered && (
        <Empty>
          No AWS accounts yet.{' '}
          {canEdit ? 'Connect one above to start scanning.' : 'Ask a member of your team to connect one.'}
        </Empty>
      )}
      {accounts.data && accounts.data.total === 0 && filtered && <Empty>No accounts match these filters.</Empty>}
      {accounts.data && accounts.data.total > 0 && (
        <>
          <p className="muted" data-testid="accounts-total">
            {accounts.data.total} account{accounts.data.total === 1 ? '' : 's'}
            {filtered ? ' match' : ''}
          </p>
          <table className="list" aria-label="Accounts">
            <thead>
              <tr>
                <th>Account</th>
                <th>Status</th>
                <th>SRS</th>
                <th>Last scan</th>
                <th>Tags</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {accounts.data.accounts.map((a) => (
                <AccountRow key={a.aws_account_id} account={a} canEdit={canEdit} onChange={accounts.reload} />
              ))}
            </tbody>
          </table>
        </>
      )}
      <div className="actions">
        {pages.length > 0 && (
          <button type="button" onClick={() => setPages(pages.slice(0, -1))}>
            Previous page
          </button>
        )}
        {accounts.data?.next_token && (
          <button type="button" onClick={() => setPages([...pages, accounts.data?.next_token as string])}>
            Next page
          </button>
        )}
      </div>
    </section>
  );
}

/** Tag and status narrow the list on the service side; the order is connection order, or the lowest score first. */
function ListFilters({ filters, onChange }: { filters: Filters; onChange: (f: Filters) => void }) {
  const [tag, setTag] = useState(filters.tag ?? '');
  const applyTag = () => {
    const value = tag.trim();
    if (value !== (filters.tag ?? '')) onChange({ ...filters, tag: value || undefined });
  };
  return (
    <form
      className="filters"
      aria-label="Filter accounts"
      onSubmit={(e) => {
        e.preventDefault();
        applyTag();
      }}
    >
      <label>
        Tag{' '}
        <input name="tag" value={tag} onChange={(e) => setTag(e.target.value)} onBlur={applyTag} placeholder="prod" />
      </label>
      <label>
        Status{' '}
        <select
          value={filters.status ?? ''}
          onChange={(e) => onChange({ ...filters, status: (e.target.value || undefined) as Filters['status'] })}
        >
          <option value="">All</option>
          {ACCOUNT_STATUSES.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
      </label>
      <label>
        Sort{' '}
        <select
          value={filters.sort ?? 'connected'}
          onChange={(e) => onChange({ ...filters, sort: e.target.value as Filters['sort'] })}
        >
          <option value="connected">Connection order</option>
          <option value="srs">SRS, lowest first</option>
        </select>
      </label>
    </form>
  );
}

function ConnectForm({ onConnected }: { onConnected: (c: Connected) => void }) {
  const connect = useAction((input: { aws_account_id: string; display_name?: string; tags?: string[] }) =>
    trpc.accounts.connect.mutate(input),
  );
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const result = await connect.run({
      aws_account_id: String(form.get('aws_account_id')).trim(),
      ...nameAndTags(form),
    });
    if (result) {
      formElement.reset();
      onConnected(result);
    }
  };
  return (
    <form className="inline-form" onSubmit={submit} aria-label="Connect an account">
      <h2>Connect an AWS account</h2>
      <label>
        AWS account id{' '}
        <input name="aws_account_id" required pattern="[0-9]{12}" placeholder="123456789012" inputMode="numeric" />
      </label>
      <label>
        Name (optional) <input name="display_name" maxLength={200} placeholder="Production" />
      </label>
      <label>
        Tags (comma-separated) <input name="tags" placeholder="prod, eu" />
      </label>
      <button type="submit" disabled={connect.busy}>
        {connect.busy ? 'Connecting…' : 'Connect'}
      </button>
      <ErrorBox message={connect.error} />
    </form>
  );
}

/** Step 2: create the role (CloudFormation first: one click in the AWS console), then verify. */
function SetupSteps({ account, onVerified }: { account: Connected; onVerified: () => void }) {
  const verify = useAction(() => trpc.accounts.verify.mutate({ account_id: account.aws_account_id }));
  const run = async () => {
    if (await verify.run()) onVerified();
  };
  return (
    <section className="setup" aria-label="Set up the role">
      <h2>Create the role in {account.aws_account_id}</h2>
      <p>
        Create the role in the AWS account one of these ways, then press Verify. The role trusts Sentinel&apos;s account
        ({account.sentinel_account_id}) only with the external id <code>{account.external_id}</code>.
      </p>
      <CloudFormationStep account={account} />
      <h3>Or with Terraform or the AWS CLI</h3>
      <CopyBlock title="Terraform" text={account.terraform_snippet} />
      <CopyBlock title="AWS CLI script" text={account.fallback_cli_script} />
      {account.event_forwarding && <EventForwarderStep forwarding={account.event_forwarding} />}
      <button type="button" onClick={() => void run()} disabled={verify.busy}>
        {verify.busy ? 'Verifying…' : 'Verify'}
      </button>
      {verify.error && <ErrorBox message={`Verification failed: ${verify.error}`} />}
    </section>
  );
}

type ConnectForwarding = NonNullable<Connected['event_forwarding']>;

/**
 * The account's event forwarder: where EventBridge delivers, and its key, which this answer alone shows; the
 * forwarder as CloudFormation (one click for us-east-1, the template for the other regions' StackSet).
 */
function EventForwarderStep({ forwarding }: { forwarding: ConnectForwarding }) {
  return (
    <section className="event-forwarder" aria-label="Event forwarder">
      <h3>Event forwarder</h3>
      <p>
        Besides the scans, Sentinel watches what happens in the account as it happens (root sign-ins, new access keys,
        CloudTrail stopped, …) through an EventBridge forwarder that sends those events here with this key. The
        Terraform and the AWS CLI script above already contain it. With CloudFormation it is a stack of its own per
        region: launch it in us-east-1 (where IAM and the other global services deliver their events), then deploy the
        same template to the other regions with a StackSet. Set up another way, give the forwarder&apos;s EventBridge
        connection this endpoint, header and key.
      </p>
      <EventForwardingDetails forwarding={forwarding} />
      <p>
        {forwarding.cloudformation_quick_create_url && (
          <>
            <a
              className="button"
              href={forwarding.cloudformation_quick_create_url}
              target="_blank"
              rel="noreferrer noopener"
            >
              Launch the forwarder in AWS CloudFormation (us-east-1)
            </a>{' '}
          </>
        )}
        <button
          type="button"
          onClick={() =>
            saveText('sentinel-event-forwarder.yaml', forwarding.cloudformation_template, 'application/x-yaml')
          }
        >
          Download the forwarder template
        </button>
      </p>
      <p className="muted" data-testid="event-key-once">
        The key is shown only now and Sentinel keeps only its hash. If it is lost, rotate it on the account&apos;s
        Events tab.
      </p>
    </section>
  );
}

/**
 * The quick-create link opens the stack in the AWS console with the external id filled in. The console can only
 * read a template from a public address, so a deployment that publishes none gets the template to upload instead.
 */
function CloudFormationStep({ account }: { account: Connected }) {
  const filename = `sentinel-role-${account.aws_account_id}.yaml`;
  return (
    <section className="cloudformation" aria-label="AWS CloudFormation">
      <h3>AWS CloudFormation</h3>
      {account.cloudformation_quick_create_url ? (
        <p>
          <a
            className="button"
            href={account.cloudformation_quick_create_url}
            target="_blank"
            rel="noreferrer noopener"
          >
            Launch in AWS CloudFormation
          </a>{' '}
          <span className="muted">
            Sign in to AWS account {account.aws_account_id}, check the box that allows creating IAM resources, and
            create the stack.
          </span>
        </p>
      ) : (
        <>
          <p className="muted" data-testid="no-quick-create">
            This Sentinel publishes no CloudFormation template at a public address, so AWS cannot open it in one click.
            Download the template and upload it in the CloudFormation console (Create stack, Upload a template file).
          </p>
          <button
            type="button"
            onClick={() => saveText(filename, account.cloudformation_template, 'application/x-yaml')}
          >
            Download the template
          </button>
          <CopyBlock title="CloudFormation template" text={account.cloudformation_template} />
        </>
      )}
    </section>
  );
}

function AccountRow({ account, canEdit, onChange }: { account: Summary; canEdit: boolean; onChange: () => void }) {
  const id = account.aws_account_id;
  const [notice, setNotice] = useState<string | null>(null);
  const verify = useAction(() => trpc.accounts.verify.mutate({ account_id: id }));
  const scan = useAction(() => trpc.accounts.scan.mutate({ account_id: id }));
  const disconnect = useAction(() => trpc.accounts.disconnect.mutate({ account_id: id }));
  const act = async (action: typeof verify | typeof scan | typeof disconnect, done: string) => {
    setNotice(null);
    if (await action.run()) {
      setNotice(done);
      onChange();
    }
  };
  const error = verify.error ?? scan.error ?? disconnect.error;
  return (
    <tr data-account={id}>
      <td>
        <Link to={`${BASE}/accounts/${id}`}>{account.display_name ? `${account.display_name} (${id})` : id}</Link>
      </td>
      <td>
        <span className={`status status-${account.status.toLowerCase()}`}>{account.status}</span>
      </td>
      <td>
        <SrsBadge srs={account.current_srs} />
        {account.score_complete === false && (
          <>
            {' '}
            <IncompleteMark />
          </>
        )}
      </td>
      <td>
        {awaitingFirstScan(account) ? <span className="loading">First scan running…</span> : when(account.last_scan_at)}
      </td>
      <td>{account.tags.join(', ')}</td>
      <td className="actions">
        {canEdit && account.status === 'PENDING' && (
          <button
            type="button"
            onClick={() => void act(verify, 'Verified: the first scan is running.')}
            disabled={verify.busy}
          >
            Verify
          </button>
        )}
        {canEdit && account.status === 'ACTIVE' && (
          <button type="button" onClick={() => void act(scan, 'Scan started.')} disabled={scan.busy}>
            Scan now
          </button>
        )}
        {canEdit && account.status !== 'DISCONNECTED' && (
          <button
            type="button"
            className="danger"
            disabled={disconnect.busy}
            onClick={() => {
              if (window.confirm(`Disconnect ${id}? Scheduled scans stop; the role in your AWS account stays.`))
                void act(disconnect, 'Disconnected.');
            }}
          >
            Disconnect
          </button>
        )}
        {error && <ErrorBox message={error} />}
        {notice && <Notice>{notice}</Notice>}
      </td>
    </tr>
  );
}
