/**
 * What a build wrote: the APKs and R8 mapping files under the application modules' build outputs
 * whose modification time is not older than the build's start, plus the paths Gradle's output
 * named. A task Gradle found UP-TO-DATE rewrites nothing: the built variant's older outputs are then
 * what the build stands for (an APK Android Studio built is still the one this build would make),
 * reported as up to date, so an agent is never told to build again what will not be rebuilt. Each is
 * read through the project-file checks (inside the project, a regular file), hashed, and described:
 * an APK's package and version from its binary manifest, a mapping file's `# pg_map_id:`.
 */
import { createHash } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';
import type { BuiltApk, BuiltMapping } from '../../bus/messages/build.js';
import { findOutputMetadata } from '../../project/output-metadata.js';
import { isInside, openVerified, resolveProjectFile } from '../../project/project-files.js';
import type { ModuleInfo, ProjectModel } from '../../project/project-model.js';
import { moduleVariants } from '../../project/variants.js';
import { mapIdOf } from '../../store/mappings.js';
import { readApkInfo } from '../../util/apk.js';
import { readZipEntries, readZipEntryData } from '../../util/apk-zip.js';

const MAX_APKS = 50;
const MAX_MAPPINGS = 20;
/** APKs larger than this are hashed but their manifest is not read (it needs the whole file). */
const MAX_APK_READ_BYTES = 512 * 1024 * 1024;
/** File systems with coarse timestamps may date a file just before the build started. */
const MTIME_SLACK_MS = 2_000;

async function hashHandle(
  handle: FileHandle,
  size: number,
  keep: boolean,
): Promise<{ sha256: string; bytes: Buffer | null }> {
  const hash = createHash('sha256');
  const chunks: Buffer[] = [];
  const buf = Buffer.alloc(1024 * 1024);
  let pos = 0;
  while (pos < size) {
    const { bytesRead } = await handle.read(buf, 0, buf.length, pos);
    if (bytesRead === 0) {
      break;
    }
    const part = buf.subarray(0, bytesRead);
    hash.update(part);
    if (keep) {
      chunks.push(Buffer.from(part));
    }
    pos += bytesRead;
  }
  return { sha256: hash.digest('hex'), bytes: keep ? Buffer.concat(chunks) : null };
}

/** Files under `rel` (relative to the root) whose name passes `want`, not following symlinks. */
async function findFiles(
  root: string,
  rel: string,
  depth: number,
  want: (name: string) => boolean,
  out: string[],
  max: number,
): Promise<void> {
  const abs = path.join(root, rel);
  if (!isInside(root, abs) || out.length >= max) {
    return;
  }
  let entries;
  try {
    if (!(await lstat(abs)).isDirectory()) {
      return;
    }
    entries = await readdir(abs, { withFileTypes: true });
  } catch {
    return;
  }
  entries.sort((a, b) => a.name.localeCompare(b.name));
  for (const e of entries) {
    const child = `${rel}/${e.name}`;
    if (e.isFile() && want(e.name)) {
      if (out.length < max) {
        out.push(child);
      }
    } else if (e.isDirectory() && depth > 0) {
      await findFiles(root, child, depth - 1, want, out, max);
    }
  }
}

function relOf(root: string, p: string): string | null {
  const abs = path.resolve(root, p);
  return isInside(root, abs) ? path.relative(root, abs).split(path.sep).join('/') : null;
}

interface Opened {
  path: string;
  handle: FileHandle;
  size: number;
  mtimeMs: number;
  /** Written before the build started: a task Gradle found UP-TO-DATE. */
  stale: boolean;
}

async function openOutput(root: string, rel: string, since: number): Promise<Opened | null> {
  const resolved = await resolveProjectFile(root, rel);
  if (!resolved.ok) {
    return null;
  }
  const opened = await openVerified(resolved.root, resolved.path, rel);
  if (!opened.ok) {
    return null;
  }
  return {
    path: resolved.path,
    handle: opened.handle,
    size: opened.st.size,
    mtimeMs: opened.st.mtimeMs,
    stale: opened.st.mtimeMs < since - MTIME_SLACK_MS,
  };
}

function appModules(project: ProjectModel, module: string | null): ModuleInfo[] {
  const apps = project.modules.filter((m) => m.isApplication && m.dir !== null);
  const named = module === null ? [] : apps.filter((m) => m.path === module);
  return named.length > 0 ? named : apps;
}

/** Which module and variant an APK path belongs to, from output-metadata.json or the output dirs. */
async function apkOwners(
  project: ProjectModel,
  modules: readonly ModuleInfo[],
): Promise<Map<string, { module: string; variant: string | null }>> {
  const owners = new Map<string, { module: string; variant: string | null }>();
  for (const m of modules) {
    for (const v of moduleVariants(m)) {
      if (v.apkDir !== null) {
        owners.set(`dir:${v.apkDir}`, { module: m.path, variant: v.name });
      }
    }
    for (const found of await findOutputMetadata(project.root, m.dir ?? '')) {
      for (const el of found.metadata.elements) {
        owners.set(`file:${found.dir}/${el.outputFile}`, {
          module: m.path,
          variant: found.metadata.variantName,
        });
      }
    }
  }
  return owners;
}

/** AGP records its own version in every APK it packages (META-INF/…/app-metadata.properties). */
const APP_METADATA = 'META-INF/com/android/build/gradle/app-metadata.properties';

/** The `androidGradlePluginVersion` an APK carries; null when it has none or cannot be read. */
export function apkAgpVersion(bytes: Uint8Array): string | null {
  try {
    const entry = readZipEntries(bytes).find((e) => e.name === APP_METADATA);
    if (!entry) {
      return null;
    }
    const text = Buffer.from(readZipEntryData(bytes, entry, 64 * 1024)).toString('utf8');
    const m = /^androidGradlePluginVersion=(\S+)\s*$/m.exec(text);
    return m ? (m[1] as string) : null;
  } catch {
    return null;
  }
}

/**
 * The APKs and mapping files written since `since` (epoch ms) in the project's application modules,
 * and — when `upToDate` names the variant a successful build covered — that variant's outputs
 * written before it (Gradle found their tasks UP-TO-DATE), marked `up_to_date`.
 */
export async function collectBuildOutputs(
  project: ProjectModel,
  since: number,
  mentioned: { apks: readonly string[]; mappingFiles: readonly string[] },
  module: string | null,
  upToDate: string | null = null,
): Promise<{ apks: BuiltApk[]; mappings: BuiltMapping[] }> {
  const root = project.root;
  const modules = appModules(project, module);
  const apkRels: string[] = [];
  const mappingRels: string[] = [];
  for (const m of modules) {
    const base = m.dir === '' ? 'build/outputs' : `${m.dir}/build/outputs`;
    await findFiles(root, `${base}/apk`, 4, (n) => n.toLowerCase().endsWith('.apk'), apkRels, MAX_APKS);
    await findFiles(root, `${base}/mapping`, 3, (n) => n === 'mapping.txt', mappingRels, MAX_MAPPINGS);
  }
  for (const p of mentioned.apks) {
    const rel = relOf(root, p);
    if (rel !== null && !apkRels.includes(rel) && apkRels.length < MAX_APKS) {
      apkRels.push(rel);
    }
  }
  for (const p of mentioned.mappingFiles) {
    const rel = relOf(root, p);
    if (rel !== null && !mappingRels.includes(rel) && mappingRels.length < MAX_MAPPINGS) {
      mappingRels.push(rel);
    }
  }

  const owners = await apkOwners(project, modules);
  const apks: BuiltApk[] = [];
  for (const rel of apkRels) {
    const file = await openOutput(root, rel, since);
    if (!file) {
      continue;
    }
    const owner = owners.get(`file:${rel}`) ?? owners.get(`dir:${path.posix.dirname(rel)}`) ?? null;
    if (file.stale && (upToDate === null || owner?.variant !== upToDate)) {
      await file.handle.close();
      continue;
    }
    try {
      const { sha256, bytes } = await hashHandle(file.handle, file.size, file.size <= MAX_APK_READ_BYTES);
      let info: ReturnType<typeof readApkInfo> | null = null;
      try {
        info = bytes ? readApkInfo(bytes) : null;
      } catch {
        info = null; // Not a readable APK (split, corrupt): hash and size still say what was written.
      }
      apks.push({
        path: file.path,
        size: file.size,
        sha256,
        package: info?.packageName ?? null,
        version_code: info ? info.versionCode : null,
        version_name: info?.versionName ?? null,
        variant: owner?.variant ?? null,
        module: owner?.module ?? null,
        agp_version: bytes ? apkAgpVersion(bytes) : null,
        ...(file.stale ? { up_to_date: true } : {}),
      });
    } finally {
      await file.handle.close();
    }
  }
  const mappings: BuiltMapping[] = [];
  for (const rel of mappingRels) {
    const file = await openOutput(root, rel, since);
    if (!file) {
      continue;
    }
    const dirName = path.posix.basename(path.posix.dirname(rel));
    if (file.stale && (upToDate === null || dirName !== upToDate)) {
      await file.handle.close();
      continue;
    }
    try {
      const headBuf = Buffer.alloc(Math.min(file.size, 8192));
      await file.handle.read(headBuf, 0, headBuf.length, 0);
      const { sha256 } = await hashHandle(file.handle, file.size, false);
      mappings.push({
        path: file.path,
        size: file.size,
        sha256,
        map_id: mapIdOf(headBuf.toString('utf8')),
        variant: dirName === 'mapping' ? null : dirName,
        ...(file.stale ? { up_to_date: true } : {}),
      });
    } finally {
      await file.handle.close();
    }
  }
  return { apks, mappings };
}
