/**
 * What the device-admin actors do for install_apk and launch_app, done by a test with the real adb
 * client until those tools exist: `adb install`, the install record droidbus keeps (hash, the
 * build that lists it, the device's lastUpdateTime right after), and `am start -W` with its timing.
 * The tests publish the results as `app.installed` / `app.launched`, the events those actors publish.
 */
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import type { InstallRecord, LaunchEvent } from '../../src/bus/messages/app-events.js';
import type { Origin } from '../../src/bus/origin.js';
import type { AdbServer } from './adb-server.js';

/** An agent origin for records a test makes. */
export function agentOrigin(name = 'droidbus-e2e', standalone = true): Origin {
  return { kind: 'agent', session_id: randomUUID(), client_name: name, standalone };
}

/** `adb install -r APK`, then the install record droidbus keeps for it. */
export async function adbInstall(
  server: AdbServer,
  serial: string,
  apk: string,
  init: {
    package: string;
    by: Origin;
    buildId: string | null;
    module?: string | null;
    variant?: string | null;
    projectRoot?: string | null;
    versionCode?: number | null;
    versionName?: string | null;
    recordedBy?: 'standalone' | 'host';
  },
): Promise<InstallRecord> {
  const r = await server.adb(['-s', serial, 'install', '-r', apk]);
  if (r.code !== 0 || !r.stdout.includes('Success')) {
    throw new Error(`adb install failed: ${r.stdout}${r.stderr}`);
  }
  const dump = await server.adb(['-s', serial, 'shell', `dumpsys package ${init.package}`]);
  const last = /lastUpdateTime=(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)/.exec(dump.stdout)?.[1];
  return {
    id: randomUUID(),
    device: serial,
    package: init.package,
    apk_path: apk,
    apk_sha256: createHash('sha256').update(readFileSync(apk)).digest('hex'),
    apk_size: statSync(apk).size,
    version_code: init.versionCode ?? null,
    version_name: init.versionName ?? null,
    build_id: init.buildId,
    module: init.module ?? null,
    variant: init.variant ?? null,
    project_root: init.projectRoot ?? null,
    installed_at: new Date().toISOString(),
    device_last_update_ms: last ? Date.parse(last.replace(' ', 'T')) : null,
    installed_by: init.by,
    recorded_by: init.recordedBy ?? 'standalone',
  };
}

/** `am start -W -n PKG/ACTIVITY`, and the launch event with the timing the device reported. */
export async function amStartW(
  server: AdbServer,
  serial: string,
  pkg: string,
  activity: string,
  by: Origin,
): Promise<LaunchEvent> {
  const r = await server.adb(['-s', serial, 'shell', `am start -W -n ${pkg}/${activity}`]);
  if (r.code !== 0 || /Error/.test(r.stdout)) {
    throw new Error(`am start failed: ${r.stdout}${r.stderr}`);
  }
  const num = (re: RegExp): number | null => {
    const m = re.exec(r.stdout);
    return m ? Number(m[1]) : null;
  };
  return {
    device: serial,
    package: pkg,
    activity,
    restart: false,
    total_ms: num(/TotalTime: (\d+)/),
    wait_ms: num(/WaitTime: (\d+)/),
    launch_state: /LaunchState: (\w+)/.exec(r.stdout)?.[1] ?? null,
    displayed_ms: null,
    by,
    at: new Date().toISOString(),
  };
}

/** Polls `probe` until it returns a value, or fails after `ms`. */
export async function until<T>(
  what: string,
  probe: () => Promise<T | undefined> | T | undefined,
  ms = 30_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined) {
      return v;
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${what}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}
