/**
 * The one polling loop of the tests (`lastRead`): waits for what a test needs by asking again
 * until an answer comes or a deadline passes — never a fixed sleep. `until` throws at the deadline;
 * `waitFor` (tests/helpers/host.ts) and `eventually` (tests/helpers/device-world.ts) are `until`
 * with their own conventions.
 */
export interface UntilOptions {
  /** How often to ask again (default 50 ms). */
  everyMs?: number;
  /** Treat a throw as "not yet" and name the last one in the timeout's message. */
  retryErrors?: boolean;
}

/** Polls `probe` until it returns a value (not undefined), or fails after `ms`. */
export async function until<T>(
  what: string,
  probe: () => Promise<T | undefined> | T | undefined,
  ms = 30_000,
  options: UntilOptions = {},
): Promise<T> {
  type Read = { value: T | undefined; error?: unknown };
  const read = async (): Promise<Read> => {
    try {
      return { value: await probe() };
    } catch (error) {
      return { value: undefined, error };
    }
  };
  const last = await lastRead(
    read,
    (r) => r.value !== undefined || (r.error !== undefined && !options.retryErrors),
    ms,
    options.everyMs ?? 50,
  );
  if (last.value !== undefined) {
    return last.value;
  }
  if (last.error !== undefined && !options.retryErrors) {
    throw last.error;
  }
  throw new Error(
    `timed out waiting for ${what}${last.error !== undefined ? `: ${String(last.error)}` : ''}`,
  );
}

/**
 * Reads until `done` holds of what was read or `ms` pass, and returns the last read either way:
 * the test's own expectation then says what was wrong (the loop of `until`, for values).
 */
export async function lastRead<T>(
  read: () => Promise<T> | T,
  done: (value: T) => boolean,
  ms = 20_000,
  everyMs = 50,
): Promise<T> {
  let last = await read();
  const deadline = Date.now() + ms;
  while (!done(last) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, everyMs));
    last = await read();
  }
  return last;
}
