/**
 * The one polling loop of the tests: waits for what a test needs by asking again until an answer
 * comes or a deadline passes — never a fixed sleep. `waitFor` (tests/helpers/host.ts) and
 * `eventually` (tests/helpers/device-world.ts) are this loop with their own conventions.
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
  const deadline = Date.now() + ms;
  let last: unknown;
  for (;;) {
    try {
      const v = await probe();
      if (v !== undefined) {
        return v;
      }
    } catch (err) {
      if (!options.retryErrors) {
        throw err;
      }
      last = err;
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${what}${last !== undefined ? `: ${String(last)}` : ''}`);
    }
    await new Promise((r) => setTimeout(r, options.everyMs ?? 50));
  }
}
