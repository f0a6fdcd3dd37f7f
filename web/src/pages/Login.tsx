import type { FormEvent } from 'react';
import { trpc } from '../api';
import { ErrorBox } from '../components/ui';
import { usePublicAction } from '../hooks';
import { BASE, Link, navigate } from '../router';
import { session } from '../session';

/** After signing in, go where the user was headed (a link from an e-mail), or to the overview. */
function landing(): string {
  const path = window.location.pathname;
  return path.startsWith(`${BASE}/`) &&
    !['/login', '/signup', '/accept-invite', '/forgot-password', '/reset-password'].some((p) => path === `${BASE}${p}`)
    ? path
    : BASE;
}

export function LoginPage() {
  const login = usePublicAction(async (email: string, password: string) => {
    const tokens = await trpc.auth.login.mutate({ email, password });
    const to = landing();
    session.signIn(tokens);
    navigate(to, { replace: true });
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    void login.run(String(form.get('email')), String(form.get('password')));
  };
  return (
    <div className="auth">
      <h1>Sentinel</h1>
      <form onSubmit={submit} aria-label="Log in">
        <h2>Log in</h2>
        <label>
          E-mail <input name="email" type="email" autoComplete="username" required />
        </label>
        <label>
          Password <input name="password" type="password" autoComplete="current-password" required />
        </label>
        <ErrorBox message={login.error} />
        <button type="submit" disabled={login.busy}>
          {login.busy ? 'Logging in…' : 'Log in'}
        </button>
      </form>
      <p>
        <Link to={`${BASE}/forgot-password`}>Forgot your password?</Link>
      </p>
      <p>
        New here? <Link to={`${BASE}/signup`}>Create an account</Link>
      </p>
    </div>
  );
}

export function SignupPage() {
  const signup = usePublicAction(async (name: string, email: string, password: string) => {
    await trpc.auth.signup.mutate({ email, password, name });
    session.signIn(await trpc.auth.login.mutate({ email, password }));
    // A new tenant has nothing to overview yet: it starts where accounts are connected.
    navigate(`${BASE}/accounts`, { replace: true });
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    void signup.run(String(form.get('name')), String(form.get('email')), String(form.get('password')));
  };
  return (
    <div className="auth">
      <h1>Sentinel</h1>
      <form onSubmit={submit} aria-label="Sign up">
        <h2>Create your organisation</h2>
        <label>
          Your name <input name="name" required maxLength={200} autoComplete="name" />
        </label>
        <label>
          E-mail <input name="email" type="email" required autoComplete="username" />
        </label>
        <label>
          Password (8 characters or more){' '}
          <input name="password" type="password" required minLength={8} autoComplete="new-password" />
        </label>
        <ErrorBox message={signup.error} />
        <button type="submit" disabled={signup.busy}>
          {signup.busy ? 'Creating…' : 'Sign up'}
        </button>
      </form>
      <p>
        Already have an account? <Link to={`${BASE}/login`}>Log in</Link>
      </p>
    </div>
  );
}
