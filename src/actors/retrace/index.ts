/**
 * The retrace engine: R8/ProGuard mapping files and stack-trace deobfuscation in TypeScript, with
 * R8 retrace's output. Pure functions over plain data; retrace-worker.ts hosts them in a pool.
 *
 *   const index = await loadMappingIndex('app/build/outputs/mapping/release/mapping.txt');
 *   const { text, mapIds } = retraceTrace(index, logcatText);
 */
import { readFile } from 'node:fs/promises';
import type { MappingIndex } from './mapping-index.js';
import { buildMappingIndex } from './mapping-index.js';

export type { MappingIndex } from './mapping-index.js';
export { buildMappingIndex, lookupClass } from './mapping-index.js';
export type { MappingHeader, ClassMapping, MappedRange } from './mapping-model.js';
export { MappingError } from './mapping-model.js';
export type {
  RetraceOptions,
  RetraceResult,
  RetracedFrame,
  RetracedFrameCandidate,
} from './retrace-trace.js';
export { retraceTrace, splitTraceLines } from './retrace-trace.js';
export { serializeIndex, deserializeIndex } from './index-cache.js';
export type { RetraceTask, RetraceTaskResult, RetraceTaskError } from './retrace-task.js';

/** Facts about a mapping file, for matching it to a build and for display. */
export interface MappingInfo {
  /** `# pg_map_id:` — the id R8 also writes into `r8-map-id-…` frames. */
  mapId: string | null;
  /** `# pg_map_hash:` as written (`SHA-256 …`). */
  mapHash: string | null;
  compiler: string | null;
  compilerVersion: string | null;
  minApi: string | null;
  /** The `com.android.tools.r8.mapping` version, null for ProGuard mappings. */
  mapVersion: string | null;
  /** sha256 of the file's bytes, hex. */
  sha256: string;
  classes: number;
  bytes: number;
}

/** Reads and indexes a mapping file; throws MappingError when it is not a mapping. */
export async function loadMappingIndex(path: string): Promise<MappingIndex> {
  return buildMappingIndex(await readFile(path));
}

/** The header facts and size of an indexed mapping. */
export function mappingInfo(index: MappingIndex): MappingInfo {
  return {
    mapId: index.header.mapId,
    mapHash: index.header.mapHash,
    compiler: index.header.compiler,
    compilerVersion: index.header.compilerVersion,
    minApi: index.header.minApi,
    mapVersion: index.header.mapVersion,
    sha256: index.sha256,
    classes: index.obfuscated.length,
    bytes: index.bytes,
  };
}
