/**
 * An app's network security config — which certificate authorities its TLS trusts for a host —
 * read from its APK (the manifest's android:networkSecurityConfig, the compiled XML it names through
 * resources.arsc, and the raw certificates that XML names) and decided as the platform does
 * (AOSP frameworks/base/core/java/android/security/net/config: XmlConfigSource builds the configs,
 * ManifestConfigSource supplies the default, NetworkSecurityConfig.getDefaultBuilder):
 *
 * - No config: apps targeting API 23 and lower trust system and user CAs, from API 24 system CAs
 *   only (developer.android.com, "Network security configuration", Default configuration).
 * - `<base-config>` without `<trust-anchors>` keeps that default; a `<domain-config>` without them
 *   inherits its parent's (the enclosing domain-config, else the base-config); so does its pin-set.
 * - The most specific matching domain wins: an exact name over a suffix that includes subdomains,
 *   a longer suffix over a shorter one (ApplicationConfig.getConfigForHostname).
 * - `<debug-overrides>` apply only to a debuggable app, and their anchors are added to every config's.
 * - A pin-set is enforced unless the chain ends at an anchor whose `overridePins` is true.
 *
 * Droidbus uses it twice: the simulator's apps decide a handshake with it, and the network tools
 * say whether a capture can read an app's HTTPS.
 */
import { decodeBinaryXml } from './apk-binary-xml-decode.js';
import { ANDROID_ATTR, ResType, type XmlElement } from './apk-binary-xml.js';
import { ResourceTable } from './apk-resources.js';
import { ApkFormatError } from './apk-zip.js';
import type { ApkEntries } from './apk-label.js';

/** Where trusted certificates come from: the system store, the user's, or a raw resource of the app. */
export type AnchorSource = 'system' | 'user' | { resource: number };

export interface TrustAnchor {
  source: AnchorSource;
  overridePins: boolean;
}

interface DomainRule {
  name: string;
  includeSubdomains: boolean;
}

interface ConfigNode {
  anchors: TrustAnchor[] | null;
  /** The pin-set's SHA-256 digests (base64 of the SubjectPublicKeyInfo's hash); null: inherited. */
  pins: string[] | null;
  domains: DomainRule[];
  children: ConfigNode[];
}

export interface NetworkSecurityConfig {
  base: ConfigNode;
  /** Top-level `<domain-config>`s, each with its nested ones. */
  domains: ConfigNode[];
  /** `<debug-overrides>` anchors; null when it has none. */
  debugAnchors: TrustAnchor[] | null;
}

/** What an app trusts for one host. */
export interface HostTrust {
  anchors: TrustAnchor[];
  /**
   * The pin-set's SHA-256 digests; empty when none applies. A chain passes when one of its keys is
   * pinned or it ends at an anchor with overridePins.
   */
  pins: string[];
}

/** The first target SDK whose apps stop trusting user-added CAs by default. */
export const USER_CA_CUTOFF_SDK = 24;

function attribute(el: XmlElement, name: string): XmlElement['attributes'][number] | undefined {
  return el.attributes.find((a) => a.name === name && a.ns === undefined);
}

function flag(el: XmlElement, name: string): boolean {
  const v = attribute(el, name)?.value;
  return v === true || v === 'true';
}

function anchorsOf(el: XmlElement): TrustAnchor[] | null {
  const trust = el.children.find((c) => c.name === 'trust-anchors');
  if (!trust) {
    return null;
  }
  return trust.children
    .filter((c) => c.name === 'certificates')
    .flatMap((c): TrustAnchor[] => {
      const src = attribute(c, 'src');
      const overridePins = flag(c, 'overridePins');
      if (src?.type === ResType.REFERENCE && src.data !== undefined) {
        return [{ source: { resource: src.data >>> 0 }, overridePins }];
      }
      return src?.value === 'system' || src?.value === 'user' ? [{ source: src.value, overridePins }] : [];
    });
}

function pinsOf(el: XmlElement): string[] | null {
  const set = el.children.find((c) => c.name === 'pin-set');
  if (!set) {
    return null;
  }
  return set.children
    .filter(
      (p) => p.name === 'pin' && attribute(p, 'digest')?.value === 'SHA-256' && typeof p.text === 'string',
    )
    .map((p) => p.text!.trim());
}

function nodeOf(el: XmlElement): ConfigNode {
  return {
    anchors: anchorsOf(el),
    pins: pinsOf(el),
    domains: el.children
      .filter((c) => c.name === 'domain' && typeof c.text === 'string')
      .map((c) => ({ name: c.text!.trim().toLowerCase(), includeSubdomains: flag(c, 'includeSubdomains') })),
    children: el.children.filter((c) => c.name === 'domain-config').map(nodeOf),
  };
}

/** The config a `<network-security-config>` element describes. */
export function parseNetworkSecurityConfig(root: XmlElement): NetworkSecurityConfig {
  if (root.name !== 'network-security-config') {
    throw new ApkFormatError(
      `a network security config has root <${root.name}>, not <network-security-config>`,
    );
  }
  const base = root.children.find((c) => c.name === 'base-config');
  const debug = root.children.find((c) => c.name === 'debug-overrides');
  return {
    base: base ? nodeOf(base) : { anchors: null, pins: null, domains: [], children: [] },
    domains: root.children.filter((c) => c.name === 'domain-config').map(nodeOf),
    debugAnchors: debug ? anchorsOf(debug) : null,
  };
}

/** The platform's anchors for an app without a config (or a base-config without trust-anchors). */
export function defaultAnchors(targetSdk: number): TrustAnchor[] {
  return [
    { source: 'system', overridePins: false },
    ...(targetSdk < USER_CA_CUTOFF_SDK ? [{ source: 'user' as const, overridePins: false }] : []),
  ];
}

/** How well `rule` matches `host`: the matched length, -1 when it does not. Exact beats any suffix. */
function matchScore(rule: DomainRule, host: string): number {
  if (rule.name === host) {
    return Number.MAX_SAFE_INTEGER;
  }
  return rule.includeSubdomains && host.endsWith(`.${rule.name}`) ? rule.name.length : -1;
}

/** What an app with `config` (null: none) trusts for `host`. */
export function trustForHost(
  config: NetworkSecurityConfig | null,
  host: string,
  app: { targetSdk: number; debuggable: boolean },
): HostTrust {
  const platform = defaultAnchors(app.targetSdk);
  if (config === null) {
    return { anchors: platform, pins: [] };
  }
  const name = host.toLowerCase().replace(/\.$/, '');
  // The chain of configs from the base to the best-matching domain-config, each inheriting.
  let best: { score: number; chain: ConfigNode[] } = { score: -1, chain: [] };
  const visit = (node: ConfigNode, chain: ConfigNode[]): void => {
    const here = [...chain, node];
    for (const rule of node.domains) {
      const score = matchScore(rule, name);
      if (score > best.score) {
        best = { score, chain: here };
      }
    }
    node.children.forEach((c) => visit(c, here));
  };
  config.domains.forEach((d) => visit(d, []));
  const chain = [config.base, ...best.chain];
  let anchors = platform;
  let pins: string[] = [];
  for (const node of chain) {
    anchors = node.anchors ?? anchors;
    pins = node.pins ?? pins;
  }
  if (app.debuggable && config.debugAnchors) {
    anchors = [...anchors, ...config.debugAnchors];
  }
  return { anchors, pins };
}

/** An app's config and the raw certificate files it names, read from its APK. */
export interface ApkNetworkSecurity {
  /** What the manifest says of the app that the platform's rules depend on. */
  app: { targetSdk: number; debuggable: boolean };
  /** Null when the manifest names none. */
  config: NetworkSecurityConfig | null;
  /** The file in the APK the config came from (`res/xml/network_security_config.xml`). */
  path: string | null;
  /** Each `@raw/…` certificate resource the config names: its file and bytes (PEM or DER). */
  certificates: Map<number, { path: string; data: Uint8Array }>;
}

/** The most of each part read: a config and its certificates are small; a table can be large. */
const LIMITS = { manifest: 4 * 1024 * 1024, table: 48 * 1024 * 1024, file: 1024 * 1024 };

/** Reads the network security config of an APK. Throws ApkFormatError when the APK is damaged. */
export async function readApkNetworkSecurity(apk: ApkEntries): Promise<ApkNetworkSecurity> {
  const manifest = await apk.entry('AndroidManifest.xml', LIMITS.manifest);
  if (!manifest) {
    throw new ApkFormatError('the archive has no AndroidManifest.xml');
  }
  const root = decodeBinaryXml(manifest);
  const application = root.children.find((c) => c.name === 'application');
  const sdk = (name: string): number | undefined => {
    const v = root.children
      .find((c) => c.name === 'uses-sdk')
      ?.attributes.find((a) => a.resourceId === ANDROID_ATTR[name])?.value;
    return typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : undefined;
  };
  const app = {
    targetSdk: sdk('targetSdkVersion') ?? sdk('minSdkVersion') ?? 1,
    debuggable:
      application?.attributes.find((a) => a.resourceId === ANDROID_ATTR['debuggable'])?.value === true,
  };
  const none: ApkNetworkSecurity = { app, config: null, path: null, certificates: new Map() };
  const ref = application?.attributes.find((a) => a.resourceId === ANDROID_ATTR['networkSecurityConfig']);
  if (!ref || ref.type !== ResType.REFERENCE || !ref.data) {
    return none;
  }
  const tableBytes = await apk.entry('resources.arsc', LIMITS.table);
  if (!tableBytes) {
    throw new ApkFormatError(
      'the manifest names a network security config, but the APK has no resources.arsc',
    );
  }
  const table = new ResourceTable(tableBytes);
  const fileOf = async (id: number): Promise<{ path: string; data: Uint8Array }> => {
    const path = table.string(id);
    const data = path === null ? null : await apk.entry(path, LIMITS.file);
    if (path === null || data === null) {
      throw new ApkFormatError(`resource 0x${id.toString(16)} names no file in the APK`);
    }
    return { path, data };
  };
  const xml = await fileOf(ref.data >>> 0);
  const config = parseNetworkSecurityConfig(decodeBinaryXml(xml.data));
  const certificates = new Map<number, { path: string; data: Uint8Array }>();
  const every = [config.base, ...config.domains];
  const anchors: TrustAnchor[] = [...(config.debugAnchors ?? [])];
  while (every.length > 0) {
    const node = every.pop()!;
    anchors.push(...(node.anchors ?? []));
    every.push(...node.children);
  }
  for (const a of anchors) {
    if (typeof a.source === 'object' && !certificates.has(a.source.resource)) {
      certificates.set(a.source.resource, await fileOf(a.source.resource));
    }
  }
  return { app, config, path: xml.path, certificates };
}
