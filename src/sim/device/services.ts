/**
 * The services running on a sim device, as ActivityManagerService keeps its ServiceRecords, and
 * `dumpsys activity services [PACKAGE]`, in the form real phones print (public captures quoted in
 * projects' tests and notes: `ACTIVITY MANAGER SERVICES (dumpsys activity services)`, `User 0 active
 * services:`, `* ServiceRecord{<hash> u0 <pkg>/<.Cls>}`, `intent={cmp=…}`, `packageName=…`,
 * `isForeground=true foregroundId=1 types=0x…`). A service dies with its package's process.
 *
 * Evidence: frameworks/base/services/core/java/com/android/server/am/ActiveServices.java and
 * ServiceRecord.java (the dump's lines).
 */
import { hexId } from './ids.js';

export interface RunningService {
  pkg: string;
  /** The class, fully qualified. */
  cls: string;
  foregroundId: number | null;
  /** ServiceInfo.FOREGROUND_SERVICE_TYPE_* bits. */
  types: number;
  startedAt: number;
}

/** `pkg/.Cls` when the class is in the package (ComponentName.flattenToShortString). */
function short(pkg: string, cls: string): string {
  return cls.startsWith(`${pkg}.`) ? `${pkg}/${cls.slice(pkg.length)}` : `${pkg}/${cls}`;
}

export class RunningServices {
  private readonly byComponent = new Map<string, RunningService>();

  start(s: Omit<RunningService, 'startedAt'>): void {
    this.byComponent.set(`${s.pkg}/${s.cls}`, { ...s, startedAt: Date.now() });
  }

  /** The package's process died or was stopped: its services are gone. */
  dropPackage(pkg: string): void {
    for (const [k, s] of this.byComponent) {
      if (s.pkg === pkg) {
        this.byComponent.delete(k);
      }
    }
  }

  list(pkg?: string): RunningService[] {
    return [...this.byComponent.values()].filter((s) => pkg === undefined || s.pkg === pkg);
  }

  /** `dumpsys activity services [PACKAGE]`. */
  dump(pkg?: string, now = Date.now()): string {
    const shown = this.list(pkg);
    const head = 'ACTIVITY MANAGER SERVICES (dumpsys activity services)\n';
    if (shown.length === 0) {
      return `${head}  (nothing)\n`;
    }
    return (
      head +
      '  User 0 active services:\n' +
      shown
        .map((s) => {
          const name = short(s.pkg, s.cls);
          const ago = Math.max(0, now - s.startedAt);
          const fg =
            s.foregroundId === null
              ? 'isForeground=false foregroundId=0 foregroundNoti=null'
              : `isForeground=true foregroundId=${s.foregroundId} types=0x${s.types.toString(16).padStart(8, '0')}`;
          return [
            `  * ServiceRecord{${hexId(`svc/${name}`)} u0 ${name}}`,
            `    intent={cmp=${name}}`,
            `    packageName=${s.pkg}`,
            `    processName=${s.pkg}`,
            `    ${fg}`,
            `    createTime=-${Math.floor(ago / 1000)}s${ago % 1000}ms startingBgTimeout=--`,
            `    startRequested=true delayedStop=false stopIfKilled=false callStart=true lastStartId=1`,
            '',
          ].join('\n');
        })
        .join('')
    );
  }
}
