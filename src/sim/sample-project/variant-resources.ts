/**
 * A variant's network security config as AGP would package it: the manifests of its source sets
 * merged for `android:networkSecurityConfig`, the XML resource and the raw files it names taken from
 * the highest-priority source set that has them (variant, build type, flavor, main), compiled into
 * the APK with droidbus's APK writer.
 *
 * Evidence: developer.android.com "Build variants › Source sets" (priority: build variant > build
 * type > product flavor > main; a build type's resource replaces main's of the same name, manifests
 * merge) and "Network security configuration" (the file format); aapt2 compiles the config's
 * `true`/`false` attributes as booleans and `@raw/NAME` as references (`aapt dump xmltree` of an
 * aapt2-linked APK, src/util/network-security-config.test.ts).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { XmlAttribute, XmlElement } from '../../util/apk-binary-xml.js';
import type { ApkWriteInput } from '../../util/apk.js';
import type { VariantModel } from './build-model.js';

/** The variant's source sets, highest priority first. */
export function sourceSets(v: VariantModel): string[] {
  return [...new Set([v.name, v.buildType.name, ...(v.flavor ? [v.flavor] : []), 'main'])];
}

function unescape(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
}

/** A resource XML file's elements (no DTDs or CDATA sections: resource files have none). */
export function parseResourceXml(text: string): XmlElement {
  const body = text.replace(/<\?[\s\S]*?\?>/g, '').replace(/<!--[\s\S]*?-->/g, '');
  const stack: XmlElement[] = [];
  let root: XmlElement | null = null;
  const tag = /<(\/?)([\w:.-]+)((?:\s+[\w:.-]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>|([^<]+)/g;
  for (const m of body.matchAll(tag)) {
    const [, closing, name, attrs, selfClosing, text] = m;
    if (text !== undefined) {
      const open = stack.at(-1);
      if (open && text.trim() !== '') {
        open.text = (open.text ?? '') + unescape(text.trim());
      }
      continue;
    }
    if (closing) {
      if (stack.pop()?.name !== name) {
        throw new Error(`</${name}> closes nothing open`);
      }
      continue;
    }
    const attributes: XmlAttribute[] = [
      ...(attrs ?? '').matchAll(/([\w:.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g),
    ]
      .filter((a) => !a[1]!.startsWith('xmlns'))
      .map((a) => {
        const raw = unescape(a[2] ?? a[3] ?? '');
        const value = raw === 'true' ? true : raw === 'false' ? false : raw;
        const [prefix, local] = a[1]!.includes(':') ? a[1]!.split(':') : [null, a[1]!];
        return prefix === 'android'
          ? { ns: 'http://schemas.android.com/apk/res/android', name: local!, value }
          : { name: local!, value };
      });
    const el: XmlElement = { name: name!, attributes, children: [] };
    const parent = stack.at(-1);
    if (parent) {
      parent.children.push(el);
    } else if (root === null) {
      root = el;
    } else {
      throw new Error('more than one root element');
    }
    if (!selfClosing) {
      stack.push(el);
    }
  }
  if (root === null || stack.length > 0) {
    throw new Error('the file is not one whole XML element');
  }
  return root;
}

/** The config the variant's merged manifest names, with its raw files; undefined when none. */
export function variantNetworkSecurityConfig(
  projectDir: string,
  v: VariantModel,
): ApkWriteInput['networkSecurityConfig'] | undefined {
  const sets = sourceSets(v).map((s) => join(projectDir, 'app', 'src', s));
  const name = sets
    .map((dir) => join(dir, 'AndroidManifest.xml'))
    .filter((f) => existsSync(f))
    .map(
      (f) =>
        /android:networkSecurityConfig\s*=\s*["']@xml\/([A-Za-z0-9_]+)["']/.exec(
          readFileSync(f, 'utf8'),
        )?.[1],
    )
    .find((n) => n !== undefined);
  if (name === undefined) {
    return undefined;
  }
  const xml = sets.map((dir) => join(dir, 'res', 'xml', `${name}.xml`)).find((f) => existsSync(f));
  if (xml === undefined) {
    // AGP fails the build here (resource xml/NAME not found); the stand-in's APK has no config.
    return undefined;
  }
  const config = parseResourceXml(readFileSync(xml, 'utf8'));
  const rawNames = new Set<string>();
  const walk = (el: XmlElement): void => {
    for (const a of el.attributes) {
      if (typeof a.value === 'string' && a.value.startsWith('@raw/')) {
        rawNames.add(a.value.slice('@raw/'.length));
      }
    }
    el.children.forEach(walk);
  };
  walk(config);
  const raw = [...rawNames].flatMap((rawName) => {
    for (const dir of sets) {
      const rawDir = join(dir, 'res', 'raw');
      const file = existsSync(rawDir)
        ? readdirSync(rawDir).find((f) => f.replace(/\.[^.]*$/, '') === rawName)
        : undefined;
      if (file !== undefined) {
        return [{ file, data: new Uint8Array(readFileSync(join(rawDir, file))) }];
      }
    }
    return [];
  });
  return { config, raw };
}
