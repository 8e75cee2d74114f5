/**
 * The file tools' device side: every path is resolved on the device with `realpath` (quoted) and
 * must land inside a folder the user allowed for this serial (`droidbus storage allow`, read fresh
 * from settings on every call); only regular files and folders are touched; host files live only in
 * `<data dir>/exchange/`. Transfers use the adb sync service.
 */
import path from 'node:path';
import type { Device } from '../../../device/device.js';
import { BusError } from '../../../bus/errors.js';
import type { PayloadOf, ResponseOf } from '../../../bus/registry.js';
import { sh } from '../../../adb/shell-command.js';
import type { ShellCommand } from '../../../adb/shell-command.js';
import { allowedDeviceDirs } from '../../../store/device-storage.js';
import {
  ExchangeError,
  checkExchangeName,
  readExchangeFile,
  writeExchangeFile,
} from '../../../store/exchange.js';
import { isInside } from '../../../util/device-path.js';
import type { HandlerContext } from '../../actor.js';

/** The largest file pulled or pushed. */
export const MAX_TRANSFER_BYTES = 50 * 1024 * 1024;
/** Text up to this size comes back inline. */
export const MAX_INLINE_TEXT_BYTES = 256 * 1024;
/** Binary content under this size comes back as an embedded resource. */
export const MAX_INLINE_BINARY_BYTES = 1024 * 1024;

const S_IFMT = 0o170000;
const S_IFDIR = 0o040000;
const S_IFREG = 0o100000;
const S_IFLNK = 0o120000;

/** Turns exchange-folder failures into bus errors the model can act on. */
function exchangeError(err: unknown): unknown {
  if (!(err instanceof ExchangeError)) {
    return err;
  }
  return new BusError(err.kind === 'missing' ? 'NOT_FOUND' : 'INVALID', err.message);
}

/**
 * Resolves device paths with one shell call: each becomes one `@@<realpath>` line (`@@` alone when it
 * does not resolve). A resolved name with a line break would add a line, so any line without the
 * marker refuses the lot.
 */
export async function resolveDevicePaths(
  device: Device,
  paths: readonly string[],
  signal: AbortSignal,
): Promise<(string | null)[]> {
  const { serial } = device;
  const command = paths
    .map((p) => sh`printf '@@%s\\n' "$(realpath ${p} 2>/dev/null)"`)
    .join('; ') as ShellCommand;
  const out = await device.shell(command, { signal, timeoutMs: 30_000, maxBytes: 1024 * 1024 });
  const lines = out.stdout.split('\n');
  if (lines[lines.length - 1] === '') {
    lines.pop();
  }
  if (lines.length !== paths.length || lines.some((l) => !l.startsWith('@@'))) {
    throw new BusError(
      'FAILED',
      `could not resolve the paths on ${serial} (a name with a line break, or no realpath on the device): ${(out.stderr || out.stdout).trim().slice(0, 200)}`,
    );
  }
  return lines.map((l) => {
    const resolved = l.slice(2).replace(/\r$/, '');
    return resolved.startsWith('/') ? resolved : null;
  });
}

interface Guarded {
  /** The canonical device path. */
  resolved: string;
  /** The allowed folder (as the user wrote it) it is inside. */
  allowed: string;
}

/** Refuses unless `target` resolves (on the device) inside a folder the user allowed on this device. */
async function guard(device: Device, target: string, ctx: HandlerContext, what: string): Promise<Guarded> {
  const { serial } = device;
  const allowed = allowedDeviceDirs(serial);
  if (allowed.length === 0) {
    throw new BusError(
      'INVALID',
      `No folder on ${serial} is open to the file tools. Only the user can allow one, in a terminal: droidbus storage allow ${serial} /sdcard/Download (any folder they choose). Ask them; no tool can do it.`,
    );
  }
  const resolved = await resolveDevicePaths(device, [...allowed, target], ctx.signal);
  const real = resolved[resolved.length - 1] ?? null;
  if (real === null) {
    throw new BusError(
      'NOT_FOUND',
      `${what} ${target} does not exist on ${serial} (or the shell user cannot see it)`,
    );
  }
  for (let i = 0; i < allowed.length; i++) {
    const root = resolved[i];
    if (root !== null && root !== undefined && isInside(root, real)) {
      return { resolved: real, allowed: allowed[i]! };
    }
  }
  throw new BusError(
    'INVALID',
    `${target} resolves to ${real} on ${serial}, which is outside the folders the user allowed (${allowed.join(', ')}). Symlinks are followed before this check. Ask the user to allow the folder (droidbus storage allow ${serial} FOLDER) if it is meant to be reachable.`,
  );
}

function fileType(mode: number): 'file' | 'dir' | 'link' | 'other' {
  switch (mode & S_IFMT) {
    case S_IFREG:
      return 'file';
    case S_IFDIR:
      return 'dir';
    case S_IFLNK:
      return 'link';
    default:
      return 'other';
  }
}

async function statOf(device: Device, real: string) {
  return device.stat(real).catch((err: unknown) => {
    throw new BusError('FAILED', `cannot stat ${real}: ${err instanceof Error ? err.message : String(err)}`);
  });
}

/** `device.list_files`: the entries of an allowed folder. */
export async function listDeviceFiles(
  device: Device,
  p: PayloadOf<'device.list_files'>,
  ctx: HandlerContext,
): Promise<ResponseOf<'device.list_files'>> {
  const g = await guard(device, p.path, ctx, 'folder');
  const st = await statOf(device, g.resolved);
  if (fileType(st.mode) !== 'dir') {
    throw new BusError('INVALID', `${p.path} is not a folder; use pull_device_file to read a file`);
  }
  const entries = await device.list(g.resolved, 20_000);
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return {
    path: p.path,
    resolved_path: g.resolved,
    allowed_folder: g.allowed,
    entries: entries.slice(0, p.limit).map((e) => ({
      name: e.name,
      type: fileType(e.mode),
      size: Number(e.size),
      mode: (e.mode & 0o7777).toString(8).padStart(4, '0'),
      modified: new Date(Number(e.mtime) * 1000).toISOString(),
    })),
    total: entries.length,
    truncated: entries.length > p.limit,
  };
}

const MIME_BY_EXT: Readonly<Record<string, string>> = {
  '.txt': 'text/plain',
  '.log': 'text/plain',
  '.csv': 'text/csv',
  '.json': 'application/json',
  '.xml': 'application/xml',
  '.html': 'text/html',
  '.md': 'text/markdown',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.gif': 'image/gif',
  '.mp4': 'video/mp4',
  '.pdf': 'application/pdf',
  '.zip': 'application/zip',
  '.apk': 'application/vnd.android.package-archive',
  '.db': 'application/vnd.sqlite3',
};

/** UTF-8 without NULs counts as text. */
function asText(data: Uint8Array): string | null {
  if (data.includes(0)) {
    return null;
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(data);
  } catch {
    return null;
  }
}

/** `device.pull_file`: copies an allowed regular file into the exchange folder; small content comes back inline. */
export async function pullDeviceFile(
  device: Device,
  p: PayloadOf<'device.pull_file'>,
  ctx: HandlerContext,
): Promise<ResponseOf<'device.pull_file'>> {
  let name: string;
  try {
    name = checkExchangeName(p.exchange_name ?? path.posix.basename(p.path));
  } catch (err) {
    throw new BusError(
      'INVALID',
      `${(err as Error).message}. Pass exchange_name to choose the name the copy gets in the exchange folder.`,
    );
  }
  const g = await guard(device, p.path, ctx, 'file');
  const st = await statOf(device, g.resolved);
  const type = fileType(st.mode);
  if (type !== 'file') {
    throw new BusError(
      'INVALID',
      type === 'dir'
        ? `${p.path} is a folder; use list_device_files`
        : `${p.path} is a special file (device, pipe or socket); only regular files are pulled`,
    );
  }
  if (st.size > BigInt(MAX_TRANSFER_BYTES)) {
    throw new BusError(
      'INVALID',
      `${p.path} is ${st.size} bytes; the limit is ${MAX_TRANSFER_BYTES} (50 MiB)`,
    );
  }
  const data = await device.pull(g.resolved, MAX_TRANSFER_BYTES);
  let hostPath: string;
  try {
    hostPath = writeExchangeFile(name, data, p.overwrite);
  } catch (err) {
    throw exchangeError(err);
  }
  const text = data.length <= MAX_INLINE_TEXT_BYTES ? asText(data) : null;
  const binary =
    text === null && data.length < MAX_INLINE_BINARY_BYTES && asText(data) === null
      ? Uint8Array.from(data)
      : null;
  const ext = path.posix.extname(g.resolved).toLowerCase();
  return {
    device_path: p.path,
    resolved_path: g.resolved,
    bytes: data.length,
    exchange_name: name,
    host_path: hostPath,
    text,
    binary,
    mime_type:
      MIME_BY_EXT[ext] ??
      (asText(data.subarray(0, 4096)) !== null ? 'text/plain' : 'application/octet-stream'),
  };
}

/** `device.push_file`: copies an exchange file to an allowed device path; an existing file needs `overwrite`. */
export async function pushDeviceFile(
  device: Device,
  p: PayloadOf<'device.push_file'>,
  ctx: HandlerContext,
): Promise<ResponseOf<'device.push_file'>> {
  const { serial } = device;
  let data: Buffer;
  try {
    data = readExchangeFile(p.exchange_name, MAX_TRANSFER_BYTES);
  } catch (err) {
    throw exchangeError(err);
  }
  const base = path.posix.basename(p.path);
  const parent = path.posix.dirname(p.path);
  if (base === '' || parent === p.path) {
    throw new BusError('INVALID', `${p.path} names no file`);
  }
  const g = await guard(device, parent, ctx, 'folder');
  const dirStat = await statOf(device, g.resolved);
  if (fileType(dirStat.mode) !== 'dir') {
    throw new BusError('INVALID', `${parent} is not a folder`);
  }
  const target = g.resolved === '/' ? `/${base}` : `${g.resolved}/${base}`;
  const existing = await device.lstat(target);
  let replaced = false;
  if (existing !== null) {
    const type = fileType(existing.mode);
    if (type === 'link') {
      throw new BusError('INVALID', `${p.path} is a symbolic link; droidbus does not write through links`);
    }
    if (type !== 'file') {
      throw new BusError(
        'INVALID',
        `${p.path} is ${type === 'dir' ? 'a folder' : 'a special file'}; only regular files are written`,
      );
    }
    if (!p.overwrite) {
      throw new BusError(
        'INVALID',
        `${p.path} already exists on ${serial} (${existing.size} bytes); pass overwrite: true to replace it`,
      );
    }
    replaced = true;
  }
  await device.push(target, data, 0o660);
  return { device_path: p.path, resolved_path: target, bytes: data.length, replaced };
}
