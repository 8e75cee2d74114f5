/** What a mapping file is, from its header and size: for matching it to a build and for display. */
import type { MappingIndex } from './mapping-index.js';
import type { MappingHeader } from './mapping-model.js';

/** Facts about a mapping file: its header and its size. */
export interface MappingInfo extends MappingHeader {
  /** sha256 of the file's bytes, hex. */
  sha256: string;
  classes: number;
  bytes: number;
}

/** The header facts and size of an indexed mapping. */
export function mappingInfo(index: MappingIndex): MappingInfo {
  return { ...index.header, sha256: index.sha256, classes: index.obfuscated.length, bytes: index.bytes };
}
