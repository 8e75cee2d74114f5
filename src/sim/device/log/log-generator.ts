import { SAMPLE_PACKAGE } from '../../sample-app.js';
import type { Device } from '../device.js';
import { crashPackage } from '../crashes.js';
import { PID } from '../processes.js';
import type { LogBufferName, NewLogEntry, Priority } from './log-store.js';

type Source = 'system' | 'systemui' | 'surfaceflinger' | 'gms' | 'launcher' | 'app' | 'ime';

interface Template {
  buffer: LogBufferName;
  source: Source;
  priority: Priority;
  tag: string;
  /** Shared message text; `{n}` is replaced by a number (the only per-line allocation). */
  message: string;
}

const T = (
  buffer: LogBufferName,
  source: Source,
  priority: Priority,
  tag: string,
  message: string,
): Template => ({ buffer, source, priority, tag, message });

/** Background chatter, modelled on what an idle Pixel logs. */
const TEMPLATES: readonly Template[] = [
  T(
    'system',
    'system',
    'I',
    'ActivityManager',
    'Killing {n}:com.google.android.apps.messaging/u0a145 (adj 985): empty #17',
  ),
  T('system', 'system', 'D', 'ConnectivityService', 'NetReassign [no changes] [c 1] [a 1] [i 3]'),
  T(
    'system',
    'system',
    'I',
    'JobScheduler',
    'Job com.google.android.gms/.chimera.GmsIntentOperationService rescheduled in {n}ms',
  ),
  T(
    'system',
    'system',
    'W',
    'ActivityManager',
    'Slow operation: {n}ms so far, now at startProcess: done starting proc!',
  ),
  T('system', 'system', 'D', 'WifiNl80211Manager', 'Scan result ready event'),
  T('system', 'system', 'I', 'AlarmManager', 'Alarm TIME_TICK fired, {n} alarms in batch'),
  T(
    'system',
    'system',
    'D',
    'BatteryService',
    'Processing new values: info=HealthInfo{chargerAcOnline=false, chargerUsbOnline=true, batteryLevel=100}',
  ),
  T(
    'system',
    'system',
    'V',
    'WindowManager',
    'Relayout Window{a81c2e5 u0 StatusBar}: viewVisibility=0 req=1080x{n}',
  ),
  T('main', 'surfaceflinger', 'D', 'SurfaceFlinger', 'Display 0 HWC layers: 3 composited in {n}us'),
  T('main', 'surfaceflinger', 'I', 'SurfaceFlinger', 'DisplayModeController: mode 60Hz selected'),
  T('main', 'systemui', 'D', 'KeyguardUpdateMonitor', 'handleBatteryUpdate'),
  T('main', 'systemui', 'I', 'NotifCollection', 'notifications rebuilt in {n}ms'),
  T('main', 'systemui', 'D', 'StatusBarIconController', 'setIconVisibility: wifi visible=true'),
  T('main', 'gms', 'I', 'GmsCoreXrpcWrapper', 'Returning a channel provider with trafficStatsTag={n}'),
  T(
    'main',
    'gms',
    'W',
    'GoogleApiManager',
    'The service for com.google.android.gms.internal.appset is not available',
  ),
  T('main', 'gms', 'D', 'BluetoothAdapter', 'isLeEnabled(): OFF'),
  T('main', 'gms', 'I', 'NearbyDiscovery', 'Scan cycle {n} finished, 0 devices'),
  T('main', 'launcher', 'D', 'Launcher', 'onResume: workspace ready in {n}ms'),
  T('main', 'ime', 'I', 'LatinIME', 'onStartInput: editorInfo=null, restarting=false'),
  T('main', 'app', 'D', 'DroidbusSample', 'onResume'),
  T('main', 'app', 'I', 'DroidbusSample', 'cart total computed in {n} ms'),
  T('main', 'app', 'D', 'OkHttp', '--> GET https://api.droidbus.example/items?page={n}'),
  T('main', 'app', 'D', 'OkHttp', '<-- 200 OK https://api.droidbus.example/items ({n}ms)'),
  T('main', 'app', 'W', 'DroidbusSample', 'slow frame: {n}ms'),
  T('main', 'app', 'I', 'DroidbusSample', '{"event":"view_item","item":{n},"source":"list"}'),
  T(
    'main',
    'app',
    'E',
    'DroidbusSample',
    'sync failed: java.net.SocketTimeoutException: timeout after {n}ms',
  ),
  T(
    'events',
    'system',
    'I',
    'am_pss',
    '[{n},10190,com.google.android.apps.messaging,14233600,11534336,0,25530368,0,18,14]',
  ),
];

const FIXED_PID: Readonly<Record<Exclude<Source, 'app'>, number>> = {
  system: PID.systemServer,
  systemui: PID.systemui,
  surfaceflinger: PID.surfaceflinger,
  gms: PID.gms,
  launcher: PID.launcher,
  ime: PID.ime,
};

/**
 * Emits background lines at a configured rate, batched per timer tick (one timer per device,
 * unref'd), and injects crashes and ANRs at their rates.
 */
export class LogGenerator {
  private timer: NodeJS.Timeout | null = null;
  private lineDebt = 0;
  private crashDebt = 0;
  private anrDebt = 0;
  private last = 0;
  private readonly tickMs: number;

  constructor(
    private readonly dev: Device,
    private readonly rate: number,
    private readonly crashesPerMinute: number,
    private readonly anrsPerMinute: number,
  ) {
    this.tickMs = rate > 0 ? Math.min(1000, Math.max(100, Math.round(1000 / rate))) : 1000;
  }

  start(): void {
    if (this.rate <= 0 && this.crashesPerMinute <= 0 && this.anrsPerMinute <= 0) {
      return;
    }
    this.last = Date.now();
    this.timer = setInterval(() => this.tick(), this.tickMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer !== null) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }

  private tick(): void {
    const now = Date.now();
    const elapsed = Math.min(5000, now - this.last);
    this.last = now;
    this.lineDebt += (this.rate * elapsed) / 1000;
    const n = Math.floor(this.lineDebt);
    this.lineDebt -= n;
    if (n > 0) {
      this.emit(n, now, elapsed);
    }
    this.crashDebt += (this.crashesPerMinute * elapsed) / 60_000;
    this.anrDebt += (this.anrsPerMinute * elapsed) / 60_000;
    while (this.crashDebt >= 1) {
      this.crashDebt -= 1;
      crashPackage(this.dev, SAMPLE_PACKAGE, 'java');
    }
    while (this.anrDebt >= 1) {
      this.anrDebt -= 1;
      crashPackage(this.dev, SAMPLE_PACKAGE, 'anr');
    }
  }

  private emit(n: number, now: number, spanMs: number): void {
    const dev = this.dev;
    const rng = dev.rng;
    const apps = dev.procs
      .running()
      .filter((p) => p.pkg !== null && dev.packages.get(p.pkg)?.info.system === false);
    const front = apps.find((p) => p.pkg === dev.foregroundPackage());
    const appPid = (front ?? apps[0])?.pid ?? null;
    const entries: NewLogEntry[] = new Array<NewLogEntry>(n);
    for (let i = 0; i < n; i++) {
      let t = TEMPLATES[Math.floor(rng.next() * TEMPLATES.length)] as Template;
      if (t.source === 'app' && appPid === null) {
        t = TEMPLATES[0] as Template;
      }
      const pid = t.source === 'app' ? (appPid as number) : FIXED_PID[t.source];
      const tid = rng.next() < 0.5 ? pid : pid + 1 + Math.floor(rng.next() * 40);
      const message = t.message.includes('{n}')
        ? t.message.replace('{n}', String(1 + Math.floor(rng.next() * 900)))
        : t.message;
      entries[i] = {
        buffer: t.buffer,
        time: now - spanMs + ((i + 1) * spanMs) / n,
        pid,
        tid,
        uid: 0,
        priority: t.priority,
        tag: t.tag,
        message,
      };
    }
    dev.log.append(entries);
  }
}
