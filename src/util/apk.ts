/**
 * APKs as droidbus needs them: write a real (unsigned) APK whose binary manifest `aapt dump badging`
 * and the package manager's parsers read, and read the identity of any APK (written here, by aapt,
 * or by AGP) from its zip central directory and binary AndroidManifest.xml.
 */
import { createHash } from 'node:crypto';
import {
  ANDROID_NS,
  ResType,
  encodeBinaryXml,
  type XmlAttribute,
  type XmlElement,
} from './apk-binary-xml.js';
import { encodeResourceTable } from './apk-resources-write.js';
import { decodeBinaryXml } from './apk-binary-xml-decode.js';
import { ApkFormatError, readZipEntries, readZipEntryData, writeZip, type ZipEntryInput } from './apk-zip.js';

export { ApkFormatError } from './apk-zip.js';

/** What an APK says about itself. */
export interface ApkInfo {
  packageName: string;
  /** 0 when the manifest has none (as the package manager assumes). */
  versionCode: number;
  versionName: string | null;
  /** 1 when absent; a preview codename reads as 10000 (Build.VERSION_CODES.CUR_DEVELOPMENT). */
  minSdk: number;
  /** minSdk when absent. */
  targetSdk: number;
  /** The first activity (or alias) with a MAIN/LAUNCHER intent filter, fully qualified. */
  launchableActivity: string | null;
  /** Every `<activity>`, fully qualified, in manifest order. */
  activities: string[];
  /** The application's label when it is a literal string. */
  label: string | null;
  debuggable: boolean;
  permissions: string[];
  /**
   * The compiler marker in classes.dex (`~~R8{…}` from R8, `~~D8{…}` from D8), which the dex
   * string pool always carries; null when there is none.
   */
  dexMarker: string | null;
  /** `<instrumentation>` elements (test APKs): the runner class and the package it instruments. */
  instrumentations: { name: string; targetPackage: string }[];
}

export interface ApkActivityInput {
  /** Fully qualified, or relative to the package (`.LoginActivity`). */
  name: string;
  exported?: boolean;
  /** Gets the MAIN/LAUNCHER intent filter. */
  launcher?: boolean;
}

export interface ApkWriteInput {
  packageName: string;
  versionCode: number;
  versionName: string;
  minSdk: number;
  targetSdk: number;
  compileSdk?: number;
  label?: string;
  debuggable?: boolean;
  activities: ApkActivityInput[];
  permissions?: string[];
  /**
   * A test APK's runner: `<instrumentation android:name android:targetPackage>` under `<manifest>`,
   * as AGP writes it from `testInstrumentationRunner` and the tested app's id.
   */
  instrumentation?: { name: string; targetPackage: string; label?: string };
  /** More archive entries (native libraries, assets…). */
  extraEntries?: ZipEntryInput[];
  /** The compiler marker to put in classes.dex's strings (`~~R8{…}` for a minified build). */
  dexMarker?: string;
  /** String pool encoding of the manifest. Default utf16, as aapt writes it. */
  stringPool?: 'utf8' | 'utf16';
  /**
   * `android:networkSecurityConfig`: the config (res/xml/network_security_config.xml) and the raw
   * files it names as `<certificates src="@raw/NAME">`, linked into a resources.arsc as aapt2 does.
   */
  networkSecurityConfig?: { config: XmlElement; raw?: { file: string; data: Uint8Array }[] };
}

const ACTION_MAIN = 'android.intent.action.MAIN';
const CATEGORY_LAUNCHER = 'android.intent.category.LAUNCHER';
const CUR_DEVELOPMENT = 10000;

function androidAttr(name: string, value: string | number | boolean): XmlAttribute {
  return { ns: ANDROID_NS, name, value };
}

function element(name: string, attributes: XmlAttribute[], children: XmlElement[] = []): XmlElement {
  return { name, attributes, children };
}

/** The manifest element tree for an APK, as a merged AGP manifest would have it. */
export function buildManifest(input: ApkWriteInput): XmlElement {
  const manifestAttrs: XmlAttribute[] = [
    androidAttr('versionCode', input.versionCode),
    androidAttr('versionName', input.versionName),
    { name: 'package', value: input.packageName },
  ];
  if (input.compileSdk !== undefined) {
    manifestAttrs.push(androidAttr('compileSdkVersion', input.compileSdk));
    manifestAttrs.push({ name: 'platformBuildVersionCode', value: input.compileSdk });
  }
  const appAttrs: XmlAttribute[] = [];
  if (input.label !== undefined) {
    appAttrs.push(androidAttr('label', input.label));
  }
  if (input.debuggable) {
    appAttrs.push(androidAttr('debuggable', true));
  }
  const activities = input.activities.map((a) => {
    const attrs: XmlAttribute[] = [androidAttr('name', a.name)];
    if (a.exported !== undefined || a.launcher) {
      attrs.push(androidAttr('exported', a.exported ?? true));
    }
    const filters = a.launcher
      ? [
          element(
            'intent-filter',
            [],
            [
              element('action', [androidAttr('name', ACTION_MAIN)]),
              element('category', [androidAttr('name', CATEGORY_LAUNCHER)]),
            ],
          ),
        ]
      : [];
    return element('activity', attrs, filters);
  });
  return element('manifest', manifestAttrs, [
    element('uses-sdk', [
      androidAttr('minSdkVersion', input.minSdk),
      androidAttr('targetSdkVersion', input.targetSdk),
    ]),
    ...(input.instrumentation !== undefined
      ? [
          element('instrumentation', [
            ...(input.instrumentation.label !== undefined
              ? [androidAttr('label', input.instrumentation.label)]
              : []),
            androidAttr('name', input.instrumentation.name),
            androidAttr('targetPackage', input.instrumentation.targetPackage),
            androidAttr('handleProfiling', false),
            androidAttr('functionalTest', false),
          ]),
        ]
      : []),
    ...(input.permissions ?? []).map((p) => element('uses-permission', [androidAttr('name', p)])),
    element('application', appAttrs, activities),
  ]);
}

/** A minimal DEX file: a valid header (magic, checksum, signature, sizes) and nothing else. */
function placeholderDex(marker: string | undefined): Uint8Array {
  // The header, then (when given) the marker as one string data item: ULEB128 length, bytes, NUL.
  const text = marker === undefined ? new Uint8Array(0) : new TextEncoder().encode(marker);
  const item = text.length === 0 ? text : new Uint8Array([...uleb128(text.length), ...text, 0]);
  const dex = new Uint8Array(0x70 + item.length);
  dex.set(item, 0x70);
  const dv = new DataView(dex.buffer);
  dex.set(new TextEncoder().encode('dex\n035\0'), 0);
  dv.setUint32(32, dex.length, true);
  dv.setUint32(36, 0x70, true);
  dv.setUint32(40, 0x12345678, true);
  dex.set(createHash('sha1').update(dex.subarray(32)).digest(), 12);
  dv.setUint32(8, adler32(dex.subarray(12)), true);
  return dex;
}

function uleb128(n: number): number[] {
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n !== 0) {
      b |= 0x80;
    }
    out.push(b);
  } while (n !== 0);
  return out;
}

/** The `~~R8{…}` / `~~D8{…}` marker in a dex file's bytes, or null. */
function findDexMarker(dex: Uint8Array): string | null {
  const text = Buffer.from(dex.buffer, dex.byteOffset, dex.byteLength).toString('latin1');
  const m = /~~(?:R8|D8|L8)\{[^\0]*?\}(?=\0)/.exec(text);
  return m === null ? null : m[0];
}

function adler32(bytes: Uint8Array): number {
  let a = 1;
  let b = 0;
  for (const byte of bytes) {
    a = (a + byte) % 65521;
    b = (b + a) % 65521;
  }
  return ((b << 16) | a) >>> 0;
}

/** Writes an unsigned APK: AndroidManifest.xml (binary), classes.dex, and any extra entries. */
export function writeApk(input: ApkWriteInput): Uint8Array {
  if (!/^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z][A-Za-z0-9_]*)+$/.test(input.packageName)) {
    throw new ApkFormatError(`'${input.packageName}' is not a valid package name`);
  }
  const root = buildManifest(input);
  const resources = input.networkSecurityConfig
    ? networkSecurityEntries(input.networkSecurityConfig, root)
    : [];
  const manifest = encodeBinaryXml(root, { encoding: input.stringPool ?? 'utf16' });
  return writeZip([
    { name: 'AndroidManifest.xml', data: manifest, method: 'deflate' },
    { name: 'classes.dex', data: placeholderDex(input.dexMarker), method: 'deflate' },
    ...resources,
    ...(input.extraEntries ?? []),
  ]);
}

/**
 * The entries of a network security config (its compiled XML, its raw certificates, the table
 * that names them), and the manifest's application pointed at it. `src="@raw/NAME"` becomes a
 * reference, as aapt2 compiles it.
 */
function networkSecurityEntries(
  nsc: NonNullable<ApkWriteInput['networkSecurityConfig']>,
  root: XmlElement,
): ZipEntryInput[] {
  const raw = (nsc.raw ?? []).map((r) => ({
    type: 'raw',
    name: r.file.replace(/\.[^.]*$/, ''),
    path: `res/raw/${r.file}`,
    data: r.data,
  }));
  const xmlPath = 'res/xml/network_security_config.xml';
  const { table, ids } = encodeResourceTable(attr(root, 'package')!.value as string, [
    ...raw,
    { type: 'xml', name: 'network_security_config', path: xmlPath },
  ]);
  const link = (el: XmlElement): XmlElement => ({
    ...el,
    attributes: el.attributes.map((a) => {
      const id =
        typeof a.value === 'string' && a.value.startsWith('@') ? ids.get(a.value.slice(1)) : undefined;
      if (typeof a.value === 'string' && a.value.startsWith('@') && id === undefined) {
        throw new ApkFormatError(
          `the network security config names ${a.value}, which is not among its raw files`,
        );
      }
      return id === undefined ? a : { ...a, type: ResType.REFERENCE, data: id };
    }),
    children: el.children.map(link),
  });
  const application = root.children.find((c) => c.name === 'application')!;
  application.attributes.push({
    ...androidAttr('networkSecurityConfig', `@xml/network_security_config`),
    type: ResType.REFERENCE,
    data: ids.get('xml/network_security_config')!,
  });
  return [
    ...raw.map((r) => ({ name: r.path, data: r.data, method: 'deflate' as const })),
    {
      name: xmlPath,
      data: encodeBinaryXml(link(nsc.config), { encoding: 'utf8', namespaces: [] }),
      method: 'deflate',
    },
    { name: 'resources.arsc', data: table, method: 'store' },
  ];
}

function attr(el: XmlElement, name: string): XmlAttribute | undefined {
  return (
    el.attributes.find((a) => a.ns === ANDROID_NS && a.name === name) ??
    el.attributes.find((a) => a.ns === undefined && a.name === name)
  );
}

function qualify(pkg: string, name: string): string {
  if (name.startsWith('.')) {
    return pkg + name;
  }
  return name.includes('.') ? name : `${pkg}.${name}`;
}

function asInt(value: XmlAttribute['value'] | undefined): number | undefined {
  if (typeof value === 'number') {
    return value;
  }
  return typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : undefined;
}

/** An SDK level; a preview codename (`VanillaIceCream`) counts as the development level. */
function asSdk(value: XmlAttribute['value'] | undefined): number | undefined {
  return asInt(value) ?? (typeof value === 'string' && value !== '' ? CUR_DEVELOPMENT : undefined);
}

/** Reads package identity, SDK levels and activities from an APK's bytes. Throws ApkFormatError. */
export function readApkInfo(bytes: Uint8Array): ApkInfo {
  const entries = readZipEntries(bytes);
  const entry = entries.find((e) => e.name === 'AndroidManifest.xml');
  const dex = entries.find((e) => e.name === 'classes.dex');
  if (!entry) {
    throw new ApkFormatError('the archive has no AndroidManifest.xml');
  }
  const root = decodeBinaryXml(readZipEntryData(bytes, entry));
  if (root.name !== 'manifest') {
    throw new ApkFormatError(`AndroidManifest.xml has root <${root.name}>, not <manifest>`);
  }
  const pkg = attr(root, 'package')?.value;
  if (typeof pkg !== 'string' || pkg === '') {
    throw new ApkFormatError('AndroidManifest.xml has no package attribute');
  }
  const versionName = attr(root, 'versionName')?.value;
  const usesSdk = root.children.find((c) => c.name === 'uses-sdk');
  const minSdk = (usesSdk && asSdk(attr(usesSdk, 'minSdkVersion')?.value)) ?? 1;
  const targetSdk = (usesSdk && asSdk(attr(usesSdk, 'targetSdkVersion')?.value)) ?? minSdk;
  const application = root.children.find((c) => c.name === 'application');
  const components = application?.children ?? [];
  const nameOf = (el: XmlElement): string | undefined => {
    const v = attr(el, 'name')?.value;
    return typeof v === 'string' && v !== '' ? qualify(pkg, v) : undefined;
  };
  const isLauncher = (el: XmlElement): boolean =>
    el.children.some(
      (f) =>
        f.name === 'intent-filter' &&
        f.children.some((c) => c.name === 'action' && attr(c, 'name')?.value === ACTION_MAIN) &&
        f.children.some((c) => c.name === 'category' && attr(c, 'name')?.value === CATEGORY_LAUNCHER),
    );
  const launcher = components.find(
    (c) => (c.name === 'activity' || c.name === 'activity-alias') && nameOf(c) !== undefined && isLauncher(c),
  );
  const label = application && attr(application, 'label')?.value;
  const debuggable = application && attr(application, 'debuggable')?.value;
  return {
    packageName: pkg,
    versionCode: asInt(attr(root, 'versionCode')?.value) ?? 0,
    versionName:
      typeof versionName === 'string' ? versionName : versionName === undefined ? null : String(versionName),
    minSdk,
    targetSdk,
    launchableActivity: launcher ? nameOf(launcher)! : null,
    activities: components.filter((c) => c.name === 'activity').flatMap((c) => nameOf(c) ?? []),
    label: typeof label === 'string' && !label.startsWith('@') ? label : null,
    debuggable: debuggable === true,
    dexMarker: dex === undefined ? null : findDexMarker(readZipEntryData(bytes, dex)),
    instrumentations: root.children
      .filter((c) => c.name === 'instrumentation')
      .flatMap((c) => {
        const name = nameOf(c);
        const target = attr(c, 'targetPackage')?.value;
        return name !== undefined && typeof target === 'string' ? [{ name, targetPackage: target }] : [];
      }),
    permissions: root.children
      .filter((c) => c.name === 'uses-permission')
      .flatMap((c) => {
        const v = attr(c, 'name')?.value;
        return typeof v === 'string' ? [v] : [];
      }),
  };
}
