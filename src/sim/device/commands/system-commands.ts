import type { CommandFn } from '../../shell/command.js';
import { SHELL_NAME } from '../../shell/interpreter.js';
import type { Device } from '../device.js';
import { REASON } from '../exit-info.js';
import { UID } from '../fs.js';
import { killPackage } from '../lifecycle.js';
import type { Priority } from '../log/log-store.js';
import { formatPs, PID } from '../processes.js';
import { isEmulator } from '../props.js';
import { since } from '../android-versions.js';

const ID_LINE =
  'uid=2000(shell) gid=2000(shell) groups=2000(shell),1004(input),1007(log),1011(adb),1015(sdcard_rw),1028(sdcard_r),1078(ext_data_rw),1079(ext_obb_rw),3001(net_bt_admin),3002(net_bt),3003(inet),3006(net_bw_stats),3009(readproc),3011(uhid),3012(readtracefs) context=u:r:shell:s0';

/**
 * After `adb root` on a debuggable build: adbd's shell runs as root in the `su` domain — the line
 * public emulator write-ups print for `adb root; adb shell id` (`… context=u:r:su:s0`, the groups
 * as the shell user's with root's first).
 */
const ROOT_ID_LINE =
  'uid=0(root) gid=0(root) groups=0(root),1004(input),1007(log),1011(adb),1015(sdcard_rw),1028(sdcard_r),1078(ext_data_rw),1079(ext_obb_rw),3001(net_bt_admin),3002(net_bt),3003(inet),3006(net_bw_stats),3009(readproc),3011(uhid),3012(readtracefs) context=u:r:su:s0';

/** `id [-u|-g|-n]`: adbd's shell user. */
export const id: CommandFn<Device> = async (ctx) => {
  const args = ctx.argv.slice(1).join('');
  const root = ctx.host.fs.superuser;
  const [num, name] = root ? ['0', 'root'] : ['2000', 'shell'];
  const out =
    args.includes('u') || args.includes('g')
      ? args.includes('n')
        ? name
        : num
      : root
        ? ROOT_ID_LINE
        : ID_LINE;
  await ctx.stdout.write(out + '\n');
  return 0;
};

/** `whoami`: the user adbd runs the shell as. */
export const whoami: CommandFn<Device> = async (ctx) => {
  await ctx.stdout.write(ctx.host.fs.superuser ? 'root\n' : 'shell\n');
  return 0;
};

/** `ps [-A] [-o COLS] [PID…]` in toybox's layout. */
/**
 * toybox ps's help (Android 8+: toybox's generated/help.h HELP_ps, tabs as there; an Android 8 phone's
 * `adb shell ps --help` quoted in a public adb client's source starts with the same usage line):
 * appium-adb reads it to learn that `-A` is there (`/^-A\b/m` on `ps --help`) before `ps -A`.
 */
const TOYBOX_PS_HELP = `usage: ps [-AadefLlnwZ] [-gG GROUP,] [-k FIELD,] [-o FIELD,] [-p PID,] [-t TTY,] [-uU USER,]

List processes.

Which processes to show (-gGuUpPt selections may be comma separated lists):

-A  All					-a  Has terminal not session leader
-d  All but session leaders		-e  Synonym for -A
-g  In GROUPs				-G  In real GROUPs (before sgid)
-p  PIDs (--pid)			-P  Parent PIDs (--ppid)
-s  In session IDs			-t  Attached to selected TTYs
-T  Show threads also			-u  Owned by selected USERs
-U  Real USERs (before suid)

Output modifiers:

-k  Sort FIELDs (-FIELD to reverse)	-M  Measure/pad future field widths
-n  Show numeric USER and GROUP		-w  Wide output (don't truncate fields)

Which FIELDs to show. (-o HELP for list, default = -o PID,TTY,TIME,CMD)

-f  Full listing (-o USER:12=UID,PID,PPID,C,STIME,TTY,TIME,ARGS=CMD)
-l  Long listing (-o F,S,UID,PID,PPID,C,PRI,NI,ADDR,SZ,WCHAN,TTY,TIME,CMD)
-o  Output FIELDs instead of defaults, each with optional :size and =title
-O  Add FIELDS to defaults
-Z  Include LABEL
`;

export const ps: CommandFn<Device> = async (ctx) => {
  const dev = ctx.host;
  const args = ctx.argv.slice(1);
  if (args.includes('--help') && since(dev.sdk, 'toyboxPs')) {
    await ctx.stdout.write(TOYBOX_PS_HELP);
    return 0;
  }
  const all = args.some((a) => /^-[a-zA-Z]*[Ae]/.test(a));
  const pids = args.filter((a) => /^\d+$/.test(a)).map(Number);
  const shPid = dev.procs.allocPid();
  const self = [
    { pid: shPid, ppid: PID.adbd, name: 'sh' },
    { pid: shPid + 1, ppid: shPid, name: 'ps' },
  ];
  let procs = dev.procs.all();
  if (pids.length > 0) {
    procs = procs.filter((p) => pids.includes(p.pid));
  } else if (!all) {
    procs = [];
  }
  const oIdx = args.indexOf('-o');
  if (oIdx >= 0 && args[oIdx + 1] !== undefined) {
    const cols = (args[oIdx + 1] as string).split(',').map((c) => c.toUpperCase());
    const rows = procs.map((p) =>
      cols
        .map((c) => {
          switch (c) {
            case 'PID':
              return String(p.pid).padStart(5);
            case 'PPID':
              return String(p.ppid).padStart(5);
            case 'USER':
            case 'UID':
              return c === 'UID' ? String(p.uid) : p.name;
            default:
              return p.name;
          }
        })
        .join(' '),
    );
    await ctx.stdout.write(
      [cols.map((c) => (c === 'PID' || c === 'PPID' ? c.padStart(5) : c)).join(' '), ...rows].join('\n') +
        '\n',
    );
    return 0;
  }
  await ctx.stdout.write(formatPs(procs, pids.length > 0 ? [] : self));
  return 0;
};

/** `pidof NAME…`. */
export const pidof: CommandFn<Device> = async (ctx) => {
  const dev = ctx.host;
  const names = ctx.argv.slice(1).filter((a) => !a.startsWith('-'));
  const single = ctx.argv.includes('-s');
  const pids = names.flatMap((n) => dev.procs.pidsOf(n));
  if (pids.length === 0) {
    return 1;
  }
  await ctx.stdout.write((single ? pids.slice(0, 1) : pids).join(' ') + '\n');
  return 0;
};

/** `kill [-SIG] PID…`: the shell user may not signal other users' processes. */
/**
 * `kill [-SIG|-s SIG] PID…`: the shell user may signal only its own processes ("Operation not
 * permitted" otherwise, as the kernel answers EPERM); root (`adb root`) may signal any, and an app's
 * process killed so is recorded as REASON_SIGNALED with the signal as its status
 * (ApplicationExitInfo).
 */
export const kill: CommandFn<Device> = async (ctx) => {
  const dev = ctx.host;
  const args = ctx.argv.slice(1);
  const sigArg = args.find((a, i) => /^-[A-Z0-9]+$/.test(a) || args[i - 1] === '-s');
  const signal = /^-?(9|KILL|SIGKILL)$/.test(sigArg ?? '') ? 9 : 15;
  const targets = args.filter((a, i) => /^\d+$/.test(a) && args[i - 1] !== '-s');
  let status = 0;
  for (const t of targets) {
    const p = dev.procs.byPid(Number(t));
    if (p === undefined) {
      await ctx.stderr.write(`${SHELL_NAME}: kill: ${t}: No such process\n`);
      status = 1;
    } else if (p.uid !== UID.shell && !dev.fs.superuser) {
      await ctx.stderr.write(`${SHELL_NAME}: kill: ${t}: Operation not permitted\n`);
      status = 1;
    } else if (p.pkg !== null && dev.procs.forPackage(p.pkg)?.pid === p.pid) {
      killPackage(dev, p.pkg, { reason: REASON.SIGNALED, status: signal, description: null });
    } else {
      dev.procs.kill(p.pid);
    }
  }
  return status;
};

/** `run-as PKG [CMD…]`: refused for unknown and non-debuggable packages, exactly as the tool words it. */
export const runAs: CommandFn<Device> = async (ctx) => {
  const dev = ctx.host;
  const args = ctx.argv.slice(1).filter((a, i, all) => a !== '--user' && all[i - 1] !== '--user');
  const pkg = args[0];
  if (pkg === undefined) {
    await ctx.stderr.write('usage: run-as <package-name> [--user <uid>] <command> [<args>]\n');
    return 1;
  }
  const p = dev.packages.get(pkg);
  if (p === undefined) {
    await ctx.stderr.write(`run-as: unknown package: ${pkg}\n`);
    return 1;
  }
  if (!p.info.debuggable) {
    await ctx.stderr.write(`run-as: package not debuggable: ${pkg}\n`);
    return 1;
  }
  const dataDir = `/data/data/${pkg}`;
  if (ctx.fs.tryResolve(dataDir, true) === null) {
    ctx.fs.put(dataDir, {
      type: 'dir',
      perm: 0o771,
      uid: UID.shell,
      gid: UID.shell,
      mtimeMs: Date.now(),
      ino: 0,
      children: new Map(),
    });
  }
  const cmd = args.slice(1).map((a) => `'${a.replace(/'/g, `'\\''`)}'`);
  if (cmd.length === 0) {
    return 0;
  }
  return ctx.runScript(`cd ${dataDir} && ${cmd.join(' ')}`);
};

/** `uname [-a|-r|-m|-s|-n]`. */
export const uname: CommandFn<Device> = async (ctx) => {
  const dev = ctx.host;
  const machine = isEmulator(dev.identity) ? 'x86_64' : 'aarch64';
  const release = '6.1.57-android14-11-g2dc8e0a0e1d4-ab11374156';
  const version = '#1 SMP PREEMPT Tue Jan 30 19:52:24 UTC 2024';
  const f = ctx.argv.slice(1).join('');
  const parts: string[] = [];
  if (f.includes('a')) {
    parts.push('Linux', 'localhost', release, version, machine, 'Toybox');
  } else {
    if (f === '' || f.includes('s')) {
      parts.push('Linux');
    }
    if (f.includes('n')) {
      parts.push('localhost');
    }
    if (f.includes('r')) {
      parts.push(release);
    }
    if (f.includes('v')) {
      parts.push(version);
    }
    if (f.includes('m')) {
      parts.push(machine);
    }
  }
  await ctx.stdout.write(parts.join(' ') + '\n');
  return 0;
};

/** `uptime`: toybox's line (toys/other/uptime.c: the time, `up` days and `%2d:%02d`, users, load). */
export const uptime: CommandFn<Device> = async (ctx) => {
  const d = new Date();
  const two = (n: number): string => String(n).padStart(2, '0');
  const minutes = Math.floor(ctx.host.uptimeMs() / 60_000);
  const days = Math.floor(minutes / 1440);
  const up = `${days > 0 ? `${days} day${days > 1 ? 's' : ''}, ` : ''}${String(Math.floor((minutes % 1440) / 60)).padStart(2)}:${two(minutes % 60)}`;
  await ctx.stdout.write(
    ` ${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())} up ${up},  0 users,  load average: 1.23, 0.98, 0.75\n`,
  );
  return 0;
};

/** `log [-p PRIORITY] [-t TAG] MESSAGE…`: writes one line into the device's main log. */
export const log: CommandFn<Device> = async (ctx) => {
  const dev = ctx.host;
  const args = ctx.argv.slice(1);
  let priority: Priority = 'I';
  let tag = 'log';
  const words: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (a === '-p') {
      const p = (args[++i] ?? 'i').toUpperCase();
      priority = (['V', 'D', 'I', 'W', 'E', 'F'].includes(p) ? p : 'I') as Priority;
    } else if (a === '-t') {
      tag = args[++i] ?? 'log';
    } else {
      words.push(a);
    }
  }
  const pid = dev.procs.allocPid();
  dev.log.log({ pid, tid: pid, uid: UID.shell, priority, tag, message: words.join(' ') });
  await Promise.resolve();
  return 0;
};
