/**
 * `install_apk` on the device: the APK must be an `.apk` under an application module's build outputs
 * whose canonical path is inside the project (`resolveApkPath`). It is opened once; the bytes read
 * from that one handle are hashed, parsed for the package, and streamed to the device, so what was
 * checked is what gets installed. The install is recorded in installed-builds.json, matched to the
 * build whose history lists that hash, with the lastUpdateTime the device reports right after, and
 * published as `app.installed`.
 */
import { READS, readCommand } from '../../../device/reads.js';
import type { Device } from '../../../device/device.js';
import { createHash, randomBytes } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import { BusError } from '../../../bus/errors.js';
import type { InstallRecord } from '../../../bus/messages/app-events.js';
import type { Origin } from '../../../bus/origin.js';
import type { PayloadOf, ResponseOf } from '../../../bus/registry.js';
import { resolveApkPath } from '../../../project/project-files.js';
import { readHistory } from '../../../store/build-history.js';
import { recordInstall } from '../../../store/installed-builds.js';
import { readApkInfo, type ApkInfo } from '../../../util/apk.js';
import type { HandlerContext } from '../../actor.js';
import { deviceShell } from '../../../device/device-shell.js';

/** The largest APK installed: it is held in memory between the hash and the device. */
export const MAX_INSTALL_BYTES = 512 * 1024 * 1024;
const CHUNK = 1024 * 1024;
const INSTALL_TIMEOUT_MS = 180_000;

/** Reads the whole file from the handle: its bytes in chunks and their SHA-256. */
async function readHashed(handle: FileHandle, size: number): Promise<{ sha256: string; chunks: Buffer[] }> {
  const hash = createHash('sha256');
  const chunks: Buffer[] = [];
  let position = 0;
  while (position < size) {
    const buf = Buffer.allocUnsafe(Math.min(CHUNK, size - position));
    const { bytesRead } = await handle.read(buf, 0, buf.length, position);
    if (bytesRead === 0) {
      break;
    }
    const chunk = buf.subarray(0, bytesRead);
    hash.update(chunk);
    chunks.push(chunk);
    position += bytesRead;
  }
  if (position !== size) {
    throw new BusError(
      'FAILED',
      `the APK changed size while it was read (${position} of ${size} bytes); build again`,
    );
  }
  return { sha256: hash.digest('hex'), chunks };
}

/** The build in droidbus's history that wrote an APK with this hash (the newest such build), if any. */
export function buildOfApk(
  sha256: string,
): { build_id: string; module: string | null; variant: string | null } | null {
  const history = readHistory();
  for (let i = history.length - 1; i >= 0; i--) {
    const record = history[i]!;
    const apk = record.apks.find((a) => a.sha256 === sha256);
    if (apk) {
      return {
        build_id: record.id,
        module: apk.module ?? record.module,
        variant: apk.variant ?? record.variant,
      };
    }
  }
  return null;
}

/** `lastUpdateTime=2024-05-01 10:11:12` from `dumpsys package`, as epoch ms in the host's zone (as retrace reads it). */
export function parseLastUpdateMs(dump: string): number | null {
  const m = /lastUpdateTime=(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})/.exec(dump);
  if (!m) {
    return null;
  }
  const ms = Date.parse(`${m[1]}T${m[2]}`);
  return Number.isNaN(ms) ? null : ms;
}

/** Which kind of droidbus process records an install asked for by `origin`. */
function recordedBy(origin: Origin): InstallRecord['recorded_by'] {
  if (origin.kind === 'agent') {
    return origin.standalone ? 'standalone' : 'host';
  }
  return origin.kind === 'cli' ? 'standalone' : 'host';
}

/** The `Recorded …` line an install result ends with. */
export function recordedLine(record: InstallRecord): string {
  const version =
    record.version_name !== null ? ` ${record.version_name} (${record.version_code ?? '?'})` : '';
  const build =
    record.build_id !== null
      ? `build ${record.build_id}${record.module || record.variant ? ` (${[record.module, record.variant].filter(Boolean).join(' ')})` : ''}`
      : "no build in droidbus's history lists this APK";
  return `Recorded ${record.package}${version} on ${record.device}: sha256 ${record.apk_sha256.slice(0, 16)}…, ${build}.`;
}

/** `device.install_app`. */
export async function installApk(
  device: Device,
  p: PayloadOf<'device.install_app'>,
  ctx: HandlerContext,
): Promise<ResponseOf<'device.install_app'>> {
  const { serial } = device;
  const project = await ctx.bus.request('project.describe', { root: p.root }, { signal: ctx.signal });
  const root = project.gradle_root;
  if (root === null || project.model === null) {
    throw new BusError(
      'INVALID',
      `${project.project_root} is not a Gradle project, so no APK of it can be installed`,
    );
  }
  const moduleDirs = project.model.application_modules.flatMap((m) => (m.dir !== null ? [m.dir] : []));
  const opened = await resolveApkPath(root, moduleDirs, p.apk_path);
  if (!opened.ok) {
    if (opened.code === 'not_found') {
      throw new BusError(
        'FAILED',
        `${opened.reason}; build it first (run_gradle_task), or call find_apk_path`,
      );
    }
    throw new BusError('INVALID', `apk_path refused: ${opened.reason}`);
  }
  let sha256: string;
  let chunks: Buffer[];
  let info: ApkInfo;
  try {
    if (opened.size > MAX_INSTALL_BYTES) {
      throw new BusError(
        'FAILED',
        `${opened.path} is ${opened.size} bytes; droidbus installs APKs up to ${MAX_INSTALL_BYTES / 1024 / 1024} MiB`,
      );
    }
    ({ sha256, chunks } = await readHashed(opened.handle, opened.size));
  } finally {
    await opened.handle.close();
  }
  try {
    info = readApkInfo(Buffer.concat(chunks));
  } catch (err) {
    throw new BusError(
      'FAILED',
      `${opened.path} is not an APK droidbus can read (${err instanceof Error ? err.message : String(err)})`,
    );
  }
  const output = await device.install(
    {
      size: opened.size,
      chunks: (async function* () {
        yield* chunks;
      })(),
    },
    { signal: ctx.signal, timeoutMs: INSTALL_TIMEOUT_MS },
  );
  const dump = await deviceShell(device, ctx.signal)(
    readCommand(READS.packageDump, { package: info.packageName }),
    {
      timeoutMs: 15_000,
    },
  ).catch(() => null);
  const build = buildOfApk(sha256);
  const record: InstallRecord = {
    id: `i${Date.now().toString(36)}${randomBytes(4).toString('hex')}`,
    device: serial,
    package: info.packageName,
    apk_path: opened.path,
    apk_sha256: sha256,
    apk_size: opened.size,
    version_code: info.versionCode,
    version_name: info.versionName,
    build_id: build?.build_id ?? null,
    module: build?.module ?? null,
    variant: build?.variant ?? null,
    project_root: root,
    installed_at: new Date().toISOString(),
    device_last_update_ms: dump !== null ? parseLastUpdateMs(dump.stdout) : null,
    installed_by: ctx.origin,
    recorded_by: recordedBy(ctx.origin),
  };
  await recordInstall(record);
  ctx.emit('app.installed', record);
  return {
    record,
    output: output.slice(0, 2000),
    recorded: recordedLine(record),
    launchable_activity: info.launchableActivity,
  };
}
