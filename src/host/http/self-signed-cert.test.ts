import { X509Certificate } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { which } from '../../util/which.js';
import { generateSelfSigned } from './self-signed-cert.js';

describe('generateSelfSigned', () => {
  const pair = generateSelfSigned({
    dns: ['localhost', 'devbox.lan'],
    ips: ['127.0.0.1', '::1', '10.1.2.3'],
  });

  it('names every host and address in subjectAltName, is self-signed and valid now', () => {
    const x509 = new X509Certificate(pair.cert);
    expect(x509.checkHost('devbox.lan')).toBe('devbox.lan');
    expect(x509.checkIP('10.1.2.3')).toBe('10.1.2.3');
    expect(x509.checkIP('::1')).toBe('::1');
    expect(x509.checkIP('10.1.2.4')).toBeUndefined();
    expect(x509.verify(x509.publicKey)).toBe(true);
    expect(Date.parse(x509.validFrom)).toBeLessThan(Date.now());
    expect(Date.parse(x509.validTo)).toBeGreaterThan(Date.now() + 300 * 86_400_000);
  });

  it.runIf(which('openssl') !== null)('is a certificate openssl reads and verifies', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'droidbus-cert-'));
    try {
      const file = path.join(dir, 'cert.pem');
      writeFileSync(file, pair.cert);
      const text = spawnSync('openssl', ['x509', '-in', file, '-noout', '-text'], { encoding: 'utf8' });
      expect(text.status).toBe(0);
      expect(text.stdout).toContain('DNS:devbox.lan');
      expect(text.stdout).toContain('IP Address:10.1.2.3');
      expect(text.stdout).toContain('TLS Web Server Authentication');
      const verify = spawnSync('openssl', ['verify', '-CAfile', file, file], { encoding: 'utf8' });
      expect(verify.stdout.trim()).toBe(`${file}: OK`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
