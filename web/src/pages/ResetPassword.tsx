import { type FormEvent, useState } from 'react';
import { trpc } from '../api';
import { ErrorBox } from '../components/ui';
import { usePublicAction } from '../hooks';
import { BASE, Link } from '../router';

/** The token from `#token=...`: the fragment never leaves the browser, so it is sent only in the request body. */
function resetToken(): string | null {
  return new URLSearchParams(window.location.hash.slice(1)).get('token');
}

/** Asks for a reset link; the answer is the same whether or not the address has an account. */
export function ForgotPasswordPage() {
  const [sent, setSent] = useState<string | null>(null);
  const request = usePublicAction(async (email: string) => {
    setSent((await trpc.auth.requestPasswordReset.mutate({ email })).message);
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void request.run(String(new FormData(event.currentTarget).get('email')));
  };
  return (
    <div className="auth">
      <h1>Sentinel</h1>
      {sent ? (
        <p role="status">{sent}</p>
      ) : (
        <form onSubmit={submit} aria-label="Reset password">
          <h2>Forgot your password?</h2>
          <label>
            E-mail <input name="email" type="email" autoComplete="username" required />
          </label>
          <ErrorBox message={request.error} />
          <button type="submit" disabled={request.busy}>
            {request.busy ? 'Sending…' : 'Send a reset link'}
          </button>
        </form>
      )}
      <p>
        <Link to={`${BASE}/login`}>Log in</Link>
      </p>
    </div>
  );
}

/** Where the e-mailed link leads: choose the new password, then log in with it. */
export function ResetPasswordPage() {
  const [token] = useState(resetToken);
  const [done, setDone] = useState(false);
  const confirm = usePublicAction(async (link: string, password: string) => {
    await trpc.auth.confirmPasswordReset.mutate({ token: link, password });
    setDone(true);
  });
  if (!token || done) {
    return (
      <div className="auth">
        <h1>Sentinel</h1>
        {done ? (
          <p role="status">Your password is set and every session signed out.</p>
        ) : (
          <ErrorBox message="This reset link is incomplete. Open the link from the e-mail again, or ask for a new one." />
        )}
        <p>
          <Link to={`${BASE}/login`}>Log in</Link>
        </p>
      </div>
    );
  }
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void confirm.run(token, String(new FormData(event.currentTarget).get('password')));
  };
  return (
    <div className="auth">
      <h1>Sentinel</h1>
      <form onSubmit={submit} aria-label="Choose a new password">
        <h2>Choose a new password</h2>
        <label>
          New password (8 characters or more){' '}
          <input name="password" type="password" required minLength={8} autoComplete="new-password" />
        </label>
        <ErrorBox message={confirm.error} />
        <button type="submit" disabled={confirm.busy}>
          {confirm.busy ? 'Saving…' : 'Set the password'}
        </button>
      </form>
    </div>
  );
}
