/**
 * The project's packages, which tools that stop an app or change its data or permissions may act
 * on without `allow_foreign_package: true` (reference: "Package Scope"):
 *  - each application module's applicationId (or namespace) and each product-flavor applicationId
 *    (the root build file's when no application module is found),
 *  - each of those followed by a combination of the parsed applicationIdSuffix values (flavor and
 *    build type suffixes, each used at most once), so `com.example.app.demo.debug` matches but
 *    `com.example.apple` does not,
 *  - the exact applicationId of every variant in the application modules' build outputs.
 */
import { findOutputMetadata } from './output-metadata.js';
import { defaultApplicationId, type ModuleInfo, type ProjectModel } from './project-model.js';

export interface ScopeBase {
  /** An application id from a build file (defaultConfig, namespace, or a flavor's). */
  id: string;
  /** Suffixes (with their leading `.`) that may follow it, each at most once, in any order. */
  suffixes: string[];
  module: string;
}

export interface PackageScope {
  bases: ScopeBase[];
  /** Application ids read from `output-metadata.json`, matched exactly. */
  exact: string[];
}

export type PackageScopeCheck = { ok: true } | { ok: false; message: string };

const PACKAGE_RE = /^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z][A-Za-z0-9_]*)*$/;

function dotted(suffix: string): string {
  return suffix.startsWith('.') ? suffix : `.${suffix}`;
}

function moduleBases(module: ModuleInfo): ScopeBase[] {
  const android = module.android;
  const suffixes = new Set<string>();
  const add = (s: string | null | undefined): void => {
    if (typeof s === 'string' && s !== '' && s !== '.') {
      suffixes.add(dotted(s));
    }
  };
  add(android?.applicationIdSuffix);
  for (const f of android?.productFlavors ?? []) {
    add(f.applicationIdSuffix);
  }
  for (const bt of android?.buildTypes ?? []) {
    add(bt.applicationIdSuffix);
  }
  const ids = new Set<string>();
  const base = defaultApplicationId(module);
  if (base !== null) {
    ids.add(base);
  }
  for (const f of android?.productFlavors ?? []) {
    if (typeof f.applicationId === 'string') {
      ids.add(f.applicationId);
    }
  }
  return [...ids]
    .filter((id) => PACKAGE_RE.test(id))
    .map((id) => ({ id, suffixes: [...suffixes], module: module.path }));
}

/** The modules whose ids form the scope: the application modules, else the root project. */
function scopeModules(project: ProjectModel): ModuleInfo[] {
  const apps = project.modules.filter((m) => m.isApplication);
  if (apps.length > 0) {
    return apps;
  }
  return project.modules.filter((m) => m.path === ':');
}

/** Builds the scope from the model and already-read output-metadata application ids. */
export function packageScopeFrom(project: ProjectModel, metadataIds: readonly string[] = []): PackageScope {
  const bases = scopeModules(project).flatMap(moduleBases);
  const exact = [...new Set(metadataIds.filter((id) => PACKAGE_RE.test(id)))];
  return { bases, exact };
}

/** Builds the project's package scope, reading `output-metadata.json` under the application modules. */
export async function projectPackageScope(project: ProjectModel): Promise<PackageScope> {
  const ids: string[] = [];
  for (const module of scopeModules(project)) {
    if (module.dir === null) {
      continue;
    }
    for (const found of await findOutputMetadata(project.root, module.dir)) {
      if (found.metadata.applicationId) {
        ids.push(found.metadata.applicationId);
      }
    }
  }
  return packageScopeFrom(project, ids);
}

/** True when `rest` is a concatenation of distinct entries of `suffixes` (any order). */
function isSuffixCombination(
  rest: string,
  suffixes: readonly string[],
  used: Set<number> = new Set(),
): boolean {
  if (rest === '') {
    return true;
  }
  for (let i = 0; i < suffixes.length; i++) {
    const s = suffixes[i] as string;
    if (!used.has(i) && rest.startsWith(s)) {
      used.add(i);
      if (isSuffixCombination(rest.slice(s.length), suffixes, used)) {
        return true;
      }
      used.delete(i);
    }
  }
  return false;
}

/** Whether the scope includes `pkg`. */
export function scopeIncludes(scope: PackageScope, pkg: string): boolean {
  if (scope.exact.includes(pkg)) {
    return true;
  }
  return scope.bases.some(
    (b) => pkg.startsWith(b.id) && isSuffixCombination(pkg.slice(b.id.length), b.suffixes),
  );
}

/** Every id the scope names, for messages: bases, each base with each single suffix, and exact ids. */
export function scopeIds(scope: PackageScope, limit = 12): string[] {
  const out = new Set<string>();
  for (const b of scope.bases) {
    out.add(b.id);
  }
  for (const id of scope.exact) {
    out.add(id);
  }
  for (const b of scope.bases) {
    for (const s of b.suffixes) {
      out.add(b.id + s);
    }
  }
  return [...out].slice(0, limit);
}

/**
 * Checks a package against the project's scope before any device command. The refusal is meant for
 * the model: it names the project's ids and when `allow_foreign_package` is appropriate.
 */
export function checkPackageScope(scope: PackageScope, pkg: string): PackageScopeCheck {
  if (!PACKAGE_RE.test(pkg)) {
    return { ok: false, message: `'${pkg}' is not a valid Android package name.` };
  }
  const ids = scopeIds(scope);
  if (ids.length === 0) {
    return {
      ok: false,
      message:
        `No application id could be found in this project, so '${pkg}' cannot be confirmed as the project's app. ` +
        `Pass allow_foreign_package: true only if the user asked you to act on '${pkg}'.`,
    };
  }
  if (scopeIncludes(scope, pkg)) {
    return { ok: true };
  }
  return {
    ok: false,
    message:
      `'${pkg}' is not this project's app (the project's packages: ${ids.join(', ')}${ids.length >= 12 ? ', …' : ''}). ` +
      `Pass allow_foreign_package: true only if the user asked you to act on '${pkg}'.`,
  };
}
