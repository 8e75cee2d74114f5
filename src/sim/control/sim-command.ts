import type { CommandContext, CommandFn } from '../shell/command.js';
import { crashPackage, type CrashKind } from '../device/crashes.js';
import type { Device } from '../device/device.js';
import { UID } from '../device/fs.js';
import { REASON, SUBREASON } from '../device/exit-info.js';
import { decodeRecordedText, parseRecordedLog, restamp } from '../device/log/log-replay.js';
import { anrFileName, recordedKind, tombstoneEntries } from '../device/log/recorded-files.js';
import type { Priority } from '../device/log/log-store.js';
import { shortComponent } from '../device/packages.js';
import type { Domain } from '../device/recorded-reads.js';
import { fail, readNamed } from './control-io.js';
import { simScreen, simScreencap } from './sim-screen.js';

const USAGE = `usage: sim <command>
  sim stats                               counters as JSON (dumps, overlapping_dumps, shell_commands, last_input, …)
  sim screen load PATH [--on-tap L,T,R,B=NEXT]…
                                          make a recorded uiautomator dump or UiAutomator2 page source the current screen;
                                          each --on-tap is the screen a tap inside those bounds shows next, in order
  sim screen reset                        back to the simulated apps
  sim screen busy on|off                  a screen that never goes idle (uiautomator dump fails after its idle wait)
  sim screencap load PATH                 screencap answers with a real screen's image (PNG or JPEG, on the device)
  sim screencap reset                     screencap draws the simulated screen again
  sim logcat replay PATH                  append a recorded log (any logcat -v format, Android Studio's copies, UTF-8/16) as if now;
                                          a tombstone to the crash buffer and /data/tombstones, an ANR's traces to /data/anr
  sim crash PKG [java|native|anr]         crash (or hang) an app now
  sim latency dump MS                     how long uiautomator dump takes
  sim latency idle MS                     how long it waits for a never-idle screen (default 10000, as AOSP)
  sim latency helper|helper-start MS      the UiAutomator2 helper's answer time (100) and start-up (2468)
  sim latency input MS                    how long each input command takes to start (0)
  sim log PRIORITY TAG MESSAGE…           append one line to the main log
  sim notify PKG TITLE TEXT [--ongoing] [--channel ID] [--sub TEXT] [--action LABEL]…
  sim dialog TITLE MESSAGE [BUTTON…] | sim dialog dismiss
  sim toast PACKAGE TEXT [MS]             a toast window for MS ms (default 2000)
  sim location LATITUDE LONGITUDE [ALTITUDE]
  sim app-server URL|off                  where the sample app signs in (POST URL/auth through the device's network)
  sim locale TAG                          the language the person picked in Settings (persist.sys.locale)
`;

async function simStats(ctx: CommandContext<Device>, dev: Device, _args: string[]): Promise<number> {
  const top = dev.topActivity();
  const stats = {
    dumps: dev.stats.dumps,
    overlapping_dumps: dev.stats.overlappingDumps,
    shell_commands: dev.stats.shellCommands,
    last_input: dev.stats.lastInput,
    inputs: dev.stats.inputs,
    taps: dev.stats.taps,
    installs: dev.stats.installs,
    dump_latency_ms: dev.dumpLatencyMs,
    foreground: dev.ui.loaded !== null ? dev.foregroundPackage() : shortComponent(top.pkg, top.cls),
    ime_shown: dev.ui.imeShown,
    shade_open: dev.ui.shadeOpen,
    never_idle: dev.neverIdle(),
    helper_running: dev.helper !== null,
    last_intent: dev.stats.lastIntent,
    ...(dev.replay !== null ? { profile: dev.replay.stats() } : {}),
  };
  await ctx.stdout.write(JSON.stringify(stats) + '\n');
  return 0;
}

/**
 * `sim logcat replay PATH`: log lines go into the buffers (log-replay.ts); a tombstone goes where
 * crash_dump and tombstoned put one (the crash buffer, /data/tombstones); an ART thread dump goes to
 * /data/anr; a file with none of these is refused, saying so.
 */
async function simLogcat(ctx: CommandContext<Device>, dev: Device, args: string[]): Promise<number> {
  if (args[0] !== 'replay' || args[1] === undefined) {
    return fail(ctx, 'usage: sim logcat replay PATH');
  }
  const bytes = await readNamed(ctx, args[1]);
  if (typeof bytes === 'number') {
    return bytes;
  }
  const text = decodeRecordedText(bytes);
  const kind = recordedKind(text);
  const now = Date.now();
  const keep = (dir: string, name: string): string => {
    const path = `${dir}/${name}`;
    dev.fs.put(path, {
      type: 'file',
      perm: 0o640,
      uid: UID.system,
      gid: UID.system,
      mtimeMs: now,
      ino: 0,
      data: bytes,
    });
    return path;
  };
  if (kind === 'tombstone') {
    const taken = new Set(dev.fs.tryResolve('/data/tombstones', true)?.node.children?.keys() ?? []);
    const free = Array.from({ length: 32 }, (_, i) => `tombstone_${String(i).padStart(2, '0')}`).find(
      (n) => !taken.has(n),
    );
    const path = keep('/data/tombstones', free ?? 'tombstone_00');
    const entries = tombstoneEntries(text, dev.procs.allocPid(), path.slice(path.lastIndexOf('/') + 1), now);
    dev.log.append(entries);
    await ctx.stdout.write(
      `replayed ${entries.length} entries (a tombstone: the crash buffer and ${path})\n`,
    );
    return 0;
  }
  if (kind === 'traces') {
    const path = keep('/data/anr', anrFileName(now));
    await ctx.stdout.write(`replayed 0 entries (an ART thread dump has no log lines: kept as ${path})\n`);
    return 0;
  }
  const entries = parseRecordedLog(text);
  if (entries.length === 0) {
    const first = text.split(/\r?\n/).find((l) => l.trim() !== '') ?? '';
    return fail(
      ctx,
      `${args[1]}: nothing to replay: no line is in a logcat format, nor is it a tombstone or an ART thread dump (first line: ${JSON.stringify(first.slice(0, 80))})`,
    );
  }
  for (const e of entries) {
    if (e.process !== null) {
      dev.procs.adopt(e.pid, e.process, dev.uidOf(e.process));
    }
  }
  dev.log.append(restamp(entries, now));
  const reports = keepReplayedAnrs(dev, entries, now);
  await ctx.stdout.write(
    `replayed ${entries.length} entries${reports > 0 ? ` (${reports} ANR report${reports > 1 ? 's' : ''} kept in the dropbox)` : ''}\n`,
  );
  return 0;
}

/**
 * A replayed ANR leaves its report where a phone does, as ActivityManagerService.addErrorToDropBox
 * writes it: the `ANR in` block's facts as headers, its report, and the thread dump ART wrote —
 * the newest one kept in /data/anr for that pid, else the newest kept at all (`sim logcat replay`
 * of a traces file first). Returns the reports kept. Evidence: AOSP ActivityManagerService
 * addErrorToDropBox (headers, report, traces) and AppExitInfoTracker (the REASON_ANR record); the
 * replayed capture's block is ActivityManager's real `ANR in` output (tests/fixtures/logcat).
 */
function keepReplayedAnrs(
  dev: Device,
  entries: readonly { tag: string; message: string }[],
  now: number,
): number {
  let kept = 0;
  for (let i = 0; i < entries.length; i++) {
    const head = /^ANR in (\S+)(?: \((\S+)\))?/.exec(entries[i]!.message);
    if (entries[i]!.tag !== 'ActivityManager' || head === null) {
      continue;
    }
    const block: string[] = [];
    for (
      let j = i + 1;
      j < entries.length &&
      entries[j]!.tag === 'ActivityManager' &&
      !entries[j]!.message.startsWith('ANR in ');
      j++
    ) {
      block.push(entries[j]!.message);
    }
    const field = (name: string): string | null =>
      block.find((l) => l.startsWith(`${name}: `))?.slice(name.length + 2) ?? null;
    const pid = Number(field('PID') ?? 0);
    const pkg = head[1]!;
    const traces = (dev.fs.tryResolve('/data/anr', true)?.node.children ?? new Map()).entries();
    let dump = '';
    for (const [, node] of [...traces].sort((a, b) => (a[1].mtimeMs ?? 0) - (b[1].mtimeMs ?? 0))) {
      const text = node.data !== undefined ? new TextDecoder().decode(node.data) : '';
      if (dump === '' || text.includes(`----- pid ${pid} `)) {
        dump = text;
      }
    }
    dev.dropbox.addAnr(now, {
      uid: dev.uidOf(pkg),
      process: pkg,
      headers: [
        `PID: ${pid}`,
        ...(head[2] !== undefined ? [`Activity: ${head[2]}`] : []),
        `Subject: ${field('Reason') ?? ''}`,
      ],
      report: block.filter((l) => !/^(PID|Reason|Parent|ErrorId|Frozen): /.test(l)),
      traces: dump,
    });
    // And the record of the exit the ANR ended in (AppExitInfoTracker, REASON_ANR).
    dev.exits.add({
      pkg,
      process: pkg,
      pid,
      uid: dev.uidOf(pkg),
      reason: REASON.ANR,
      subreason: SUBREASON.UNKNOWN,
      status: 0,
      importance: 100,
      pssKb: 61_000,
      rssKb: 128_000,
      timestamp: now,
      description: `user request after error: ${field('Reason') ?? ''}`,
    });
    kept++;
  }
  return kept;
}

async function simCrash(ctx: CommandContext<Device>, dev: Device, args: string[]): Promise<number> {
  const [pkg, kindArg = 'java'] = args;
  if (pkg === undefined || !['java', 'native', 'anr'].includes(kindArg)) {
    return fail(ctx, 'usage: sim crash PKG [java|native|anr]');
  }
  if (!crashPackage(dev, pkg, kindArg as CrashKind)) {
    return fail(ctx, `unknown package: ${pkg}`);
  }
  return 0;
}

async function simLatency(ctx: CommandContext<Device>, dev: Device, args: string[]): Promise<number> {
  const ms = Number(args[1]);
  const knobs = {
    dump: 'dumpLatencyMs',
    idle: 'idleWaitMs',
    helper: 'helperLatencyMs',
    'helper-start': 'helperStartMs',
    input: 'inputLatencyMs',
  } as const;
  const knob = knobs[args[0] as keyof typeof knobs] as (typeof knobs)[keyof typeof knobs] | undefined;
  if (knob === undefined || !Number.isFinite(ms) || ms < 0) {
    return fail(ctx, 'usage: sim latency dump|idle|helper|helper-start|input MS');
  }
  dev[knob] = ms;
  return 0;
}

async function simLog(ctx: CommandContext<Device>, dev: Device, args: string[]): Promise<number> {
  const [p, tag, ...words] = args;
  const priority = (p ?? '').toUpperCase();
  if (tag === undefined || !['V', 'D', 'I', 'W', 'E', 'F'].includes(priority)) {
    return fail(ctx, 'usage: sim log V|D|I|W|E|F TAG MESSAGE');
  }
  const proc = dev.procs.forPackage(dev.foregroundPackage());
  const pid = proc?.pid ?? dev.procs.allocPid();
  dev.log.log({
    pid,
    tid: pid,
    uid: proc?.uid ?? 2000,
    priority: priority as Priority,
    tag,
    message: words.join(' '),
  });
  return 0;
}

async function simNotify(ctx: CommandContext<Device>, dev: Device, args: string[]): Promise<number> {
  const positional: string[] = [];
  const actions: string[] = [];
  let ongoing = false;
  let channel = 'default';
  let subText: string | null = null;
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (a === '--ongoing') {
      ongoing = true;
    } else if (a === '--channel') {
      channel = args[++i] ?? channel;
    } else if (a === '--sub') {
      subText = args[++i] ?? null;
    } else if (a === '--action') {
      actions.push(args[++i] ?? '');
    } else {
      positional.push(a);
    }
  }
  const [pkg, title, ...text] = positional;
  if (pkg === undefined || title === undefined || !dev.packages.has(pkg)) {
    return fail(
      ctx,
      pkg !== undefined && !dev.packages.has(pkg)
        ? `unknown package: ${pkg}`
        : 'usage: sim notify PKG TITLE TEXT',
    );
  }
  const n = dev.postNotification({
    pkg,
    tag: null,
    title,
    text: text.join(' '),
    subText,
    channel,
    ongoing,
    importance: 3,
    actions,
  });
  await ctx.stdout.write(`0|${pkg}|${n.id}|null|${n.uid}\n`);
  return 0;
}

async function simDialog(ctx: CommandContext<Device>, dev: Device, args: string[]): Promise<number> {
  if (args[0] === 'dismiss') {
    dev.ui.dialog = null;
    return 0;
  }
  const [title, message = '', ...buttons] = args;
  if (title === undefined) {
    return fail(ctx, 'usage: sim dialog TITLE MESSAGE [BUTTON…] | sim dialog dismiss');
  }
  dev.ui.dialog = { title, message, buttons: buttons.length === 0 ? ['OK'] : buttons, pkg: 'android' };
  return 0;
}

/**
 * `sim toast PACKAGE TEXT [MS]`: a toast of PACKAGE for MS ms (default 2,000: Toast.LENGTH_SHORT,
 * NotificationManagerService.SHORT_DELAY in AOSP). It is a window of its own in `dumpsys window
 * windows` (commands/dumpsys-window.ts); a `uiautomator dump` of the active window does not hold it.
 */
async function simToast(ctx: CommandContext<Device>, dev: Device, args: string[]): Promise<number> {
  const [pkg, text, ms = '2000'] = args;
  if (pkg === undefined || text === undefined || !/^\d+$/.test(ms)) {
    return fail(ctx, 'usage: sim toast PACKAGE TEXT [MS]');
  }
  dev.ui.toast = { text, pkg, until: Date.now() + Number(ms) };
  return 0;
}

async function simLocation(ctx: CommandContext<Device>, dev: Device, args: string[]): Promise<number> {
  const [lat, lon, alt] = args.map(Number);
  if (lat === undefined || lon === undefined || Number.isNaN(lat) || Number.isNaN(lon)) {
    return fail(ctx, 'usage: sim location LATITUDE LONGITUDE [ALTITUDE]');
  }
  dev.setLocation(lon, lat, alt ?? 0);
  return 0;
}

/**
 * Settings' language picker: system_server (LocalePicker.updateLocales) persists the choice as
 * persist.sys.locale, a property the shell user cannot set itself.
 */
async function simLocale(ctx: CommandContext<Device>, dev: Device, args: string[]): Promise<number> {
  const [tag] = args;
  if (tag === undefined || !/^[a-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$/.test(tag)) {
    return fail(ctx, 'usage: sim locale TAG (a BCP 47 tag such as de-DE)');
  }
  dev.propOverrides.set('persist.sys.locale', tag);
  return 0;
}

/** `sim app-server URL|off`: the server the sample app's sign-in posts to (none: it signs anyone in). */
async function simAppServer(ctx: CommandContext<Device>, dev: Device, args: string[]): Promise<number> {
  const [url] = args;
  if (url === 'off') {
    dev.sampleApi = null;
    return 0;
  }
  if (url === undefined || !/^https?:\/\/[^\s]+$/.test(url)) {
    return fail(ctx, 'usage: sim app-server URL|off (http://10.0.2.2:PORT reaches the host)');
  }
  dev.sampleApi = url;
  return 0;
}

type Subcommand = (ctx: CommandContext<Device>, dev: Device, args: string[]) => Promise<number>;

const SUBCOMMANDS: Record<string, Subcommand> = {
  stats: simStats,
  screen: simScreen,
  screencap: simScreencap,
  logcat: simLogcat,
  crash: simCrash,
  latency: simLatency,
  log: simLog,
  notify: simNotify,
  dialog: simDialog,
  toast: simToast,
  location: simLocation,
  locale: simLocale,
  'app-server': simAppServer,
};

/**
 * What each control changes of a profile device's recording (src/sim/device/recorded-reads.ts): the
 * recorded answers that show it go stale, as they do after a shell command that changes the device.
 */
const STALES: Readonly<Record<string, readonly Domain[]>> = {
  screen: ['screen'],
  screencap: ['screen'],
  crash: ['processes', 'screen'],
  notify: ['notifications', 'screen'],
  dialog: ['screen'],
  toast: ['screen'],
  location: ['location'],
  locale: ['props'],
};

/** The `sim` built-in: test and demo controls that no real device has. */
export const sim: CommandFn<Device> = async (ctx) => {
  const [sub, ...args] = ctx.argv.slice(1);
  const run = sub !== undefined && Object.hasOwn(SUBCOMMANDS, sub) ? SUBCOMMANDS[sub] : undefined;
  if (run) {
    const status = await run(ctx, ctx.host, args);
    for (const domain of status === 0 ? (STALES[sub!] ?? []) : []) {
      ctx.host.replay?.invalidate(domain);
    }
    return status;
  }
  await ctx.stdout.write(USAGE);
  return sub === undefined || sub === 'help' ? 0 : 1;
};
