import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';

export interface AsyncState<T> {
  data: T | undefined;
  error: Error | undefined;
  /** Loads again, keeping what is shown until the new answer arrives (no flicker on live updates). */
  reload: () => void;
}

/** Runs `load` when `deps` change; an answer that arrives after a newer request started is dropped. */
export function useAsync<T>(load: () => Promise<T>, deps: readonly unknown[]): AsyncState<T> {
  const [state, setState] = useState<{ data?: T; error?: Error }>({});
  const generation = useRef(0);
  const loadRef = useRef(load);
  useLayoutEffect(() => {
    loadRef.current = load;
  });

  const run = useCallback(() => {
    const mine = ++generation.current;
    loadRef.current().then(
      (data) => {
        if (mine === generation.current) setState({ data });
      },
      (err: unknown) => {
        if (mine !== generation.current) return;
        setState((current) => ({ ...current, error: err instanceof Error ? err : new Error(String(err)) }));
      },
    );
  }, []);

  // eslint-disable-next-line react-hooks/exhaustive-deps -- the caller names what the load depends on
  useEffect(run, deps);
  useEffect(
    () => () => {
      generation.current++; // unmounted: drop whatever is still on its way
    },
    [],
  );
  return { data: state.data, error: state.error, reload: run };
}
