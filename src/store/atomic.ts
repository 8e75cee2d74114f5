import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, openSync, readdirSync, renameSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import { isProcessAlive } from '../util/process-info.js';

/**
 * Writes a file atomically: a unique temp file beside it, fsync, then rename over the target, so
 * readers see the old content or the new one and never half of either.
 */
export function writeFileAtomic(file: string, data: string | Uint8Array, mode = 0o600): void {
  const tmp = path.join(
    path.dirname(file),
    `.${path.basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`,
  );
  const fd = openSync(tmp, 'wx', mode);
  try {
    const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    let offset = 0;
    while (offset < bytes.length) {
      offset += writeSync(fd, bytes, offset, bytes.length - offset);
    }
    fsyncSync(fd);
  } catch (err) {
    closeSync(fd);
    rmSync(tmp, { force: true });
    throw err;
  }
  closeSync(fd);
  try {
    renameSync(tmp, file);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}

/** `.<name>.<pid>.<hex>.tmp`: the temp file writeFileAtomic makes. */
const TEMP_NAME = /^\..+\.(\d+)\.[0-9a-f]{8}\.tmp$/;

/**
 * Removes the temp files of writes whose process died before renaming them (a kill -9 between
 * the write and the rename), in `dir` and its sub-folders `depth` levels down; the file they would
 * have replaced is whole. Returns the names removed.
 */
export function removeStaleTempFiles(dir: string, depth = 2): string[] {
  const removed: string[] = [];
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return removed;
  }
  for (const e of entries) {
    const full = path.join(dir, e.name);
    if (e.isDirectory() && depth > 0) {
      removed.push(...removeStaleTempFiles(full, depth - 1));
      continue;
    }
    const m = e.isFile() ? TEMP_NAME.exec(e.name) : null;
    if (m !== null && Number(m[1]) !== process.pid && !isProcessAlive(Number(m[1]))) {
      rmSync(full, { force: true });
      removed.push(full);
    }
  }
  return removed;
}
