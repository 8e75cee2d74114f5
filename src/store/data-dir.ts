import { chmodSync, mkdirSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { removeStaleTempFiles } from './atomic.js';

/** The data directory: `$DROIDBUS_HOME`, else `~/.droidbus`. */
export function dataDirPath(): string {
  const fromEnv = process.env['DROIDBUS_HOME'];
  return fromEnv && fromEnv.length > 0 ? path.resolve(fromEnv) : path.join(os.homedir(), '.droidbus');
}

/** Creates the data directory (mode 0700) if needed, tightens its mode, and returns its path. */
export function ensureDataDir(): string {
  const dir = dataDirPath();
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (process.platform !== 'win32' && (statSync(dir).mode & 0o077) !== 0) {
    chmodSync(dir, 0o700);
  }
  if (swept !== dir) {
    // Once per process and data directory: the temp files of killed writers go.
    swept = dir;
    removeStaleTempFiles(dir);
  }
  return dir;
}

let swept: string | undefined;

/** A path inside the data directory; sub-folders are created (0700). */
export function dataPath(...parts: string[]): string {
  const full = path.join(ensureDataDir(), ...parts);
  if (parts.length > 1) {
    mkdirSync(path.dirname(full), { recursive: true, mode: 0o700 });
  }
  return full;
}
