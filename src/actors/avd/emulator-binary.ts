/**
 * The SDK's `emulator` binary: which one (the SDK located as the health check does; an untrusted
 * project's local.properties is ignored, so a project can never choose the program that runs),
 * `-list-avds`, and starting `-avd NAME` as a detached process whose output goes to a log file in
 * the data directory (an emulator outlives the droidbus process that started it, as it would outlive
 * an IDE).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readSync, fstatSync } from 'node:fs';
import path from 'node:path';
import { locateEmulator, locateSdk } from '../../adb/sdk.js';
import { findGradleRoot } from '../../project/gradle-root.js';
import { canonicalProjectRoot, isProjectTrusted } from '../../project/trust.js';
import { dataPath, ensureDataDir } from '../../store/data-dir.js';
import { AVD_NAME_RE } from '../../util/app-args.js';
import { runProcess } from '../../util/exec.js';

export interface EmulatorLocation {
  emulator: string | null;
  sdk: string | null;
  /** What to do when there is no emulator. */
  hint: string | null;
}

/** Finds the emulator binary for a session's project (null root: no project). */
export function findEmulator(root: string | null): EmulatorLocation {
  let trusted = false;
  let projectRoot: string | null = null;
  if (root !== null) {
    const canonical = canonicalProjectRoot(root);
    projectRoot = findGradleRoot(canonical) ?? canonical;
    trusted = isProjectTrusted(projectRoot);
  }
  const sdk = locateSdk(projectRoot, trusted);
  const emulator = locateEmulator(sdk.path);
  if (emulator !== null) {
    return { emulator, sdk: sdk.path, hint: null };
  }
  const where =
    sdk.path !== null
      ? `the Android SDK at ${sdk.path} has no emulator/emulator`
      : `no Android SDK was found (${sdk.tried.join('; ') || 'nothing to try'})`;
  return {
    emulator: null,
    sdk: sdk.path,
    hint: `${where}. Install the Android Emulator (sdkmanager "emulator") and set ANDROID_HOME to the SDK.`,
  };
}

/** How to run the binary: directly, or through cmd.exe for a Windows batch file. */
function invocation(
  emulator: string,
  args: readonly string[],
): { file: string; args: string[]; verbatim: boolean } {
  if (process.platform === 'win32' && /\.(bat|cmd)$/i.test(emulator)) {
    // Node refuses to spawn batch files without a shell; every argument here is validated (AVD names).
    const line = [`"${emulator}"`, ...args].join(' ');
    return {
      file: process.env['ComSpec'] ?? 'cmd.exe',
      args: ['/d', '/s', '/c', `"${line}"`],
      verbatim: true,
    };
  }
  return { file: emulator, args: [...args], verbatim: false };
}

/** The AVD names `emulator -list-avds` prints (its INFO/WARNING lines are skipped). */
export function parseAvdList(output: string): string[] {
  return output
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => AVD_NAME_RE.test(l));
}

/** Runs `emulator -list-avds`. */
export async function listAvds(
  emulator: string,
  signal: AbortSignal,
): Promise<{ avds: string[]; error: string | null }> {
  const run = invocation(emulator, ['-list-avds']);
  const r = await runProcess(run.file, run.args, { timeoutMs: 20_000, signal, maxOutputBytes: 256 * 1024 });
  if (r.spawnError !== undefined || r.timedOut || r.code !== 0) {
    const why = r.spawnError ?? (r.timedOut ? 'timed out after 20 s' : `exited with ${r.code ?? r.signal}`);
    return {
      avds: parseAvdList(r.stdout),
      error: `${emulator} -list-avds ${why}: ${r.stderr.trim().slice(0, 300)}`,
    };
  }
  return { avds: parseAvdList(r.stdout), error: null };
}

/** The log file an AVD's emulator writes to. */
export function emulatorLogPath(name: string): string {
  return dataPath('avd-logs', `${name}.log`);
}

/** Starts `emulator -avd NAME`, detached, its output to the AVD's log file. */
export function startEmulator(emulator: string, name: string): ChildProcess {
  if (!AVD_NAME_RE.test(name)) {
    throw new Error(`not an AVD name: ${name}`);
  }
  ensureDataDir();
  const log = emulatorLogPath(name);
  mkdirSync(path.dirname(log), { recursive: true, mode: 0o700 });
  const fd = openSync(log, 'w', 0o600);
  try {
    const run = invocation(emulator, ['-avd', name]);
    const child = spawn(run.file, run.args, {
      detached: true,
      stdio: ['ignore', fd, fd],
      windowsHide: true,
      windowsVerbatimArguments: run.verbatim,
    });
    child.unref();
    return child;
  } finally {
    closeSync(fd);
  }
}

/** The end of an emulator's log, for error messages. */
export function logTail(name: string, maxBytes = 1500): string {
  let fd: number | undefined;
  try {
    fd = openSync(emulatorLogPath(name), 'r');
    const size = fstatSync(fd).size;
    const length = Math.min(size, maxBytes);
    const buf = Buffer.alloc(length);
    readSync(fd, buf, 0, length, size - length);
    return buf.toString('utf8').trim();
  } catch {
    return '';
  } finally {
    if (fd !== undefined) {
      closeSync(fd);
    }
  }
}

/** Stops an emulator process this droidbus started (its whole process group on POSIX). */
export function killEmulator(child: ChildProcess): void {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) {
    return;
  }
  try {
    if (process.platform === 'win32') {
      child.kill();
    } else {
      process.kill(-child.pid, 'SIGTERM');
    }
  } catch {
    child.kill();
  }
}
