import { execFile } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import { serverVersion } from './server-client.js';

const ADB = process.platform === 'win32' ? 'adb.exe' : 'adb';

function executable(path: string): boolean {
  try {
    accessSync(path, process.platform === 'win32' ? constants.F_OK : constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Where Android Studio puts the SDK by default on each platform. */
function defaultSdkDirs(env: NodeJS.ProcessEnv): string[] {
  const home = homedir();
  switch (process.platform) {
    case 'darwin':
      return [join(home, 'Library', 'Android', 'sdk')];
    case 'win32':
      return env['LOCALAPPDATA'] ? [join(env['LOCALAPPDATA'], 'Android', 'Sdk')] : [];
    default:
      return [join(home, 'Android', 'Sdk'), '/usr/lib/android-sdk'];
  }
}

/** Finds the SDK's adb the way users expect: ANDROID_HOME, ANDROID_SDK_ROOT, PATH, then the default SDK folders. */
export function findAdbBinary(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const candidates: string[] = [];
  for (const key of ['ANDROID_HOME', 'ANDROID_SDK_ROOT']) {
    const dir = env[key];
    if (dir) {
      candidates.push(join(dir, 'platform-tools', ADB));
    }
  }
  for (const dir of (env['PATH'] ?? '').split(delimiter)) {
    if (dir) {
      candidates.push(join(dir, ADB));
    }
  }
  for (const dir of defaultSdkDirs(env)) {
    candidates.push(join(dir, 'platform-tools', ADB));
  }
  return candidates.find(executable);
}

/** The adb server port users expect: the flag, else ANDROID_ADB_SERVER_PORT, else 5037. */
export function resolveAdbPort(flag: number | undefined, env: NodeJS.ProcessEnv = process.env): number {
  if (flag !== undefined) {
    return flag;
  }
  const fromEnv = Number(env['ANDROID_ADB_SERVER_PORT']);
  return Number.isInteger(fromEnv) && fromEnv > 0 && fromEnv < 65536 ? fromEnv : 5037;
}

/**
 * Makes sure an adb server answers on the port: if none does, starts one with the SDK's adb
 * (`adb -P PORT start-server`). Returns the adb used when it had to start one.
 */
export async function ensureAdbServer(
  port: number,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ started: boolean; adb?: string }> {
  if ((await serverVersion(port)) !== undefined) {
    return { started: false };
  }
  const adb = findAdbBinary(env);
  if (!adb) {
    throw new Error(
      `no adb server answers on port ${port} and no adb was found (looked in ANDROID_HOME, ANDROID_SDK_ROOT, PATH and the default SDK folders)`,
    );
  }
  await new Promise<void>((resolve, reject) => {
    execFile(adb, ['-P', String(port), 'start-server'], { env, timeout: 30_000 }, (err, _stdout, stderr) => {
      if (err) {
        reject(new Error(`${adb} -P ${port} start-server failed: ${stderr.trim() || err.message}`));
      } else {
        resolve();
      }
    });
  });
  if ((await serverVersion(port)) === undefined) {
    throw new Error(`started ${adb} on port ${port} but it does not answer`);
  }
  return { started: true, adb };
}
