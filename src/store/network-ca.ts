/**
 * droidbus's own certificate authority for network captures (issue 72): generated once per data
 * directory (`<data dir>/network-ca/`: the key 0600, the certificate beside it) and used by the
 * capture proxy to read HTTPS that an app allows it to — an app that trusts it (a debug build whose
 * network security config trusts user CAs, or a device where it is a system CA). Never shared.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { generateCACertificate } from 'mockttp';
import { writeFileAtomic } from './atomic.js';
import { dataPath } from './data-dir.js';
import { withDataLock } from './lock.js';

export interface NetworkCa {
  key: string;
  cert: string;
  /** The certificate's file, for the user to install. */
  certPath: string;
}

function read(dir: string): NetworkCa | null {
  try {
    const key = readFileSync(path.join(dir, 'droidbus-ca.key'), 'utf8');
    const cert = readFileSync(path.join(dir, 'droidbus-ca.pem'), 'utf8');
    return { key, cert, certPath: path.join(dir, 'droidbus-ca.pem') };
  } catch {
    return null;
  }
}

/** The data directory's capture CA, generated the first time it is needed. */
export async function networkCa(): Promise<NetworkCa> {
  const dir = dataPath('network-ca');
  return (
    read(dir) ??
    withDataLock(async () => {
      const made = read(dir);
      if (made !== null) {
        return made;
      }
      const ca = await generateCACertificate({
        subject: { commonName: 'droidbus network capture CA', organizationName: 'droidbus' },
        bits: 2048,
      });
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      writeFileAtomic(path.join(dir, 'droidbus-ca.key'), ca.key, 0o600);
      writeFileAtomic(path.join(dir, 'droidbus-ca.pem'), ca.cert, 0o644);
      return { ...ca, certPath: path.join(dir, 'droidbus-ca.pem') };
    })
  );
}
