/**
 * The files that let a debug build's HTTPS be read by droidbus's network capture (issue 72), planned
 * from what the module has — written only when the user asks (add_network_security_config):
 *
 * - `src/debug/res/raw/droidbus_ca.pem`: droidbus's CA certificate (public; its key never leaves the
 *   data directory).
 * - `src/debug/res/xml/NAME.xml`: the app's config for debug builds. A resource in the debug source
 *   set replaces the main one of the same name in debug builds only (AGP's resource merging), so it
 *   starts as a copy of the main config (its domains, pins and cleartext rules kept) with droidbus's
 *   CA added under `<debug-overrides>` — which the platform applies to debuggable apps only.
 * - When no manifest names a config: `src/debug/AndroidManifest.xml` names it (merged into debug
 *   builds only). A new config keeps `android:usesCleartextTraffic="true"` as cleartextTrafficPermitted,
 *   since the platform ignores that attribute once a config exists (API 24+).
 *
 * Evidence: developer.android.com "Network security configuration" (debug-overrides, overridePins,
 * usesCleartextTraffic ignored with a config) and "Build variants › Source sets" (a build type's
 * resources and manifest override and merge with main's).
 */
import type { ProjectWrite } from './project-writes.js';

export const CA_RESOURCE = 'droidbus_ca';
const CA_LINE = `<certificates src="@raw/${CA_RESOURCE}" overridePins="true" />`;
const HEADER_COMMENT =
  "<!-- droidbus (add_network_security_config): in debug builds only, trusts droidbus's CA so its network capture can read HTTPS. Release builds are not affected. -->";

export interface NetworkFilesInput {
  /** The module's directory relative to the project root ('' for the root project). */
  moduleDir: string;
  mainManifest: string | null;
  debugManifest: string | null;
  /** Reads a project file (relative path); null when there is none. */
  read(rel: string): Promise<string | null>;
  caPem: string;
}

export interface PlannedFile extends ProjectWrite {
  action: 'create' | 'update' | 'unchanged';
  why: string;
}

export interface NetworkFilesPlan {
  /** The config's resource name (`network_security_config`). */
  name: string;
  files: PlannedFile[];
  notes: string[];
}

/** The `@xml/NAME` a manifest's application names as its network security config. */
export function configNameIn(manifest: string | null): string | null {
  return (
    /android:networkSecurityConfig\s*=\s*["']@xml\/([A-Za-z0-9_]+)["']/.exec(manifest ?? '')?.[1] ?? null
  );
}

/** `text` with droidbus's CA among the debug-overrides' trust anchors (added where they are, or made). */
export function withDroidbusCa(text: string): string {
  const indent = (n: number): string => ' '.repeat(n);
  const openTrust = /<debug-overrides\b[^>]*>[\s\S]*?<trust-anchors\b[^>]*>/.exec(text);
  const debugEnd = text.indexOf('</debug-overrides>');
  if (openTrust && debugEnd > openTrust.index + openTrust[0].length - 1) {
    const at = openTrust.index + openTrust[0].length;
    return `${text.slice(0, at)}\n${indent(12)}${CA_LINE}${text.slice(at)}`;
  }
  const block = (pad: number): string =>
    `<trust-anchors>\n${indent(pad + 4)}${CA_LINE}\n${indent(pad)}</trust-anchors>`;
  const selfClosing = /<debug-overrides\s*\/>/.exec(text);
  if (selfClosing) {
    return `${text.slice(0, selfClosing.index)}<debug-overrides>\n${indent(8)}${block(8)}\n${indent(4)}</debug-overrides>${text.slice(selfClosing.index + selfClosing[0].length)}`;
  }
  const openDebug = /<debug-overrides\b[^>]*>/.exec(text);
  if (openDebug) {
    const at = openDebug.index + openDebug[0].length;
    return `${text.slice(0, at)}\n${indent(8)}${block(8)}${text.slice(at)}`;
  }
  const end = text.lastIndexOf('</network-security-config>');
  if (end < 0) {
    throw new Error('the config has no </network-security-config> to add debug-overrides before');
  }
  return `${text.slice(0, end)}    <debug-overrides>\n${indent(8)}${block(8)}\n    </debug-overrides>\n${text.slice(end)}`;
}

function freshConfig(cleartext: boolean): string {
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    HEADER_COMMENT,
    '<network-security-config>',
    ...(cleartext ? ['    <base-config cleartextTrafficPermitted="true" />'] : []),
    '</network-security-config>',
    '',
  ].join('\n');
}

/** `manifest` (a debug source set's) with its application naming the config `name`. */
function manifestNaming(manifest: string | null, name: string): string {
  const attr = `android:networkSecurityConfig="@xml/${name}"`;
  if (manifest === null) {
    return [
      '<?xml version="1.0" encoding="utf-8"?>',
      '<!-- droidbus (add_network_security_config): debug builds use the network security config below. -->',
      '<manifest xmlns:android="http://schemas.android.com/apk/res/android">',
      `    <application ${attr} />`,
      '</manifest>',
      '',
    ].join('\n');
  }
  let text = manifest;
  if (!/xmlns:android\s*=/.test(text)) {
    text = text.replace(
      /<manifest\b/,
      '<manifest xmlns:android="http://schemas.android.com/apk/res/android"',
    );
  }
  if (/<application\b/.test(text)) {
    return text.replace(/<application\b/, `<application ${attr}`);
  }
  const end = text.lastIndexOf('</manifest>');
  if (end < 0) {
    throw new Error('the debug manifest has no </manifest>');
  }
  return `${text.slice(0, end)}    <application ${attr} />\n${text.slice(end)}`;
}

/** The files to write (see the module comment). */
export async function planNetworkFiles(input: NetworkFilesInput): Promise<NetworkFilesPlan> {
  const under = (rel: string): string => (input.moduleDir === '' ? rel : `${input.moduleDir}/${rel}`);
  const mainName = configNameIn(input.mainManifest);
  const debugName = configNameIn(input.debugManifest);
  const name = debugName ?? mainName ?? 'network_security_config';
  const files: PlannedFile[] = [];
  const notes: string[] = [];
  const plan = async (rel: string, content: string, why: string): Promise<void> => {
    const path = under(rel);
    const now = await input.read(path);
    files.push({
      path,
      content,
      why,
      action: now === null ? 'create' : now === content ? 'unchanged' : 'update',
    });
  };

  await plan(`src/debug/res/raw/${CA_RESOURCE}.pem`, input.caPem, "droidbus's CA certificate (public)");

  const debugConfigPath = `src/debug/res/xml/${name}.xml`;
  const debugConfig = await input.read(under(debugConfigPath));
  if (debugConfig !== null) {
    const already = debugConfig.includes(`@raw/${CA_RESOURCE}`);
    await plan(
      debugConfigPath,
      already ? debugConfig : withDroidbusCa(debugConfig),
      already
        ? "the debug config already trusts droidbus's CA"
        : "droidbus's CA added to the debug config's debug-overrides",
    );
  } else {
    const main = mainName !== null ? await input.read(under(`src/main/res/xml/${mainName}.xml`)) : null;
    const cleartext = /android:usesCleartextTraffic\s*=\s*["']true["']/.test(input.mainManifest ?? '');
    if (mainName !== null && main === null) {
      notes.push(
        `the main manifest names @xml/${mainName}, but src/main/res/xml/${mainName}.xml was not found; the debug config starts empty`,
      );
    }
    if (main === null && cleartext) {
      notes.push(
        'the manifest allows cleartext traffic (usesCleartextTraffic); the new config keeps it (cleartextTrafficPermitted), since the platform ignores the attribute once a config exists',
      );
    }
    await plan(
      debugConfigPath,
      withDroidbusCa(main ?? freshConfig(cleartext)),
      main !== null
        ? `a copy of src/main/res/xml/${mainName}.xml for debug builds, with droidbus's CA in its debug-overrides`
        : "a config for debug builds that trusts droidbus's CA in its debug-overrides",
    );
  }

  if (mainName === null && debugName === null) {
    await plan(
      'src/debug/AndroidManifest.xml',
      manifestNaming(input.debugManifest, name),
      `debug builds name @xml/${name}`,
    );
  }
  return { name, files, notes };
}
