/**
 * The only way droidbus reads files of a project: a path is accepted when its canonical form (all
 * symlinks resolved) is a regular file inside the canonical project root. Files are opened once,
 * without following a final symlink, and the open descriptor is checked against the resolved path,
 * so a directory swapped for a symlink between the check and the read is caught ("check then use").
 */
import { constants, type Stats } from 'node:fs';
import { open, readlink, realpath, stat, type FileHandle } from 'node:fs/promises';
import path from 'node:path';

/** Resources are cut at this size (the reference's `MAX_RESOURCE_BYTES`). */
export const MAX_PROJECT_FILE_BYTES = 512 * 1024;

export type ProjectFileErrorCode =
  'invalid_path' | 'not_found' | 'outside_project' | 'not_a_file' | 'not_allowed';

export interface ProjectFileError {
  ok: false;
  code: ProjectFileErrorCode;
  reason: string;
}

export type ResolvedProjectFile = { ok: true; path: string; root: string } | ProjectFileError;

export interface ProjectFileText {
  ok: true;
  path: string;
  text: string;
  /** The file's size in bytes. */
  size: number;
  truncated: boolean;
}

export interface OpenedApk {
  ok: true;
  /** The canonical path of the APK. */
  path: string;
  /** The open file: hash and stream from this handle, never from the path again. The caller closes it. */
  handle: FileHandle;
  size: number;
  /** The directory (relative to the root) of the application module the APK belongs to. */
  moduleDir: string;
}

const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

function fail(code: ProjectFileErrorCode, reason: string): ProjectFileError {
  return { ok: false, code, reason };
}

/** True when `child` is `parent` itself or lies below it (both absolute, normalised). */
export function isInside(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}

function errCode(e: unknown): string | undefined {
  return typeof e === 'object' && e !== null && 'code' in e
    ? String((e as { code: unknown }).code)
    : undefined;
}

/**
 * Resolves `relPath` (relative to the project root, or absolute) to its canonical path, only if that
 * is a regular file inside the canonical project root.
 */
export async function resolveProjectFile(projectRoot: string, relPath: string): Promise<ResolvedProjectFile> {
  if (typeof relPath !== 'string' || relPath === '' || relPath.includes('\0')) {
    return fail('invalid_path', 'the path is empty or contains a NUL character');
  }
  let root: string;
  try {
    root = await realpath(projectRoot);
  } catch {
    return fail('not_found', `the project root ${projectRoot} does not exist`);
  }
  const lexical = path.resolve(projectRoot, relPath);
  const lexicalFromReal = path.resolve(root, relPath);
  if (!isInside(path.resolve(projectRoot), lexical) && !isInside(root, lexicalFromReal)) {
    return fail(
      'outside_project',
      `'${relPath}' points outside the project; only files inside ${root} can be read`,
    );
  }
  let real: string;
  try {
    real = await realpath(isInside(root, lexicalFromReal) ? lexicalFromReal : lexical);
  } catch (e) {
    if (errCode(e) === 'ELOOP') {
      return fail('invalid_path', `'${relPath}' is a symlink loop`);
    }
    return fail('not_found', `'${relPath}' does not exist in the project`);
  }
  if (!isInside(root, real)) {
    return fail(
      'outside_project',
      `'${relPath}' resolves to ${real}, outside the project (a symlink leads out); only files inside ${root} can be read`,
    );
  }
  let st: Stats;
  try {
    st = await stat(real);
  } catch {
    return fail('not_found', `'${relPath}' does not exist in the project`);
  }
  if (!st.isFile()) {
    return fail('not_a_file', `'${relPath}' is not a regular file`);
  }
  return { ok: true, path: real, root };
}

/** The path the kernel has for an open descriptor (Linux); null where that cannot be asked. */
async function descriptorPath(fd: number): Promise<string | null> {
  if (process.platform !== 'linux') {
    return null;
  }
  try {
    return await readlink(`/proc/self/fd/${fd}`);
  } catch {
    return null;
  }
}

/**
 * Opens a resolved canonical path and proves the descriptor is that file inside `root`: a regular
 * file, not reached through a symlink swapped in after resolution. The caller closes the handle.
 */
export async function openVerified(
  root: string,
  canonical: string,
  display: string,
): Promise<{ ok: true; handle: FileHandle; st: Stats } | ProjectFileError> {
  let handle: FileHandle;
  try {
    handle = await open(canonical, OPEN_FLAGS);
  } catch (e) {
    const code = errCode(e);
    if (code === 'ELOOP' || code === 'EMLINK') {
      return fail('outside_project', `'${display}' became a symlink after it was checked; refused`);
    }
    return fail('not_found', `'${display}' could not be opened (${code ?? 'error'})`);
  }
  try {
    const st = await handle.stat();
    if (!st.isFile()) {
      await handle.close();
      return fail('not_a_file', `'${display}' is not a regular file`);
    }
    const actual = await descriptorPath(handle.fd);
    let same: boolean;
    if (actual !== null) {
      same = actual === canonical && isInside(root, actual);
    } else {
      // Without /proc: the path must still resolve to itself and name the very file we hold.
      const again = await realpath(canonical).catch(() => null);
      const st2 = again !== null ? await stat(again).catch(() => null) : null;
      same =
        again === canonical &&
        st2 !== null &&
        st2.ino === st.ino &&
        st2.dev === st.dev &&
        isInside(root, again);
    }
    if (!same) {
      await handle.close();
      return fail(
        'outside_project',
        `'${display}' changed while it was being opened (a symlink was swapped in); refused`,
      );
    }
    return { ok: true, handle, st };
  } catch (e) {
    await handle.close().catch(() => undefined);
    return fail('not_found', `'${display}' could not be read (${errCode(e) ?? 'error'})`);
  }
}

/** Cuts a UTF-8 buffer at `max` bytes without splitting a character. */
function utf8Cut(buf: Buffer, max: number): Buffer {
  if (buf.length <= max) {
    return buf;
  }
  let end = max;
  // Step back over continuation bytes (10xxxxxx) so a multi-byte character is dropped whole.
  for (let k = 0; k < 3 && end > 0 && ((buf[end] as number) & 0xc0) === 0x80; k++) {
    end--;
  }
  return buf.subarray(0, end);
}

/** Reads a project file as text: at most `maxBytes`, with a truncation note, invalid UTF-8 as U+FFFD. */
export async function readProjectFile(
  projectRoot: string,
  relPath: string,
  opts: { maxBytes?: number } = {},
): Promise<ProjectFileText | ProjectFileError> {
  const max = opts.maxBytes ?? MAX_PROJECT_FILE_BYTES;
  const resolved = await resolveProjectFile(projectRoot, relPath);
  if (!resolved.ok) {
    return resolved;
  }
  const opened = await openVerified(resolved.root, resolved.path, relPath);
  if (!opened.ok) {
    return opened;
  }
  const { handle, st } = opened;
  try {
    const want = Math.min(st.size, max + 4);
    const buf = Buffer.alloc(want);
    let got = 0;
    while (got < want) {
      const { bytesRead } = await handle.read(buf, got, want - got, got);
      if (bytesRead === 0) {
        break;
      }
      got += bytesRead;
    }
    const data = buf.subarray(0, got);
    const size = Math.max(st.size, got);
    const truncated = size > max;
    let text = new TextDecoder('utf-8', { fatal: false }).decode(truncated ? utf8Cut(data, max) : data);
    if (truncated) {
      text += `\n[truncated: the file is ${size} bytes; only the first ${max} bytes are shown]`;
    }
    return { ok: true, path: resolved.path, text, size, truncated };
  } finally {
    await handle.close();
  }
}

/**
 * Accepts an APK for installing only when it is an `.apk` file under an application module's
 * `build/outputs/` whose canonical path is inside the project. Returns the file opened once.
 */
export async function resolveApkPath(
  projectRoot: string,
  appModuleDirs: readonly string[],
  apkPath: string,
): Promise<OpenedApk | ProjectFileError> {
  const resolved = await resolveProjectFile(projectRoot, apkPath);
  if (!resolved.ok) {
    return resolved;
  }
  const { root, path: canonical } = resolved;
  if (!canonical.toLowerCase().endsWith('.apk')) {
    return fail('not_allowed', `'${apkPath}' is not an .apk file`);
  }
  // The outputs directory is taken as written (not through symlinks): a build directory that is a
  // symlink, even to another place in the project, does not qualify.
  const moduleDir = appModuleDirs.find((dir) => {
    const outputs = path.join(root, dir, 'build', 'outputs');
    return isInside(outputs, canonical) && canonical !== outputs;
  });
  if (moduleDir === undefined) {
    const where =
      appModuleDirs.map((d) => `${d === '' ? '.' : d}/build/outputs/`).join(', ') ||
      '(no application module)';
    return fail('not_allowed', `'${apkPath}' is not under an application module's build outputs (${where})`);
  }
  const opened = await openVerified(root, canonical, apkPath);
  if (!opened.ok) {
    return opened;
  }
  return { ok: true, path: canonical, handle: opened.handle, size: opened.st.size, moduleDir };
}
