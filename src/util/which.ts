import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';

/** True when `file` is a regular file this user may execute. */
export function isExecutable(file: string): boolean {
  try {
    if (!statSync(file).isFile()) {
      return false;
    }
    if (process.platform === 'win32') {
      return true;
    }
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The executable names to try for `name` on this platform (`adb` → `adb.exe` on Windows). */
export function executableNames(name: string): string[] {
  if (process.platform !== 'win32') {
    return [name];
  }
  const exts = (process.env['PATHEXT'] ?? '.EXE;.CMD;.BAT').split(';').filter(Boolean);
  return [name, ...exts.map((ext) => name + ext.toLowerCase())];
}

/** Finds `name` on PATH the way a shell would; null when it is not there. */
export function which(name: string, envPath = process.env['PATH'] ?? ''): string | null {
  for (const dir of envPath.split(path.delimiter)) {
    if (!dir) {
      continue;
    }
    for (const candidate of executableNames(name)) {
      const full = path.join(dir, candidate);
      if (isExecutable(full)) {
        return full;
      }
    }
  }
  return null;
}
