/**
 * Reads a module's Android configuration out of its build file (Kotlin DSL or Groovy) without
 * running Gradle. Values that Gradle would compute (a variable, a function call, an interpolated
 * string, a version-catalog lookup) stay unknown: never guessed.
 *
 * Conventions of the result: for the optional string fields, an absent property means "not set in
 * this file"; `null` means "set to something only Gradle can evaluate".
 */
import { readScript, type ScriptDialect, type ScriptNode } from './gradle-script-reader.js';
import {
  blocksNamed,
  evaluate,
  inlineFileConstants,
  itemName,
  readStatement,
  type Evaluated,
} from './script-statements.js';
import {
  asBoolean,
  asNumber,
  asOptionalString,
  collectProps,
  lastValue,
  noteUnknown,
  type Props,
} from './script-props.js';
import { readPlugins, type PluginUse } from './plugins.js';

export interface BuildTypeConfig {
  name: string;
  applicationIdSuffix?: string | null;
  versionNameSuffix?: string | null;
  /** `minifyEnabled` / `isMinifyEnabled`; null when unknown (AGP's default is false). */
  minifyEnabled: boolean | null;
  /** `debuggable` / `isDebuggable`; null when unknown (AGP's default: true for debug only). */
  debuggable: boolean | null;
  /** The build type this one was initialised from (`initWith`). */
  initWith?: string;
  /** False for `debug`/`release` when the file does not mention them (AGP always creates them). */
  declared: boolean;
}

export interface ProductFlavorConfig {
  name: string;
  /** null when set to something unknown, or not set (then AGP assigns the only dimension). */
  dimension: string | null;
  applicationId?: string | null;
  applicationIdSuffix?: string | null;
  versionNameSuffix?: string | null;
  minSdk: number | null;
  targetSdk: number | null;
  versionCode: number | null;
  versionName: string | null;
}

export interface AndroidConfig {
  /** Whether the file has an `android { … }` block at all. */
  hasAndroidBlock: boolean;
  namespace?: string | null;
  applicationId?: string | null;
  applicationIdSuffix?: string | null;
  versionNameSuffix?: string | null;
  compileSdk: number | null;
  minSdk: number | null;
  targetSdk: number | null;
  versionCode: number | null;
  versionName: string | null;
  /** Declared `flavorDimensions` in order; null when they are set but cannot be read. */
  flavorDimensions: string[] | null;
  buildTypes: BuildTypeConfig[];
  productFlavors: ProductFlavorConfig[];
  /** `testBuildType`, when set to a literal (AGP's default is debug). */
  testBuildType: string | null;
  /** Things the reader saw but could not evaluate, for the model to know what is missing. */
  unknown: string[];
}

export interface BuildFileInfo {
  plugins: PluginUse[];
  android: AndroidConfig;
  /** The AGP version the file declares (`classpath 'com.android.tools.build:gradle:X'`, `id(…) version "X"`). */
  agpVersion: string | null;
}

/** Reads `compileSdk { version = release(36) }` (AGP 8.13+) as well as the plain property forms. */
function sdkLevel(body: ScriptNode[], props: Props, keys: readonly string[]): number | null {
  const direct = asNumber(lastValue(props, keys));
  if (direct !== null) {
    return direct;
  }
  for (const key of keys) {
    for (const block of blocksNamed(body, key)) {
      for (const node of block.body ?? []) {
        const st = readStatement(node.tokens);
        const expr = st?.key === 'version' && st.op === 'set' ? st.args[0] : undefined;
        const call = expr?.[0];
        const arg = expr?.[2];
        if (call?.kind === 'ident' && call.text === 'release' && arg?.kind === 'number') {
          return Number(arg.text);
        }
      }
    }
  }
  return null;
}

/** A build type as written: `minifyEnabled`/`debuggable` absent (undefined) when the file does not set them. */
type RawBuildType = Omit<BuildTypeConfig, 'minifyEnabled' | 'debuggable'> & {
  minifyEnabled?: boolean | null;
  debuggable?: boolean | null;
};

function optionalBoolean(v: Evaluated | undefined): boolean | null | undefined {
  return v === undefined ? undefined : asBoolean(v);
}

function readBuildType(name: string, body: ScriptNode[], unknown: string[]): RawBuildType {
  const props = collectProps(body);
  const suffix = lastValue(props, ['applicationIdSuffix', 'setApplicationIdSuffix']);
  const nameSuffix = lastValue(props, ['versionNameSuffix', 'setVersionNameSuffix']);
  const minify = lastValue(props, ['minifyEnabled', 'isMinifyEnabled', 'setMinifyEnabled']);
  const debuggable = lastValue(props, ['debuggable', 'isDebuggable', 'setDebuggable']);
  noteUnknown(unknown, `buildTypes.${name}.applicationIdSuffix`, suffix);
  noteUnknown(unknown, `buildTypes.${name}.versionNameSuffix`, nameSuffix);
  const bt: RawBuildType = { name, declared: true };
  const m = optionalBoolean(minify);
  const d = optionalBoolean(debuggable);
  if (m !== undefined) {
    bt.minifyEnabled = m;
  }
  if (d !== undefined) {
    bt.debuggable = d;
  }
  if (suffix !== undefined) {
    bt.applicationIdSuffix = asOptionalString(suffix) ?? null;
  }
  if (nameSuffix !== undefined) {
    bt.versionNameSuffix = asOptionalString(nameSuffix) ?? null;
  }
  const init = props.get('initWith')?.[0]?.args[0];
  if (init) {
    const literal = init.find((t) => t.kind === 'string');
    const lastIdent = [...init].reverse().find((t) => t.kind === 'ident' && t.text !== 'getByName');
    const source = literal?.text ?? lastIdent?.text;
    if (source) {
      bt.initWith = source;
    }
  }
  return bt;
}

function readFlavor(name: string, body: ScriptNode[], unknown: string[]): ProductFlavorConfig {
  const props = collectProps(body);
  const dimension = lastValue(props, ['dimension', 'setDimension']);
  const appId = lastValue(props, ['applicationId', 'setApplicationId']);
  const suffix = lastValue(props, ['applicationIdSuffix', 'setApplicationIdSuffix']);
  const nameSuffix = lastValue(props, ['versionNameSuffix', 'setVersionNameSuffix']);
  noteUnknown(unknown, `productFlavors.${name}.dimension`, dimension);
  noteUnknown(unknown, `productFlavors.${name}.applicationId`, appId);
  noteUnknown(unknown, `productFlavors.${name}.applicationIdSuffix`, suffix);
  const flavor: ProductFlavorConfig = {
    name,
    dimension: typeof dimension === 'string' ? dimension : null,
    minSdk: sdkLevel(body, props, ['minSdk', 'minSdkVersion']),
    targetSdk: sdkLevel(body, props, ['targetSdk', 'targetSdkVersion']),
    versionCode: asNumber(lastValue(props, ['versionCode'])),
    versionName: asOptionalString(lastValue(props, ['versionName'])) ?? null,
  };
  if (appId !== undefined) {
    flavor.applicationId = asOptionalString(appId) ?? null;
  }
  if (suffix !== undefined) {
    flavor.applicationIdSuffix = asOptionalString(suffix) ?? null;
  }
  if (nameSuffix !== undefined) {
    flavor.versionNameSuffix = asOptionalString(nameSuffix) ?? null;
  }
  return flavor;
}

/** Reads the items of a `buildTypes { … }` or `productFlavors { … }` block, in order, merging repeats. */
function readItems<T extends { name: string }>(
  body: ScriptNode[],
  read: (name: string, body: ScriptNode[]) => T,
  merge: (a: T, b: T) => T,
): T[] {
  const out = new Map<string, T>();
  for (const node of body) {
    const name = itemName(node.tokens);
    if (name === null) {
      continue;
    }
    const item = read(name, node.body ?? []);
    const prev = out.get(name);
    out.set(name, prev ? merge(prev, item) : item);
  }
  return [...out.values()];
}

function mergeDefined<T extends object>(a: T, b: T): T {
  const out = { ...a } as Record<string, unknown>;
  for (const [k, v] of Object.entries(b)) {
    if (v !== undefined && v !== null) {
      out[k] = v;
    } else if (!(k in out)) {
      out[k] = v;
    }
  }
  return out as T;
}

function readDimensions(props: Props, unknown: string[]): string[] | null {
  const statements = props.get('flavorDimensions') ?? [];
  if (statements.length === 0) {
    return [];
  }
  let dims: string[] = [];
  for (const st of [...statements].sort(
    (x, y) => (x.args[0]?.[0]?.line ?? 0) - (y.args[0]?.[0]?.line ?? 0),
  )) {
    const values: string[] = [];
    for (const arg of st.args) {
      const v = evaluate(arg);
      if (typeof v === 'string') {
        values.push(v);
      } else if (Array.isArray(v) && v.every((x) => typeof x === 'string')) {
        values.push(...(v as string[]));
      } else {
        unknown.push('flavorDimensions');
        return null;
      }
    }
    dims = st.op === 'set' || st.op === 'call' ? values : [...dims, ...values];
  }
  return [...new Set(dims)];
}

/** Applies `initWith` and AGP's defaults, and adds `debug`/`release`, which always exist. */
function withDefaultBuildTypes(declared: RawBuildType[]): BuildTypeConfig[] {
  const byName = new Map(declared.map((b) => [b.name, b]));
  const resolve = (bt: RawBuildType, seen: Set<string>): RawBuildType => {
    const src = bt.initWith !== undefined ? byName.get(bt.initWith) : undefined;
    if (!src || seen.has(src.name)) {
      return bt;
    }
    // `initWith` copies the source's settings; the block's own settings win.
    const base = resolve(src, new Set([...seen, bt.name]));
    const merged: RawBuildType = { ...bt };
    for (const key of ['applicationIdSuffix', 'versionNameSuffix', 'minifyEnabled', 'debuggable'] as const) {
      if (merged[key] === undefined && base[key] !== undefined) {
        (merged as Record<string, unknown>)[key] = base[key];
      }
    }
    return merged;
  };
  const finish = (bt: RawBuildType): BuildTypeConfig => {
    const r = resolve(bt, new Set([bt.name]));
    return {
      ...r,
      minifyEnabled: r.minifyEnabled === undefined ? false : r.minifyEnabled,
      debuggable: r.debuggable === undefined ? r.name === 'debug' : r.debuggable,
    };
  };
  const result: BuildTypeConfig[] = [];
  for (const name of ['debug', 'release']) {
    result.push(finish(byName.get(name) ?? { name, declared: false }));
  }
  for (const bt of declared) {
    if (bt.name !== 'debug' && bt.name !== 'release') {
      result.push(finish(bt));
    }
  }
  return result;
}

/** Reads a module build file. `dialect` follows the file name (`.kts` is Kotlin). */
export function readBuildFile(text: string, dialect: ScriptDialect): BuildFileInfo {
  const tree = inlineFileConstants(readScript(text, dialect));
  const { plugins, agpVersion } = readPlugins(tree);
  const unknown: string[] = [];
  const androidBlocks = blocksNamed(tree, 'android');
  const body = androidBlocks.flatMap((b) => b.body ?? []);
  const props = collectProps(body);
  const defaults = blocksNamed(body, 'defaultConfig').flatMap((b) => b.body ?? []);
  const dprops = collectProps(defaults);
  // `defaultConfig.applicationId = "x"` written at the android level counts too.
  for (const [key, list] of props) {
    if (key.startsWith('defaultConfig.')) {
      const short = key.slice('defaultConfig.'.length);
      dprops.set(short, [...(dprops.get(short) ?? []), ...list]);
    }
  }

  const namespace = lastValue(props, ['namespace', 'setNamespace']);
  const applicationId = lastValue(dprops, ['applicationId', 'setApplicationId']);
  const appIdSuffix = lastValue(dprops, ['applicationIdSuffix', 'setApplicationIdSuffix']);
  const nameSuffix = lastValue(dprops, ['versionNameSuffix', 'setVersionNameSuffix']);
  noteUnknown(unknown, 'namespace', namespace);
  noteUnknown(unknown, 'defaultConfig.applicationId', applicationId);
  noteUnknown(unknown, 'defaultConfig.applicationIdSuffix', appIdSuffix);

  const compileSdk = sdkLevel(body, props, ['compileSdk', 'compileSdkVersion']);
  if (compileSdk === null && (props.has('compileSdk') || props.has('compileSdkVersion'))) {
    unknown.push('compileSdk');
  }
  const minSdk = sdkLevel(defaults, dprops, ['minSdk', 'minSdkVersion']);
  if (minSdk === null && (dprops.has('minSdk') || dprops.has('minSdkVersion'))) {
    unknown.push('defaultConfig.minSdk');
  }
  const targetSdk = sdkLevel(defaults, dprops, ['targetSdk', 'targetSdkVersion']);
  if (targetSdk === null && (dprops.has('targetSdk') || dprops.has('targetSdkVersion'))) {
    unknown.push('defaultConfig.targetSdk');
  }

  const buildTypes = readItems(
    blocksNamed(body, 'buildTypes').flatMap((b) => b.body ?? []),
    (name, b) => readBuildType(name, b, unknown),
    mergeDefined,
  );
  const flavors = readItems(
    blocksNamed(body, 'productFlavors').flatMap((b) => b.body ?? []),
    (name, b) => readFlavor(name, b, unknown),
    mergeDefined,
  );
  const testBuildType = lastValue(props, ['testBuildType']);

  const android: AndroidConfig = {
    hasAndroidBlock: androidBlocks.length > 0,
    compileSdk,
    minSdk,
    targetSdk,
    versionCode: asNumber(lastValue(dprops, ['versionCode'])),
    versionName: asOptionalString(lastValue(dprops, ['versionName'])) ?? null,
    flavorDimensions: readDimensions(props, unknown),
    buildTypes: withDefaultBuildTypes(buildTypes),
    productFlavors: flavors,
    testBuildType: typeof testBuildType === 'string' ? testBuildType : null,
    unknown: [...new Set(unknown)],
  };
  if (namespace !== undefined) {
    android.namespace = asOptionalString(namespace) ?? null;
  }
  if (applicationId !== undefined) {
    android.applicationId = asOptionalString(applicationId) ?? null;
  }
  if (appIdSuffix !== undefined) {
    android.applicationIdSuffix = asOptionalString(appIdSuffix) ?? null;
  }
  if (nameSuffix !== undefined) {
    android.versionNameSuffix = asOptionalString(nameSuffix) ?? null;
  }
  return { plugins, android, agpVersion };
}
