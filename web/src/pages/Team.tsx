import { type FormEvent, useState } from 'react';
import { type Inputs, type Outputs, trpc } from '../api';
import { ErrorBox, Loading, Notice } from '../components/ui';
import { when } from '../format';
import { useAction, useLoad } from '../hooks';
import { useCan, useMe } from '../me';

type User = Outputs['users']['list']['users'][number];
type AssignableRole = Inputs['users']['changeRole']['role'];
const ASSIGNABLE: AssignableRole[] = ['admin', 'member', 'viewer'];

export function TeamPage() {
  const users = useLoad(() => trpc.users.list.query(), []);
  const canInvite = useCan('admin');
  return (
    <section>
      <h1>Team</h1>
      <p className="muted">
        Owners and admins invite and remove people; only the owner changes roles. The owner&apos;s role never changes.
      </p>
      {canInvite && <InviteForm onInvited={users.reload} />}
      <ErrorBox message={users.error} onRetry={users.reload} />
      {users.loading && !users.data && <Loading what="Loading the team" />}
      {users.data && (
        <table className="list" aria-label="Team">
          <thead>
            <tr>
              <th>Name</th>
              <th>E-mail</th>
              <th>Role</th>
              <th>Status</th>
              <th>Since</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {users.data.users.map((u) => (
              <UserRow key={u.user_id} user={u} onChange={users.reload} />
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function InviteForm({ onInvited }: { onInvited: () => void }) {
  const invite = useAction((input: Inputs['users']['invite']) => trpc.users.invite.mutate(input));
  const [message, setMessage] = useState<string | null>(null);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    setMessage(null);
    const result = await invite.run({
      email: String(form.get('email')),
      name: String(form.get('name')),
      role: String(form.get('role')) as AssignableRole,
    });
    if (result) {
      formElement.reset();
      setMessage(result.message);
      onInvited();
    }
  };
  return (
    <form className="inline-form" onSubmit={submit} aria-label="Invite a user">
      <h2>Invite someone</h2>
      <label>
        Name <input name="name" required maxLength={200} />
      </label>
      <label>
        E-mail <input name="email" type="email" required />
      </label>
      <label>
        Role{' '}
        <select name="role" defaultValue="member">
          {ASSIGNABLE.map((r) => (
            <option key={r} value={r}>
              {r}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" disabled={invite.busy}>
        {invite.busy ? 'Inviting…' : 'Invite'}
      </button>
      <ErrorBox message={invite.error} />
      {message && <Notice>{message}</Notice>}
    </form>
  );
}

function UserRow({ user, onChange }: { user: User; onChange: () => void }) {
  const me = useMe();
  const isOwner = useCan('owner');
  const isAdmin = useCan('admin');
  const [notice, setNotice] = useState<string | null>(null);
  const changeRole = useAction((role: AssignableRole) => trpc.users.changeRole.mutate({ user_id: user.user_id, role }));
  const remove = useAction(() => trpc.users.remove.mutate({ user_id: user.user_id }));
  const resend = useAction(() => trpc.users.resendInvite.mutate({ user_id: user.user_id }));
  const self = user.user_id === me.user.user_id;
  const owner = user.role === 'owner';
  return (
    <tr data-user={user.user_id}>
      <td>
        {user.name}
        {self && ' (you)'}
      </td>
      <td>{user.email}</td>
      <td>
        {isOwner && !owner ? (
          <select
            aria-label={`Role of ${user.name}`}
            value={user.role}
            disabled={changeRole.busy}
            onChange={(e) => void changeRole.run(e.target.value as AssignableRole).then((r) => r && onChange())}
          >
            {ASSIGNABLE.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
        ) : (
          user.role
        )}
      </td>
      <td>{user.status}</td>
      <td>{when(user.created_at)}</td>
      <td className="actions">
        {isAdmin && user.status === 'invited' && (
          <button
            type="button"
            disabled={resend.busy}
            onClick={() => void resend.run().then((r) => r && setNotice(r.message))}
          >
            Resend invitation
          </button>
        )}
        {isAdmin && !self && !owner && (
          <button
            type="button"
            className="danger"
            disabled={remove.busy}
            onClick={() => {
              if (window.confirm(`Remove ${user.name}? Their sessions end at once.`))
                void remove.run().then((r) => r && onChange());
            }}
          >
            Remove
          </button>
        )}
        <ErrorBox message={changeRole.error ?? remove.error ?? resend.error} />
        {notice && <Notice>{notice}</Notice>}
      </td>
    </tr>
  );
}
