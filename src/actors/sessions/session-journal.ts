/**
 * Every change to the debug sessions goes through here: changes are queued in order and applied in
 * batches, each batch under the sessions lock against the files as they are on disk now (another
 * droidbus process may have changed them a moment ago), then written atomically with the index.
 * Which sessions a change touches is decided inside the batch, so an event that follows an install
 * always lands in the session that install opened, whichever process opened it.
 */
import { randomBytes } from 'node:crypto';
import type { InstallRecord } from '../../bus/messages/app-events.js';
import { SESSION_LIMITS, type SessionBuild } from '../../bus/messages/sessions.js';
import type { IndexEntry, SessionFile } from '../../store/formats/debug-session.js';
import { SESSION_FILE_VERSION } from '../../store/formats/debug-session.js';
import {
  deleteSessionFile,
  readIndex,
  readSessionFile,
  withSessionsLock,
  writeIndex,
  writeSessionFile,
} from '../../store/debug-sessions.js';
import type { Logger } from '../../util/log.js';
import { isLive, newSession, setState, summarize } from './session-model.js';

/** Changes waiting at most; more are refused (and counted) rather than queued without bound. */
const MAX_QUEUED = 5_000;

/** Picks the sessions a change applies to, from the index as it is inside the batch. */
export type Select = (entries: readonly IndexEntry[], now: number) => string[];
/** Changes one session; returns false when it left it as it was. */
export type Apply = (session: SessionFile, now: number) => boolean;

type Op =
  | {
      kind: 'open';
      id: string;
      install: InstallRecord;
      build: SessionBuild | null;
      buildStatus: SessionFile['build_status'];
      resolve(id: string): void;
      reject(err: unknown): void;
    }
  | {
      kind: 'update';
      select: Select;
      apply: Apply;
      resolve(ids: string[]): void;
      reject(err: unknown): void;
    };

/** A new session id: sortable by time, unique across processes. */
export function newSessionId(now = Date.now()): string {
  return `ds-${now.toString(36)}${randomBytes(4).toString('hex')}`;
}

/** The queue of session changes and its writer (see the module comment). */
export class SessionJournal {
  private queue: Op[] = [];
  private flushing: Promise<void> | null = null;
  /** Changes refused because the queue was full. */
  dropped = 0;

  constructor(
    private readonly log: Logger,
    private readonly maxSessions: number = SESSION_LIMITS.maxSessions,
  ) {}

  /** Opens a session for an install, superseding the live one of the same device and package. */
  open(
    install: InstallRecord,
    build: SessionBuild | null,
    buildStatus: SessionFile['build_status'],
  ): Promise<string> {
    const id = newSessionId();
    return new Promise((resolve, reject) =>
      this.push({ kind: 'open', id, install, build, buildStatus, resolve, reject }),
    );
  }

  /** Applies a change to the sessions `select` picks; resolves with the ids it changed. */
  update(select: Select, apply: Apply): Promise<string[]> {
    return new Promise((resolve, reject) => this.push({ kind: 'update', select, apply, resolve, reject }));
  }

  /** True while changes wait or are being written. */
  get busy(): boolean {
    return this.flushing !== null;
  }

  /** Resolves once every change queued so far is on disk. */
  async idle(): Promise<void> {
    while (this.flushing !== null) {
      await this.flushing;
    }
  }

  private push(op: Op): void {
    if (this.queue.length >= MAX_QUEUED) {
      this.dropped++;
      op.reject(new Error(`the debug-session queue is full (${MAX_QUEUED} changes waiting)`));
      return;
    }
    this.queue.push(op);
    if (this.flushing === null) {
      this.flushing = new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.drain());
    }
  }

  private async drain(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        const batch = this.queue;
        this.queue = [];
        try {
          await withSessionsLock(() => this.apply(batch));
        } catch (err) {
          this.log.error('could not write the debug sessions', { error: String(err) });
          for (const op of batch) {
            op.reject(err);
          }
        }
      }
    } finally {
      this.flushing = null;
    }
  }

  /** Applies one batch against the files on disk and writes what changed (under the lock). */
  private apply(batch: Op[]): void {
    const now = Date.now();
    const index = readIndex(summarize);
    const entries = new Map(index.sessions.map((e) => [e.id, e]));
    const loaded = new Map<string, SessionFile | null>();
    const dirty = new Set<string>();
    const load = (id: string): SessionFile | null => {
      if (!loaded.has(id)) {
        loaded.set(id, readSessionFile(id));
      }
      return loaded.get(id) ?? null;
    };
    const touch = (s: SessionFile): void => {
      dirty.add(s.id);
      entries.set(s.id, summarize(s));
    };
    const settled: (() => void)[] = [];
    for (const op of batch) {
      try {
        if (op.kind === 'open') {
          for (const e of [...entries.values()]) {
            if (e.device === op.install.device && e.package === op.install.package && isLive(e)) {
              const old = load(e.id);
              if (old !== null) {
                setState(old, 'superseded', `a newer install opened ${op.id}`, now);
                old.superseded_by = op.id;
                touch(old);
              }
            }
          }
          const s = newSession(op.id, op.install, op.build, op.buildStatus, now);
          loaded.set(s.id, s);
          touch(s);
          settled.push(() => op.resolve(op.id));
        } else {
          const changed: string[] = [];
          for (const id of op.select([...entries.values()], now)) {
            const s = load(id);
            if (s !== null && op.apply(s, now)) {
              touch(s);
              changed.push(id);
            }
          }
          settled.push(() => op.resolve(changed));
        }
      } catch (err) {
        this.log.warn('a debug-session change failed', { error: String(err) });
        settled.push(() => op.reject(err));
      }
    }
    const removed = this.retain(entries);
    if (dirty.size === 0 && removed.size === 0) {
      settled.forEach((f) => f());
      return;
    }
    for (const id of dirty) {
      const s = loaded.get(id);
      if (s && !removed.has(id)) {
        writeSessionFile(s);
      }
    }
    for (const id of removed) {
      deleteSessionFile(id);
    }
    writeIndex({
      version: SESSION_FILE_VERSION,
      sessions: [...entries.values()].sort((a, b) =>
        a.opened_at < b.opened_at ? -1 : a.opened_at > b.opened_at ? 1 : a.id < b.id ? -1 : 1,
      ),
    });
    // Callers hear back only once their change is on disk.
    settled.forEach((f) => f());
  }

  /**
   * Keeps at most maxSessions: the oldest sessions that no longer record go first, live ones only
   * when more live sessions than the bound exist. Kept sessions stay.
   */
  private retain(entries: Map<string, IndexEntry>): Set<string> {
    const removed = new Set<string>();
    let excess = entries.size - this.maxSessions;
    if (excess <= 0) {
      return removed;
    }
    const byAge = [...entries.values()]
      .filter((e) => !e.kept)
      .sort((a, b) => (a.opened_at < b.opened_at ? -1 : a.opened_at > b.opened_at ? 1 : 0));
    for (const live of [false, true]) {
      for (const e of byAge) {
        if (excess > 0 && !removed.has(e.id) && isLive(e) === live) {
          removed.add(e.id);
          entries.delete(e.id);
          excess--;
        }
      }
    }
    this.log.info('debug sessions pruned', { count: removed.size });
    return removed;
  }
}
