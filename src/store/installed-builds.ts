import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  INSTALL_RECORDS_VERSION,
  installRecordSchema,
  type InstallRecord,
} from './formats/install-record.js';
import { writeFileAtomic } from './atomic.js';
import { dataDirPath, ensureDataDir } from './data-dir.js';
import { withDataLock } from './lock.js';

/**
 * installed-builds.json: every APK droidbus installed, per device and package, hashed and matched
 * to the build that wrote it — how a crash on a device finds its build's mapping, and how a debug
 * session knows what was installed. Its record format is `formats/install-record.ts`; records that
 * do not parse (a newer droidbus wrote them) are skipped when read and kept when rewritten.
 */
export { installRecordSchema };
export type { InstallRecord };

/** Records kept at most (oldest out). */
export const MAX_INSTALL_RECORDS = 500;

function filePath(): string {
  return path.join(dataDirPath(), 'installed-builds.json');
}

function readRaw(): unknown[] {
  try {
    const raw = JSON.parse(readFileSync(filePath(), 'utf8')) as { installs?: unknown };
    return Array.isArray(raw.installs) ? raw.installs : [];
  } catch {
    return [];
  }
}

/** Every install record, oldest first. */
export function readInstallRecords(): InstallRecord[] {
  return readRaw().flatMap((r) => {
    const parsed = installRecordSchema.safeParse(r);
    return parsed.success ? [parsed.data] : [];
  });
}

/** Appends an install record (atomic, under the data lock). */
export async function recordInstall(record: InstallRecord): Promise<void> {
  ensureDataDir();
  await withDataLock(() => {
    const all = [...readRaw(), record].slice(-MAX_INSTALL_RECORDS);
    const text = JSON.stringify({ version: INSTALL_RECORDS_VERSION, installs: all }, null, 1) + '\n';
    writeFileAtomic(filePath(), text, 0o600);
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
