import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { linkNetworkConfigApk } from '../../tests/helpers/aapt2-apk.js';
import { tempDir } from '../../tests/helpers/paths.js';
import { writeApk } from './apk.js';
import type { XmlElement } from './apk-binary-xml.js';
import { bytesReader, openApkEntries } from './apk-label.js';
import { readApkNetworkSecurity, trustForHost, type HostTrust } from './network-security-config.js';

const dir = tempDir('droidbus-nsc-');
afterAll(() => dir.remove());

/** A config as the documentation's examples write one: pinned API, debug builds trusting user CAs and a raw CA. */
const CONFIG = `<?xml version="1.0" encoding="utf-8"?>
<network-security-config>
  <base-config cleartextTrafficPermitted="false">
    <trust-anchors><certificates src="system"/></trust-anchors>
  </base-config>
  <domain-config>
    <domain includeSubdomains="true">example.com</domain>
    <pin-set expiration="2030-01-01"><pin digest="SHA-256">7HIpactkIAq2Y49orFOOQKurWxmmSFZhBCoQYcRhJ3Y=</pin></pin-set>
    <domain-config>
      <domain>cdn.example.com</domain>
      <trust-anchors><certificates src="user"/></trust-anchors>
    </domain-config>
  </domain-config>
  <debug-overrides>
    <trust-anchors><certificates src="@raw/droidbus_ca" overridePins="true"/></trust-anchors>
  </debug-overrides>
</network-security-config>`;
const PEM = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';

async function read(apk: Uint8Array) {
  return readApkNetworkSecurity(await openApkEntries(bytesReader(apk)));
}

function sources(t: HostTrust): string[] {
  return t.anchors.map((a) =>
    typeof a.source === 'string' ? a.source : `raw${a.overridePins ? '+overridePins' : ''}`,
  );
}

describe('a network security config read from an APK aapt2 linked', () => {
  const apkPath = linkNetworkConfigApk(join(dir.dir, 'aapt2'), CONFIG, { 'droidbus_ca.pem': PEM });
  const apk = readFileSync(apkPath);

  it('finds the config through the manifest and the resource table, with the raw certificate it names', async () => {
    const nsc = await read(apk);
    expect(nsc.path).toBe('res/xml/network_security_config.xml');
    expect(nsc.app).toEqual({ targetSdk: 34, debuggable: true });
    expect([...nsc.certificates.values()].map((c) => [c.path, new TextDecoder().decode(c.data)])).toEqual([
      ['res/raw/droidbus_ca.pem', PEM],
    ]);
  });

  it('decides per host as the platform does: inheritance, the most specific domain, debug overrides', async () => {
    const { config } = await read(apk);
    const debug = { targetSdk: 34, debuggable: true };
    const release = { targetSdk: 34, debuggable: false };
    // Any other host: the base-config.
    expect(trustForHost(config, 'other.org', release)).toEqual({ anchors: expect.any(Array), pins: [] });
    expect(sources(trustForHost(config, 'other.org', release))).toEqual(['system']);
    // A subdomain of example.com inherits the base's anchors and is pinned.
    expect(trustForHost(config, 'api.example.com', release).pins).toEqual([
      '7HIpactkIAq2Y49orFOOQKurWxmmSFZhBCoQYcRhJ3Y=',
    ]);
    expect(sources(trustForHost(config, 'API.example.com.', release))).toEqual(['system']);
    // The nested, exact cdn.example.com has its own anchors and inherits the pin-set.
    expect(trustForHost(config, 'cdn.example.com', release).pins).toHaveLength(1);
    expect(sources(trustForHost(config, 'cdn.example.com', release))).toEqual(['user']);
    // A debuggable build adds the debug-overrides' anchors everywhere.
    expect(sources(trustForHost(config, 'api.example.com', debug))).toEqual(['system', 'raw+overridePins']);
    // Not a suffix match: notexample.com is not under example.com.
    expect(trustForHost(config, 'notexample.com', release).pins).toEqual([]);
  });

  it('answers no config for an APK whose manifest names none', async () => {
    const plain = writeApk({
      packageName: 'com.example.plain',
      versionCode: 1,
      versionName: '1',
      minSdk: 24,
      targetSdk: 34,
      activities: [],
    });
    expect(await read(plain)).toMatchObject({ config: null, path: null });
    expect(sources(trustForHost(null, 'x.org', { targetSdk: 23, debuggable: false }))).toEqual([
      'system',
      'user',
    ]);
    expect(sources(trustForHost(null, 'x.org', { targetSdk: 24, debuggable: false }))).toEqual(['system']);
  });
});

describe("droidbus's APK writer with a network security config", () => {
  const config: XmlElement = {
    name: 'network-security-config',
    attributes: [],
    children: [
      {
        name: 'debug-overrides',
        attributes: [],
        children: [
          {
            name: 'trust-anchors',
            attributes: [],
            children: [
              { name: 'certificates', attributes: [{ name: 'src', value: 'user' }], children: [] },
              {
                name: 'certificates',
                attributes: [{ name: 'src', value: '@raw/droidbus_ca' }],
                children: [],
              },
            ],
          },
        ],
      },
      {
        name: 'domain-config',
        attributes: [],
        children: [{ name: 'domain', attributes: [], children: [], text: 'api.example.com' }],
      },
    ],
  };
  const apk = writeApk({
    packageName: 'com.example.written',
    versionCode: 1,
    versionName: '1',
    minSdk: 24,
    targetSdk: 34,
    debuggable: true,
    activities: [],
    networkSecurityConfig: {
      config,
      raw: [{ file: 'droidbus_ca.pem', data: new TextEncoder().encode(PEM) }],
    },
  });
  const path = join(dir.dir, 'written.apk');
  writeFileSync(path, apk);

  it('writes what aapt reads: the table names both files, the manifest and the XML refer to them', () => {
    const resources = execFileSync('aapt', ['dump', 'resources', path], { encoding: 'utf8' });
    expect(resources).toMatch(/resource 0x7f010000 com\.example\.written:raw\/droidbus_ca: t=0x03/);
    expect(resources).toMatch(
      /resource 0x7f020000 com\.example\.written:xml\/network_security_config: t=0x03/,
    );
    const manifest = execFileSync('aapt', ['dump', 'xmltree', path, 'AndroidManifest.xml'], {
      encoding: 'utf8',
    });
    expect(manifest).toContain('android:networkSecurityConfig(0x01010527)=@0x7f020000');
    const xml = execFileSync('aapt', ['dump', 'xmltree', path, 'res/xml/network_security_config.xml'], {
      encoding: 'utf8',
    });
    expect(xml).toContain('A: src=@0x7f010000');
    expect(xml).toContain('C: "api.example.com"');
  });

  it('reads back what it wrote', async () => {
    const nsc = await read(apk);
    expect(nsc.config?.domains.map((d) => d.domains)).toEqual([
      [{ name: 'api.example.com', includeSubdomains: false }],
    ]);
    expect(nsc.config?.debugAnchors).toHaveLength(2);
    expect(sources(trustForHost(nsc.config, 'api.example.com', { targetSdk: 34, debuggable: true }))).toEqual(
      ['system', 'user', 'raw'],
    );
    expect([...nsc.certificates.values()][0]!.path).toBe('res/raw/droidbus_ca.pem');
  });
});
