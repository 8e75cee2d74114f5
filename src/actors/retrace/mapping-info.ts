/** What a mapping file is, from its header and size: for matching it to a build and for display. */
import type { MappingIndex } from './mapping-index.js';

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
