/**
 * ApplicationExitInfo records and their `dumpsys activity exit-info` rendering (Android 11+).
 *
 * Evidence: frameworks/base/core/java/android/app/ApplicationExitInfo.java (REASON_ and SUBREASON_
 * values, the record's fields) and AppExitInfoTracker.java (the dump).
 */

export const REASON = {
  UNKNOWN: 0,
  EXIT_SELF: 1,
  SIGNALED: 2,
  LOW_MEMORY: 3,
  CRASH: 4,
  CRASH_NATIVE: 5,
  ANR: 6,
  INITIALIZATION_FAILURE: 7,
  PERMISSION_CHANGE: 8,
  EXCESSIVE_RESOURCE_USAGE: 9,
  USER_REQUESTED: 10,
  USER_STOPPED: 11,
  DEPENDENCY_DIED: 12,
  OTHER: 13,
  FREEZER: 14,
  PACKAGE_STATE_CHANGE: 15,
  PACKAGE_UPDATED: 16,
} as const;

const REASON_TEXT: Readonly<Record<number, string>> = {
  1: 'EXIT_SELF',
  2: 'SIGNALED',
  3: 'LOW_MEMORY',
  4: 'APP CRASH(EXCEPTION)',
  5: 'APP CRASH(NATIVE)',
  6: 'ANR',
  7: 'INITIALIZATION FAILURE',
  8: 'PERMISSION CHANGE',
  9: 'EXCESSIVE RESOURCE USAGE',
  10: 'USER REQUESTED',
  11: 'USER STOPPED',
  12: 'DEPENDENCY DIED',
  13: 'OTHER KILLS BY SYSTEM',
  14: 'FREEZER',
  15: 'PACKAGE STATE CHANGE',
  16: 'PACKAGE UPDATED',
};

export const SUBREASON = { UNKNOWN: 0, FORCE_STOP: 21, KILL_BACKGROUND: 24, PACKAGE_UPDATE: 25 } as const;

const SUBREASON_TEXT: Readonly<Record<number, string>> = {
  21: 'FORCE STOP',
  24: 'KILL BACKGROUND',
  25: 'PACKAGE UPDATE',
};

export interface ExitRecord {
  pkg: string;
  process: string;
  pid: number;
  uid: number;
  reason: number;
  subreason: number;
  status: number;
  importance: number;
  pssKb: number;
  rssKb: number;
  timestamp: number;
  description: string | null;
}

const PER_PACKAGE = 16;

/** Size in the style of android.util.DebugUtils.sizeValueToString. */
export function sizeValue(bytes: number): string {
  let result = bytes;
  let suffix = '';
  for (const s of ['KB', 'MB', 'GB', 'TB', 'PB']) {
    if (result > 900) {
      suffix = s;
      result /= 1024;
    }
  }
  const value = result < 1 ? result.toFixed(2) : result < 10 ? result.toFixed(1) : result.toFixed(0);
  return value + suffix;
}

function two(n: number): string {
  return String(n).padStart(2, '0');
}

/** `yyyy-MM-dd HH:mm:ss.SSS` in local time. */
export function dumpTime(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}.${String(d.getMilliseconds()).padStart(3, '0')}`;
}

/** The exit history of a device, newest first per package, bounded like the system's. */
export class ExitInfoStore {
  private readonly byPackage = new Map<string, ExitRecord[]>();
  private lastPersist = Date.now();

  add(record: ExitRecord): void {
    const list = this.byPackage.get(record.pkg) ?? [];
    list.unshift(record);
    if (list.length > PER_PACKAGE) {
      list.length = PER_PACKAGE;
    }
    this.byPackage.set(record.pkg, list);
    this.lastPersist = Date.now();
  }

  records(pkg: string): readonly ExitRecord[] {
    return this.byPackage.get(pkg) ?? [];
  }

  /** `dumpsys activity exit-info [PKG]` as Android 12+ prints it. */
  dump(pkg?: string): string {
    const lines = [
      'ACTIVITY MANAGER PROCESS EXIT INFO (dumpsys activity exit-info)',
      `Last Timestamp of Persistence Into Persistent Storage: ${dumpTime(this.lastPersist)}`,
    ];
    const packages = pkg === undefined ? [...this.byPackage.keys()].sort() : [pkg];
    for (const p of packages) {
      const list = this.byPackage.get(p);
      if (list === undefined || list.length === 0) {
        continue;
      }
      lines.push(`  package: ${p}`);
      const byUid = new Map<number, ExitRecord[]>();
      for (const r of list) {
        byUid.set(r.uid, [...(byUid.get(r.uid) ?? []), r]);
      }
      for (const [uid, records] of byUid) {
        lines.push(`    Historical Process Exit for uid=${uid}`);
        records.forEach((r, i) => {
          lines.push(
            `        ApplicationExitInfo #${i}:`,
            `          timestamp=${dumpTime(r.timestamp)} pid=${r.pid} realUid=${r.uid} packageUid=${r.uid} definingUid=${r.uid} user=0`,
            `          process=${r.process} reason=${r.reason} (${REASON_TEXT[r.reason] ?? 'UNKNOWN'}) subreason=${r.subreason} (${SUBREASON_TEXT[r.subreason] ?? 'UNKNOWN'}) status=${r.status}`,
            `          importance=${r.importance} pss=${sizeValue(r.pssKb * 1024)} rss=${sizeValue(r.rssKb * 1024)} description=${r.description ?? 'null'} state=empty trace=null`,
          );
        });
      }
    }
    return lines.join('\n') + '\n';
  }
}
