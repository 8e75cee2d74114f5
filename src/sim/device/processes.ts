/**
 * Evidence: toybox's ps (toybox/toys/posix/ps.c: the default columns of `ps -A`); the system
 * processes' names and pids as phones' logs show them (tests/fixtures/logcat/, and systemui's pid in
 * profiles/pixel-8-pro-android16/out/007-dumpsys-meminfo-com.android.systemui.out).
 */
import { userName } from './fs.js';

/** One process as `ps -A` shows it. */
export interface Proc {
  pid: number;
  ppid: number;
  uid: number;
  name: string;
  /** The package an app process belongs to. */
  pkg: string | null;
  vsz: number;
  rss: number;
  wchan: string;
  startTime: number;
}

export const PID = {
  init: 1,
  logd: 312,
  servicemanager: 338,
  surfaceflinger: 512,
  zygote64: 698,
  zygote: 699,
  adbd: 1009,
  systemServer: 1187,
  systemui: 1433,
  phone: 1621,
  launcher: 1788,
  ime: 1912,
  gms: 2104,
  gmsPersistent: 2240,
} as const;

const BASE: readonly Omit<Proc, 'startTime'>[] = [
  {
    pid: PID.init,
    ppid: 0,
    uid: 0,
    name: 'init',
    pkg: null,
    vsz: 10782796,
    rss: 9856,
    wchan: 'do_epoll_wait',
  },
  { pid: 2, ppid: 0, uid: 0, name: '[kthreadd]', pkg: null, vsz: 0, rss: 0, wchan: 'kthreadd' },
  { pid: 287, ppid: 1, uid: 0, name: 'ueventd', pkg: null, vsz: 10873128, rss: 3412, wchan: 'do_sys_poll' },
  {
    pid: PID.logd,
    ppid: 1,
    uid: 1036,
    name: 'logd',
    pkg: null,
    vsz: 10903364,
    rss: 7620,
    wchan: 'do_epoll_wait',
  },
  {
    pid: PID.servicemanager,
    ppid: 1,
    uid: 1000,
    name: 'servicemanager',
    pkg: null,
    vsz: 10807972,
    rss: 4632,
    wchan: 'do_epoll_wait',
  },
  {
    pid: PID.surfaceflinger,
    ppid: 1,
    uid: 1000,
    name: 'surfaceflinger',
    pkg: null,
    vsz: 11415436,
    rss: 28844,
    wchan: 'do_epoll_wait',
  },
  {
    pid: PID.zygote64,
    ppid: 1,
    uid: 0,
    name: 'zygote64',
    pkg: null,
    vsz: 14958496,
    rss: 102336,
    wchan: 'do_sys_poll',
  },
  {
    pid: PID.zygote,
    ppid: 1,
    uid: 0,
    name: 'zygote',
    pkg: null,
    vsz: 1849904,
    rss: 86680,
    wchan: 'do_sys_poll',
  },
  {
    pid: PID.adbd,
    ppid: 1,
    uid: 2000,
    name: 'adbd',
    pkg: null,
    vsz: 10938664,
    rss: 6860,
    wchan: 'do_epoll_wait',
  },
  {
    pid: PID.systemServer,
    ppid: PID.zygote64,
    uid: 1000,
    name: 'system_server',
    pkg: 'android',
    vsz: 19264332,
    rss: 318512,
    wchan: 'do_epoll_wait',
  },
  {
    pid: PID.systemui,
    ppid: PID.zygote64,
    uid: 10120,
    name: 'com.android.systemui',
    pkg: 'com.android.systemui',
    vsz: 17234108,
    rss: 221748,
    wchan: 'do_epoll_wait',
  },
  {
    pid: PID.phone,
    ppid: PID.zygote64,
    uid: 1001,
    name: 'com.android.phone',
    pkg: 'com.android.phone',
    vsz: 15892744,
    rss: 110236,
    wchan: 'do_epoll_wait',
  },
  {
    pid: PID.launcher,
    ppid: PID.zygote64,
    uid: 10110,
    name: 'com.google.android.apps.nexuslauncher',
    pkg: 'com.google.android.apps.nexuslauncher',
    vsz: 16944908,
    rss: 189404,
    wchan: 'do_epoll_wait',
  },
  {
    pid: PID.ime,
    ppid: PID.zygote64,
    uid: 10115,
    name: 'com.google.android.inputmethod.latin',
    pkg: 'com.google.android.inputmethod.latin',
    vsz: 15618512,
    rss: 142028,
    wchan: 'do_epoll_wait',
  },
  {
    pid: PID.gms,
    ppid: PID.zygote64,
    uid: 10130,
    name: 'com.google.android.gms',
    pkg: 'com.google.android.gms',
    vsz: 16723464,
    rss: 176208,
    wchan: 'do_epoll_wait',
  },
  {
    pid: PID.gmsPersistent,
    ppid: PID.zygote64,
    uid: 10130,
    name: 'com.google.android.gms.persistent',
    pkg: 'com.google.android.gms',
    vsz: 16208392,
    rss: 158300,
    wchan: 'do_epoll_wait',
  },
];

/** The processes of one device: the fixed system ones plus app processes that come and go. */
export class ProcessTable {
  private readonly apps = new Map<number, Proc>();
  /** System processes a recording showed under other pids than the model's (name → pid). */
  private readonly moved = new Map<string, number>();
  private nextPid: number;
  /** When the device booted (epoch ms): an hour before it appeared. */
  readonly bootTime: number;

  constructor(firstAppPid: number) {
    this.nextPid = firstAppPid;
    this.bootTime = Date.now() - 3_600_000;
  }

  /** A fresh pid (for app processes and one-shot helpers like crash_dump). */
  allocPid(): number {
    for (;;) {
      const pid = this.nextPid++;
      if (this.nextPid > 32767) {
        this.nextPid = 3000;
      }
      if (!this.apps.has(pid)) {
        return pid;
      }
    }
  }

  /** Starts an app process. */
  start(pkg: string, uid: number, name = pkg): Proc {
    const proc: Proc = {
      pid: this.allocPid(),
      ppid: PID.zygote64,
      uid,
      name,
      pkg,
      vsz: 15_100_000 + (uid % 97) * 1000,
      rss: 96_000 + (uid % 89) * 100,
      wchan: 'do_epoll_wait',
      startTime: Date.now(),
    };
    this.apps.set(proc.pid, proc);
    return proc;
  }

  /**
   * A process a replayed log names (Android Studio's package column): `ps` lists it under its own
   * pid, as the recording device did, unless that pid is taken.
   */
  adopt(pid: number, name: string, uid: number): void {
    if (this.byPid(pid) !== undefined || pid <= 0) {
      return;
    }
    this.apps.set(pid, {
      pid,
      ppid: PID.zygote64,
      uid,
      name,
      pkg: name.split(':')[0] ?? name,
      vsz: 15_100_000,
      rss: 96_000,
      wchan: 'do_epoll_wait',
      startTime: Date.now(),
    });
  }

  /**
   * A system process the recording shows under another pid (a meminfo capture's
   * `** MEMINFO in pid 2084 [com.android.systemui] **`): it runs under that pid from now on.
   */
  move(name: string, pid: number): void {
    this.moved.set(name, pid);
  }

  private base(): Proc[] {
    return BASE.map((b) => ({ ...b, pid: this.moved.get(b.name) ?? b.pid, startTime: this.bootTime }));
  }

  /** Removes an app process; false when there was none with that pid. */
  kill(pid: number): boolean {
    return this.apps.delete(pid);
  }

  /** The running main process of a package, if any. */
  forPackage(pkg: string): Proc | undefined {
    for (const p of this.apps.values()) {
      if (p.pkg === pkg && p.name === pkg) {
        return p;
      }
    }
    return this.base().find((b) => b.name === pkg);
  }

  byPid(pid: number): Proc | undefined {
    const app = this.apps.get(pid);
    if (app !== undefined) {
      return app;
    }
    return this.base().find((b) => b.pid === pid);
  }

  /** Every process, ordered by pid. */
  all(): Proc[] {
    return [...this.base(), ...this.apps.values()].sort((a, b) => a.pid - b.pid);
  }

  /** The app processes started since boot that still run. */
  running(): Proc[] {
    return [...this.apps.values()];
  }

  /** Pids whose process name is `name` (pidof). */
  pidsOf(name: string): number[] {
    return this.all()
      .filter((p) => p.name === name)
      .map((p) => p.pid);
  }
}

/** `ps -A` in toybox's default column layout. */
export function formatPs(
  procs: readonly Proc[],
  extra: readonly { pid: number; ppid: number; name: string }[] = [],
): string {
  let out = 'USER           PID  PPID     VSZ    RSS WCHAN            ADDR S NAME                       \n';
  const rows = [
    ...procs.map((p) => ({ ...p, extraRow: false })),
    ...extra.map((e) => ({
      pid: e.pid,
      ppid: e.ppid,
      uid: 2000,
      name: e.name,
      pkg: null,
      vsz: 10_800_000,
      rss: 3200,
      wchan: '0',
      startTime: 0,
      extraRow: true,
    })),
  ];
  for (const p of rows) {
    const state = p.extraRow ? 'R' : 'S';
    out += `${userName(p.uid).padEnd(12)} ${String(p.pid).padStart(5)} ${String(p.ppid).padStart(5)} ${String(p.vsz).padStart(7)} ${String(p.rss).padStart(6)} ${p.wchan.padEnd(16)} ${'0'.padStart(4)} ${state} ${p.name}\n`;
  }
  return out;
}
