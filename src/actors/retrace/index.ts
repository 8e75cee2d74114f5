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
export { mappingInfo, type MappingInfo } from './mapping-info.js';

/** Reads and indexes a mapping file; throws MappingError when it is not a mapping. */
export async function loadMappingIndex(path: string): Promise<MappingIndex> {
  return buildMappingIndex(await readFile(path));
}
