/**
 * The only way droidbus writes files into a project (issue 72's network security config is the
 * first): each file goes where its path says only when every directory on the way, once symlinks are
 * resolved, is inside the canonical project root; missing directories are made one level at a time
 * and checked again; the file is written to a temp file beside it (O_EXCL, O_NOFOLLOW) and renamed
 * over the target, so a reader sees the old file or the new one, never half of one. A target that
 * is a symlink is refused, not followed. Writes are serialised across droidbus processes by a lock
 * in the data directory (a project's files are shared with the user's editor and other sessions).
 */
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { lstat, mkdir, open, readFile, realpath, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { dataPath } from '../store/data-dir.js';
import { withFileLock } from '../store/lock.js';
import { isInside } from './project-files.js';

export interface ProjectWrite {
  /** Relative to the project root, `/`-separated. */
  path: string;
  content: string;
}

export class ProjectWriteError extends Error {}

function errCode(e: unknown): string | undefined {
  return typeof e === 'object' && e !== null && 'code' in e
    ? String((e as { code: unknown }).code)
    : undefined;
}

/** The canonical directory for `relDir` inside `root`, made when missing; throws when it leads out. */
async function ensureDirInside(root: string, relDir: string): Promise<string> {
  let current = root;
  for (const part of relDir.split('/').filter((p) => p !== '')) {
    if (part === '..' || part === '.') {
      throw new ProjectWriteError(`'${relDir}' is not a plain path inside the project`);
    }
    const next = path.join(current, part);
    try {
      await mkdir(next, { mode: 0o755 });
    } catch (e) {
      if (errCode(e) !== 'EEXIST') {
        throw new ProjectWriteError(`cannot make ${next}: ${(e as Error).message}`);
      }
    }
    const real = await realpath(next);
    if (!isInside(root, real)) {
      throw new ProjectWriteError(`'${relDir}' leads to ${real}, outside the project (a symlink leads out)`);
    }
    current = real;
  }
  return current;
}

/** What is at the target now: its text, null when there is none. Refuses a symlink or a non-file. */
export async function currentText(root: string, rel: string): Promise<string | null> {
  const target = path.join(root, ...rel.split('/'));
  let st;
  try {
    st = await lstat(target);
  } catch {
    return null;
  }
  if (st.isSymbolicLink()) {
    throw new ProjectWriteError(`${rel} is a symlink; droidbus does not write through one`);
  }
  if (!st.isFile()) {
    throw new ProjectWriteError(`${rel} is not a regular file`);
  }
  const real = await realpath(target);
  if (!isInside(root, real)) {
    throw new ProjectWriteError(`${rel} resolves outside the project`);
  }
  return readFile(real, 'utf8');
}

async function writeOne(root: string, w: ProjectWrite): Promise<void> {
  const rel = w.path.split('/');
  const dir = await ensureDirInside(root, rel.slice(0, -1).join('/'));
  const name = rel.at(-1)!;
  const target = path.join(dir, name);
  const existing = await lstat(target).catch(() => null);
  if (existing?.isSymbolicLink() || (existing && !existing.isFile())) {
    throw new ProjectWriteError(`${w.path} is not a regular file; droidbus does not replace it`);
  }
  const temp = path.join(dir, `.${name}.${randomBytes(6).toString('hex')}.droidbus-tmp`);
  const handle = await open(
    temp,
    constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0),
    existing ? existing.mode & 0o777 : 0o644,
  );
  try {
    await handle.writeFile(w.content, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await rename(temp, target);
  } catch (e) {
    await rm(temp, { force: true });
    throw e;
  }
}

/**
 * Writes `files` into the project at `projectRoot` (see the module comment). Every path is checked
 * before any is written; a failure part-way leaves the files already written (each whole).
 */
export async function writeProjectFiles(projectRoot: string, files: readonly ProjectWrite[]): Promise<void> {
  const root = await realpath(projectRoot);
  for (const f of files) {
    if (
      f.path === '' ||
      f.path.includes('\0') ||
      path.isAbsolute(f.path) ||
      f.path.split('/').some((p) => p === '..')
    ) {
      throw new ProjectWriteError(`'${f.path}' is not a relative path inside the project`);
    }
  }
  await withFileLock(dataPath('project-writes.lock'), async () => {
    for (const f of files) {
      await writeOne(root, f);
    }
  });
}
