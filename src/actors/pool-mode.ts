let inline = false;

/**
 * Makes the pools created from now on in this thread run their tasks on it, one after another,
 * with no pool threads. The inline actor host (inline-host.ts) turns it on, so the inline mode
 * shows what moving CPU-bound work off the JSON-RPC thread buys. Kept apart from pool.ts so that
 * turning it on does not load piscina.
 */
export function runPoolsInline(on: boolean): void {
  inline = on;
}

/** True when pools of this thread run their tasks inline. */
export function poolsRunInline(): boolean {
  return inline;
}
