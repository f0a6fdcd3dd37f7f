import { type FormEvent, useState } from 'react';
import { type Inputs, type Outputs, trpc } from '../api';
import { CopyBlock, Empty, ErrorBox, Loading, Notice, saveText } from '../components/ui';
import { nameAndTags } from '../connect-form';
import { when } from '../format';
import { useAction, useLoad } from '../hooks';
import { useCan } from '../me';
import { BASE, Link } from '../router';

type Organization = Outputs['organizations']['list']['organizations'][number];
type Connected = Outputs['organizations']['connect'];
type ConnectInput = Inputs['organizations']['connect'];

/** The AWS Organizations the tenant monitors, each with its accounts counted by what Sentinel does with them. */
export function OrganizationsPage() {
  const organizations = useLoad(() => trpc.organizations.list.query(), []);
  const canEdit = useCan('member');
  const [connected, setConnected] = useState<Connected | null>(null);
  const [verified, setVerified] = useState<string | null>(null);
  const list = organizations.data?.organizations;
  return (
    <section>
      <h1>Organizations</h1>
      <p className="muted">
        Connect an AWS Organization through its management account: Sentinel lists its member accounts and monitors each
        one as soon as the member role is in place, connecting and disconnecting accounts as they join and leave.
      </p>
      {canEdit && (
        <ConnectForm
          onConnected={(c) => {
            setConnected(c);
            setVerified(null);
            organizations.reload();
          }}
        />
      )}
      {connected && (
        <OrganizationSetup
          organization={connected}
          onVerified={() => {
            setVerified(
              `The organization of ${connected.management_account_id} is verified: its accounts are being listed.`,
            );
            setConnected(null);
            organizations.reload();
          }}
        />
      )}
      {verified && <Notice>{verified}</Notice>}
      <ErrorBox message={organizations.error} onRetry={organizations.reload} />
      {organizations.loading && !list && <Loading what="Loading organizations" />}
      {list && list.length === 0 && (
        <Empty>
          No organizations yet.{' '}
          {canEdit ? 'Connect one above through its management account.' : 'Ask a member of your team to connect one.'}
        </Empty>
      )}
      {list && list.length > 0 && (
        <table className="list" aria-label="Organizations">
          <thead>
            <tr>
              <th>Organization</th>
              <th>Status</th>
              <th>Accounts</th>
              <th>Monitored</th>
              <th>Awaiting role</th>
              <th>Over the plan</th>
              <th>Disconnected</th>
              <th>Last sync</th>
            </tr>
          </thead>
          <tbody>
            {list.map((o) => (
              <OrganizationRow key={o.org_id} organization={o} />
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function OrganizationRow({ organization: o }: { organization: Organization }) {
  return (
    <tr data-org={o.org_id}>
      <td>
        <Link to={`${BASE}/organizations/${o.org_id}`}>
          {o.display_name ?? o.aws_organization_id ?? o.management_account_id}
        </Link>
        <br />
        <span className="muted">
          management account {o.management_account_id}
          {o.aws_organization_id ? ` · ${o.aws_organization_id}` : ''}
        </span>
      </td>
      <td>
        <span className={`status status-${o.status.toLowerCase()}`}>{o.status}</span>
      </td>
      <td data-count="total">{o.accounts.total}</td>
      <td data-count="monitored">{o.accounts.monitored}</td>
      <td data-count="awaiting_role">{o.accounts.awaiting_role}</td>
      <td data-count="not_monitored_plan_limit">{o.accounts.not_monitored_plan_limit}</td>
      <td data-count="disconnected">{o.accounts.disconnected}</td>
      <td>
        {when(o.last_sync_at)}
        {o.last_sync_error && (
          <>
            <br />
            <span className="sync-error">{o.last_sync_error}</span>
          </>
        )}
      </td>
    </tr>
  );
}

function ConnectForm({ onConnected }: { onConnected: (c: Connected) => void }) {
  const connect = useAction((input: ConnectInput) => trpc.organizations.connect.mutate(input));
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const result = await connect.run({
      management_account_id: String(form.get('management_account_id')).trim(),
      ...nameAndTags(form),
    });
    if (result) {
      formElement.reset();
      onConnected(result);
    }
  };
  return (
    <form className="inline-form" onSubmit={submit} aria-label="Connect an organization">
      <h2>Connect an AWS Organization</h2>
      <label>
        Management account id{' '}
        <input
          name="management_account_id"
          required
          pattern="[0-9]{12}"
          placeholder="123456789012"
          inputMode="numeric"
        />
      </label>
      <label>
        Name (optional) <input name="display_name" maxLength={200} placeholder="Acme" />
      </label>
      <label>
        Tags for its accounts (comma-separated) <input name="tags" placeholder="acme" />
      </label>
      <button type="submit" disabled={connect.busy}>
        {connect.busy ? 'Connecting…' : 'Connect'}
      </button>
      <ErrorBox message={connect.error} />
    </form>
  );
}

/** The two roles to create (the management account's, and the members' through a StackSet), then verify. */
function OrganizationSetup({ organization: o, onVerified }: { organization: Connected; onVerified: () => void }) {
  const verify = useAction(() => trpc.organizations.verify.mutate({ org_id: o.org_id }));
  const run = async () => {
    if (await verify.run()) onVerified();
  };
  const role = o.management_role;
  return (
    <section className="setup" aria-label="Set up the organization">
      <h2>Set up the roles of {o.management_account_id}&apos;s organization</h2>
      <p>
        Both roles trust Sentinel&apos;s account ({o.sentinel_account_id}) only with the external id{' '}
        <code>{o.external_id}</code>, the one of the whole organization.
      </p>
      <h3>
        1. The role <code>{role.role_name}</code> in the management account
      </h3>
      <CopyBlock title="CloudFormation template" text={role.cloudformation_template} />
      <CopyBlock title="Terraform" text={role.terraform_snippet} />
      <CopyBlock title="AWS CLI script" text={role.cli_script} />
      <h3>2. The member role in every account, as a service-managed StackSet</h3>
      <button
        type="button"
        onClick={() =>
          saveText(
            `sentinel-member-role-stackset-${o.management_account_id}.yaml`,
            o.member_stackset_template,
            'application/x-yaml',
          )
        }
      >
        Download the StackSet template
      </button>
      <CopyBlock title="StackSet template" text={o.member_stackset_template} />
      <p className="muted">
        Deploy it from the management account with the same external id, targeting the organization&apos;s root with
        automatic deployment on, so accounts that join later get the role too. StackSets never reach the management
        account itself: connect it on the Accounts page to monitor it.
      </p>
      <h3>3. Verify</h3>
      <p className="muted">
        Sentinel assumes the management role, lists the organization and connects every member account.
      </p>
      <button type="button" onClick={() => void run()} disabled={verify.busy}>
        {verify.busy ? 'Verifying…' : 'Verify'}
      </button>
      {verify.error && <ErrorBox message={`Verification failed: ${verify.error}`} />}
    </section>
  );
}
