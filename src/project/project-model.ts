/**
 * The Gradle project as droidbus sees it without running Gradle: the root (the folder with the
 * settings file), its modules, which of them are applications, and each module's Android
 * configuration read from `build.gradle.kts` or `build.gradle`. Every file is read through
 * `readProjectFile`, so nothing outside the project is ever read.
 */
import { SETTINGS_FILES } from './gradle-root.js';
import path from 'node:path';
import { readBuildFile, type AndroidConfig } from './android-config.js';
import { parseManifest } from './manifest.js';
import { readProjectFile } from './project-files.js';
import { defaultProjectDir, parseSettings, type SettingsInfo } from './settings.js';
import { parseVersionCatalog, resolvePluginAlias, type VersionCatalog } from './version-catalog.js';

export const APPLICATION_PLUGIN = 'com.android.application';
const ANDROID_PLUGINS = new Set([
  APPLICATION_PLUGIN,
  'com.android.library',
  'com.android.test',
  'com.android.dynamic-feature',
]);

export interface ModuleManifest {
  /** Relative path of the manifest read. */
  path: string;
  package: string | null;
  launcherActivity: string | null;
  /** URI schemes its intent filters declare. */
  schemes: string[];
}

export interface ModuleInfo {
  /** The Gradle project path: `:app`, or `:` for the root project. */
  path: string;
  /** The directory relative to the root, `/`-separated (`''` for the root); null when it cannot be read. */
  dir: string | null;
  /** The build file read, relative to the root; null when the module has none. */
  buildFile: string | null;
  dsl: 'kotlin' | 'groovy' | null;
  /** Ids of the plugins the build file applies (aliases resolved through the version catalog). */
  plugins: string[];
  /** `alias(libs.plugins.x)` entries the catalog does not resolve (often convention plugins). */
  unresolvedPluginAliases: string[];
  isAndroid: boolean;
  isApplication: boolean;
  /** Why it counts as an application: the plugin, or an `applicationId` (only apps can set one). */
  applicationEvidence: 'plugin' | 'applicationId' | null;
  android: AndroidConfig | null;
  manifest: ModuleManifest | null;
  notes: string[];
}

export interface ProjectModel {
  /** The canonical project root. */
  root: string;
  settingsFile: string | null;
  rootProjectName: string | null;
  modules: ModuleInfo[];
  /** Gradle paths of the application modules. */
  applicationModules: string[];
  /** The Android Gradle Plugin version declared in the build (catalog, root plugins or classpath). */
  agpVersion: string | null;
  versionCatalog: string | null;
  notes: string[];
}

function joinRel(dir: string, file: string): string {
  return dir === '' ? file : `${dir}/${file}`;
}

async function readText(root: string, rel: string): Promise<string | null> {
  const r = await readProjectFile(root, rel);
  return r.ok ? r.text : null;
}

/** The namespace a module's code and ids start from: `namespace`, else the manifest's `package`. */
export function effectiveNamespace(module: ModuleInfo): string | null {
  const ns = module.android?.namespace;
  if (typeof ns === 'string') {
    return ns;
  }
  return module.manifest?.package ?? null;
}

/** The module's default application id: `defaultConfig.applicationId`, else its namespace. */
export function defaultApplicationId(module: ModuleInfo): string | null {
  const id = module.android?.applicationId;
  if (id === null) {
    return null;
  }
  return id ?? effectiveNamespace(module);
}

async function readModule(
  root: string,
  gradlePath: string,
  dir: string | null,
  catalog: VersionCatalog | null,
): Promise<ModuleInfo & { agpVersion: string | null }> {
  const module: ModuleInfo & { agpVersion: string | null } = {
    path: gradlePath,
    dir,
    buildFile: null,
    dsl: null,
    plugins: [],
    unresolvedPluginAliases: [],
    isAndroid: false,
    isApplication: false,
    applicationEvidence: null,
    android: null,
    manifest: null,
    notes: [],
    agpVersion: null,
  };
  if (dir === null) {
    module.notes.push('its projectDir is set to something only Gradle can evaluate');
    return module;
  }
  for (const [file, dsl] of [
    ['build.gradle.kts', 'kotlin'],
    ['build.gradle', 'groovy'],
  ] as const) {
    const rel = joinRel(dir, file);
    const r = await readProjectFile(root, rel);
    if (!r.ok) {
      if (r.code === 'outside_project') {
        module.notes.push(r.reason);
      }
      continue;
    }
    if (r.truncated) {
      module.notes.push(`${rel} is larger than the read limit; only its start was read`);
    }
    const info = readBuildFile(r.text, dsl);
    module.buildFile = rel;
    module.dsl = dsl;
    module.agpVersion = info.agpVersion;
    for (const p of info.plugins) {
      if (!p.applied) {
        continue;
      }
      if (p.id !== null) {
        module.plugins.push(p.id);
        continue;
      }
      const resolved = p.alias !== undefined ? resolvePluginAlias(catalog, p.alias) : null;
      if (resolved) {
        module.plugins.push(resolved.id);
      } else if (p.alias !== undefined) {
        module.unresolvedPluginAliases.push(p.alias);
      }
    }
    module.android = info.android.hasAndroidBlock ? info.android : null;
    break;
  }
  module.isAndroid = module.plugins.some((p) => ANDROID_PLUGINS.has(p)) || module.android !== null;
  if (module.plugins.includes(APPLICATION_PLUGIN)) {
    module.isApplication = true;
    module.applicationEvidence = 'plugin';
  } else if (module.android?.applicationId !== undefined) {
    module.isApplication = true;
    module.applicationEvidence = 'applicationId';
  }
  if (module.isAndroid) {
    const rel = joinRel(dir, 'src/main/AndroidManifest.xml');
    const xml = await readText(root, rel);
    if (xml !== null) {
      const m = parseManifest(xml);
      module.manifest = {
        path: rel,
        package: m.package,
        launcherActivity: m.launcherActivity,
        schemes: m.schemes,
      };
    }
  }
  return module;
}

/** Reads the project at `root` (the folder with the settings file). Never runs Gradle. */
export async function inspectProject(projectRoot: string): Promise<ProjectModel> {
  const resolvedRoot = path.resolve(projectRoot);
  const notes: string[] = [];
  let settingsFile: string | null = null;
  let settings: SettingsInfo = { rootProjectName: null, includes: [], projectDirs: new Map() };
  let root = resolvedRoot;
  for (const name of SETTINGS_FILES) {
    const r = await readProjectFile(resolvedRoot, name);
    if (r.ok) {
      settingsFile = name;
      root = path.dirname(r.path);
      settings = parseSettings(r.text, name.endsWith('.kts') ? 'kotlin' : 'groovy');
      break;
    }
    if (r.code === 'outside_project') {
      notes.push(r.reason);
    }
  }
  if (settingsFile === null) {
    notes.push('no settings.gradle(.kts) found: only the root build file is read');
  }
  const catalogText = await readText(root, 'gradle/libs.versions.toml');
  const catalog = catalogText !== null ? parseVersionCatalog(catalogText) : null;

  const rootModule = await readModule(root, ':', '', catalog);
  const included = await Promise.all(
    settings.includes.map((p) => {
      const dir = settings.projectDirs.has(p) ? (settings.projectDirs.get(p) ?? null) : defaultProjectDir(p);
      return readModule(root, p, dir, catalog);
    }),
  );
  const modules = [
    ...(rootModule.buildFile !== null && rootModule.isAndroid ? [rootModule] : []),
    ...included,
  ];

  let agpVersion = catalog?.plugins.get('android.application')?.version ?? null;
  agpVersion ??=
    [...modules.values()].map((m) => m.agpVersion).find((v) => v !== null) ?? rootModule.agpVersion;
  if (agpVersion === null && catalog) {
    for (const p of catalog.plugins.values()) {
      if (ANDROID_PLUGINS.has(p.id) && p.version) {
        agpVersion = p.version;
        break;
      }
    }
  }
  const cleaned: ModuleInfo[] = modules.map(({ agpVersion: _agp, ...m }) => m);
  return {
    root,
    settingsFile,
    rootProjectName: settings.rootProjectName,
    modules: cleaned,
    applicationModules: cleaned.filter((m) => m.isApplication).map((m) => m.path),
    agpVersion,
    versionCatalog: catalog ? 'gradle/libs.versions.toml' : null,
    notes,
  };
}

/** Finds a module by Gradle path (`:app`), bare name (`app`), or a task path naming it (`:app:assembleDebug`). */
export function findModule(project: ProjectModel, ref: string): ModuleInfo | null {
  const want = ref.startsWith(':') ? ref : `:${ref}`;
  const exact = project.modules.find((m) => m.path === want);
  if (exact) {
    return exact;
  }
  // `:mobile:assembleDebug` names the module that owns the task.
  const owner = want.slice(0, want.lastIndexOf(':')) || ':';
  return project.modules.find((m) => m.path === owner) ?? null;
}
