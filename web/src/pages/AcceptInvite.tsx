import { type FormEvent, useState } from 'react';
import { trpc } from '../api';
import { ErrorBox } from '../components/ui';
import { usePublicAction } from '../hooks';
import { BASE, Link, navigate } from '../router';
import { session } from '../session';

/** The token from `#token=...`: the fragment never leaves the browser, so it is sent only in the request body. */
function inviteToken(): string | null {
  return new URLSearchParams(window.location.hash.slice(1)).get('token');
}

export function AcceptInvitePage() {
  const [token] = useState(inviteToken);
  const accept = usePublicAction(async (invitation: string, password: string, name: string) => {
    session.signIn(await trpc.auth.acceptInvite.mutate({ token: invitation, password, ...(name ? { name } : {}) }));
    navigate(`${BASE}/accounts`, { replace: true });
  });
  if (!token) {
    return (
      <div className="auth">
        <h1>Sentinel</h1>
        <ErrorBox message="This invitation link is incomplete. Open the link from the invitation e-mail again, or ask for a new one." />
        <p>
          <Link to={`${BASE}/login`}>Log in</Link>
        </p>
      </div>
    );
  }
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    void accept.run(token, String(form.get('password')), String(form.get('name') ?? '').trim());
  };
  return (
    <div className="auth">
      <h1>Sentinel</h1>
      <form onSubmit={submit} aria-label="Accept invitation">
        <h2>Join your team</h2>
        <label>
          Your name (optional) <input name="name" maxLength={200} autoComplete="name" />
        </label>
        <label>
          Choose a password (8 characters or more){' '}
          <input name="password" type="password" required minLength={8} autoComplete="new-password" />
        </label>
        <ErrorBox message={accept.error} />
        <button type="submit" disabled={accept.busy}>
          {accept.busy ? 'Joining…' : 'Accept invitation'}
        </button>
      </form>
    </div>
  );
}
