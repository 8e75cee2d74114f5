import { appendFileSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { logger } from '../util/log.js';
import { writeFileAtomic } from './atomic.js';
import { ensureDataDir } from './data-dir.js';
import { withDataLock } from './lock.js';
import { summarize } from './redact.js';

const log = logger('activity');

/** The log's file name in the data directory. */
export const ACTIVITY_FILE = 'mcp-activity.jsonl';
/** Past this size the log is rotated... */
export const ROTATE_THRESHOLD_BYTES = 256 * 1024;
/** ...keeping this many of its last entries. */
export const ROTATE_KEEP = 500;
/** A summary's limit in bytes. */
export const SUMMARY_MAX_BYTES = 120;
/** A name's limit in bytes (tool and prompt names are short; a resource URI may not be). */
const NAME_MAX_BYTES = 200;

export type ActivityKind = 'lifecycle' | 'tool' | 'prompt' | 'resource';

/** One line of mcp-activity.jsonl. Arguments are never logged; the summary is redacted. */
export interface ActivityEntry {
  ts: string;
  pid: number;
  /** The MCP session it belongs to (null for the host's own lifecycle). */
  session: string | null;
  kind: ActivityKind;
  name: string;
  duration_ms: number | null;
  status: string;
  summary: string;
}

/** What a caller hands over; the summary is redacted and cut when the batch is written. */
export interface ActivityInput {
  kind: ActivityKind;
  name: string;
  status: string;
  summary: string;
  durationMs?: number | null;
  session?: string | null;
}

export interface ActivityLogOptions {
  /** The log file (default: mcp-activity.jsonl in the data directory). */
  file?: string;
  /** How long entries wait to be written together (default 50 ms). */
  flushDelayMs?: number;
  /** The session of entries that name none. */
  session?: string | null;
}

/** The log file's path. */
export function activityLogPath(): string {
  return path.join(ensureDataDir(), ACTIVITY_FILE);
}

/**
 * Appends to the activity log shared by the host and every standalone server. `record` only queues
 * (it never touches the disk on the caller's path); batches are appended under the data lock, and
 * the file is rotated under the same lock, so no process appends to a file being replaced.
 */
export class ActivityLog {
  private queue: ActivityEntry[] = [];
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();
  private readonly file: string;
  private readonly delay: number;
  private readonly session: string | null;

  constructor(options: ActivityLogOptions = {}) {
    this.file = options.file ?? activityLogPath();
    this.delay = options.flushDelayMs ?? 50;
    this.session = options.session ?? null;
  }

  /** Queues one entry. Cheap and synchronous: redaction and the write happen in the batch. */
  record(input: ActivityInput): void {
    this.queue.push({
      ts: new Date().toISOString(),
      pid: process.pid,
      session: input.session === undefined ? this.session : input.session,
      kind: input.kind,
      name: input.name,
      duration_ms:
        input.durationMs === undefined || input.durationMs === null
          ? null
          : Math.round(input.durationMs * 10) / 10,
      status: input.status,
      // Kept raw here; cut to what summarize() looks at so a huge result is not held.
      summary: input.summary.length > 8192 ? input.summary.slice(0, 8192) : input.summary,
    });
    if (!this.timer) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        void this.flush();
      }, this.delay);
      this.timer.unref();
    }
  }

  /** Writes everything queued so far; resolves when it is on disk. Never rejects. */
  flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    this.flushing = this.flushing.then(() => this.writeBatch());
    return this.flushing;
  }

  /** Flushes and stops. */
  async close(): Promise<void> {
    await this.flush();
  }

  private async writeBatch(): Promise<void> {
    const batch = this.queue;
    if (batch.length === 0) {
      return;
    }
    this.queue = [];
    const lines = batch
      .map(
        (entry) =>
          JSON.stringify({
            ...entry,
            // A name can come from the client (an unknown resource URI): it is redacted too.
            name: summarize(entry.name, NAME_MAX_BYTES),
            summary: summarize(entry.summary, SUMMARY_MAX_BYTES),
          }) + '\n',
      )
      .join('');
    try {
      await withDataLock(() => {
        appendFileSync(this.file, lines, { mode: 0o600 });
        rotateIfLarge(this.file);
      });
    } catch (err) {
      log.warn('could not write the activity log', { error: (err as Error).message, entries: batch.length });
    }
  }
}

/**
 * Rotates the log when it is past the threshold: the last ROTATE_KEEP entries are written to a
 * temporary file renamed over it. Call it under the data lock.
 */
export function rotateIfLarge(file: string): boolean {
  let size: number;
  try {
    size = statSync(file).size;
  } catch {
    return false;
  }
  if (size <= ROTATE_THRESHOLD_BYTES) {
    return false;
  }
  const lines = readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.length > 0);
  writeFileAtomic(file, lines.slice(-ROTATE_KEEP).join('\n') + '\n', 0o600);
  return true;
}

/** Rotates the log now if it is past the threshold (a standalone server does this at start). */
export function rotateActivityLog(file: string = activityLogPath()): Promise<boolean> {
  return withDataLock(() => rotateIfLarge(file));
}

/** The last `limit` entries (default 200, at most 2,000), oldest first. Lines that do not parse are skipped. */
export function readActivity(limit = 200, file: string = activityLogPath()): ActivityEntry[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  const entries: ActivityEntry[] = [];
  for (const line of text.split('\n').slice(-(Math.min(Math.max(limit, 1), 2_000) + 1))) {
    if (!line) {
      continue;
    }
    try {
      entries.push(JSON.parse(line) as ActivityEntry);
    } catch {
      // A line another release wrote differently; skipped.
    }
  }
  return entries.slice(-Math.min(Math.max(limit, 1), 2_000));
}
