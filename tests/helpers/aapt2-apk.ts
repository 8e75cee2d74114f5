/**
 * Real APKs with a compiled resource table, made the way AGP makes them: `aapt2 compile` then
 * `aapt2 link` against Debian's framework-res.apk (apt-get install aapt android-framework-res). And
 * `aapt dump badging`, the oracle for what such an APK's label is in each locale.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Debian's framework-res.apk, wherever the android-framework-res package put it. */
export function frameworkRes(): string {
  const files = execFileSync('dpkg', ['-L', 'android-framework-res'], { encoding: 'utf8' }).split('\n');
  const found = files.find((f) => f.endsWith('/framework-res.apk'));
  if (!found) {
    throw new Error('android-framework-res is not installed (apt-get install android-framework-res)');
  }
  return found;
}

/** The label's strings per resource folder; `launcher_name` is an alias of `app_name`. */
const STRINGS: Record<string, string> = {
  values: '<string name="app_name">Price Book</string><string name="launcher_name">@string/app_name</string>',
  'values-de': '<string name="app_name">Preisbuch</string>',
  'values-fr': '<string name="app_name">Livre des prix</string>',
  'values-fr-rCA': '<string name="app_name">Livre des prix (Canada)</string>',
  'values-night': '<string name="app_name">Price Book (night)</string>',
};

export interface LinkOptions {
  /** More `aapt2 link` flags (`--enable-sparse-encoding`). */
  linkFlags?: string[];
  /** Random (incompressible) assets: count files of `bytes` each. */
  assets?: { count: number; bytes: number };
  /** The manifest's android:label; default `@string/launcher_name`. */
  label?: string;
  packageName?: string;
}

/** Links an app in `dir` and returns the APK's path. */
export function linkLabelledApk(dir: string, o: LinkOptions = {}): string {
  const { label = '@string/launcher_name', packageName = 'com.example.pricebook' } = o;
  for (const [folder, body] of Object.entries(STRINGS)) {
    mkdirSync(join(dir, 'res', folder), { recursive: true });
    writeFileSync(join(dir, 'res', folder, 'strings.xml'), `<resources>${body}</resources>`);
  }
  writeFileSync(
    join(dir, 'AndroidManifest.xml'),
    `<manifest xmlns:android="http://schemas.android.com/apk/res/android" package="${packageName}"
       android:versionCode="3" android:versionName="1.2">
       <uses-sdk android:minSdkVersion="26" android:targetSdkVersion="34"/>
       <application android:label="${label}"><activity android:name=".Main" android:exported="true">
         <intent-filter><action android:name="android.intent.action.MAIN"/><category android:name="android.intent.category.LAUNCHER"/></intent-filter>
       </activity></application></manifest>`,
  );
  const assetArgs: string[] = [];
  if (o.assets) {
    mkdirSync(join(dir, 'assets'), { recursive: true });
    for (let i = 0; i < o.assets.count; i++) {
      writeFileSync(join(dir, 'assets', `a${i}.bin`), randomBytes(o.assets.bytes));
    }
    assetArgs.push('-A', join(dir, 'assets'));
  }
  return compileAndLink(dir, [...(o.linkFlags ?? []), ...assetArgs]);
}

/** `aapt2 compile` of `dir/res`, then `aapt2 link` with `dir/AndroidManifest.xml` into `dir/app.apk`. */
export function compileAndLink(dir: string, flags: string[] = []): string {
  execFileSync('aapt2', ['compile', '--dir', join(dir, 'res'), '-o', join(dir, 'res.zip')]);
  const out = join(dir, 'app.apk');
  execFileSync('aapt2', [
    'link',
    ...flags,
    '-o',
    out,
    '-I',
    frameworkRes(),
    '--manifest',
    join(dir, 'AndroidManifest.xml'),
    join(dir, 'res.zip'),
  ]);
  return out;
}

/** Links an app in `dir` and returns the APK's bytes. */
export function linkLabelledApkBytes(dir: string, o: LinkOptions = {}): Uint8Array {
  return readFileSync(linkLabelledApk(dir, o));
}

/** `application-label[-CONFIG]:'…'` lines of `aapt dump badging`: label by configuration ('' default). */
export function badgingLabels(apk: string): Map<string, string> {
  const out = execFileSync('aapt', ['dump', 'badging', apk], { encoding: 'utf8' });
  const labels = new Map<string, string>();
  for (const m of out.matchAll(/^application-label(?:-([\w-]+))?:'(.*)'$/gm)) {
    labels.set(m[1] ?? '', m[2]!);
  }
  return labels;
}

/** What a phone in `locale` shows, among the configurations listed (`de`, `fr-CA`, ''). */
export function labelForLocale(labels: Map<string, string>, locale: string): string | undefined {
  const [lang, region] = locale.split('-');
  return labels.get(`${lang}-${region}`) ?? labels.get(lang!) ?? labels.get('');
}

/**
 * Links a debuggable app whose manifest names `res/xml/network_security_config.xml` (`config`, XML
 * text) and whose `res/raw/` holds `raw` files, as AGP would; returns the APK's path.
 */
export function linkNetworkConfigApk(
  dir: string,
  config: string,
  raw: Record<string, Uint8Array | string>,
): string {
  mkdirSync(join(dir, 'res', 'xml'), { recursive: true });
  mkdirSync(join(dir, 'res', 'raw'), { recursive: true });
  writeFileSync(join(dir, 'res', 'xml', 'network_security_config.xml'), config);
  for (const [file, data] of Object.entries(raw)) {
    writeFileSync(join(dir, 'res', 'raw', file), data);
  }
  writeFileSync(
    join(dir, 'AndroidManifest.xml'),
    `<manifest xmlns:android="http://schemas.android.com/apk/res/android" package="com.example.nsc"
       android:versionCode="1" android:versionName="1">
       <uses-sdk android:minSdkVersion="24" android:targetSdkVersion="34"/>
       <application android:debuggable="true" android:networkSecurityConfig="@xml/network_security_config"/>
     </manifest>`,
  );
  return compileAndLink(dir);
}
