import { useCallback, useEffect, useState } from 'react';
import { authed } from './auth';
import { errorMessage } from './api';

export interface Loaded<T> {
  data: T | undefined;
  error: string | null;
  loading: boolean;
  reload: () => void;
}

/** Loads data for a page (signed in); reloads when `deps` change or on reload(). Stale answers are dropped. */
export function useLoad<T>(load: () => Promise<T>, deps: readonly unknown[]): Loaded<T> {
  const [state, setState] = useState<{ data?: T; error: string | null; loading: boolean }>({ error: null, loading: true });
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    let current = true;
    setState((s) => ({ ...s, loading: true, error: null }));
    authed(load).then(
      (data) => current && setState({ data, error: null, loading: false }),
      (err: unknown) => current && setState({ error: errorMessage(err), loading: false }),
    );
    return () => {
      current = false;
    };
  }, [...deps, generation]); // `load` is a new closure each render: the caller names what it depends on
  const reload = useCallback(() => setGeneration((g) => g + 1), []);
  return { data: state.data, error: state.error, loading: state.loading, reload };
}

export interface Action<A extends unknown[], T> {
  run: (...args: A) => Promise<T | undefined>;
  busy: boolean;
  error: string | null;
  clearError: () => void;
}

/** A button's action (signed in): tracks busy and the error message; resolves undefined on failure. */
export function useAction<A extends unknown[], T>(action: (...args: A) => Promise<T>): Action<A, T> {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = async (...args: A) => {
    setBusy(true);
    setError(null);
    try {
      return await authed(() => action(...args));
    } catch (err) {
      setError(errorMessage(err));
      return undefined;
    } finally {
      setBusy(false);
    }
  };
  return { run, busy, error, clearError: () => setError(null) };
}
