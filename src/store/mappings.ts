import { createHash } from 'node:crypto';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from './atomic.js';
import { dataDirPath, ensureDataDir, dataPath } from './data-dir.js';
import { withDataLock } from './lock.js';

/**
 * Kept R8 mappings: every mapping a build wrote is copied into `<data dir>/mappings/<sha256>.txt`
 * (the project's own file is overwritten by the next build), with an index of who wrote it, so a
 * crash can be deobfuscated with the exact mapping of the build that is on the device.
 */

export const keptMappingSchema = z.object({
  sha256: z.string(),
  /** `# pg_map_id:` from the mapping's header (what `r8-map-id-…` frames name). */
  map_id: z.string().nullable(),
  build_id: z.string().nullable(),
  project_root: z.string().nullable(),
  module: z.string().nullable(),
  variant: z.string().nullable(),
  /** Where the build wrote it. */
  source_path: z.string(),
  size: z.number().int(),
  kept_at: z.string(),
});
export type KeptMapping = z.infer<typeof keptMappingSchema>;

/** How many mappings are kept; the oldest go first (their files too). */
export const MAX_KEPT_MAPPINGS = 200;

function indexPath(): string {
  return path.join(dataDirPath(), 'mappings', 'index.json');
}

/** The kept file of a mapping. */
export function keptMappingPath(sha256: string): string {
  return path.join(dataDirPath(), 'mappings', `${sha256}.txt`);
}

/** Reads the index (missing or damaged: empty). */
export function readKeptMappings(): KeptMapping[] {
  try {
    const raw = JSON.parse(readFileSync(indexPath(), 'utf8')) as { mappings?: unknown[] };
    return (raw.mappings ?? []).flatMap((m) => {
      const parsed = keptMappingSchema.safeParse(m);
      return parsed.success && existsSync(keptMappingPath(parsed.data.sha256)) ? [parsed.data] : [];
    });
  } catch {
    return [];
  }
}

/** The `# pg_map_id:` header of a mapping text, if it has one. */
export function mapIdOf(text: string): string | null {
  const head = text.slice(0, 4096);
  return /^#\s*pg_map_id:\s*([0-9a-f]+)\s*$/m.exec(head)?.[1] ?? null;
}

/** Copies a mapping into the data dir and records it (atomic, under the data lock). */
export async function keepMapping(
  sourcePath: string,
  meta: {
    build_id: string | null;
    project_root: string | null;
    module: string | null;
    variant: string | null;
  },
): Promise<KeptMapping> {
  const bytes = readFileSync(sourcePath);
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const entry: KeptMapping = {
    sha256,
    map_id: mapIdOf(bytes.subarray(0, 4096).toString('utf8')),
    source_path: sourcePath,
    size: bytes.length,
    kept_at: new Date().toISOString(),
    ...meta,
  };
  ensureDataDir();
  dataPath('mappings', 'index.json');
  await withDataLock(() => {
    if (!existsSync(keptMappingPath(sha256))) {
      writeFileAtomic(keptMappingPath(sha256), bytes, 0o600);
    }
    const others = readKeptMappings().filter((m) => !(m.sha256 === sha256 && m.build_id === meta.build_id));
    const all = [...others, entry];
    const kept = all.slice(-MAX_KEPT_MAPPINGS);
    const keptShas = new Set(kept.map((m) => m.sha256));
    for (const dropped of all.slice(0, all.length - kept.length)) {
      if (!keptShas.has(dropped.sha256)) {
        rmSync(keptMappingPath(dropped.sha256), { force: true });
      }
    }
    writeFileAtomic(indexPath(), JSON.stringify({ version: 1, mappings: kept }, null, 1) + '\n', 0o600);
  });
  return entry;
}
