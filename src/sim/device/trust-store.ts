/**
 * Evidence: which certificate authorities an app's TLS trusts on Android.
 * - developer.android.com, "Network security configuration" (Default configuration): apps targeting
 *   Android 7.0 (API 24) and higher trust the system CAs only; apps targeting API 23 and lower also
 *   trust user-added CAs. (An app's own network-security-config can widen that; the APKs the
 *   simulator installs declare none.)
 * - AOSP TrustedCertificateStore: system CAs in /system/etc/security/cacerts, user-added ones in
 *   /data/misc/user/<userId>/cacerts-added (each a certificate file named by its subject hash).
 * The system store here is Node's bundled Mozilla roots (what the platform's store is derived from)
 * plus any certificate a root user added to /system/etc/security/cacerts.
 */
import { rootCertificates } from 'node:tls';
import type { Device } from './device.js';

const SYSTEM_CAS = '/system/etc/security/cacerts';
const USER_CAS = '/data/misc/user/0/cacerts-added';
/** The first target SDK whose apps stop trusting user-added CAs by default. */
const USER_CA_CUTOFF_SDK = 24;

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

/** The CAs the app `pkg` trusts on `dev` (PEM). */
export function trustAnchors(dev: Device, pkg: string): string[] {
  const targetSdk = dev.packages.get(pkg)?.info.targetSdk ?? USER_CA_CUTOFF_SDK;
  return [
    ...rootCertificates,
    ...certificatesIn(dev, SYSTEM_CAS),
    ...(targetSdk < USER_CA_CUTOFF_SDK ? certificatesIn(dev, USER_CAS) : []),
  ];
}
