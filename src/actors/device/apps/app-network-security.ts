/**
 * `device.app_network_security`: what an installed app's TLS trusts, read from its base APK on the
 * device in ranges (the manifest, the resource table, the config and the certificates it names —
 * never the whole APK) and decided with the platform's rules (util/network-security-config.ts).
 */
import { pmValues } from '../../../device/parsers/pm-lines.js';
import { X509Certificate } from 'node:crypto';
import type { HostTrustView } from '../../../bus/messages/network.js';
import type { PayloadOf, ResponseOf } from '../../../bus/registry.js';
import { READS } from '../../../device/reads.js';
import type { Device } from '../../../device/device.js';
import { openApkEntries } from '../../../util/apk-label.js';
import {
  readApkNetworkSecurity,
  trustForHost,
  type ApkNetworkSecurity,
  type HostTrust,
} from '../../../util/network-security-config.js';
import { deviceApkReader } from './app-labels.js';

type Answer = ResponseOf<'device.app_network_security'>;

function fingerprint(data: Uint8Array): string | null {
  try {
    return new X509Certificate(data).fingerprint256;
  } catch {
    return null;
  }
}

function view(trust: HostTrust, nsc: ApkNetworkSecurity): HostTrustView {
  return {
    anchors: trust.anchors.map((a) => {
      if (typeof a.source === 'string') {
        return { source: a.source, file: null, sha256: null, override_pins: a.overridePins };
      }
      const file = nsc.certificates.get(a.source.resource);
      return {
        source: 'app',
        file: file?.path ?? null,
        sha256: file ? fingerprint(file.data) : null,
        override_pins: a.overridePins,
      };
    }),
    pinned: trust.pins.length > 0,
  };
}

export async function appNetworkSecurity(
  device: Device,
  p: PayloadOf<'device.app_network_security'>,
  signal: AbortSignal,
): Promise<Answer> {
  const empty: Answer = {
    apk: null,
    debuggable: null,
    target_sdk: null,
    config: null,
    default_trust: null,
    domains: [],
    unread: null,
  };
  const paths = await device.read(READS.apkPaths, { package: p.package }, { signal, timeoutMs: 15_000 });
  const apks = pmValues(paths.stdout);
  const base = apks.find((a) => a.endsWith('/base.apk')) ?? apks[0];
  if (base === undefined) {
    return empty;
  }
  let nsc: ApkNetworkSecurity;
  try {
    nsc = await readApkNetworkSecurity(await openApkEntries(deviceApkReader(device, base, signal)));
  } catch (err) {
    return { ...empty, apk: base, unread: err instanceof Error ? err.message : String(err) };
  }
  // A domain-config is described by what its first host gets (its nested configs by theirs).
  const domains: Answer['domains'] = [];
  const walk = (nodes: NonNullable<ApkNetworkSecurity['config']>['domains']): void => {
    for (const node of nodes) {
      const first = node.domains[0];
      if (first !== undefined) {
        domains.push({
          domains: node.domains.map((d) => (d.includeSubdomains ? `*.${d.name}` : d.name)),
          trust: view(trustForHost(nsc.config, first.name, nsc.app), nsc),
        });
      }
      walk(node.children);
    }
  };
  walk(nsc.config?.domains ?? []);
  // No real host is named by this one: it gets the base-config (or the platform's default).
  const other = trustForHost(nsc.config, 'host.invalid', nsc.app);
  return {
    apk: base,
    debuggable: nsc.app.debuggable,
    target_sdk: nsc.app.targetSdk,
    config: nsc.path,
    default_trust: view(other, nsc),
    domains,
    unread: null,
  };
}
