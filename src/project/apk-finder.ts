/**
 * Finds the APK a variant's build wrote (reference `find_apk_path`): in the application module,
 * matching the variant exactly, through `output-metadata.json` when present, else the `.apk` files
 * in the variant's output directory. It answers `found: false` with a reason when the module
 * cannot be determined, or when no APK or more than one APK matches.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { findOutputMetadata } from './output-metadata.js';
import { resolveProjectFile } from './project-files.js';
import { findModule, type ModuleInfo, type ProjectModel } from './project-model.js';
import { moduleVariants, type BuildVariant } from './variants.js';

export type ApkSearch =
  | {
      found: true;
      /** Canonical path of the APK. */
      path: string;
      module: string;
      variant: string;
      applicationId: string | null;
      via: 'output-metadata' | 'directory';
    }
  | { found: false; reason: string; candidates: string[] };

function pickModule(project: ProjectModel, ref: string | undefined): ModuleInfo | string {
  const apps = project.modules.filter((m) => m.isApplication);
  if (ref !== undefined && ref !== '') {
    const m = findModule(project, ref);
    if (!m) {
      return `no module ${ref} in this project (application modules: ${apps.map((a) => a.path).join(', ') || 'none'})`;
    }
    if (!m.isApplication) {
      return `${m.path} is not an application module (application modules: ${apps.map((a) => a.path).join(', ') || 'none'})`;
    }
    return m;
  }
  if (apps.length === 1) {
    return apps[0] as ModuleInfo;
  }
  if (apps.length === 0) {
    return 'no application module was found in this project';
  }
  return `the project has several application modules (${apps.map((a) => a.path).join(', ')}); pass module`;
}

async function apksIn(root: string, dir: string): Promise<string[]> {
  try {
    const entries = await readdir(path.join(root, dir), { withFileTypes: true });
    return entries
      .filter((e) => e.isFile() && e.name.toLowerCase().endsWith('.apk'))
      .map((e) => `${dir}/${e.name}`);
  } catch {
    return [];
  }
}

/** Searches the build outputs for the APK of `variant` (or of any variant when none is given). */
export async function findApk(
  project: ProjectModel,
  opts: { module?: string; variant?: string } = {},
): Promise<ApkSearch> {
  const picked = pickModule(project, opts.module);
  if (typeof picked === 'string') {
    return { found: false, reason: picked, candidates: [] };
  }
  const variants = moduleVariants(picked);
  let wanted: BuildVariant[] = variants;
  if (opts.variant !== undefined && opts.variant !== '') {
    const v = variants.find((x) => x.name === opts.variant);
    if (!v) {
      return {
        found: false,
        reason: `${picked.path} has no variant ${opts.variant} (it has ${variants.map((x) => x.name).join(', ')})`,
        candidates: [],
      };
    }
    wanted = [v];
  }
  const metadata = picked.dir === null ? [] : await findOutputMetadata(project.root, picked.dir);
  const hits: {
    rel: string;
    variant: string;
    applicationId: string | null;
    via: 'output-metadata' | 'directory';
    /** The universal APK of a split build (AGP writes type UNIVERSAL, no filters). */
    universal: boolean;
  }[] = [];
  for (const v of wanted) {
    const meta = metadata.filter((m) => m.metadata.variantName === v.name);
    if (meta.length > 0) {
      for (const m of meta) {
        const split = m.metadata.elements.some((el) => el.filters.length > 0);
        for (const el of m.metadata.elements) {
          hits.push({
            rel: `${m.dir}/${el.outputFile}`,
            variant: v.name,
            applicationId: m.metadata.applicationId,
            via: 'output-metadata',
            universal: el.type === 'UNIVERSAL' || (split && el.filters.length === 0),
          });
        }
      }
      continue;
    }
    if (v.apkDir !== null) {
      for (const rel of await apksIn(project.root, v.apkDir)) {
        hits.push({
          rel,
          variant: v.name,
          applicationId: v.applicationId,
          via: 'directory',
          universal: false,
        });
      }
    }
  }
  // Only files that exist inside the project count.
  const existing: ((typeof hits)[number] & { path: string })[] = [];
  for (const h of hits) {
    const r = await resolveProjectFile(project.root, h.rel);
    if (r.ok) {
      existing.push({ ...h, path: r.path });
    }
  }
  const candidates = existing.map((h) => h.rel);
  const variantsFound = new Set(existing.map((h) => h.variant));
  // ABI or density splits of one variant: the universal APK installs on any device.
  const universal = variantsFound.size === 1 ? existing.filter((h) => h.universal) : [];
  const single = existing.length === 1 ? existing : universal.length === 1 ? universal : [];
  if (single.length === 1) {
    const [h] = single as [(typeof existing)[number]];
    return {
      found: true,
      path: h.path,
      module: picked.path,
      variant: h.variant,
      applicationId: h.applicationId,
      via: h.via,
    };
  }
  const what = opts.variant ? `variant ${opts.variant} of ${picked.path}` : picked.path;
  if (existing.length === 0) {
    return {
      found: false,
      reason: `no APK of ${what} was found; build it first (${wanted[0]?.tasks.assemble ?? 'assemble'})`,
      candidates,
    };
  }
  const advice =
    variantsFound.size > 1
      ? 'pass variant'
      : 'they are splits of one variant without a universal APK (enable `universalApk true` in `splits`, or install the one for the device ABI)';
  return {
    found: false,
    reason: `${existing.length} APKs match ${what}: ${candidates.join(', ')}; ${advice}`,
    candidates,
  };
}
