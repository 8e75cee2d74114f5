import { EventEmitter } from 'node:events';
import { logger } from '../util/log.js';
import { createActorHost } from './actor-host.js';
import type { ActorHost } from './actor-host.js';
import { runPoolsInline } from './pool-mode.js';
import type { FromWorker, ToWorker, WorkerData } from './worker-protocol.js';

/**
 * A stand-in for a worker thread that runs its actors on the main thread (`DROIDBUS_INLINE=1`,
 * `droidbus mcp --inline`): the same actor modules, loaded with import() here, under the same actor
 * host as on a worker (actor-host.ts), so mailboxes, lanes, concurrency, deadlines and cancellation
 * behave alike. It exists to measure what the worker threads buy: every parse and every pool task
 * then runs on the thread that answers JSON-RPC.
 *
 * It speaks the subset of `Worker` the supervisor uses: `postMessage`, `terminate`, and the
 * `message`, `error` and `exit` events. Messages go through the microtask queue, in order, without
 * the structured clone a thread boundary makes (an inline design would not pay for one).
 */
export class InlineActorThread extends EventEmitter {
  private readonly host: ActorHost;
  private exited = false;

  constructor(data: WorkerData) {
    super();
    // Pool tasks (screenshot scaling, retrace) run here too: the inline mode has no threads at all.
    runPoolsInline(true);
    this.host = createActorHost({
      post: (message: FromWorker) => queueMicrotask(() => this.emit('message', message)),
      idPrefix: `inline-${data.group}-${data.index}`,
      log: logger(`inline:${data.group}#${data.index}`),
    });
  }

  /** Hands a message to the actor host, after the current task, as a port would. */
  postMessage(message: ToWorker): void {
    if (!this.exited) {
      queueMicrotask(() => this.host.handle(message));
    }
  }

  /**
   * Drops the actors as a terminated thread would: handlers still running are aborted and
   * whatever they answer later is dropped; `exit` follows with code 1.
   */
  terminate(): Promise<number> {
    if (this.exited) {
      return Promise.resolve(1);
    }
    this.exited = true;
    this.host.dispose('its inline actor host was terminated');
    return new Promise((resolve) =>
      setImmediate(() => {
        this.emit('exit', 1);
        resolve(1);
      }),
    );
  }
}
