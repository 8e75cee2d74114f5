/**
 * Waits `ms`, or less when `signal` aborts. With `rejectOnAbort`, an abort rejects with the
 * signal's reason; otherwise it just ends the wait early. The abort listener is removed when the
 * wait ends either way, so loops that sleep often do not pile listeners on a long-lived signal.
 */
export function sleep(ms: number, signal?: AbortSignal, rejectOnAbort = false): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      if (rejectOnAbort) {
        reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
      } else {
        resolve();
      }
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      if (rejectOnAbort) {
        reject(signal?.reason instanceof Error ? signal.reason : new Error('aborted'));
      } else {
        resolve();
      }
    };
    const timer = setTimeout(
      () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      },
      Math.max(0, ms),
    );
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Waits until every promise has settled or `ms` passed, whichever is first; true when all settled. */
export async function settledWithin(promises: readonly Promise<unknown>[], ms: number): Promise<boolean> {
  const abort = new AbortController();
  const all = Promise.allSettled(promises).then(() => true);
  try {
    return await Promise.race([all, sleep(ms, abort.signal).then(() => false)]);
  } finally {
    abort.abort();
  }
}
