// The signed-in session. The bearer token (the id_token, valid an hour) lives only in memory, so no script
// can read it from storage and it is gone with the tab. The refresh token sits in sessionStorage: it lets a
// reload or a link opened in the same tab stay signed in, and sessionStorage is scoped to the tab and cleared
// when it closes. Refresh tokens are single-use and rotated by every refresh, so a stolen one is detected.
const REFRESH_KEY = 'sentinel.refresh_token';

export interface TokenSet {
  id_token: string;
  access_token: string;
  refresh_token: string;
  expires_in: number;
}

type Listener = () => void;

let bearer: string | null = null;
const listeners = new Set<Listener>();

function notify(): void {
  for (const listener of listeners) listener();
}

export const session = {
  bearer: (): string | null => bearer,
  hasRefreshToken: (): boolean => sessionStorage.getItem(REFRESH_KEY) !== null,
  refreshToken: (): string | null => sessionStorage.getItem(REFRESH_KEY),
  signIn(tokens: TokenSet): void {
    bearer = tokens.id_token;
    sessionStorage.setItem(REFRESH_KEY, tokens.refresh_token);
    notify();
  },
  clear(): void {
    bearer = null;
    sessionStorage.removeItem(REFRESH_KEY);
    notify();
  },
  subscribe(listener: Listener): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};
