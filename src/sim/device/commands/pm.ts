import type { CommandContext, CommandFn } from '../../shell/command.js';
import { absPath } from '../../shell/command.js';
import type { Device } from '../device.js';
import { REASON } from '../exit-info.js';
import { clearPackage, installPackage, killPackage, uninstallPackage } from '../lifecycle.js';
import { isKnownPermission, RUNTIME_PERMISSIONS, shortComponent } from '../packages.js';
import { dumpPackages } from './dumpsys-package.js';
import { exception } from './pm-exception.js';
import type { PmContext } from './pm-exception.js';
import { queryActivities, resolve } from './pm-resolve.js';

type Ctx = PmContext;

interface Session {
  /** Written APKs by split name, in order. */
  files: Map<string, Uint8Array>;
  grant: boolean;
  allowDowngrade: boolean;
}

const sessions = new WeakMap<Device, Map<number, Session>>();
let nextSessionId = 1_000_000 + Math.floor(Math.random() * 900_000_000);

function sessionsOf(dev: Device): Map<number, Session> {
  let m = sessions.get(dev);
  if (m === undefined) {
    m = new Map();
    sessions.set(dev, m);
  }
  return m;
}

/** Reads exactly `size` bytes (or to end of input) from stdin: what `adb install` streams. */
async function readStdin(ctx: Ctx, size: number): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let got = 0;
  while (got < size) {
    const c = await ctx.stdin.read();
    if (c === null) {
      break;
    }
    const take = c.length > size - got ? c.subarray(0, size - got) : c;
    chunks.push(take);
    got += take.length;
  }
  const out = new Uint8Array(got);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

async function pmInstall(ctx: Ctx, sub: string, args: string[]): Promise<number> {
  const dev = ctx.host;
  let size = -1;
  let grant = false;
  let allowDowngrade = false;
  const paths: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (a === '-S') {
      size = Number(args[++i]);
    } else if (a === '-g') {
      grant = true;
    } else if (a === '-d') {
      allowDowngrade = true;
    } else if (
      [
        '--user',
        '-i',
        '--install-reason',
        '--abi',
        '--pkg',
        '-p',
        '--originating-uri',
        '--referrer',
        '--install-location',
        '--force-uuid',
        '--staged-ready-timeout',
        '--update-ownership',
      ].includes(a)
    ) {
      i++;
    } else if (a.startsWith('-')) {
      // -r, -t, -f, --dont-kill, --full, --instant, --streaming, … change nothing here.
    } else {
      paths.push(a);
    }
  }
  const sessionId = nextSessionId++;
  let bytes: Uint8Array;
  if (paths.length > 0) {
    try {
      bytes = ctx.fs.read(absPath(ctx, paths[0] as string));
    } catch {
      return exception(
        ctx,
        sub,
        `java.lang.IllegalArgumentException: Error: Can't stat file: ${paths[0] ?? ''}`,
      );
    }
  } else if (size >= 0) {
    bytes = await readStdin(ctx, size);
  } else {
    await ctx.stderr.write('Error: must either specify a package size or an APK file\n');
    return 1;
  }
  const result = installPackage(dev, bytes, { allowDowngrade, sessionId, grantAll: grant });
  if (result === 'Success') {
    await ctx.stdout.write('Success\n');
    return 0;
  }
  await ctx.stderr.write(result + '\n');
  return 1;
}

async function listPackages(ctx: Ctx, args: string[]): Promise<number> {
  const dev = ctx.host;
  const flags = new Set<string>();
  let filter: string | null = null;
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (a === '--user' || a === '--uid') {
      i++;
    } else if (a.startsWith('--')) {
      flags.add(a);
    } else if (a.startsWith('-')) {
      for (const f of a.slice(1)) {
        flags.add(f);
      }
    } else {
      filter = a;
    }
  }
  const lines: string[] = [];
  for (const p of [...dev.packages.values()].sort((a, b) => (a.info.name < b.info.name ? -1 : 1))) {
    const { info } = p;
    if (
      (flags.has('3') && info.system) ||
      (flags.has('s') && !info.system) ||
      (flags.has('d') && p.enabled) ||
      (flags.has('e') && !p.enabled)
    ) {
      continue;
    }
    if (filter !== null && !info.name.includes(filter)) {
      continue;
    }
    let line = 'package:' + (flags.has('f') ? `${info.apkPath}=` : '') + info.name;
    if (flags.has('--show-versioncode')) {
      line += ` versionCode:${info.versionCode}`;
    }
    if (flags.has('U')) {
      line += ` uid:${p.uid}`;
    }
    if (flags.has('i')) {
      line += `  installer=${info.system ? 'null' : 'com.android.shell'}`;
    }
    lines.push(line);
  }
  await ctx.stdout.write(lines.map((l) => l + '\n').join(''));
  return 0;
}

async function grantRevoke(ctx: Ctx, sub: 'grant' | 'revoke', args: string[]): Promise<number> {
  const dev = ctx.host;
  const ops = args.filter((a, i) => a !== '--user' && args[i - 1] !== '--user' && !a.startsWith('--'));
  const [pkg, perm] = ops;
  if (pkg === undefined || perm === undefined) {
    return exception(
      ctx,
      sub,
      `java.lang.IllegalArgumentException: Error: no ${pkg === undefined ? 'package' : 'permission'} specified`,
    );
  }
  const p = dev.packages.get(pkg);
  if (p === undefined) {
    return exception(ctx, sub, `java.lang.IllegalArgumentException: Unknown package: ${pkg}`);
  }
  if (!isKnownPermission(perm)) {
    return exception(ctx, sub, `java.lang.IllegalArgumentException: Unknown permission: ${perm}`);
  }
  if (!p.info.permissions.includes(perm)) {
    return exception(
      ctx,
      sub,
      `java.lang.SecurityException: Package ${pkg} has not requested permission ${perm}`,
    );
  }
  if (!RUNTIME_PERMISSIONS.has(perm)) {
    return exception(
      ctx,
      sub,
      `java.lang.SecurityException: Permission ${perm} requested by ${pkg} is not a changeable permission type`,
    );
  }
  if (sub === 'grant') {
    p.granted.add(perm);
  } else if (p.granted.delete(perm)) {
    // Revoking a runtime permission kills the app, as the system does.
    killPackage(dev, pkg, { reason: REASON.PERMISSION_CHANGE, description: `permissions revoked` });
  }
  return 0;
}

/**
 * `pm list instrumentation [-f] [TARGET-PACKAGE]` (AOSP PackageManagerShellCommand
 * runListInstrumentation): `instrumentation:` then, with -f, the APK path and `=`, the component's
 * short name and ` (target=PACKAGE)`, one per line — as real phones print it (e.g. facebook/encapp's
 * README: `instrumentation:com.facebook.encapp.test/androidx.test.runner.AndroidJUnitRunner
 * (target=com.facebook.encapp)`).
 */
async function listInstrumentation(ctx: CommandContext<Device>, args: string[]): Promise<number> {
  const withPath = args.includes('-f');
  const target = args.find((a) => !a.startsWith('-'));
  const lines = [...ctx.host.packages.values()].flatMap((p) =>
    (p.info.instrumentations ?? [])
      .filter((i) => target === undefined || i.targetPackage === target)
      .map(
        (i) =>
          `instrumentation:${withPath ? `${p.info.apkPath}=` : ''}${shortComponent(p.info.name, i.name)} (target=${i.targetPackage})\n`,
      ),
  );
  await ctx.stdout.write(lines.join(''));
  return 0;
}

/** The first operand: not an option, not the value of --user. */
function operandOf(rest: string[]): string | undefined {
  return rest.filter((a, i) => !a.startsWith('-') && rest[i - 1] !== '--user')[0];
}

async function pmList(ctx: CommandContext<Device>, sub: string, rest: string[]): Promise<number> {
  const what = rest[0];
  if (what === 'packages') {
    return listPackages(ctx, rest.slice(1));
  }
  if (what === 'users') {
    await ctx.stdout.write('Users:\n\tUserInfo{0:Owner:c13} running\n');
    return 0;
  }
  if (what === 'features') {
    await ctx.stdout.write(
      [
        'android.hardware.camera',
        'android.hardware.faketouch',
        'android.hardware.location.gps',
        'android.hardware.screen.portrait',
        'android.hardware.touchscreen',
        'android.hardware.wifi',
        'android.software.webview',
      ]
        .map((f) => `feature:${f}\n`)
        .join(''),
    );
    return 0;
  }
  if (what === 'instrumentation') {
    return listInstrumentation(ctx, rest.slice(1));
  }
  if (what === 'permission-groups' || what === 'libraries') {
    return 0;
  }
  if (what === 'permissions') {
    await ctx.stdout.write(
      'All Permissions:\n\n' + [...RUNTIME_PERMISSIONS].map((p) => `permission:${p}\n`).join(''),
    );
    return 0;
  }
  await ctx.stderr.write(`Error: unknown list type '${what ?? ''}'\n`);
  return 255;
}

async function pmInstallWrite(ctx: CommandContext<Device>, sub: string, rest: string[]): Promise<number> {
  const sizeIdx = rest.indexOf('-S');
  const size = sizeIdx >= 0 ? Number(rest[sizeIdx + 1]) : -1;
  const ops = rest.filter((a, i) => !a.startsWith('-') && rest[i - 1] !== '-S');
  const session = sessionsOf(ctx.host).get(Number(ops[0]));
  if (session === undefined) {
    return exception(
      ctx,
      sub,
      `java.lang.SecurityException: Caller has no access to session ${ops[0] ?? ''}`,
    );
  }
  const path = ops[2];
  const bytes =
    path !== undefined && path !== '-'
      ? ctx.fs.read(absPath(ctx, path))
      : await readStdin(ctx, size < 0 ? Number.MAX_SAFE_INTEGER : size);
  session.files.set(ops[1] ?? `split${session.files.size}`, bytes);
  await ctx.stdout.write(`Success: streamed ${bytes.length} bytes\n`);
  return 0;
}

async function pmInstallCommit(ctx: CommandContext<Device>, sub: string, rest: string[]): Promise<number> {
  const operand = (): string | undefined => operandOf(rest);
  const id = Number(operand());
  const session = sessionsOf(ctx.host).get(id);
  sessionsOf(ctx.host).delete(id);
  const files = [...(session?.files.entries() ?? [])];
  const bytes = (files.find(([name]) => /base/.test(name)) ?? files[0])?.[1];
  if (session === undefined || bytes === undefined) {
    await ctx.stderr.write('Failure [INSTALL_FAILED_INVALID_APK: No packages staged]\n');
    return 1;
  }
  const result = installPackage(ctx.host, bytes, {
    allowDowngrade: session.allowDowngrade,
    sessionId: id,
    grantAll: session.grant,
  });
  await (result === 'Success' ? ctx.stdout : ctx.stderr).write(result + '\n');
  return result === 'Success' ? 0 : 1;
}

async function pmSetEnabled(ctx: CommandContext<Device>, sub: string, rest: string[]): Promise<number> {
  const operand = (): string | undefined => operandOf(rest);
  const pkg = operand();
  const p = pkg === undefined ? undefined : ctx.host.packages.get(pkg);
  if (p === undefined) {
    return exception(ctx, sub, `java.lang.IllegalArgumentException: Unknown package: ${pkg ?? ''}`);
  }
  p.enabled = sub === 'enable' || sub === 'default-state';
  if (!p.enabled) {
    killPackage(ctx.host, p.info.name, { reason: REASON.USER_REQUESTED, description: 'pkg disabled' });
  }
  await ctx.stdout.write(
    `Package ${p.info.name} new state: ${sub === 'default-state' ? 'default' : sub === 'enable' ? 'enabled' : sub === 'disable' ? 'disabled' : 'disabled-user'}\n`,
  );
  return 0;
}

/** `pm` and `cmd package`. */
export const pm: CommandFn<Device> = async (ctx) => {
  const dev = ctx.host;
  const [sub, ...rest] = ctx.argv.slice(1);
  const operand = (): string | undefined => operandOf(rest);
  switch (sub) {
    case 'list':
      return pmList(ctx, sub, rest);
    case 'path': {
      const pkg = operand();
      const p = pkg === undefined ? undefined : dev.packages.get(pkg);
      if (p === undefined) {
        return 1;
      }
      await ctx.stdout.write(`package:${p.info.apkPath}\n`);
      return 0;
    }
    case 'install':
      return pmInstall(ctx, sub, rest);
    case 'install-create': {
      const id = nextSessionId++;
      sessionsOf(dev).set(id, {
        files: new Map(),
        grant: rest.includes('-g'),
        allowDowngrade: rest.includes('-d'),
      });
      await ctx.stdout.write(`Success: created install session [${id}]\n`);
      return 0;
    }
    case 'install-write':
      return pmInstallWrite(ctx, sub, rest);
    case 'install-commit':
      return pmInstallCommit(ctx, sub, rest);
    case 'install-abandon':
      sessionsOf(dev).delete(Number(operand()));
      await ctx.stdout.write('Success\n');
      return 0;
    case 'uninstall': {
      const pkg = operand();
      if (pkg === undefined) {
        return exception(ctx, sub, 'java.lang.IllegalArgumentException: Error: package name not specified');
      }
      const result = uninstallPackage(dev, pkg);
      await (result === 'Success' ? ctx.stdout : ctx.stderr).write(result + '\n');
      return result === 'Success' ? 0 : 1;
    }
    case 'clear': {
      const pkg = operand();
      const ok = pkg !== undefined && clearPackage(dev, pkg);
      await ctx.stdout.write(ok ? 'Success\n' : 'Failed\n');
      return ok ? 0 : 1;
    }
    case 'grant':
    case 'revoke':
      return grantRevoke(ctx, sub, rest);
    case 'reset-permissions':
      for (const p of dev.packages.values()) {
        p.granted.clear();
      }
      return 0;
    case 'dump': {
      const pkg = operand();
      await ctx.stdout.write(dumpPackages(dev, pkg));
      return 0;
    }
    case 'enable':
    case 'disable':
    case 'disable-user':
    case 'default-state':
      return pmSetEnabled(ctx, sub, rest);
    case 'resolve-activity':
      return resolve(ctx, rest);
    case 'query-activities':
      return queryActivities(ctx, rest);
    case 'get-install-location':
      await ctx.stdout.write('0[auto]\n');
      return 0;
    case 'set-installer':
    case 'trim-caches':
    case 'compile':
    case 'bg-dexopt-job':
      await ctx.stdout.write('Success\n');
      return 0;
    case undefined:
    case 'help':
      await ctx.stdout.write(
        'Package manager (package) commands:\n  help\n  path [--user USER_ID] PACKAGE\n  dump PACKAGE\n  list packages [-f] [-d] [-e] [-s] [-3] [-i] [-l] [-u] [-U] [--show-versioncode] [FILTER]\n  install [-rtfdgw] [-S BYTES] [PATH|-]\n  uninstall [-k] [--user USER_ID] PACKAGE\n  clear [--user USER_ID] PACKAGE\n  grant [--user USER_ID] PACKAGE PERMISSION\n  revoke [--user USER_ID] PACKAGE PERMISSION\n',
      );
      return 0;
    default:
      await ctx.stderr.write(`Unknown command: ${sub}\n`);
      return 255;
  }
};
