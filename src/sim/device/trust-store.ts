/**
 * Evidence: which certificate authorities an app's TLS trusts on Android.
 * - developer.android.com, "Network security configuration": the default (API 24 and higher
 *   trust system CAs only, API 23 and lower also user-added CAs), and an app's own config named by
 *   android:networkSecurityConfig — decided per host by src/util/network-security-config.ts from
 *   the installed APK's bytes, as AOSP's XmlConfigSource and NetworkSecurityConfig do.
 * - AOSP TrustedCertificateStore: system CAs in /system/etc/security/cacerts, user-added ones in
 *   /data/misc/user/<userId>/cacerts-added (each a certificate file named by its subject hash).
 * - AOSP NetworkSecurityTrustManager.checkPins: a chain passes a pin-set when one of its keys'
 *   SPKI SHA-256 is pinned, or when it ends at an anchor whose overridePins is set.
 * The system store here is Node's bundled Mozilla roots (what the platform's store is derived from)
 * plus any certificate a root user added to /system/etc/security/cacerts.
 */
import { X509Certificate } from 'node:crypto';
import { rootCertificates } from 'node:tls';
import { bytesReader, openApkEntries } from '../../util/apk-label.js';
import {
  readApkNetworkSecurity,
  trustForHost,
  USER_CA_CUTOFF_SDK,
  type AnchorSource,
  type ApkNetworkSecurity,
} from '../../util/network-security-config.js';
import type { Device } from './device.js';

const SYSTEM_CAS = '/system/etc/security/cacerts';
const USER_CAS = '/data/misc/user/0/cacerts-added';

/** What an app's TLS accepts for one host. */
export interface AppTrust {
  /** PEM CAs a chain may end at. */
  cas: string[];
  /** SHA-256 SPKI pins (base64); empty when the host is not pinned. */
  pins: string[];
  /** PEM CAs whose chains pass the pins regardless (overridePins). */
  pinOverrides: string[];
}

function certificatesIn(dev: Device, dir: string): string[] {
  let entries: { name: string }[];
  try {
    entries = dev.fs.list(dir);
  } catch {
    return [];
  }
  const decoder = new TextDecoder();
  return entries.flatMap((e) => {
    try {
      const text = decoder.decode(dev.fs.read(`${dir}/${e.name}`));
      return text.includes('-----BEGIN CERTIFICATE-----') ? [text] : [];
    } catch {
      return [];
    }
  });
}

/** Each installed APK's config, read once per APK (by its sha256). */
const configs = new Map<string, Promise<ApkNetworkSecurity | null>>();

function apkConfig(apk: Uint8Array | null, sha256: string | null): Promise<ApkNetworkSecurity | null> {
  if (apk === null || sha256 === null) {
    return Promise.resolve(null);
  }
  let read = configs.get(sha256);
  if (read === undefined) {
    // A config the platform cannot parse fails the app's start; here the app keeps the default.
    read = openApkEntries(bytesReader(apk))
      .then(readApkNetworkSecurity)
      .catch(() => null);
    configs.set(sha256, read);
  }
  return read;
}

/** A raw certificate resource as PEM (the platform reads PEM or DER). */
function asPem(data: Uint8Array): string[] {
  try {
    return [new X509Certificate(data).toString()];
  } catch {
    return [];
  }
}

/** What the app `pkg` trusts for `host` on `dev`. */
export async function appTrust(dev: Device, pkg: string, host: string): Promise<AppTrust> {
  const info = dev.packages.get(pkg)?.info;
  const nsc = await apkConfig(info?.apkBytes ?? null, info?.apkSha256 ?? null);
  const trust = trustForHost(nsc?.config ?? null, host, {
    targetSdk: info?.targetSdk ?? USER_CA_CUTOFF_SDK,
    debuggable: info?.debuggable ?? false,
  });
  const pems = (source: AnchorSource): string[] => {
    if (source === 'system') {
      return [...rootCertificates, ...certificatesIn(dev, SYSTEM_CAS)];
    }
    if (source === 'user') {
      return certificatesIn(dev, USER_CAS);
    }
    const file = nsc?.certificates.get(source.resource);
    return file ? asPem(file.data) : [];
  };
  return {
    cas: trust.anchors.flatMap((a) => pems(a.source)),
    pins: trust.pins,
    pinOverrides: trust.anchors.filter((a) => a.overridePins).flatMap((a) => pems(a.source)),
  };
}
