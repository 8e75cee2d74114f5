import type { ReverseRoute, ShellIo, SimDevice, SimDeviceIdentity, SimDeviceOptions } from '../device-api.js';
import { runShellSession } from './shell-session.js';
import { SHELL_ENV } from './shell-env.js';
import type { CommandFn } from '../shell/command.js';
import { FrameStatsModel, type FrameCause } from './frame-stats.js';
import { ExitInfoStore } from './exit-info.js';
import { DropBox } from './dropbox.js';
import { buildDeviceFs } from './fs-layout.js';
import { putLiveProcFiles } from './proc-files.js';
import { WebViews } from './webview/webviews.js';
import type { MemFs } from './fs.js';
import { UID } from './fs-node.js';
import { hashString, Rng } from './ids.js';
import { LogStore, type NewLogEntry, type Priority } from './log/log-store.js';
import {
  ADB_KEYBOARD_PACKAGE,
  LAUNCHER_PACKAGE,
  putPackageFiles,
  preinstalledUserPackages,
  SYSTEM_PACKAGES,
  type InstalledPackage,
  type PackageInfo,
} from './packages.js';
import { SAMPLE_PACKAGE } from '../sample-app.js';
import { PID, ProcessTable } from './processes.js';
import type { DeviceRecording, HelperProcess, LogSource, SimNotification } from './device-parts.js';
import { PowerAndAccessibility } from './power-a11y.js';
import { RunningServices } from './services.js';
import type { Duplex } from 'node:stream';
import { DeviceNetwork } from './network.js';

/** The port Appium's UiAutomator2 server listens on (ServerConfig.DEFAULT_SERVER_PORT). */
export const HELPER_PORT = 6790;
import { buildProps } from './props.js';
import { featuresForSdk } from './android-versions.js';
import { Settings } from './settings.js';
import { buildActivityScreen } from './ui/screens.js';
import { shadeTree } from './ui/shade-tree.js';
import type { ActivityRecord, LauncherApp, ScreenEnv } from './ui/ui-model.js';
import { loadedActivity, UiState } from './ui/ui-state.js';
import type { ViewNode } from './ui/view.js';
import { since } from './android-versions.js';

export type { SimNotification } from './device-parts.js';

/** A location fix per provider (`geo fix`, `sim location`). */
export interface Fix {
  latitude: number;
  longitude: number;
  altitude: number;
  time: number;
}

/** What `sim stats` reports. */
export interface DeviceStats {
  dumps: number;
  overlappingDumps: number;
  shellCommands: number;
  lastInput: (string | number)[] | null;
  /** Every input since the device started (the newest INPUT_LOG_MAX), as `lastInput` records each. */
  inputs: (string | number)[][];
  taps: number;
  installs: number;
  /** The last intent `am` was given (start, broadcast or startservice), for tests. */
  lastIntent: {
    command: string;
    action: string | null;
    data: string | null;
    categories: string[];
    component: string | null;
    pkg: string | null;
    extras: Record<string, { type: string; value: string }>;
  } | null;
}

/** The model of one simulated Android device; the shell's built-ins act on it. */
export class Device implements SimDevice {
  readonly identity: SimDeviceIdentity;
  readonly fs: MemFs;
  readonly log = new LogStore();
  readonly settings: Settings;
  readonly procs: ProcessTable;
  readonly baseProps: Map<string, string>;
  readonly propOverrides = new Map<string, string>();
  readonly packages = new Map<string, InstalledPackage>();
  readonly ui: UiState;
  readonly exits = new ExitInfoStore();
  /** Error reports `dumpsys dropbox` prints (an ANR's traces among them). */
  readonly dropbox = new DropBox(
    // DropBoxManagerService.isTagEnabled: `settings put global dropbox:TAG disabled` drops the tag.
    (tag) => this.settings.get('global', `dropbox:${tag}`) !== 'disabled',
  );
  /** Frames each app process rendered (`dumpsys gfxinfo`), on the clock of the device's boot. */
  readonly frames = new FrameStatsModel(() => this.uptimeMs() * 1e6);
  readonly notifications: SimNotification[] = [];
  readonly locations = new Map<string, Fix>();
  readonly stats: DeviceStats = {
    dumps: 0,
    overlappingDumps: 0,
    shellCommands: 0,
    lastInput: null,
    inputs: [],
    taps: 0,
    installs: 0,
    lastIntent: null,
  };
  readonly rng: Rng;
  dumpLatencyMs: number;
  /**
   * How long `uiautomator dump` waits for a screen that never goes idle before it gives up: AOSP's
   * DumpCommand calls `uiAutomation.waitForIdle(1000, 1000 * 10)` (1 s without accessibility
   * events, 10 s at most) and on its TimeoutException prints `ERROR: could not get idle state.`
   * (`sim latency idle MS` changes it, for tests).
   */
  idleWaitMs = 10_000;
  /**
   * The on-device helper (Appium's UiAutomator2 server) while its instrumentation runs. Its answer
   * time: "milliseconds to a few hundred ms" for persistent helpers (droidbus issue 18's survey);
   * its start-up: 2.5–5.3 s in public Appium logs ("The initialization of the instrumentation
   * process took 2468ms" … "5334ms"). `sim latency helper|helper-start MS` change them.
   */
  helper: HelperProcess | null = null;
  /** Where the sample app signs in (`sim app-server URL`); null: it signs in without a server. */
  sampleApi: string | null = null;
  /** Its sockets, its `adb reverse` listeners, the host (network.ts). */
  readonly net = new DeviceNetwork((port) => this.acceptTcp(port));
  /** Its apps' WebViews and their devtools sockets (webview/webviews.ts). */
  readonly webviews = new WebViews(this);
  readonly power = new PowerAndAccessibility(); // wake locks held, accessibility suppressed
  readonly services = new RunningServices();
  helperLatencyMs = 100;
  /**
   * How long `input` takes before it acts: it starts a Java process per call — `adb shell input
   * tap` took 1,160 ms on a Galaxy Note 4 in a public measurement (prog.world, "tap, swipe and two
   * smoking events"). 0 by default, so tests stay fast; `sim latency input MS`.
   */
  inputLatencyMs = 0;
  helperStartMs = 2_468;
  dumpsRunning = 0;
  wmSize: [number, number] | null = null;
  wmDensity: number | null = null;
  /** `cmd uimode night`: the dark theme setting (UiModeManager's night mode). */
  nightMode: 'yes' | 'no' | 'auto' = 'no';
  private nextUid = 10150;
  private nextNotificationId = 1;
  private readonly installCounts = new Map<string, number>();
  private generator: LogSource | null = null;
  private readonly commands: ReadonlyMap<string, CommandFn<Device>>;
  /** Set on a device that answers as a recorded one (`droidbus sim --profile`). */
  readonly replay: DeviceRecording | null;
  private closed = false;
  private readonly running = new Set<AbortController>();

  /**
   * A device with its command table; a profile device also gets its recording (the table then
   * offers every command to it first: index.ts wraps it). Its log starts with `startLog`.
   */
  constructor(
    opts: SimDeviceOptions,
    commands: ReadonlyMap<string, CommandFn<Device>>,
    replay: DeviceRecording | null = null,
  ) {
    this.identity = opts.identity;
    this.replay = replay;
    this.commands = commands;
    const seed = hashString(opts.identity.serial);
    this.rng = new Rng(seed);
    this.dumpLatencyMs = opts.dumpLatencyMs ?? 700;
    this.helperLatencyMs = opts.helperLatencyMs ?? this.helperLatencyMs;
    this.settings = new Settings(opts.identity);
    // ConnectivityService's observer of the global proxy setting (network.ts).
    this.settings.observe('global', 'http_proxy', () =>
      this.net.loadHttpProxy(this.settings.get('global', 'http_proxy')),
    );
    this.baseProps = buildProps(opts.identity);
    this.procs = new ProcessTable(4000 + (seed % 3000));
    this.fs = buildDeviceFs(commands.keys());
    putLiveProcFiles((path, node) => this.fs.put(path, node), {
      uptimeMs: () => this.uptimeMs(),
      listeners: () =>
        this.helper?.isRunning === true ? [{ port: HELPER_PORT, uid: UID.shell, inode: 48123 }] : [],
      unixSockets: () => this.webviews.sockets(),
    });
    this.ui = new UiState(opts.identity.serial);
    for (const info of SYSTEM_PACKAGES) {
      this.addPackage(info, 1230768000000);
    }
    for (const info of preinstalledUserPackages(opts.identity.serial)) {
      this.addPackage(info, Date.now() - 86_400_000);
    }
  }

  /** Starts the background log (stopped by `close`). */
  startLog(source: LogSource): void {
    this.generator = source;
    source.start();
  }

  // ---- SimDevice ---------------------------------------------------------------------------

  run(commandLine: string, io: ShellIo): Promise<number> {
    this.stats.shellCommands++;
    const opts = {
      fs: this.fs,
      host: this,
      commands: this.commands,
      env: SHELL_ENV,
      pid: this.procs.allocPid(),
    };
    return runShellSession(opts, commandLine, io, this.running);
  }

  attachReverse(route: ReverseRoute): () => void {
    return this.net.attach(route);
  }

  acceptAbstract(name: string): ((socket: Duplex) => void) | undefined {
    return this.webviews.accept(name);
  }

  acceptTcp(port: number): ((socket: Duplex) => void) | undefined {
    const helper = this.helper;
    return port === HELPER_PORT && helper !== null && helper.isRunning ? (s) => helper.accept(s) : undefined;
  }

  /**
   * Milliseconds since the device booted (an hour before it appeared): its one clock, which
   * /proc/uptime, `uptime`, dumpsys's `Uptime:` lines, a location's `et=` and gfxinfo all read.
   */
  uptimeMs(): number {
    return Date.now() - this.procs.bootTime;
  }

  /** A profile device's adbd features: recorded, or those its SDK had (profile-replay.ts). */
  get features(): readonly string[] | undefined {
    return this.replay === null
      ? undefined
      : (this.replay.profile.manifest.features ?? featuresForSdk(this.sdk));
  }

  /**
   * adbd's restart_root_service / restart_unroot_service (packages/modules/adb/daemon/
   * restart_service.cpp): root only on a debuggable build (`ro.debuggable=1`, the emulators').
   */
  adbRoot(on: boolean): string {
    if (on === this.fs.superuser) {
      return on ? 'adbd is already running as root\n' : 'adbd not running as root\n';
    }
    if (on && this.prop('ro.debuggable') !== '1') {
      return 'adbd cannot run as root in production builds\n';
    }
    this.fs.superuser = on;
    return on ? 'restarting adbd as root\n' : 'restarting adbd as non root\n';
  }

  /** Ends the helper's instrumentation (force-stop, uninstall, a crash). */
  stopHelper(): void {
    this.helper?.stop();
    this.helper = null;
  }

  setLocation(longitude: number, latitude: number, altitude = 0): void {
    this.replay?.invalidate('location');
    const fix = { latitude, longitude, altitude, time: Date.now() };
    this.locations.set('gps', fix);
    this.locations.set('fused', fix);
  }

  close(): void {
    if (this.closed) {
      return;
    }
    this.closed = true;
    this.webviews.close();
    this.generator?.stop();
    this.stopHelper();
    for (const ctl of this.running) {
      ctl.abort();
    }
  }

  // ---- properties ----------------------------------------------------------------------------

  prop(name: string): string | undefined {
    return this.propOverrides.get(name) ?? this.baseProps.get(name);
  }

  get sdk(): number {
    return this.identity.sdk;
  }

  // ---- display -------------------------------------------------------------------------------

  /** The logical display: `wm` overrides and the user rotation applied. */
  display(): { width: number; height: number; density: number; rotation: number } {
    const [pw, ph] = this.wmSize ?? [this.identity.width, this.identity.height];
    const rotation =
      this.settings.get('system', 'accelerometer_rotation') === '0'
        ? Number(this.settings.get('system', 'user_rotation') ?? '0') & 3
        : 0;
    const swap = rotation === 1 || rotation === 3;
    return {
      width: swap ? ph : pw,
      height: swap ? pw : ph,
      density: this.wmDensity ?? this.identity.density,
      rotation,
    };
  }

  screenEnv(): ScreenEnv {
    const d = this.display();
    return {
      width: d.width,
      height: d.height,
      density: d.density,
      fontScale: Number(this.settings.get('system', 'font_scale') ?? '1') || 1,
      imeShown: this.ui.imeShown,
      launcherApps: this.launcherApps(),
      labelOf: (pkg) => this.packages.get(pkg)?.info.label ?? pkg,
      localeOf: (pkg) => this.packages.get(pkg)?.locales ?? '',
      webEcho: (rec, bounds, focused) => this.webviews.echo(rec, bounds, focused),
    };
  }

  private launcherApps(): LauncherApp[] {
    return [...this.packages.values()]
      .filter((p) => p.info.launcher !== null && p.enabled)
      .map((p) => ({ pkg: p.info.name, label: p.info.label }))
      .sort((a, b) => (a.label < b.label ? -1 : 1));
  }

  /** The view tree of what is on screen now (a loaded recording, a dialog, or the top activity). */
  currentTree(): ViewNode {
    if (this.ui.loaded !== null) {
      return this.ui.loaded.parsed.root;
    }
    if (this.ui.shadeOpen) {
      return shadeTree(this);
    }
    const d = this.display();
    const dialog = this.ui.dialogTree(d.width, d.height, d.density);
    if (dialog !== null) {
      return dialog;
    }
    return buildActivityScreen(this.ui.top(), this.screenEnv());
  }

  /**
   * Whether the screen keeps redrawing: `sim screen busy on`, or the sample app's live screen (a
   * spinning ProgressBar) in front. Real screens like it — video, spinners, live counters, a
   * Compose screen polling every 2 s — make `uiautomator dump` fail after its idle wait (users
   * report it in public notes and issue threads; droidbus's issue 18 lists them).
   */
  neverIdle(): boolean {
    if (this.ui.busy) {
      return true;
    }
    const top = this.ui.top();
    return (
      this.ui.loaded === null &&
      !this.ui.shadeOpen &&
      top.cls === `${SAMPLE_PACKAGE}.DetailActivity` &&
      top.state.extras['live'] === 'true'
    );
  }

  /** The app's own tree under a dialog (what a screenshot shows behind it). */
  currentTreeBelowDialog(): ViewNode {
    return this.ui.loaded?.parsed.root ?? buildActivityScreen(this.ui.top(), this.screenEnv());
  }

  /** The package in front (a loaded recording's package counts). */
  foregroundPackage(): string {
    return this.ui.loaded === null ? this.ui.top().pkg : loadedActivity(this.ui.loaded).split('/')[0]!;
  }

  topActivity(): ActivityRecord {
    return this.ui.top();
  }

  /** The foreground app's process renders the frames an input makes. */
  renderFrames(cause: FrameCause, pkg: string = this.foregroundPackage()): void {
    const proc = this.procs.forPackage(pkg);
    if (proc !== undefined) {
      this.frames.render(proc.pid, cause);
    }
  }

  // ---- packages and processes ----------------------------------------------------------------

  allocUid(): number {
    return this.nextUid++;
  }

  nextInstallCount(pkg: string): number {
    const n = (this.installCounts.get(pkg) ?? 0) + 1;
    this.installCounts.set(pkg, n);
    return n;
  }

  /** Makes a package installed at `installedAt`: a user app's files in /data/app, and its record. */
  addPackage(info: PackageInfo, installedAt: number): InstalledPackage {
    putPackageFiles(this.fs, info);
    const installed: InstalledPackage = {
      info,
      uid: info.uid ?? this.allocUid(),
      firstInstallTime: installedAt,
      lastUpdateTime: installedAt,
      granted: new Set(),
      enabled: true,
      stopped: false,
    };
    this.packages.set(info.name, installed);
    return installed;
  }

  /** The uid of a package or of a process's package. */
  uidOf(pkg: string): number {
    return this.packages.get(pkg)?.uid ?? 1000;
  }

  /** Whether ADBKeyBoard is the selected input method. */
  adbKeyboardActive(): boolean {
    return (this.settings.get('secure', 'default_input_method') ?? '').startsWith(ADB_KEYBOARD_PACKAGE + '/');
  }

  // ---- logging --------------------------------------------------------------------------------

  /** Appends one line from a process. */
  logLine(
    pid: number,
    priority: Priority,
    tag: string,
    message: string,
    buffer: NewLogEntry['buffer'] = 'main',
    tid = pid,
  ): void {
    this.log.log({ pid, tid, uid: this.procs.byPid(pid)?.uid ?? 0, priority, tag, message, buffer });
  }

  /** A system_server line in the system buffer. */
  logSystem(priority: Priority, tag: string, message: string): void {
    this.log.log({
      pid: PID.systemServer,
      tid: PID.systemServer + 14 + (hashString(tag) % 80),
      uid: 1000,
      priority,
      tag,
      message,
      buffer: 'system',
    });
  }

  /** The tag `Displayed` lines use on this API level. */
  get activityTag(): string {
    return since(this.sdk, 'activityTaskManager') ? 'ActivityTaskManager' : 'ActivityManager';
  }

  /** Posts a notification; returns it. */
  postNotification(n: Omit<SimNotification, 'id' | 'when' | 'uid'> & { when?: number }): SimNotification {
    const full: SimNotification = {
      ...n,
      id: this.nextNotificationId++,
      when: n.when ?? Date.now(),
      uid: this.uidOf(n.pkg),
    };
    this.notifications.push(full);
    if (this.notifications.length > 50) {
      this.notifications.shift();
    }
    return full;
  }

  isLauncher(pkg: string): boolean {
    return pkg === LAUNCHER_PACKAGE;
  }
}
