/**
 * A simulated device that answers as a recorded one did (`droidbus sim --profile`). Recorded
 * outputs beat the model: a command the profile holds is answered with its recorded bytes, stderr
 * and exit code — until a command that changes what it reads has run (a tap changes the screen, an
 * install the packages), after which the model answers it. Everything the profile lacks is answered
 * by the model and counted, so a test can tell how much of a run was real.
 *
 * The model starts from the recording where it can: the props of `getprop`, the screen of
 * `uiautomator dump`, the log buffers of `logcat -d -b all` sized as `logcat -g` said.
 *
 * Evidence: the recorded answers themselves (profiles/, written by `droidbus device record`); what
 * each command changes and shows is the device's own (recorded-reads.ts).
 */
import {
  argvKey,
  HELPER_SOURCE_ARGV,
  type DeviceProfile,
  type RecordedAnswer,
} from '../../profile/profile-format.js';
import type { SimDeviceIdentity } from '../device-api.js';
import type { CommandFn } from '../shell/command.js';
import { NULL_OUTPUT } from '../shell/streams.js';
import type { Device } from './device.js';
import type { LOG_BUFFERS } from './log/log-store.js';
import { BUFFER_ID, DEFAULT_BUFFER_SIZE, entryBytes, MAX_BUFFER_SIZE } from './log/log-store.js';
import { decodeRecordedText, parseRecordedLog, restamp } from './log/log-replay.js';
import { recordedPackageInfo } from './packages.js';
import { parseHierarchy, serializeHierarchy } from './ui/uiautomator-xml.js';
import { RELEASE_BY_SDK } from './android-versions.js';
import { domainOf, isLogDump, listsPackages, packageNamed, RECORDED, type Domain } from './recorded-reads.js';

/** Commands that change the device, and what they change. A read answered by the model is not one. */
function changes(argv: readonly string[]): Domain[] {
  const [cmd = '', sub = '', third = ''] = argv;
  switch (cmd) {
    case 'input':
      return ['screen'];
    case 'am':
      return [
        'start',
        'start-activity',
        'startservice',
        'broadcast',
        'force-stop',
        'kill',
        'kill-all',
        'crash',
      ].includes(sub)
        ? ['screen', 'processes']
        : [];
    case 'monkey':
      return ['screen', 'processes'];
    case 'pm':
      // Installing a package leaves the screen as it was; removing, clearing or disabling one may
      // take its app off it.
      return sub === 'install'
        ? ['packages', 'processes']
        : ['uninstall', 'clear', 'grant', 'revoke', 'enable', 'disable', 'disable-user'].includes(sub)
          ? ['packages', 'processes', 'screen']
          : [];
    case 'cmd':
      if (sub === 'package') {
        return third === 'install'
          ? ['packages', 'processes']
          : third === 'uninstall'
            ? ['packages', 'processes', 'screen']
            : [];
      }
      if (sub === 'notification') {
        return ['notifications', 'screen'];
      }
      if (sub === 'statusbar') {
        return ['screen'];
      }
      return sub === 'connectivity' || sub === 'wifi' ? ['settings'] : [];
    case 'settings':
      return sub === 'put' || sub === 'delete' || sub === 'reset' ? ['settings', 'screen'] : [];
    case 'svc':
      return ['settings'];
    case 'wm':
      return argv.length > 2 ? ['display', 'screen'] : [];
    case 'setprop':
      return ['props'];
    case 'ime':
      return sub === 'set' || sub === 'enable' || sub === 'disable' ? ['settings', 'screen'] : [];
    case 'kill':
      return ['processes', 'screen'];
    case 'dumpsys':
      return sub === 'battery' && argv.length > 2 ? ['battery'] : [];
    default:
      return [];
  }
}

/** What `sim stats` says of a profile device. */
export interface ProfileStats {
  profile: string;
  /** Commands answered with recorded bytes. */
  from_profile: number;
  /** Reads the profile lacks (or whose recording went stale), answered by the model. */
  from_model: number;
  /** Commands that changed the device (always the model). */
  changes: number;
  /** The reads answered by the model, by command line, with counts. */
  model_reads: Record<string, number>;
}

/** The replaying side of one profile device. */
export class ProfileReplay {
  private readonly stale = new Set<Domain>();
  private readonly counts = { fromProfile: 0, fromModel: 0, changes: 0 };
  private readonly modelReads = new Map<string, number>();

  constructor(readonly profile: DeviceProfile) {}

  /** The command table with every command first offered to the recording. */
  wrap(commands: ReadonlyMap<string, CommandFn<Device>>): Map<string, CommandFn<Device>> {
    const out = new Map<string, CommandFn<Device>>();
    for (const [name, fn] of commands) {
      out.set(name, async (ctx) => {
        const recorded = this.answerFor(ctx.argv);
        if (recorded !== null && recorded.command.argv[0] === 'uiautomator') {
          // A dump still takes the device's time and still fails when another one runs
          // (UiAutomation "already registered"): the model runs it, the recording is printed.
          const model = await fn({ ...ctx, stdout: NULL_OUTPUT, stderr: ctx.stderr });
          if (model !== 0) {
            return model;
          }
        }
        if (recorded !== null) {
          this.counts.fromProfile++;
          if (recorded.stdout.length > 0) {
            await ctx.stdout.write(recorded.stdout);
          }
          if (recorded.stderr.length > 0) {
            await ctx.stderr.write(recorded.stderr);
          }
          // A device without shell v2 reported no exit code; its commands "exited 0".
          return recorded.command.exit_code ?? 0;
        }
        const changed = changes(ctx.argv);
        if (changed.length > 0) {
          this.counts.changes++;
          for (const d of changed) {
            this.stale.add(d);
          }
        } else if (name !== 'echo') {
          this.counts.fromModel++;
          const key = ctx.argv.join(' ');
          this.modelReads.set(key, (this.modelReads.get(key) ?? 0) + 1);
        }
        return fn(ctx);
      });
    }
    return out;
  }

  /**
   * The UI helper's page source as the recording kept it (profile-helper-source.ts), while the
   * screen has not changed since; null otherwise (the model draws it).
   */
  helperSource(): string | null {
    const a = this.profile.answers.get(argvKey(HELPER_SOURCE_ARGV));
    if (a === undefined || this.stale.has('screen')) {
      return null;
    }
    this.counts.fromProfile++;
    return decodeRecordedText(a.stdout);
  }

  /** A change made outside the device's own commands (the emulator console's `geo fix`, a `sim` control). */
  invalidate(domain: Domain): void {
    this.stale.add(domain);
  }

  private answerFor(argv: readonly string[]): RecordedAnswer | null {
    const a = this.profile.answers.get(argvKey(argv));
    if (a === undefined) {
      return null;
    }
    const domain = domainOf(a.command.argv);
    // A read the simulator does not know may show anything: the first change makes it stale.
    const stale = domain === 'unknown' ? this.stale.size > 0 : this.stale.has(domain);
    // A log read (every logcat) is the buffers' to answer: they hold what the recording held.
    if (domain === 'log' || stale) {
      return null;
    }
    return a;
  }

  stats(): ProfileStats {
    return {
      profile: this.profile.name,
      from_profile: this.counts.fromProfile,
      from_model: this.counts.fromModel,
      changes: this.counts.changes,
      model_reads: Object.fromEntries(this.modelReads),
    };
  }
}

/** The recorded output of a catalogue read without slots, as text; null when not recorded. */
function recordedText(profile: DeviceProfile, argv: readonly string[]): string | null {
  const a = profile.answers.get(argvKey(argv));
  return a === undefined ? null : decodeRecordedText(a.stdout);
}

/** `[key]: [value]` lines of a recorded getprop. */
export function recordedProps(profile: DeviceProfile): Map<string, string> {
  const props = new Map<string, string>();
  for (const m of (recordedText(profile, RECORDED.getprop) ?? '').matchAll(/^\[([^\]]+)\]: \[([^\]]*)\]/gm)) {
    props.set(m[1] as string, m[2] as string);
  }
  return props;
}

/**
 * The identity a profile device shows adb: what the recording's getprop and wm said. The SDK comes
 * from the whole getprop, else from a recorded `getprop ro.build.version.sdk`, so every answer —
 * the model's too — agrees with the recording on it.
 */
export function profileIdentity(profile: DeviceProfile, serial: string): SimDeviceIdentity {
  const p = recordedProps(profile);
  const size = /Physical size: (\d+)x(\d+)/.exec(recordedText(profile, RECORDED.wmSize) ?? '');
  const density = /Physical density: (\d+)/.exec(recordedText(profile, RECORDED.wmDensity) ?? '');
  const sdk = Number(p.get('ro.build.version.sdk') ?? (recordedText(profile, RECORDED.sdk) ?? '').trim());
  const avd = p.get('ro.boot.qemu.avd_name') ?? p.get('ro.kernel.qemu.avd_name');
  return {
    serial,
    product: p.get('ro.product.name') ?? p.get('ro.build.product') ?? profile.name,
    model: p.get('ro.product.model') ?? profile.name,
    device: p.get('ro.product.device') ?? profile.name,
    sdk: Number.isInteger(sdk) && sdk > 0 ? sdk : 34,
    release: p.get('ro.build.version.release') ?? RELEASE_BY_SDK[sdk] ?? '14',
    width: size === null ? 1080 : Number(size[1]),
    height: size === null ? 2400 : Number(size[2]),
    density: density === null ? 420 : Number(density[1]),
    ...(avd !== undefined && avd !== '' ? { avdName: avd } : {}),
  };
}

/**
 * The focused activity (`PKG/CLS`) the recording's window or activity dump names: `mCurrentFocus`
 * of `dumpsys window windows|displays` (a window titled by its component), else the resumed activity.
 */
export function recordedFocus(profile: DeviceProfile): string | null {
  for (const argv of [RECORDED.windowDisplays, RECORDED.windowWindows, RECORDED.activities]) {
    const text = recordedText(profile, argv) ?? '';
    const focus = /mCurrentFocus=Window\{\S+ u0 ([\w.]+\/[\w.$]+)\}/.exec(text);
    // The resumed activity, or the focused app's record when the focus is a system window.
    const resumed =
      /(?:mResumedActivity|ResumedActivity|topResumedActivity|mFocuse?a?dApp)[:=][^\n]*?ActivityRecord\{\S+ \S+ ([\w.]+)\/([\w.$]+)/.exec(
        text,
      );
    if (focus !== null) {
      return focus[1]!;
    }
    if (resumed !== null) {
      const pkg = resumed[1]!;
      const cls = resumed[2]!;
      return `${pkg}/${cls.startsWith('.') ? pkg + cls : cls}`;
    }
  }
  return null;
}

/**
 * Packages the recording shows on the device — named by a per-package read, listed by `pm list
 * packages`, in front — are installed in the model too, and those it shows running (a meminfo or
 * gfxinfo header names the pid; the focused app) run there with that pid: the model never answers
 * "not installed" of an app its own recording measured.
 */
function seedRecordedApps(dev: Device, profile: DeviceProfile, focus: string | null): void {
  const running = new Map<string, number | null>();
  const installed = new Set<string>(profile.manifest.packages);
  for (const a of profile.answers.values()) {
    const pkg = packageNamed(a.command.argv);
    if (pkg !== null) {
      installed.add(pkg);
    }
    const text = decodeRecordedText(a.stdout);
    for (const m of text.matchAll(/^\*\* (?:MEMINFO in|Graphics info for) pid (\d+) \[([\w.]+)\] \*\*/gm)) {
      running.set(m[2]!, Number(m[1]));
    }
    if (listsPackages(a.command.argv)) {
      for (const m of text.matchAll(/^package:([\w.]+)/gm)) {
        installed.add(m[1]!);
      }
    }
  }
  const front = focus?.split('/')[0];
  if (front !== undefined && !running.has(front)) {
    running.set(front, null);
  }
  for (const pkg of [...installed, ...running.keys()]) {
    if (!dev.packages.has(pkg)) {
      dev.addPackage(recordedPackageInfo(dev.identity.serial, pkg, dev.sdk), Date.now() - 86_400_000);
    }
  }
  for (const [pkg, pid] of running) {
    const model = dev.procs.forPackage(pkg);
    if (model !== undefined && pid !== null && model.pid !== pid && !dev.procs.kill(model.pid)) {
      dev.procs.move(pkg, pid); // a system process: the recording's pid, not the model's, is its
    }
    if (dev.procs.forPackage(pkg) === undefined) {
      dev.procs.adopt(pid ?? dev.procs.allocPid(), pkg, dev.uidOf(pkg));
    }
  }
}

/** Starts the model from the recording: props, the screen, the buffers' sizes and their lines. */
export function seedFromProfile(dev: Device, profile: DeviceProfile): void {
  for (const [k, v] of recordedProps(profile)) {
    dev.baseProps.set(k, v);
  }
  const focus = recordedFocus(profile);
  // The screen: the helper's page source when the recording has one (the helper then serves it, as
  // the recorded session did; `uiautomator dump` still answers with its own recording), else the dump.
  const source = recordedText(profile, HELPER_SOURCE_ARGV);
  const dump = recordedText(profile, RECORDED.uiDump);
  for (const text of [source, dump]) {
    if (text === null) {
      continue;
    }
    const recorded = text.replace(/\s*UI hier(?:c)?h?ar(?:c)?hy dumped to: \S+\s*$/, '');
    try {
      const parsed = parseHierarchy(recorded);
      const xml =
        parsed.format === 'page-source' ? serializeHierarchy(parsed.root, parsed.rotation) : recorded;
      dev.ui.loaded = { xml, parsed, ...(focus !== null ? { activity: focus } : {}) };
      break;
    } catch {
      // A capture that holds no view (a failed one): the next, or the model's screen.
    }
  }
  seedRecordedApps(dev, profile, focus);
  const sizes = recordedText(profile, RECORDED.logSizes);
  for (const m of (sizes ?? '').matchAll(/^(\w+): ring buffer is (\d+) ?([KMG]?)i?B/gm)) {
    const id = BUFFER_ID[m[1] as (typeof LOG_BUFFERS)[number]];
    const unit = m[3] === 'G' ? 1024 ** 3 : m[3] === 'M' ? 1024 ** 2 : m[3] === 'K' ? 1024 : 1;
    if (id !== undefined) {
      dev.log.setSize(id, Number(m[2]) * unit);
    }
  }
  // `logcat -d -b all -v threadtime` as droidbus records it, or any other dump a profile holds
  // (`logcat -d -v brief` of an old device): the buffers hold what the device printed.
  const entries = [...profile.answers.values()]
    .filter((a) => isLogDump(a.command.argv) && !a.command.argv.includes('-g'))
    .flatMap((a) => restamp(parseRecordedLog(decodeRecordedText(a.stdout))));
  if (sizes === null) {
    // No `logcat -g` recorded: a device that printed this much log held it, so each buffer is at
    // least as big as what the recording shows of it (in logd's sizes: powers of two, 256 KiB up).
    const bytes = new Map<number, number>();
    for (const e of entries) {
      const id = BUFFER_ID[e.buffer ?? 'main'];
      bytes.set(id, (bytes.get(id) ?? 0) + entryBytes(e.tag, e.message));
    }
    for (const [id, total] of bytes) {
      let size = DEFAULT_BUFFER_SIZE;
      while (size < total && size < MAX_BUFFER_SIZE) {
        size *= 2;
      }
      dev.log.setSize(id, size);
    }
  }
  dev.log.append(entries);
}
