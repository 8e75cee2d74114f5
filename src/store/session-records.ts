import { readFileSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { isProcessAlive, processCommandLine } from '../util/process-info.js';
import { writeFileAtomic } from './atomic.js';
import { dataPath } from './data-dir.js';

/**
 * `sessions/<pid>.json`: one record per standalone `droidbus mcp`, so `droidbus status` (and the
 * host's page) can list sessions that are not attached. Written at start (or when an attached
 * session falls back), removed at exit; a reader removes records whose process is gone or whose
 * pid now runs something else.
 */

export const sessionRecordSchema = z.object({
  pid: z.number().int().positive(),
  session_id: z.string(),
  started_at: z.string(),
  project: z.string().nullable(),
  reason: z.string(),
  /** The droidbus script the process runs (process.argv[1]). */
  binary: z.string(),
  /** The Node.js that runs it. */
  node: z.string(),
  /** Absent in records an older release wrote. */
  version: z.string().optional(),
  client_name: z.string().nullable().optional(),
});
export type SessionRecord = z.infer<typeof sessionRecordSchema>;

/** The folder of the records. */
export function sessionRecordsDir(): string {
  return path.dirname(dataPath('sessions', 'x'));
}

function recordPath(pid: number): string {
  return path.join(sessionRecordsDir(), `${pid}.json`);
}

/** Writes (or rewrites) this process's record atomically. */
export function writeSessionRecord(record: SessionRecord): void {
  writeFileAtomic(recordPath(record.pid), JSON.stringify(record, null, 2) + '\n', 0o600);
}

/** Removes a record (this process's by default). */
export function removeSessionRecord(pid: number = process.pid): void {
  rmSync(recordPath(pid), { force: true });
}

function realOrResolved(p: string, base: string | null): string {
  const full = base ? path.resolve(base, p) : path.resolve(p);
  try {
    return realpathSync(full);
  } catch {
    return full;
  }
}

/**
 * True when `pid` still runs the droidbus script of the record. On Linux the command line is read
 * from /proc and each argument resolved against the process's working directory; elsewhere `ps`
 * gives the line and the script's file name has to appear in it.
 */
export function runsBinary(pid: number, binary: string): boolean {
  const line = processCommandLine(pid);
  if (!line) {
    // Alive but unreadable (another platform or user): keep the record rather than guess.
    return process.platform === 'win32' || isProcessAlive(pid);
  }
  const want = realOrResolved(binary, null);
  if (process.platform === 'linux') {
    return line.args.some((arg) => arg === binary || realOrResolved(arg, line.cwd) === want);
  }
  return line.args.some((arg) => arg === binary || path.basename(arg) === path.basename(binary));
}

/** Every live standalone session's record; stale and unreadable records are removed. */
export function listSessionRecords(): SessionRecord[] {
  const dir = sessionRecordsDir();
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const live: SessionRecord[] = [];
  for (const name of names) {
    if (!/^\d+\.json$/.test(name)) {
      continue;
    }
    const file = path.join(dir, name);
    let record: SessionRecord;
    try {
      const parsed = sessionRecordSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
      if (!parsed.success) {
        rmSync(file, { force: true });
        continue;
      }
      record = parsed.data;
    } catch {
      // Half-written records cannot exist (atomic writes); an unreadable one is junk.
      rmSync(file, { force: true });
      continue;
    }
    if (!isProcessAlive(record.pid) || !runsBinary(record.pid, record.binary)) {
      rmSync(file, { force: true });
      continue;
    }
    live.push(record);
  }
  return live.sort((a, b) => a.pid - b.pid);
}
