/**
 * The R8 mapping files a project's build outputs hold now — `<module>/build/outputs/mapping/
 * <variant>/mapping.txt`, whoever built them (Android Studio, a terminal, CI) — with the map id of
 * each (`# pg_map_id:` in the header R8 writes, the id its `r8-map-id-…` frames name). Module
 * folders are looked for up to two levels below the root (`app`, `apps/shop`); nothing is followed
 * through a symlink and every file is read through the project-file checks.
 */
import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';
import { mapIdOf } from '../store/mappings.js';
import { openVerified, resolveProjectFile } from './project-files.js';

export interface OutputMapping {
  /** Canonical path. */
  path: string;
  /** The module's folder relative to the root ('' for the root itself). */
  module_dir: string;
  variant: string;
  map_id: string | null;
}

const SKIP = new Set(['build', 'node_modules', 'gradle', 'src', 'buildSrc']);
const MAX_MAPPINGS = 50;

async function dirsIn(abs: string): Promise<string[]> {
  try {
    const entries = await readdir(abs, { withFileTypes: true });
    return entries
      .filter((e) => e.isDirectory() && !e.name.startsWith('.') && !SKIP.has(e.name))
      .map((e) => e.name)
      .sort();
  } catch {
    return [];
  }
}

async function isDir(abs: string): Promise<boolean> {
  try {
    return (await lstat(abs)).isDirectory();
  } catch {
    return false;
  }
}

/** The mapping files under the project's build outputs, with their map ids. */
export async function outputMappings(root: string): Promise<OutputMapping[]> {
  const moduleDirs = [''];
  for (const a of await dirsIn(root)) {
    moduleDirs.push(a);
    for (const b of await dirsIn(path.join(root, a))) {
      moduleDirs.push(`${a}/${b}`);
    }
  }
  const out: OutputMapping[] = [];
  for (const dir of moduleDirs) {
    const base = dir === '' ? 'build/outputs/mapping' : `${dir}/build/outputs/mapping`;
    if (!(await isDir(path.join(root, base)))) {
      continue;
    }
    for (const variant of await dirsIn(path.join(root, base))) {
      if (out.length >= MAX_MAPPINGS) {
        return out;
      }
      const rel = `${base}/${variant}/mapping.txt`;
      const resolved = await resolveProjectFile(root, rel);
      if (!resolved.ok) {
        continue;
      }
      const opened = await openVerified(resolved.root, resolved.path, rel);
      if (!opened.ok) {
        continue;
      }
      try {
        const head = Buffer.alloc(Math.min(opened.st.size, 8192));
        await opened.handle.read(head, 0, head.length, 0);
        out.push({ path: resolved.path, module_dir: dir, variant, map_id: mapIdOf(head.toString('utf8')) });
      } finally {
        await opened.handle.close();
      }
    }
  }
  return out;
}
