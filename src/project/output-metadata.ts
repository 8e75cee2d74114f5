/**
 * AGP's `output-metadata.json`, written next to the APKs of each built variant
 * (`<module>/build/outputs/apk/<flavor>/<buildType>/output-metadata.json`). It names the variant's
 * real application id and its APK files, so it beats anything read from the build file.
 */
import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';
import { isInside, readProjectFile } from './project-files.js';

export interface OutputMetadataElement {
  /** `SINGLE`, `UNIVERSAL`, `ONE_OF_MANY`. */
  type: string | null;
  filters: { filterType: string; value: string }[];
  versionCode: number | null;
  versionName: string | null;
  /** The APK's file name, relative to the metadata file's directory. */
  outputFile: string;
}

export interface OutputMetadata {
  version: number | null;
  /** `APK`, `BUNDLE`, … */
  artifactType: string | null;
  applicationId: string | null;
  variantName: string | null;
  elements: OutputMetadataElement[];
  minSdkVersionForDexing: number | null;
}

export type OutputMetadataResult = { ok: true; metadata: OutputMetadata } | { ok: false; reason: string };

function str(v: unknown): string | null {
  return typeof v === 'string' ? v : null;
}

function int(v: unknown): number | null {
  return typeof v === 'number' && Number.isInteger(v) ? v : null;
}

/** Parses an `output-metadata.json` text; tolerant of fields AGP versions add or drop. */
export function parseOutputMetadata(text: string): OutputMetadataResult {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    return { ok: false, reason: `not JSON: ${(e as Error).message}` };
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return { ok: false, reason: 'not a JSON object' };
  }
  const o = raw as Record<string, unknown>;
  const artifact =
    typeof o['artifactType'] === 'object' && o['artifactType'] !== null
      ? (o['artifactType'] as Record<string, unknown>)
      : {};
  const elements: OutputMetadataElement[] = [];
  for (const el of Array.isArray(o['elements']) ? o['elements'] : []) {
    if (typeof el !== 'object' || el === null) {
      continue;
    }
    const e = el as Record<string, unknown>;
    const outputFile = str(e['outputFile']);
    if (outputFile === null) {
      continue;
    }
    const filters = (Array.isArray(e['filters']) ? e['filters'] : [])
      .map((f) => (typeof f === 'object' && f !== null ? (f as Record<string, unknown>) : {}))
      .map((f) => ({ filterType: str(f['filterType']) ?? '', value: str(f['value']) ?? '' }))
      .filter((f) => f.filterType !== '');
    elements.push({
      type: str(e['type']),
      filters,
      versionCode: int(e['versionCode']),
      versionName: str(e['versionName']),
      outputFile,
    });
  }
  return {
    ok: true,
    metadata: {
      version: int(o['version']),
      artifactType: str(artifact['type']),
      applicationId: str(o['applicationId']),
      variantName: str(o['variantName']),
      elements,
      minSdkVersionForDexing: int(o['minSdkVersionForDexing']),
    },
  };
}

/** A metadata file found in a module's outputs, with where it lives. */
export interface FoundOutputMetadata {
  /** Relative to the project root, `/`-separated. */
  file: string;
  /** The directory holding it (and the APKs it names), relative to the project root. */
  dir: string;
  metadata: OutputMetadata;
}

const MAX_DEPTH = 4;

/**
 * Finds and reads every `output-metadata.json` under `<moduleDir>/build/outputs/apk`. Symlinked
 * directories are not followed; each file is read through the project-file checks.
 */
export async function findOutputMetadata(
  projectRoot: string,
  moduleDir: string,
): Promise<FoundOutputMetadata[]> {
  const base = moduleDir === '' ? 'build/outputs/apk' : `${moduleDir}/build/outputs/apk`;
  const rootAbs = path.resolve(projectRoot);
  const found: FoundOutputMetadata[] = [];
  const visit = async (rel: string, depth: number): Promise<void> => {
    const abs = path.join(rootAbs, rel);
    if (!isInside(rootAbs, abs)) {
      return;
    }
    let entries;
    try {
      const st = await lstat(abs);
      if (!st.isDirectory()) {
        return;
      }
      entries = await readdir(abs, { withFileTypes: true });
    } catch {
      return;
    }
    entries.sort((a, b) => a.name.localeCompare(b.name));
    for (const entry of entries) {
      const childRel = `${rel}/${entry.name}`;
      if (entry.isFile() && entry.name === 'output-metadata.json') {
        const r = await readProjectFile(projectRoot, childRel);
        if (r.ok) {
          const parsed = parseOutputMetadata(r.text);
          if (parsed.ok) {
            found.push({ file: childRel, dir: rel, metadata: parsed.metadata });
          }
        }
      } else if (entry.isDirectory() && depth < MAX_DEPTH) {
        await visit(childRel, depth + 1);
      }
    }
  };
  await visit(base, 0);
  return found;
}
