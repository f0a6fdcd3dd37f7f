import { useCallback, useEffect, useRef, useState } from 'react';
import { authed } from './auth';
import { errorMessage } from './api';

export interface Loaded<T> {
  data: T | undefined;
  error: string | null;
  /** True while there is nothing to show yet (first load, or after `deps` changed); reloads keep the data shown. */
  loading: boolean;
  reload: () => void;
}

/** Loads data for a page (signed in); loads again when `deps` change or on reload(). Stale answers are dropped. */
export function useLoad<T>(load: () => Promise<T>, deps: readonly unknown[]): Loaded<T> {
  const [state, setState] = useState<{ data?: T; error: string | null; loading: boolean }>({
    error: null,
    loading: true,
  });
  const [generation, setGeneration] = useState(0);
  const reloading = useRef(false);
  useEffect(() => {
    let current = true;
    if (!reloading.current) setState((s) => ({ ...s, loading: true, error: null }));
    reloading.current = false;
    authed(load).then(
      (data) => current && setState({ data, error: null, loading: false }),
      (err: unknown) => current && setState((s) => ({ ...s, error: errorMessage(err), loading: false })),
    );
    return () => {
      current = false;
    };
  }, [...deps, generation]); // `load` is a new closure each render: the caller names what it depends on
  const reload = useCallback(() => {
    reloading.current = true;
    setGeneration((g) => g + 1);
  }, []);
  return { data: state.data, error: state.error, loading: state.loading, reload };
}

/** Calls `reload` every `ms` while `active` (a scan running, a live list), and stops when the page goes. */
export function usePoll(reload: () => void, active: boolean, ms: number): void {
  useEffect(() => {
    if (!active) return undefined;
    const timer = window.setInterval(reload, ms);
    return () => window.clearInterval(timer);
  }, [reload, active, ms]);
}

export interface Action<A extends unknown[], T> {
  run: (...args: A) => Promise<T | undefined>;
  busy: boolean;
  error: string | null;
}

/** Tracks a call's busy state and error message; resolves undefined on failure. */
function useTracked<A extends unknown[], T>(call: (...args: A) => Promise<T>): Action<A, T> {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = async (...args: A) => {
    setBusy(true);
    setError(null);
    try {
      return await call(...args);
    } catch (err) {
      setError(errorMessage(err));
      return undefined;
    } finally {
      setBusy(false);
    }
  };
  return { run, busy, error };
}

/** A button's action (signed in): tracks busy and the error message; resolves undefined on failure. */
export function useAction<A extends unknown[], T>(action: (...args: A) => Promise<T>): Action<A, T> {
  return useTracked((...args: A) => authed(() => action(...args)));
}

/** The form of a signed-out page (log in, sign up, accept an invitation): as useAction, without a session. */
export function usePublicAction<A extends unknown[], T>(action: (...args: A) => Promise<T>): Action<A, T> {
  return useTracked(action);
}
