import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { mappingInfo, type MappingInfo } from './mapping-info.js';
import { deserializeIndex, serializeIndex } from './index-cache.js';
import type { MappingIndex } from './mapping-index.js';
import { buildMappingIndex } from './mapping-index.js';
import { MappingError } from './mapping-model.js';
import type { RetraceResult } from './retrace-trace.js';
import { retraceTrace } from './retrace-trace.js';

/** A pool task: plain data in, plain data out. */
export type RetraceTask =
  | { op: 'index'; mappingPath: string; cacheDir?: string }
  | { op: 'retrace'; mappingPath: string; trace: string; verbose?: boolean; cacheDir?: string }
  | { op: 'info'; mappingPath: string; cacheDir?: string };

export interface RetraceTaskError {
  /** INVALID: not a readable mapping (or a bad task); NOT_FOUND: no such file; INTERNAL: our bug. */
  code: 'INVALID' | 'NOT_FOUND' | 'INTERNAL';
  message: string;
}

export type RetraceTaskResult =
  | { ok: true; op: 'index'; info: MappingInfo; cached: boolean }
  | { ok: true; op: 'info'; info: MappingInfo; cached: boolean }
  | { ok: true; op: 'retrace'; info: MappingInfo; cached: boolean; result: RetraceResult }
  | { ok: false; error: RetraceTaskError };

/** What each op of the retrace pool answers. */
export type RetraceResults = {
  [Op in RetraceTask['op']]:
    Extract<RetraceTaskResult, { op: Op }> | Extract<RetraceTaskResult, { ok: false }>;
};

interface FileIdentity {
  size: number;
  mtimeMs: number;
  ino: number;
  sha256: string;
}

/**
 * Indexes kept in memory, least recently used evicted first once their estimated size passes the
 * bound. Keyed by the mapping's sha256; a path whose size, mtime and inode are unchanged is not
 * read and hashed again, so a warm retrace costs a stat.
 */
export class RetraceIndexCache {
  private readonly indexes = new Map<string, { index: MappingIndex; cost: number }>();
  private readonly files = new Map<string, FileIdentity>();
  private used = 0;

  constructor(readonly maxBytes: number = 256 * 1024 * 1024) {}

  /** Bytes held now (estimated). */
  get size(): number {
    return this.used;
  }

  /** The index of the mapping at `path`, and whether it came from memory or the disk cache. */
  async get(path: string, cacheDir?: string): Promise<{ index: MappingIndex; cached: boolean }> {
    const st = await stat(path);
    if (!st.isFile()) {
      throw new MappingError(`${path} is not a file`, 0);
    }
    const known = this.files.get(path);
    if (
      known !== undefined &&
      known.size === st.size &&
      known.mtimeMs === st.mtimeMs &&
      known.ino === st.ino
    ) {
      const hit = this.indexes.get(known.sha256);
      if (hit !== undefined) {
        this.indexes.delete(known.sha256);
        this.indexes.set(known.sha256, hit);
        return { index: hit.index, cached: true };
      }
    }
    const bytes = await readFile(path);
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    this.files.set(path, { size: st.size, mtimeMs: st.mtimeMs, ino: st.ino, sha256 });
    const hit = this.indexes.get(sha256);
    if (hit !== undefined) {
      this.indexes.delete(sha256);
      this.indexes.set(sha256, hit);
      return { index: hit.index, cached: true };
    }
    let index: MappingIndex | null = null;
    let cached = false;
    const text = bytes.toString('utf8');
    if (cacheDir !== undefined) {
      index = await readDiskCache(cacheDir, sha256, text);
      cached = index !== null;
    }
    if (index === null) {
      index = buildMappingIndex(text, sha256, bytes.length);
      if (cacheDir !== undefined) {
        await writeDiskCache(cacheDir, index).catch(() => undefined);
      }
    }
    this.put(index);
    return { index, cached };
  }

  private put(index: MappingIndex): void {
    // The text (one or two bytes a character) dominates; the table and parsed classes add a little.
    const cost = index.bytes * 2 + index.obfuscated.length * 96;
    this.indexes.set(index.sha256, { index, cost });
    this.used += cost;
    for (const [key, entry] of this.indexes) {
      if (this.used <= this.maxBytes || this.indexes.size <= 1) {
        break;
      }
      this.indexes.delete(key);
      this.used -= entry.cost;
    }
  }
}

async function readDiskCache(cacheDir: string, sha256: string, text: string): Promise<MappingIndex | null> {
  try {
    return deserializeIndex(await readFile(join(cacheDir, `${sha256}.idx`)), text, sha256);
  } catch {
    return null;
  }
}

async function writeDiskCache(cacheDir: string, index: MappingIndex): Promise<void> {
  await mkdir(cacheDir, { recursive: true });
  const target = join(cacheDir, `${index.sha256}.idx`);
  const temp = `${target}.${process.pid}.${Date.now()}.tmp`;
  await writeFile(temp, serializeIndex(index));
  await rename(temp, target);
}

/** Runs one task against a cache; never throws: failures come back as `{ ok: false, error }`. */
export async function runRetraceTask(
  cache: RetraceIndexCache,
  task: RetraceTask,
): Promise<RetraceTaskResult> {
  try {
    if (task === null || typeof task !== 'object' || typeof task.mappingPath !== 'string') {
      return { ok: false, error: { code: 'INVALID', message: 'a task needs op and mappingPath' } };
    }
    switch (task.op) {
      case 'index':
      case 'info': {
        const { index, cached } = await cache.get(task.mappingPath, task.cacheDir);
        return { ok: true, op: task.op, info: mappingInfo(index), cached };
      }
      case 'retrace': {
        if (typeof task.trace !== 'string') {
          return { ok: false, error: { code: 'INVALID', message: 'a retrace task needs a trace string' } };
        }
        const { index, cached } = await cache.get(task.mappingPath, task.cacheDir);
        const result = retraceTrace(index, task.trace, { verbose: task.verbose === true });
        return { ok: true, op: 'retrace', info: mappingInfo(index), cached, result };
      }
      default: {
        const op: never = task;
        return {
          ok: false,
          error: { code: 'INVALID', message: `unknown op ${JSON.stringify((op as { op: unknown }).op)}` },
        };
      }
    }
  } catch (err) {
    return { ok: false, error: toTaskError(err, task?.mappingPath) };
  }
}

function toTaskError(err: unknown, path: string | undefined): RetraceTaskError {
  if (err instanceof MappingError) {
    return {
      code: 'INVALID',
      message: `not a valid mapping file${path ? ` (${path})` : ''}: ${err.message}`,
    };
  }
  const code = (err as NodeJS.ErrnoException | null)?.code;
  if (code === 'ENOENT') {
    return { code: 'NOT_FOUND', message: `mapping file not found: ${path ?? ''}` };
  }
  if (code === 'EACCES' || code === 'EISDIR' || code === 'EPERM') {
    return { code: 'INVALID', message: `cannot read mapping file ${path ?? ''}: ${code}` };
  }
  const message = err instanceof Error ? err.message : String(err);
  return { code: 'INTERNAL', message: `retrace failed: ${message}` };
}
