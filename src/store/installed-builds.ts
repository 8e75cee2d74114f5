import { readFileSync } from 'node:fs';
import path from 'node:path';
import { installRecordSchema } from '../bus/messages/app-events.js';
import type { InstallRecord } from '../bus/messages/app-events.js';
import { writeFileAtomic } from './atomic.js';
import { dataDirPath, ensureDataDir } from './data-dir.js';
import { withDataLock } from './lock.js';

/**
 * installed-builds.json: every APK droidbus installed, per device and package, hashed and matched
 * to the build that wrote it — how a crash on a device finds its build's mapping, and how a debug
 * session knows what was installed.
 */
export { installRecordSchema };
export type { InstallRecord };

/** Records kept at most (oldest out). */
export const MAX_INSTALL_RECORDS = 500;

function filePath(): string {
  return path.join(dataDirPath(), 'installed-builds.json');
}

/** Every install record, oldest first. */
export function readInstallRecords(): InstallRecord[] {
  try {
    const raw = JSON.parse(readFileSync(filePath(), 'utf8')) as { installs?: unknown[] };
    return (raw.installs ?? []).flatMap((r) => {
      const parsed = installRecordSchema.safeParse(r);
      return parsed.success ? [parsed.data] : [];
    });
  } catch {
    return [];
  }
}

/** Appends an install record (atomic, under the data lock). */
export async function recordInstall(record: InstallRecord): Promise<void> {
  ensureDataDir();
  await withDataLock(() => {
    const all = [...readInstallRecords(), record].slice(-MAX_INSTALL_RECORDS);
    writeFileAtomic(filePath(), JSON.stringify({ version: 1, installs: all }, null, 1) + '\n', 0o600);
  });
}

/** The newest install of `pkg` on `device`, if droidbus made one. */
export function latestInstall(device: string, pkg: string): InstallRecord | null {
  const records = readInstallRecords();
  for (let i = records.length - 1; i >= 0; i--) {
    const r = records[i]!;
    if (r.device === device && r.package === pkg) {
      return r;
    }
  }
  return null;
}
