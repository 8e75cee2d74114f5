import { X509Certificate, createPrivateKey } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { writeFileAtomic } from '../../store/atomic.js';
import { ensureDataDir } from '../../store/data-dir.js';
import { withDataLock } from '../../store/lock.js';
import { generateSelfSigned } from './self-signed-cert.js';
import type { CertificateNames } from './self-signed-cert.js';

/** How the HTTP frontend gets its certificate, when it serves HTTPS. */
export type TlsChoice = { kind: 'files'; certFile: string; keyFile: string } | { kind: 'self-signed' };

/** A certificate and key ready for `https.createServer`. */
export interface TlsMaterial {
  cert: string;
  key: string;
  certFile: string;
  /** SHA-256 fingerprint, for the user to compare (or pin). */
  fingerprint256: string;
  /** True when the certificate was generated now. */
  generated: boolean;
}

/** Thrown when the certificate or key cannot be used; the host does not start. */
export class TlsError extends Error {}

/** Where `--tls-self-signed` keeps its pair. */
export function selfSignedPaths(): { dir: string; cert: string; key: string } {
  const dir = path.join(ensureDataDir(), 'tls');
  return { dir, cert: path.join(dir, 'self-signed-cert.pem'), key: path.join(dir, 'self-signed-key.pem') };
}

function checkPair(cert: string, key: string, certFile: string): X509Certificate {
  let x509: X509Certificate;
  try {
    x509 = new X509Certificate(cert);
  } catch (err) {
    throw new TlsError(`${certFile} is not a PEM certificate: ${(err as Error).message}`);
  }
  let privateKey;
  try {
    privateKey = createPrivateKey(key);
  } catch (err) {
    throw new TlsError(`the TLS key is not a usable PEM private key: ${(err as Error).message}`);
  }
  if (!x509.checkPrivateKey(privateKey)) {
    throw new TlsError(`the TLS key does not belong to the certificate ${certFile}`);
  }
  return x509;
}

/** True when the certificate names every host in `names` and stays valid for 30 more days. */
function covers(x509: X509Certificate, names: CertificateNames): boolean {
  if (Date.parse(x509.validTo) - Date.now() < 30 * 86_400_000) {
    return false;
  }
  return (
    names.ips.every((ip) => net.isIP(ip) === 0 || x509.checkIP(ip) !== undefined) &&
    names.dns.every((d) => x509.checkHost(d) !== undefined)
  );
}

/**
 * Loads the user's certificate and key (`--tls-cert`/`--tls-key`), or the self-signed pair in the
 * data directory, generated again when it is missing, expiring, or does not name every host the
 * frontend answers to (generated under the data lock, key file 0600).
 */
export async function loadTls(choice: TlsChoice, names: CertificateNames): Promise<TlsMaterial> {
  if (choice.kind === 'files') {
    let cert: string;
    let key: string;
    try {
      cert = readFileSync(choice.certFile, 'utf8');
      key = readFileSync(choice.keyFile, 'utf8');
    } catch (err) {
      throw new TlsError(`cannot read the TLS certificate or key: ${(err as Error).message}`);
    }
    const x509 = checkPair(cert, key, choice.certFile);
    return { cert, key, certFile: choice.certFile, fingerprint256: x509.fingerprint256, generated: false };
  }
  const files = selfSignedPaths();
  return withDataLock(() => {
    try {
      const cert = readFileSync(files.cert, 'utf8');
      const key = readFileSync(files.key, 'utf8');
      const x509 = checkPair(cert, key, files.cert);
      if (covers(x509, names)) {
        return { cert, key, certFile: files.cert, fingerprint256: x509.fingerprint256, generated: false };
      }
    } catch {
      // Missing or unusable: make a new pair.
    }
    const pair = generateSelfSigned(names);
    mkdirSync(files.dir, { recursive: true, mode: 0o700 });
    writeFileAtomic(files.key, pair.key, 0o600);
    writeFileAtomic(files.cert, pair.cert, 0o644);
    return {
      cert: pair.cert,
      key: pair.key,
      certFile: files.cert,
      fingerprint256: new X509Certificate(pair.cert).fingerprint256,
      generated: true,
    };
  });
}
