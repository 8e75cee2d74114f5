import { statSync } from 'node:fs';
import { fail } from '../../bus/errors.js';
import type { ProjectFileKind, ProjectModelSummary } from '../../bus/messages/project.js';
import { findApk } from '../../project/apk-finder.js';
import { findGradleRoot, settingsFileIn } from '../../project/gradle-root.js';
import { canonicalProjectRoot, isProjectTrusted, trustHint } from '../../project/trust.js';
import { inspectProject, type ModuleInfo, type ProjectModel } from '../../project/project-model.js';
import { checkPackageScope, projectPackageScope, scopeIds } from '../../project/package-scope.js';
import { readProjectFile, resolveProjectFile } from '../../project/project-files.js';
import { projectVariants } from '../../project/variants.js';
import { readSettings, updateSettings } from '../../store/settings.js';
import { readLastDevices, recordLastDevice } from '../../store/run-devices.js';
import { defineActor } from '../actor.js';
import { buildConfigView, modelSummary, runConfigurationViews, variantView } from './project-views.js';
import { runPlan } from './run-plan.js';
import { networkSecurityConfig } from './network-config.js';

function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** The Gradle root holding `root` (canonical); the key trust and active variants are kept under. */
function gradleRootOf(root: string): string {
  const canonical = canonicalProjectRoot(root);
  return findGradleRoot(canonical) ?? canonical;
}

function activeVariantOf(root: string): string | null {
  return readSettings().active_variants[root] ?? null;
}

async function modelOf(root: string): Promise<ProjectModel> {
  const gradleRoot = gradleRootOf(root);
  if (!isDirectory(gradleRoot)) {
    throw fail.notFound(`the project folder ${gradleRoot} does not exist`);
  }
  return inspectProject(gradleRoot);
}

/** get_project_info is called often and cheaply; its model summary is reused this long. */
const SUMMARY_CACHE_MS = 2_000;
const summaries = new Map<
  string,
  { at: number; summary: Promise<Omit<ProjectModelSummary, 'active_variant'>> }
>();

/** The project model summary of a Gradle root (the active variant is always read fresh). */
async function summaryOf(gradleRoot: string): Promise<ProjectModelSummary> {
  let hit = summaries.get(gradleRoot);
  if (!hit || Date.now() - hit.at > SUMMARY_CACHE_MS) {
    const summary = (async () => {
      const m = await inspectProject(gradleRoot);
      return modelSummary(m, await projectPackageScope(m), null);
    })();
    hit = { at: Date.now(), summary };
    summaries.set(gradleRoot, hit);
    summary.catch(() => summaries.delete(gradleRoot));
    if (summaries.size > 32) {
      summaries.delete(summaries.keys().next().value as string);
    }
  }
  return { ...(await hit.summary), active_variant: activeVariantOf(gradleRoot) };
}

/** The single application module, or why there is none to pick. */
function soleApplication(model: ProjectModel): ModuleInfo | string {
  const apps = model.modules.filter((m) => m.isApplication);
  if (apps.length === 1) {
    return apps[0] as ModuleInfo;
  }
  return apps.length === 0
    ? 'the project has no application module'
    : `the project has ${apps.length} application modules (${apps.map((m) => m.path).join(', ')})`;
}

/** The relative path of the file an android://… resource serves, or why there is none. */
function projectFileOf(model: ProjectModel, kind: ProjectFileKind): { rel: string } | { reason: string } {
  const join = (dir: string, file: string): string => (dir === '' ? file : `${dir}/${file}`);
  switch (kind) {
    case 'gradle_settings':
      return model.settingsFile !== null
        ? { rel: model.settingsFile }
        : { reason: 'the project has no settings.gradle(.kts)' };
    case 'build_gradle':
      return { rel: 'build.gradle.kts' };
    case 'manifest':
    case 'app_build_gradle': {
      const app = soleApplication(model);
      if (typeof app === 'string') {
        return { reason: app };
      }
      if (app.dir === null) {
        return { reason: `the directory of ${app.path} is only known to Gradle` };
      }
      if (kind === 'manifest') {
        return { rel: app.manifest?.path ?? join(app.dir, 'src/main/AndroidManifest.xml') };
      }
      return { rel: app.buildFile ?? join(app.dir, 'build.gradle.kts') };
    }
    default: {
      const never: never = kind;
      return { reason: String(never) };
    }
  }
}

/** The candidates a kind may be served from: the root build file is Kotlin DSL or Groovy. */
function candidatesOf(model: ProjectModel, kind: ProjectFileKind): { rels: string[] } | { reason: string } {
  if (kind === 'build_gradle') {
    return { rels: ['build.gradle.kts', 'build.gradle'] };
  }
  const one = projectFileOf(model, kind);
  return 'rel' in one ? { rels: [one.rel] } : one;
}

/** The project actor: reads Gradle projects (settings, build files, trust) without running Gradle. */
export default defineActor({
  kind: 'project',
  concurrency: 4,
  start: () => ({}),
  handlers: {
    'project.describe': async ({ root }) => {
      const canonical = canonicalProjectRoot(root);
      const exists = isDirectory(canonical);
      const gradleRoot = exists ? findGradleRoot(canonical) : null;
      const trusted = isProjectTrusted(gradleRoot ?? canonical);
      const model = gradleRoot !== null ? await summaryOf(gradleRoot) : null;
      return {
        project_root: canonical,
        gradle_root: gradleRoot,
        settings_file: gradleRoot ? settingsFileIn(gradleRoot) : null,
        exists,
        trusted,
        trust_hint: trusted ? null : trustHint(gradleRoot ?? canonical),
        model,
      };
    },
    'project.scope': async ({ root, package: pkg }) => {
      const model = await inspectProject(findGradleRoot(canonicalProjectRoot(root)) ?? root);
      const scope = await projectPackageScope(model);
      return { scope, ids: scopeIds(scope), check: pkg === undefined ? null : checkPackageScope(scope, pkg) };
    },
    'project.variants': async ({ root }) => {
      const model = await modelOf(root);
      return {
        variants: projectVariants(model).map(variantView),
        active_variant: activeVariantOf(model.root),
      };
    },
    'project.set_active_variant': async ({ root, variant }) => {
      const model = await modelOf(root);
      const variants = projectVariants(model);
      const modules = variants.filter((v) => v.name === variant).map((v) => v.module);
      if (modules.length === 0) {
        const names = [...new Set(variants.map((v) => v.name))];
        throw fail.invalid(
          `the project has no variant ${variant} (its variants: ${names.slice(0, 16).join(', ') || 'none'}); get_project_info lists them`,
        );
      }
      let previous: string | null = null;
      await updateSettings((s) => {
        previous = s.active_variants[model.root] ?? null;
        s.active_variants[model.root] = variant;
      });
      return { active_variant: variant, previous, modules };
    },
    'project.network_security_config': async (p) => networkSecurityConfig(p, await modelOf(p.root)),
    'project.find_apk': async ({ root, variant, module }) => {
      const model = await modelOf(root);
      const r = await findApk(model, {
        ...(variant !== undefined ? { variant } : {}),
        ...(module !== undefined ? { module } : {}),
      });
      return r.found
        ? {
            found: true,
            path: r.path,
            module: r.module,
            variant: r.variant,
            application_id: r.applicationId,
            via: r.via,
            reason: null,
            candidates: [],
          }
        : {
            found: false,
            path: null,
            module: null,
            variant: null,
            application_id: null,
            via: null,
            reason: r.reason,
            candidates: r.candidates,
          };
    },
    'project.build_config': async ({ root, module }) => {
      const model = await modelOf(root);
      const android = model.modules.filter((m) => m.isAndroid);
      let picked: ModuleInfo | undefined;
      if (module !== undefined) {
        picked = android.find(
          (m) => m.dir === module || m.dir?.split('/').pop() === module || m.path.split(':').pop() === module,
        );
        if (!picked) {
          throw fail.failed(
            `no Android module in directory '${module}' (modules: ${android.map((m) => `${m.path} in ${m.dir === '' ? '.' : (m.dir ?? '?')}`).join(', ') || 'none'})`,
          );
        }
      } else {
        const app = soleApplication(model);
        if (typeof app === 'string') {
          throw fail.failed(
            `${app}; pass module (a directory name) — the Android modules are ${android.map((m) => m.dir ?? m.path).join(', ') || 'none'}`,
          );
        }
        picked = app;
      }
      return buildConfigView(model, picked);
    },
    'project.run_configurations': async ({ root }) => {
      const model = await modelOf(root);
      const trusted = isProjectTrusted(model.root);
      return {
        ...runConfigurationViews(
          model,
          trusted,
          activeVariantOf(model.root),
          trustHint(model.root),
          readLastDevices(model.root),
        ),
        trusted,
      };
    },
    'project.run_plan': async (p) => {
      const model = await modelOf(p.root);
      return runPlan(
        model,
        isProjectTrusted(model.root),
        activeVariantOf(model.root),
        trustHint(model.root) ?? '',
        p,
        readLastDevices(model.root),
      );
    },
    'project.record_run_device': async (p) => {
      const model = await modelOf(p.root);
      const known = runConfigurationViews(model, true, activeVariantOf(model.root), null).configurations;
      if (!known.some((c) => c.name === p.name)) {
        throw fail.invalid(`no run configuration named '${p.name.slice(0, 200)}'`);
      }
      await recordLastDevice(model.root, p.name, p.serial);
      return {};
    },
    'project.files': async ({ root }) => {
      const model = await modelOf(root);
      const kinds: ProjectFileKind[] = ['manifest', 'app_build_gradle', 'build_gradle', 'gradle_settings'];
      const files = [];
      for (const kind of kinds) {
        const c = candidatesOf(model, kind);
        if ('reason' in c) {
          files.push({ kind, path: null, listed: false, reason: c.reason });
          continue;
        }
        let entry = { kind, path: c.rels[0] ?? null, listed: false, reason: null as string | null };
        for (const rel of c.rels) {
          const r = await resolveProjectFile(model.root, rel);
          if (r.ok) {
            entry = { kind, path: rel, listed: true, reason: null };
            break;
          }
          if (r.code !== 'not_found' || entry.reason === null) {
            entry = { kind, path: rel, listed: false, reason: r.reason };
          }
          if (r.code !== 'not_found') {
            break; // A file that exists but is refused (a symlink out) is not replaced by another.
          }
        }
        files.push(entry);
      }
      return { files };
    },
    'project.read_file': async ({ root, kind }) => {
      const model = await modelOf(root);
      const c = candidatesOf(model, kind);
      if ('reason' in c) {
        throw fail.notFound(c.reason);
      }
      let lastReason = `the project has no ${c.rels.join(' or ')}`;
      for (const rel of c.rels) {
        const r = await readProjectFile(model.root, rel);
        if (r.ok) {
          return { path: rel, text: r.text, size: r.size, truncated: r.truncated };
        }
        if (r.code !== 'not_found') {
          throw fail.invalid(`refused to read ${rel}: ${r.reason}`);
        }
        lastReason = r.reason;
      }
      throw fail.notFound(lastReason);
    },
  },
});
