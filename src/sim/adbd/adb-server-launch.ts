/**
 * Evidence: ANDROID_ADB_SERVER_PORT and the default port 5037 are adb's own
 * (packages/modules/adb/client/main.cpp, `adb --help`); notes/adb-facts.md.
 */
import { AdbClient } from '../../adb/client.js';
import { ensureAdbServer as ensureServer } from '../../adb/server-start.js';

/** The adb server port users expect: the flag, else ANDROID_ADB_SERVER_PORT, else 5037. */
export function resolveAdbPort(flag: number | undefined, env: NodeJS.ProcessEnv = process.env): number {
  if (flag !== undefined) {
    return flag;
  }
  const fromEnv = Number(env['ANDROID_ADB_SERVER_PORT']);
  return Number.isInteger(fromEnv) && fromEnv > 0 && fromEnv < 65536 ? fromEnv : 5037;
}

/**
 * Makes sure an adb server answers on the local port, starting one with the SDK's adb when none
 * does (droidbus's own server finding and starting, src/adb/server-start.ts). Returns the adb used
 * when it had to start one.
 */
export async function ensureAdbServer(port: number): Promise<{ started: boolean; adb?: string }> {
  const check = await ensureServer(
    new AdbClient({ kind: 'tcp', host: '127.0.0.1', port, source: 'droidbus sim' }),
  );
  return check.adb ? { started: check.started, adb: check.adb } : { started: check.started };
}
