/**
 * `<data dir>/debug-sessions/`: one `<id>.json` per debug session and `index.json` with a summary
 * of each, shared by every droidbus process (standalone servers and the host record into the same
 * files). Changes happen under one lock (`sessions.lock`) and every file is written atomically, so
 * two processes recording at once both land and a reader never sees half a file. A missing or
 * unreadable index is rebuilt from the session files.
 */
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from './atomic.js';
import { dataDirPath, ensureDataDir } from './data-dir.js';
import { withFileLock } from './lock.js';
import { logger } from '../util/log.js';
import {
  indexFileSchema,
  sessionFileSchema,
  SESSION_FILE_VERSION,
  type IndexEntry,
  type IndexFile,
  type SessionFile,
} from './formats/debug-session.js';

const log = logger('debug-sessions');

const ID_RE = /^ds-[0-9a-z]{6,40}$/;

/** The folder of the session files. */
export function sessionsDir(): string {
  return path.join(dataDirPath(), 'debug-sessions');
}

function indexPath(): string {
  return path.join(sessionsDir(), 'index.json');
}

/** The file of one session; null for an id that is not one (never a path outside the folder). */
export function sessionPath(id: string): string | null {
  return ID_RE.test(id) ? path.join(sessionsDir(), `${id}.json`) : null;
}

/** Runs `work` holding the sessions lock (across processes). */
export function withSessionsLock<T>(work: () => Promise<T> | T): Promise<T> {
  ensureDataDir();
  return withFileLock(path.join(sessionsDir(), 'sessions.lock'), work);
}

/** One session as its file holds it; null when there is none (or it does not parse). */
export function readSessionFile(id: string): SessionFile | null {
  const file = sessionPath(id);
  if (file === null) {
    return null;
  }
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return null;
  }
  try {
    const parsed = sessionFileSchema.safeParse(JSON.parse(text));
    if (!parsed.success) {
      log.warn('a debug session file does not parse; it is ignored', { id });
      return null;
    }
    return parsed.data;
  } catch {
    return null;
  }
}

/** Writes one session file (call under the lock). */
export function writeSessionFile(session: SessionFile): void {
  const file = sessionPath(session.id);
  if (file === null) {
    throw new Error(`not a session id: ${session.id}`);
  }
  writeFileAtomic(file, JSON.stringify(session) + '\n', 0o600);
}

/** Removes one session file (call under the lock). */
export function deleteSessionFile(id: string): void {
  const file = sessionPath(id);
  if (file !== null) {
    rmSync(file, { force: true });
  }
}

/** The ids of the session files on disk. */
export function listSessionIds(): string[] {
  try {
    return readdirSync(sessionsDir())
      .filter((n) => n.endsWith('.json') && n !== 'index.json')
      .map((n) => n.slice(0, -'.json'.length))
      .filter((id) => ID_RE.test(id));
  } catch {
    return [];
  }
}

/** The index, or null when it is missing or does not parse. */
function readIndexFile(): IndexFile | null {
  let text: string;
  try {
    text = readFileSync(indexPath(), 'utf8');
  } catch {
    return null;
  }
  try {
    const parsed = indexFileSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** The last index read, and the file identity it was read from (a write replaces the file). */
let cached: { key: string; index: IndexFile } | null = null;

function fileKey(file: string): string | null {
  try {
    const st = statSync(file);
    return `${st.ino}:${st.size}:${st.mtimeMs}`;
  } catch {
    return null;
  }
}

/**
 * The index, newest session last (treat it as read-only: it may be shared with the next caller).
 * When it is missing or broken it is rebuilt from the session files with `summarize` (written back
 * the next time the index is written under the lock).
 */
export function readIndex(summarize: (s: SessionFile) => IndexEntry): IndexFile {
  // Every write renames a new file into place, so an unchanged identity is an unchanged index.
  const key = fileKey(indexPath());
  if (key !== null && cached?.key === key) {
    return cached.index;
  }
  const index = readIndexFile();
  if (index !== null) {
    if (key !== null) {
      cached = { key, index };
    }
    return index;
  }
  const sessions = listSessionIds()
    .map((id) => readSessionFile(id))
    .filter((s): s is SessionFile => s !== null)
    .map(summarize)
    .sort((a, b) => (a.opened_at < b.opened_at ? -1 : a.opened_at > b.opened_at ? 1 : a.id < b.id ? -1 : 1));
  return { version: SESSION_FILE_VERSION, sessions };
}

/** Writes the index (call under the lock). */
export function writeIndex(index: IndexFile): void {
  ensureDataDir();
  writeFileAtomic(indexPath(), JSON.stringify(index) + '\n', 0o600);
}
