import { type FormEvent, useState } from 'react';
import { type Outputs, trpc } from '../api';
import { CopyBlock, Empty, ErrorBox, IncompleteMark, Loading, Notice, SrsBadge } from '../components/ui';
import { awaitingFirstScan, when } from '../format';
import { useAction, useLoad, usePoll } from '../hooks';
import { useCan } from '../me';
import { BASE, Link } from '../router';

type Connected = Outputs['accounts']['connect'];
type Summary = Outputs['accounts']['list']['accounts'][number];

export function AccountsPage() {
  const accounts = useLoad(() => trpc.accounts.list.query(), []);
  const canEdit = useCan('member');
  const [connected, setConnected] = useState<Connected | null>(null);
  const [verified, setVerified] = useState<string | null>(null);
  // Until every active account has its first score, look again every few seconds: the first scan takes a moment.
  usePoll(accounts.reload, Boolean(accounts.data?.accounts.some(awaitingFirstScan)), 3000);
  return (
    <section>
      <h1>Accounts</h1>
      {canEdit && <ConnectForm onConnected={(c) => { setConnected(c); setVerified(null); accounts.reload(); }} />}
      {connected && (
        <SetupSteps
          account={connected}
          onVerified={() => { setVerified(`${connected.aws_account_id} verified: the first scan is running.`); setConnected(null); accounts.reload(); }}
        />
      )}
      {verified && <Notice>{verified}</Notice>}
      <ErrorBox message={accounts.error} onRetry={accounts.reload} />
      {accounts.loading && !accounts.data && <Loading what="Loading accounts" />}
      {accounts.data && accounts.data.total === 0 && (
        <Empty>No AWS accounts yet. {canEdit ? 'Connect one above to start scanning.' : 'Ask a member of your team to connect one.'}</Empty>
      )}
      {accounts.data && accounts.data.total > 0 && (
        <table className="list" aria-label="Accounts">
          <thead><tr><th>Account</th><th>Status</th><th>SRS</th><th>Last scan</th><th>Tags</th><th /></tr></thead>
          <tbody>
            {accounts.data.accounts.map((a) => <AccountRow key={a.aws_account_id} account={a} canEdit={canEdit} onChange={accounts.reload} />)}
          </tbody>
        </table>
      )}
    </section>
  );
}

function ConnectForm({ onConnected }: { onConnected: (c: Connected) => void }) {
  const connect = useAction((input: { aws_account_id: string; display_name?: string; tags?: string[] }) => trpc.accounts.connect.mutate(input));
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const displayName = String(form.get('display_name') ?? '').trim();
    const tags = String(form.get('tags') ?? '').split(',').map((t) => t.trim()).filter(Boolean);
    const result = await connect.run({
      aws_account_id: String(form.get('aws_account_id')).trim(),
      ...(displayName ? { display_name: displayName } : {}),
      ...(tags.length ? { tags } : {}),
    });
    if (result) {
      formElement.reset();
      onConnected(result);
    }
  };
  return (
    <form className="inline-form" onSubmit={submit} aria-label="Connect an account">
      <h2>Connect an AWS account</h2>
      <label>AWS account id <input name="aws_account_id" required pattern="[0-9]{12}" placeholder="123456789012" inputMode="numeric" /></label>
      <label>Name (optional) <input name="display_name" maxLength={200} placeholder="Production" /></label>
      <label>Tags (comma-separated) <input name="tags" placeholder="prod, eu" /></label>
      <button type="submit" disabled={connect.busy}>{connect.busy ? 'Connecting…' : 'Connect'}</button>
      <ErrorBox message={connect.error} />
    </form>
  );
}

/** Step 2: create the role with one of the two snippets, then verify. */
function SetupSteps({ account, onVerified }: { account: Connected; onVerified: () => void }) {
  const verify = useAction(() => trpc.accounts.verify.mutate({ account_id: account.aws_account_id }));
  const run = async () => {
    if (await verify.run()) onVerified();
  };
  return (
    <section className="setup" aria-label="Set up the role">
      <h2>Create the role in {account.aws_account_id}</h2>
      <p>
        Run one of these in the AWS account, then press Verify. The role trusts Sentinel&apos;s account
        ({account.sentinel_account_id}) only with the external id <code>{account.external_id}</code>.
      </p>
      <CopyBlock title="Terraform" text={account.terraform_snippet} />
      <CopyBlock title="AWS CLI script" text={account.fallback_cli_script} />
      <button type="button" onClick={() => void run()} disabled={verify.busy}>{verify.busy ? 'Verifying…' : 'Verify'}</button>
      {verify.error && <ErrorBox message={`Verification failed: ${verify.error}`} />}
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
      <td><Link to={`${BASE}/accounts/${id}`}>{account.display_name ? `${account.display_name} (${id})` : id}</Link></td>
      <td><span className={`status status-${account.status.toLowerCase()}`}>{account.status}</span></td>
      <td><SrsBadge srs={account.current_srs} />{account.score_complete === false && <> <IncompleteMark /></>}</td>
      <td>{awaitingFirstScan(account) ? <span className="loading">First scan running…</span> : when(account.last_scan_at)}</td>
      <td>{account.tags.join(', ')}</td>
      <td className="actions">
        {canEdit && account.status === 'PENDING' && (
          <button type="button" onClick={() => void act(verify, 'Verified: the first scan is running.')} disabled={verify.busy}>Verify</button>
        )}
        {canEdit && account.status === 'ACTIVE' && (
          <button type="button" onClick={() => void act(scan, 'Scan started.')} disabled={scan.busy}>Scan now</button>
        )}
        {canEdit && account.status !== 'DISCONNECTED' && (
          <button
            type="button"
            className="danger"
            disabled={disconnect.busy}
            onClick={() => {
              if (window.confirm(`Disconnect ${id}? Scheduled scans stop; the role in your AWS account stays.`)) void act(disconnect, 'Disconnected.');
            }}
          >Disconnect</button>
        )}
        {error && <ErrorBox message={error} />}
        {notice && <Notice>{notice}</Notice>}
      </td>
    </tr>
  );
}
