/**
 * Build variants as AGP forms them: one flavor from each dimension (in `flavorDimensions` order)
 * times each build type (`debug` and `release` always exist). For each variant: its name, its Gradle
 * task names, its application id (when every part of it is known), and where its APK is written.
 */
import { defaultApplicationId, type ModuleInfo, type ProjectModel } from './project-model.js';
import type { BuildTypeConfig, ProductFlavorConfig } from './android-config.js';

export interface VariantTasks {
  assemble: string;
  /** Null for modules that are not applications (libraries cannot be installed). */
  install: string | null;
  bundle: string | null;
  unitTest: string;
  /** `connected…AndroidTest`; only the test build type (`debug` unless `testBuildType` says) has one. */
  connectedTest: string | null;
  lint: string;
}

export interface BuildVariant {
  /** The module's Gradle path (`:app`). */
  module: string;
  /** `demoStagingDebug`. */
  name: string;
  buildType: string;
  /** Flavor names in dimension order. */
  flavors: string[];
  /** The combined flavor name (`demoStaging`), `''` without flavors. */
  flavorName: string;
  /** The variant's application id; null when any part of it is only known to Gradle. */
  applicationId: string | null;
  debuggable: boolean | null;
  minifyEnabled: boolean | null;
  tasks: VariantTasks;
  /** The directory AGP writes this variant's APKs to, relative to the project root. */
  apkDir: string | null;
  /** The file name AGP gives a signed APK of this variant (`app-demo-staging-debug.apk`). */
  apkFileName: string;
}

function cap(s: string): string {
  return s.length === 0 ? s : (s[0] as string).toUpperCase() + s.slice(1);
}

/** The task path for `verb` + variant in a module: `:app` + `assemble` + `demoDebug` → `:app:assembleDemoDebug`. */
export function variantTask(modulePath: string, verb: string, variant: string, suffix = ''): string {
  const prefix = modulePath === ':' ? ':' : `${modulePath}:`;
  return `${prefix}${verb}${cap(variant)}${suffix}`;
}

/** Joins variant parts the AGP way: first part as is, the rest capitalised. */
export function variantName(flavors: readonly string[], buildType: string): string {
  const parts = [...flavors, buildType];
  return parts.map((p, i) => (i === 0 ? p : cap(p))).join('');
}

/** AGP adds a `.` before a suffix that lacks one. */
function dotted(suffix: string): string {
  return suffix === '' || suffix.startsWith('.') ? suffix : `.${suffix}`;
}

/** Groups flavors by dimension in declared order. Flavors without a dimension get the only one. */
export function flavorGroups(
  module: ModuleInfo,
): { dimension: string | null; flavors: ProductFlavorConfig[] }[] {
  const android = module.android;
  if (!android || android.productFlavors.length === 0) {
    return [];
  }
  const dims = android.flavorDimensions ?? [];
  const declared = new Set(dims);
  const order: (string | null)[] = [...dims];
  const groups = new Map<string | null, ProductFlavorConfig[]>();
  for (const f of android.productFlavors) {
    let dim = f.dimension;
    if (dim === null && dims.length === 1) {
      dim = dims[0] as string;
    }
    if (dim !== null && !declared.has(dim)) {
      // A dimension used but not declared here (declared in a convention plugin): keep it, after the known ones.
      declared.add(dim);
      order.push(dim);
    }
    if (dim === null && !order.includes(null)) {
      order.push(null);
    }
    const list = groups.get(dim) ?? [];
    list.push(f);
    groups.set(dim, list);
  }
  return order.filter((d) => groups.has(d)).map((d) => ({ dimension: d, flavors: groups.get(d) ?? [] }));
}

function cartesian<T>(lists: T[][]): T[][] {
  let acc: T[][] = [[]];
  for (const list of lists) {
    const next: T[][] = [];
    for (const prefix of acc) {
      for (const item of list) {
        next.push([...prefix, item]);
      }
    }
    acc = next;
  }
  return acc;
}

/** The variant's application id, following AGP's merge rules; null when a part is unknown. */
export function variantApplicationId(
  module: ModuleInfo,
  flavors: readonly ProductFlavorConfig[],
  buildType: BuildTypeConfig,
): string | null {
  // The highest-priority flavor (first dimension) that sets an applicationId wins over defaultConfig.
  let base: string | null | undefined;
  for (const f of flavors) {
    if (f.applicationId !== undefined) {
      base = f.applicationId;
      break;
    }
  }
  if (base === undefined) {
    base = defaultApplicationId(module);
  }
  if (base === null) {
    return null;
  }
  // Suffixes: defaultConfig, then flavors in dimension order, then the build type.
  const suffixes = [
    module.android?.applicationIdSuffix,
    ...flavors.map((f) => f.applicationIdSuffix),
    buildType.applicationIdSuffix,
  ];
  let id = base;
  for (const s of suffixes) {
    if (s === null) {
      return null;
    }
    if (s !== undefined) {
      id += dotted(s);
    }
  }
  return id;
}

/** Every variant of one Android module. A module without an android block has none. */
export function moduleVariants(module: ModuleInfo): BuildVariant[] {
  const android = module.android;
  if (!android || module.dir === null) {
    return [];
  }
  const groups = flavorGroups(module);
  const combos = cartesian(groups.map((g) => g.flavors));
  const testBuildType = android.testBuildType ?? 'debug';
  const moduleName =
    module.path === ':' ? (module.dir.split('/').pop() ?? 'app') : (module.path.split(':').pop() ?? '');
  const out: BuildVariant[] = [];
  for (const flavors of combos) {
    const flavorNames = flavors.map((f) => f.name);
    const flavorName = variantName(flavorNames.slice(0, -1), flavorNames[flavorNames.length - 1] ?? '');
    for (const bt of android.buildTypes) {
      const name = variantName(flavorNames, bt.name);
      const outputs = module.dir === '' ? 'build/outputs/apk' : `${module.dir}/build/outputs/apk`;
      out.push({
        module: module.path,
        name,
        buildType: bt.name,
        flavors: flavorNames,
        flavorName: flavorNames.length === 0 ? '' : flavorName,
        applicationId: module.isApplication ? variantApplicationId(module, flavors, bt) : null,
        debuggable: bt.debuggable,
        minifyEnabled: bt.minifyEnabled,
        tasks: {
          assemble: variantTask(module.path, 'assemble', name),
          install: module.isApplication ? variantTask(module.path, 'install', name) : null,
          bundle: module.isApplication ? variantTask(module.path, 'bundle', name) : null,
          unitTest: variantTask(module.path, 'test', name, 'UnitTest'),
          connectedTest:
            bt.name === testBuildType ? variantTask(module.path, 'connected', name, 'AndroidTest') : null,
          lint: variantTask(module.path, 'lint', name),
        },
        apkDir: flavorNames.length === 0 ? `${outputs}/${bt.name}` : `${outputs}/${flavorName}/${bt.name}`,
        apkFileName: `${[moduleName, ...flavorNames, bt.name].join('-')}.apk`,
      });
    }
  }
  return out;
}

/** The variants of every application module of the project. */
export function projectVariants(project: ProjectModel): BuildVariant[] {
  return project.modules.filter((m) => m.isApplication).flatMap(moduleVariants);
}
