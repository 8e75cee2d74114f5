import { generateCACertificate, getLocal, type Mockttp } from 'mockttp';
import { afterEach, describe, expect, it } from 'vitest';
import { testIdentity } from '../../../tests/helpers/sim-identity.js';
import { createSimDevice } from '../control/index.js';
import { appRequest } from './app-http.js';
import type { Device } from './device.js';
import { writeApk } from '../../util/apk.js';
import type { XmlElement } from '../../util/apk-binary-xml.js';
import { packageFromApk } from './packages.js';
import { appTrust, type AppTrust } from './trust-store.js';

// An app's HTTPS through an intercepting proxy, as a phone makes it: CONNECT, then TLS that must
// chain to a CA the app trusts. The proxy is mockttp with a CA of its own; the server is another
// mockttp with a different CA (its errors ignored by the proxy, as a developer's local server's).
const started: Mockttp[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((m) => m.stop()));
});

async function mock(options: Parameters<typeof getLocal>[0]): Promise<Mockttp> {
  const m = getLocal(options);
  await m.start();
  started.push(m);
  return m;
}

describe('the global proxy, as ProxyTracker applies Settings.Global.HTTP_PROXY', () => {
  it('takes HOST:PORT, keeps the proxy when the setting is deleted, and clears it only for an empty host', () => {
    const dev = createSimDevice({ identity: testIdentity(5803), logcatRate: 0 }) as Device;
    try {
      dev.settings.put('global', 'http_proxy', '127.0.0.1:8888');
      expect(dev.net.proxy).toEqual({ host: '127.0.0.1', port: 8888 });
      dev.settings.delete('global', 'http_proxy');
      expect(dev.net.proxy).toEqual({ host: '127.0.0.1', port: 8888 });
      dev.settings.put('global', 'http_proxy', 'proxy.example');
      expect(dev.net.proxy).toEqual({ host: 'proxy.example', port: 8080 });
      dev.settings.put('global', 'http_proxy', 'proxy.example:abc');
      expect(dev.net.proxy).toEqual({ host: 'proxy.example', port: 8080 });
      dev.settings.put('global', 'http_proxy', ':0');
      expect(dev.net.proxy).toBeNull();
    } finally {
      dev.close();
    }
  });
});

describe("an app's HTTPS through a proxy", () => {
  it('is read by a proxy whose CA the app trusts, and refused with the exception Android apps report otherwise', async () => {
    const serverCa = await generateCACertificate();
    const server = await mock({ https: serverCa });
    await server.forPost('/auth').thenJson(401, { error: 'bad credentials' });
    const proxyCa = await generateCACertificate();
    const proxy = await mock({ https: proxyCa });
    // This sandbox cannot resolve `localhost` for the proxy: it is told where the server is.
    await proxy.forAnyRequest().thenPassThrough({
      ignoreHostHttpsErrors: ['127.0.0.1'],
      transformRequest: { replaceHost: { targetHost: `127.0.0.1:${server.port}`, updateHostHeader: false } },
    });
    const seen: string[] = [];
    await proxy.on('request', (r) => void seen.push(`${r.method} ${r.url}`));
    const dev = createSimDevice({ identity: testIdentity(5801), logcatRate: 0 }) as Device;
    try {
      const req = { method: 'POST', url: `https://localhost:${server.port}/auth`, headers: {}, body: '{}' };
      // 10.0.2.2 is this machine seen from the device: where the proxy listens.
      dev.settings.put('global', 'http_proxy', `10.0.2.2:${proxy.port}`);
      const trusted = await appRequest(dev.net, req, async () => ({
        cas: [proxyCa.cert],
        pins: [],
        pinOverrides: [],
      }));
      expect(trusted).toMatchObject({ ok: true, status: 401, body: '{"error":"bad credentials"}' });
      expect(seen).toEqual([`POST https://localhost:${server.port}/auth`]);
      const refused = await appRequest(dev.net, req, (host) => appTrust(dev, 'com.droidbus.sample', host));
      expect(refused).toEqual({
        ok: false,
        error:
          'javax.net.ssl.SSLHandshakeException: java.security.cert.CertPathValidatorException: Trust anchor for certification path not found.',
      });
      expect(seen).toHaveLength(1);
    } finally {
      dev.close();
    }
  });

  it('trusts user-added CAs only for apps targeting API 23 and lower', async () => {
    const dev = createSimDevice({ identity: testIdentity(5802), logcatRate: 0 }) as Device;
    try {
      const ca = await generateCACertificate();
      // Where a user's CA goes when they install one in Settings (system_server writes it).
      dev.fs.superuser = true;
      dev.fs.mkdirs('/data/misc/user/0/cacerts-added');
      dev.fs.write(
        '/data/misc/user/0/cacerts-added/a1b2c3d4.0',
        new TextEncoder().encode(ca.cert),
        0o100644,
        0,
      );
      const sample = dev.packages.get('com.droidbus.sample')!;
      const cas = async (pkg: string): Promise<string[]> => (await appTrust(dev, pkg, 'example.com')).cas;
      expect(await cas(sample.info.name)).not.toContain(ca.cert);
      dev.packages.set('com.example.legacy', {
        ...sample,
        info: { ...sample.info, name: 'com.example.legacy', targetSdk: 23 },
      });
      expect(await cas('com.example.legacy')).toContain(ca.cert);
    } finally {
      dev.close();
    }
  });
});

/** `<tag attrs>children</tag>` as an element tree. */
function el(
  name: string,
  attrs: Record<string, string> = {},
  children: XmlElement[] = [],
  text?: string,
): XmlElement {
  return {
    name,
    attributes: Object.entries(attrs).map(([n, value]) => ({ name: n, value })),
    children,
    ...(text !== undefined ? { text } : {}),
  };
}

describe("an app's own network security config, read from its APK", () => {
  /** Installs `com.example.nsc` built with `config` (and the proxy's CA as @raw/droidbus_ca). */
  function install(dev: Device, config: XmlElement, ca: string, debuggable: boolean): void {
    const bytes = writeApk({
      packageName: 'com.example.nsc',
      versionCode: 1,
      versionName: '1',
      minSdk: 24,
      targetSdk: 34,
      debuggable,
      activities: [],
      networkSecurityConfig: {
        config,
        raw: [{ file: 'droidbus_ca.pem', data: new TextEncoder().encode(ca) }],
      },
    });
    const sample = dev.packages.get('com.droidbus.sample')!;
    dev.packages.set('com.example.nsc', {
      ...sample,
      info: packageFromApk(bytes, 'emulator-5554', 1, '/data/local/tmp/a.apk'),
    });
  }

  it("trusts the raw CA of a debug build's debug-overrides, not a release build's; a pin-set refuses the proxy unless overridePins", async () => {
    // What matters here is the app's side of the handshake: the proxy answers itself.
    const proxyCa = await generateCACertificate();
    const proxy = await mock({ https: proxyCa });
    await proxy.forPost('/auth').thenJson(401, { error: 'bad credentials' });
    const dev = createSimDevice({ identity: testIdentity(5804), logcatRate: 0 }) as Device;
    const trust = (host: string): Promise<AppTrust> => appTrust(dev, 'com.example.nsc', host);
    const req = { method: 'POST', url: 'https://api.example.com/auth', headers: {}, body: '{}' };
    const debugOverrides = (overridePins: string): XmlElement =>
      el('debug-overrides', {}, [
        el('trust-anchors', {}, [el('certificates', { src: '@raw/droidbus_ca', overridePins })]),
      ]);
    const pinned = el('domain-config', {}, [
      el('domain', {}, [], 'api.example.com'),
      el('pin-set', {}, [
        el('pin', { digest: 'SHA-256' }, [], 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA='),
      ]),
    ]);
    try {
      dev.settings.put('global', 'http_proxy', `10.0.2.2:${proxy.port}`);
      install(dev, el('network-security-config', {}, [debugOverrides('false')]), proxyCa.cert, true);
      expect(await appRequest(dev.net, req, trust)).toMatchObject({ ok: true, status: 401 });
      install(dev, el('network-security-config', {}, [pinned, debugOverrides('true')]), proxyCa.cert, true);
      expect(await appRequest(dev.net, req, trust)).toMatchObject({ ok: true, status: 401 });
      install(dev, el('network-security-config', {}, [debugOverrides('false')]), proxyCa.cert, false);
      expect(await appRequest(dev.net, req, trust)).toMatchObject({
        ok: false,
        error: expect.stringContaining('Trust anchor for certification path not found'),
      });
      install(dev, el('network-security-config', {}, [pinned, debugOverrides('false')]), proxyCa.cert, true);
      expect(await appRequest(dev.net, req, trust)).toEqual({
        ok: false,
        error:
          'javax.net.ssl.SSLHandshakeException: java.security.cert.CertificateException: Pin verification failed',
      });
    } finally {
      dev.close();
    }
  });
});
