import { useCallback, useEffect, useRef, useState } from 'react';
import { type Problem, toProblem } from './problem.js';

export interface Resource<T> {
  data: T | undefined;
  problem: Problem | undefined;
  loading: boolean;
  reload(): void;
}

/**
 * Loads data for a page and reloads when `deps` change. `pollMs` keeps it fresh while `poll(data)`
 * says so (a running job); a failed poll keeps the last data and shows the problem.
 */
export function useResource<T>(
  load: () => Promise<T>,
  deps: readonly unknown[],
  options: { pollMs?: number; poll?: (data: T) => boolean } = {},
): Resource<T> {
  const [data, setData] = useState<T | undefined>();
  const [problem, setProblem] = useState<Problem | undefined>();
  const [loading, setLoading] = useState(true);
  const [tick, setTick] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;
  const optionsRef = useRef(options);
  optionsRef.current = options;
  // Other deps mean other data: never show the previous client's rows while the new ones load.
  const key = JSON.stringify(deps);
  const keyRef = useRef(key);
  if (keyRef.current !== key) {
    keyRef.current = key;
    setData(undefined);
  }

  // biome-ignore lint/correctness/useExhaustiveDependencies: `deps` are the caller's; `tick` forces a reload
  useEffect(() => {
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    setLoading(true);
    loadRef.current().then(
      (value) => {
        if (!live) return;
        setData(value);
        setProblem(undefined);
        setLoading(false);
        const { pollMs, poll } = optionsRef.current;
        if (pollMs && (!poll || poll(value))) timer = setTimeout(() => setTick((t) => t + 1), pollMs);
      },
      (error: unknown) => {
        if (!live) return;
        setProblem(toProblem(error));
        setLoading(false);
      },
    );
    return () => {
      live = false;
      if (timer) clearTimeout(timer);
    };
  }, [...deps, tick]);

  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { data, problem, loading, reload };
}
