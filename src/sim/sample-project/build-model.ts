/**
 * What the gradlew stand-in needs from the sample project's build files: the root project name,
 * the app's ids and versions, build types and flavors. Read with a small block-aware scanner of
 * the Kotlin DSL the sample project uses, so edits to versionCode or suffixes show up in the APK.
 *
 * Evidence: the Android Gradle Plugin DSL it reads (https://developer.android.com/build/build-
 * variants: applicationIdSuffix, versionNameSuffix, productFlavors, buildTypes).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  SAMPLE_MIN_SDK,
  SAMPLE_PACKAGE,
  SAMPLE_ROOT_PROJECT,
  SAMPLE_TARGET_SDK,
  SAMPLE_VERSION_CODE,
  SAMPLE_VERSION_NAME,
} from '../sample-app.js';

export interface BuildTypeModel {
  name: string;
  applicationIdSuffix: string;
  minified: boolean;
  /** Release builds only install when they have a signing config, as in AGP. */
  signed: boolean;
}

export interface FlavorModel {
  name: string;
  applicationIdSuffix: string;
}

export interface VariantModel {
  /** `demoDebug`, or `debug` without flavors. */
  name: string;
  flavor: string | null;
  buildType: BuildTypeModel;
  applicationId: string;
}

export interface BuildModel {
  rootProject: string;
  namespace: string;
  applicationId: string;
  versionCode: number;
  versionName: string;
  minSdk: number;
  targetSdk: number;
  buildTypes: BuildTypeModel[];
  flavors: FlavorModel[];
  variants: VariantModel[];
  /** Plugin ids applied by the root and the app build files (`id("…")`, not `apply false`). */
  plugins: string[];
}

/** `demo` + `debug` → `demoDebug`. */
export function variantName(flavor: string | null, buildType: string): string {
  return flavor === null ? buildType : flavor + capitalize(buildType);
}

export function capitalize(s: string): string {
  return s.length === 0 ? s : s[0]!.toUpperCase() + s.slice(1);
}

/** The text inside the balanced braces that follow `header` (a regex source), or undefined. */
function block(text: string, header: string): string | undefined {
  const m = new RegExp(`(?:^|[^\\w.])${header}\\s*\\{`, 'm').exec(text);
  if (!m) {
    return undefined;
  }
  let depth = 1;
  const start = m.index + m[0].length;
  for (let i = start; i < text.length; i++) {
    if (text[i] === '{') {
      depth++;
    } else if (text[i] === '}' && --depth === 0) {
      return text.slice(start, i);
    }
  }
  return undefined;
}

function stringValue(text: string | undefined, key: string): string | undefined {
  return text === undefined ? undefined : new RegExp(`\\b${key}\\s*=\\s*"([^"]*)"`).exec(text)?.[1];
}

function intValue(text: string | undefined, key: string): number | undefined {
  const v = text === undefined ? undefined : new RegExp(`\\b${key}\\s*=\\s*(\\d+)`).exec(text)?.[1];
  return v === undefined ? undefined : Number(v);
}

/** The top-level `name { … }` or `create("name") { … }` children of a container block. */
function namedChildren(container: string | undefined): { name: string; body: string }[] {
  const out: { name: string; body: string }[] = [];
  if (container === undefined) {
    return out;
  }
  let from = 0;
  for (;;) {
    const open = container.indexOf('{', from);
    if (open < 0) {
      return out;
    }
    let depth = 1;
    let close = open + 1;
    for (; close < container.length && depth > 0; close++) {
      depth += container[close] === '{' ? 1 : container[close] === '}' ? -1 : 0;
    }
    const header = container.slice(from, open).trim().split('\n').pop()?.trim() ?? '';
    const name =
      /^(?:create|getByName|maybeCreate|register)\("([\w-]+)"\)$/.exec(header)?.[1] ??
      /^(\w+)$/.exec(header)?.[1];
    if (name !== undefined) {
      out.push({ name, body: container.slice(open + 1, close - 1) });
    }
    from = close;
  }
}

/**
 * The ids of a build file's `plugins { id("…") }` block that are applied (not `apply false`), and
 * core plugins written as their accessor (`` `maven-publish` ``), as Gradle's Kotlin DSL reads them.
 */
function appliedPlugins(buildFile: string): string[] {
  const body = block(buildFile, 'plugins') ?? '';
  return [...body.matchAll(/^\s*id\("([\w.-]+)"\)([^\n]*)$/gm)]
    .filter((m) => !/\bapply\s+false\b/.test(m[2]!))
    .map((m) => m[1]!)
    .concat([...body.matchAll(/^\s*`?([a-z][\w-]*)`?\s*$/gm)].map((m) => m[1]!));
}

function readIfExists(path: string): string | undefined {
  return existsSync(path) ? readFileSync(path, 'utf8') : undefined;
}

/** Reads the project at `projectDir`; values it cannot find fall back to the sample app's. */
export function readBuildModel(projectDir: string): BuildModel {
  const settings = readIfExists(join(projectDir, 'settings.gradle.kts')) ?? '';
  const app = readIfExists(join(projectDir, 'app', 'build.gradle.kts')) ?? '';
  const android = block(app, 'android') ?? '';
  const defaultConfig = block(android, 'defaultConfig');
  const applicationId = stringValue(defaultConfig, 'applicationId') ?? SAMPLE_PACKAGE;

  const declared = namedChildren(block(android, 'buildTypes'));
  const buildTypes: BuildTypeModel[] = ['debug', 'release'].map((name) => {
    const body = declared.find((d) => d.name === name)?.body ?? '';
    return {
      name,
      applicationIdSuffix: stringValue(body, 'applicationIdSuffix') ?? '',
      minified: /\bisMinifyEnabled\s*=\s*true/.test(body),
      signed: name === 'debug' || /\bsigningConfig\s*=/.test(body),
    };
  });
  for (const extra of declared) {
    if (!buildTypes.some((b) => b.name === extra.name)) {
      buildTypes.push({
        name: extra.name,
        applicationIdSuffix: stringValue(extra.body, 'applicationIdSuffix') ?? '',
        minified: /\bisMinifyEnabled\s*=\s*true/.test(extra.body),
        signed: /\bsigningConfig\s*=/.test(extra.body),
      });
    }
  }
  const flavors: FlavorModel[] = namedChildren(block(android, 'productFlavors')).map((f) => ({
    name: f.name,
    applicationIdSuffix: stringValue(f.body, 'applicationIdSuffix') ?? '',
  }));
  const variants: VariantModel[] = (flavors.length > 0 ? flavors : [null]).flatMap((flavor) =>
    buildTypes.map((buildType) => ({
      name: variantName(flavor?.name ?? null, buildType.name),
      flavor: flavor?.name ?? null,
      buildType,
      applicationId: applicationId + (flavor?.applicationIdSuffix ?? '') + buildType.applicationIdSuffix,
    })),
  );
  const rootBuild = readIfExists(join(projectDir, 'build.gradle.kts')) ?? '';
  return {
    plugins: [...appliedPlugins(rootBuild), ...appliedPlugins(app)],
    rootProject: /rootProject\.name\s*=\s*"([^"]+)"/.exec(settings)?.[1] ?? SAMPLE_ROOT_PROJECT,
    namespace: stringValue(android, 'namespace') ?? applicationId,
    applicationId,
    versionCode: intValue(defaultConfig, 'versionCode') ?? SAMPLE_VERSION_CODE,
    versionName: stringValue(defaultConfig, 'versionName') ?? SAMPLE_VERSION_NAME,
    minSdk: intValue(defaultConfig, 'minSdk') ?? SAMPLE_MIN_SDK,
    targetSdk: intValue(defaultConfig, 'targetSdk') ?? SAMPLE_TARGET_SDK,
    buildTypes,
    flavors,
    variants,
  };
}
