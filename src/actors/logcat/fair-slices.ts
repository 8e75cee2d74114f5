/**
 * Turns on the logcat thread for long scans, shared fairly between sessions. A scan runs in slices
 * of at most SLICE_MS and asks for a turn before each; turns go round the sessions that wait (one
 * slice per session per round, whatever number of scans a session runs), and each turn is handed
 * out from its own macrotask, so between two slices the thread reads its messages: a cheap request
 * (stats, a tap's logcat check) waits for one slice at most, never for a queue of scans.
 */
import type { Origin } from '../../bus/origin.js';

/** The longest a scan holds the thread before it gives it back (the issue asks for ~50 ms at most). */
export const SLICE_MS = 20;

export class FairSlices {
  /** Sessions with scans waiting, in the order their turns come (Map keeps insertion order). */
  private readonly waiting = new Map<string, (() => void)[]>();
  private scheduled = false;

  /** Resolves when `session`'s next scan may run one slice. */
  turn(session: string): Promise<void> {
    return new Promise((resolve) => {
      const queue = this.waiting.get(session);
      if (queue === undefined) {
        this.waiting.set(session, [resolve]);
      } else {
        queue.push(resolve);
      }
      this.schedule();
    });
  }

  /** Sessions with a scan waiting for its turn. */
  get waitingSessions(): number {
    return this.waiting.size;
  }

  private schedule(): void {
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.next());
    }
  }

  private next(): void {
    this.scheduled = false;
    const first = this.waiting.entries().next();
    if (first.done === true) {
      return;
    }
    const [session, queue] = first.value;
    const resolve = queue.shift()!;
    // To the back of the round: the other sessions' scans go before this one's next slice.
    this.waiting.delete(session);
    if (queue.length > 0) {
      this.waiting.set(session, queue);
    }
    resolve();
    if (this.waiting.size > 0) {
      this.schedule();
    }
  }
}

/** Whose turn a scan takes: an agent's session, else the kind of asker (the person, an actor). */
export function sessionOf(origin: Origin): string {
  return origin.kind === 'agent'
    ? `agent:${origin.session_id}`
    : origin.kind === 'actor'
      ? `actor:${origin.address}`
      : origin.kind;
}
