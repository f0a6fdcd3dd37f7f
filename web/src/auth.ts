import { errorCode, trpc } from './api';
import { session } from './session';

let refreshing: Promise<boolean> | null = null;

/** Trades the stored refresh token for a new token set; one refresh at a time, however many calls wait on it. */
export function refreshSession(): Promise<boolean> {
  refreshing ??= (async () => {
    const token = session.refreshToken();
    if (!token) return false;
    try {
      session.signIn(await trpc.auth.refresh.mutate({ refresh_token: token }));
      return true;
    } catch (err) {
      // Only a refused token ends the session; a network failure leaves it for the next try.
      if (errorCode(err) !== null) session.clear();
      return false;
    } finally {
      refreshing = null;
    }
  })();
  return refreshing;
}

/**
 * Runs an authenticated call; when the bearer token has expired (or the page was reloaded and only the refresh
 * token is left), refreshes once and retries. A refused refresh signs out, and the app shows the login page.
 */
export async function authed<T>(call: () => Promise<T>): Promise<T> {
  if (!session.bearer() && session.hasRefreshToken()) await refreshSession();
  try {
    return await call();
  } catch (err) {
    if (errorCode(err) !== 'unauthorized' || !(await refreshSession())) throw err;
    return call();
  }
}

export async function logOut(): Promise<void> {
  const token = session.refreshToken();
  session.clear();
  if (token) await trpc.auth.logout.mutate({ refresh_token: token }).catch(() => undefined);
}
