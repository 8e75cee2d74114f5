import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { BusError, bus, onEvent } from './api';
import type { EventOf, EventTopic, RequestOf, RequestType, ResponseOf } from './api';

/** A bus answer as views hold it. */
export interface Loaded<T> {
  data: T | null;
  error: BusError | null;
  loading: boolean;
  reload: () => void;
}

/**
 * Asks the bus once (and again when `deps` change, on `reload()`, and after the event stream
 * reconnected). `payload` null means "not now" (nothing selected yet).
 */
export function useBus<T extends RequestType>(
  type: T,
  payload: RequestOf<T> | null,
  deps: readonly unknown[] = [],
): Loaded<ResponseOf<T>> {
  const [state, setState] = useState<{
    data: ResponseOf<T> | null;
    error: BusError | null;
    loading: boolean;
  }>({
    data: null,
    error: null,
    loading: payload !== null,
  });
  const [tick, setTick] = useState(0);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  useEffect(() => onEvent('page.resync', reload), [reload]);
  useEffect(() => {
    if (payload === null) {
      setState({ data: null, error: null, loading: false });
      return undefined;
    }
    let current = true;
    setState((s) => ({ ...s, loading: true }));
    bus(type, payload).then(
      (data) => current && setState({ data, error: null, loading: false }),
      (err: unknown) =>
        current &&
        setState((s) => ({
          data: s.data,
          error: err instanceof BusError ? err : new BusError('PAGE', String(err)),
          loading: false,
        })),
    );
    return () => {
      current = false;
    };
  }, [type, tick, payload === null, ...deps]);
  return { ...state, reload };
}

/** Listens to a bus event topic while the component is shown. */
export function useEvent<E extends EventTopic>(
  topic: E | 'page.resync',
  fn: (payload: EventOf<E>) => void,
): void {
  const ref = useRef(fn);
  ref.current = fn;
  useEffect(() => onEvent(topic, (p) => ref.current(p)), [topic]);
}

/** Runs `fn` every `ms` while shown (and `enabled`). */
export function useInterval(fn: () => void, ms: number, enabled = true): void {
  const ref = useRef(fn);
  ref.current = fn;
  useEffect(() => {
    if (!enabled) {
      return undefined;
    }
    const timer = setInterval(() => ref.current(), ms);
    return () => clearInterval(timer);
  }, [ms, enabled]);
}

/** A button's action: runs one bus call at a time, keeps its error to show. */
export function useAction(): {
  busy: boolean;
  error: string | null;
  run: (fn: () => Promise<unknown>) => Promise<void>;
  clear: () => void;
} {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = useCallback(async (fn: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    try {
      await fn();
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  }, []);
  return { busy, error, run, clear: () => setError(null) };
}
