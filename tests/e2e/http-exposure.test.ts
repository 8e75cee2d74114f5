import { X509Certificate } from 'node:crypto';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/adb-server.js';
import { shortTempDir, waitFor } from '../helpers/host.js';
import { INITIALIZE, mcpHeaders, rawRequest, startHttpHost } from '../helpers/http-host.js';
import type { HttpHost } from '../helpers/http-host.js';
import { runCli } from '../helpers/run-cli.js';

const homes: ReturnType<typeof shortTempDir>[] = [];
const hosts: HttpHost[] = [];

afterAll(async () => {
  for (const h of hosts) {
    await h.stop();
  }
  for (const h of homes) {
    h.remove();
  }
});

function newHome(): string {
  const home = shortTempDir('db-hte-');
  homes.push(home);
  return home.dir;
}

describe('droidbus host --http exposure warnings and TLS', () => {
  it('warns on stderr, naming what is exposed, when it binds to every interface without TLS', async () => {
    const port = await freePort();
    const host = await startHttpHost({ env: { DROIDBUS_HOME: newHome() }, address: `0.0.0.0:${port}` });
    hosts.push(host);
    // stderr is its own pipe: wait for the warning rather than assume it came with stdout.
    const stderr = await waitFor(
      () => (host.stderr().includes('not encrypted') ? host.stderr() : ''),
      'the warning',
    );
    expect(stderr).toContain(
      `droidbus host: WARNING: HTTP MCP listens on 0.0.0.0:${port} (every network interface)`,
    );
    for (const exposed of [
      'every droidbus tool',
      'Gradle builds',
      'logcat',
      'drive the UI of every connected device',
    ]) {
      expect(stderr).toContain(exposed);
    }
    expect(stderr).toContain('not encrypted');
    expect(stderr).not.toContain('authentication is OFF');
    // Loopback still answers on every-interface binding; a foreign Host does not.
    expect(
      (await rawRequest(host.mcpUrl, { method: 'POST', headers: mcpHeaders(), body: INITIALIZE })).status,
    ).toBe(401);
    const rebound = await rawRequest(host.mcpUrl, {
      method: 'POST',
      headers: mcpHeaders(undefined, { host: `attacker.example:${port}` }),
      body: INITIALIZE,
    });
    expect(rebound.status).toBe(403);
  });

  it('serves HTTPS with a generated self-signed certificate, and warns at start when both auth methods are off', async () => {
    const home = newHome();
    writeFileSync(
      path.join(home, 'settings.json'),
      JSON.stringify({ http: { bearer_enabled: false, oauth_enabled: false } }),
    );
    const host = await startHttpHost({ env: { DROIDBUS_HOME: home }, args: ['--tls-self-signed'] });
    hosts.push(host);
    expect(host.base).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    await waitFor(() => host.stderr().includes('WARNING: authentication is OFF'), 'the auth-off warning');
    expect(host.stderr()).not.toContain('listens on');

    const certFile = path.join(home, 'tls', 'self-signed-cert.pem');
    const cert = readFileSync(certFile, 'utf8');
    expect(statSync(path.join(home, 'tls', 'self-signed-key.pem')).mode & 0o777).toBe(0o600);
    const x509 = new X509Certificate(cert);
    expect(x509.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(x509.checkHost('localhost')).toBe('localhost');
    expect(host.stdout()).toContain(x509.fingerprint256);

    // Open on purpose: no token needed, over TLS that verifies against the pinned certificate.
    const r = await rawRequest(host.mcpUrl, {
      method: 'POST',
      headers: mcpHeaders(),
      body: INITIALIZE,
      ca: cert,
    });
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body)).toMatchObject({ result: { serverInfo: { name: 'droidbus' } } });
    // Without trusting it, the client refuses the connection.
    await expect(
      rawRequest(host.mcpUrl, { method: 'POST', headers: mcpHeaders(), body: INITIALIZE }),
    ).rejects.toThrow(/self-signed|certificate/i);
  });

  it('refuses TLS options without --http and a bad --http address, as usage errors', async () => {
    const env = { DROIDBUS_HOME: newHome() };
    const tls = await runCli(['host', '--tls-self-signed'], { env });
    expect(tls.code).toBe(2);
    expect(tls.stderr).toContain('need --http');
    const bad = await runCli(['host', '--http', 'example.com:80'], { env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('IP address');
  });
});
