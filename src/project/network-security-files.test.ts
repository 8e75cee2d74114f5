import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compileAndLink } from '../../tests/helpers/aapt2-apk.js';
import { tempDir } from '../../tests/helpers/paths.js';
import { bytesReader, openApkEntries } from '../util/apk-label.js';
import { readApkNetworkSecurity, trustForHost } from '../util/network-security-config.js';
import { planNetworkFiles, withDroidbusCa, type NetworkFilesPlan } from './network-security-files.js';
import { currentText, writeProjectFiles } from './project-writes.js';

const dir = tempDir('droidbus-nscfiles-');
// The write lock lives in the data directory: this test's own.
process.env['DROIDBUS_HOME'] = join(dir.dir, 'home');
afterAll(() => {
  delete process.env['DROIDBUS_HOME'];
  dir.remove();
});
const PEM = execFileSync(
  'openssl',
  [
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    '/dev/null',
    '-subj',
    '/CN=droidbus test CA',
    '-days',
    '2',
  ],
  { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] },
);
const MAIN_MANIFEST = `<manifest xmlns:android="http://schemas.android.com/apk/res/android" package="com.example.app">
    <application android:label="App" android:usesCleartextTraffic="true" />
</manifest>`;
const PINNED = `<?xml version="1.0" encoding="utf-8"?>
<network-security-config>
    <domain-config>
        <domain includeSubdomains="true">example.com</domain>
        <pin-set><pin digest="SHA-256">7HIpactkIAq2Y49orFOOQKurWxmmSFZhBCoQYcRhJ3Y=</pin></pin-set>
    </domain-config>
</network-security-config>
`;

function reader(files: Record<string, string>): (rel: string) => Promise<string | null> {
  return async (rel) => files[rel] ?? null;
}

/** Links the planned debug build with aapt2 (main manifest merged with the debug one by hand) and reads what it trusts. */
async function linkPlanned(plan: NetworkFilesPlan, name: string) {
  const work = join(dir.dir, `link-${Math.random().toString(36).slice(2)}`);
  mkdirSync(join(work, 'res', 'xml'), { recursive: true });
  mkdirSync(join(work, 'res', 'raw'), { recursive: true });
  for (const f of plan.files) {
    const m = /src\/debug\/res\/(xml|raw)\/(.+)$/.exec(f.path);
    if (m) {
      writeFileSync(join(work, 'res', m[1]!, m[2]!), f.content);
    }
  }
  writeFileSync(
    join(work, 'AndroidManifest.xml'),
    `<manifest xmlns:android="http://schemas.android.com/apk/res/android" package="com.example.app">
       <uses-sdk android:minSdkVersion="24" android:targetSdkVersion="34"/>
       <application android:debuggable="true" android:networkSecurityConfig="@xml/${name}"/></manifest>`,
  );
  const apk = compileAndLink(work);
  return readApkNetworkSecurity(await openApkEntries(bytesReader(readFileSync(apk))));
}

describe('the debug-only network security config droidbus writes into a module', () => {
  it('with no config yet: the CA, a config trusting it in debug-overrides (cleartext kept), and the debug manifest naming it', async () => {
    const plan = await planNetworkFiles({
      moduleDir: 'app',
      mainManifest: MAIN_MANIFEST,
      debugManifest: null,
      read: reader({}),
      caPem: PEM,
    });
    expect(plan.files.map((f) => [f.path, f.action])).toEqual([
      ['app/src/debug/res/raw/droidbus_ca.pem', 'create'],
      ['app/src/debug/res/xml/network_security_config.xml', 'create'],
      ['app/src/debug/AndroidManifest.xml', 'create'],
    ]);
    expect(plan.files[2]!.content).toContain('android:networkSecurityConfig="@xml/network_security_config"');
    expect(plan.files[1]!.content).toContain('cleartextTrafficPermitted="true"');
    expect(plan.notes.join(' ')).toContain('usesCleartextTraffic');
    // aapt2 compiles what was planned, and the platform's rules trust droidbus's CA in a debug build only.
    const nsc = await linkPlanned(plan, plan.name);
    const [cert] = [...nsc.certificates.values()];
    expect(new TextDecoder().decode(cert!.data)).toBe(PEM);
    const debug = trustForHost(nsc.config, 'api.example.org', { targetSdk: 34, debuggable: true });
    expect(debug.anchors.map((a) => (typeof a.source === 'string' ? a.source : 'droidbus'))).toEqual([
      'system',
      'droidbus',
    ]);
    const release = trustForHost(nsc.config, 'api.example.org', { targetSdk: 34, debuggable: false });
    expect(release.anchors.map((a) => a.source)).toEqual(['system']);
  });

  it("with the main manifest's own config: a debug copy keeping its pins, droidbus's CA overriding them; the manifest untouched", async () => {
    const manifest = MAIN_MANIFEST.replace(
      'android:label="App"',
      'android:networkSecurityConfig="@xml/net_rules"',
    );
    const plan = await planNetworkFiles({
      moduleDir: '',
      mainManifest: manifest,
      debugManifest: null,
      read: reader({ 'src/main/res/xml/net_rules.xml': PINNED }),
      caPem: PEM,
    });
    expect(plan.files.map((f) => f.path)).toEqual([
      'src/debug/res/raw/droidbus_ca.pem',
      'src/debug/res/xml/net_rules.xml',
    ]);
    const nsc = await linkPlanned(plan, 'net_rules');
    const t = trustForHost(nsc.config, 'api.example.com', { targetSdk: 34, debuggable: true });
    expect(t.pins).toHaveLength(1);
    expect(t.anchors.find((a) => typeof a.source === 'object')).toMatchObject({ overridePins: true });
  });

  it('adds to an existing debug config once: a second run changes nothing', async () => {
    const existing = `<network-security-config>
    <debug-overrides>
        <trust-anchors>
            <certificates src="user" />
        </trust-anchors>
    </debug-overrides>
</network-security-config>`;
    const updated = withDroidbusCa(existing);
    expect(updated).toContain('<certificates src="user" />');
    expect(updated.match(/@raw\/droidbus_ca/g)).toHaveLength(1);
    const files = {
      'src/main/AndroidManifest.xml': MAIN_MANIFEST,
      'src/debug/res/xml/network_security_config.xml': updated,
      'src/debug/res/raw/droidbus_ca.pem': PEM,
    };
    const debugManifest =
      '<manifest xmlns:android="http://schemas.android.com/apk/res/android"><application android:networkSecurityConfig="@xml/network_security_config"/></manifest>';
    const plan = await planNetworkFiles({
      moduleDir: '',
      mainManifest: MAIN_MANIFEST,
      debugManifest,
      read: reader(files),
      caPem: PEM,
    });
    expect(plan.files.every((f) => f.action === 'unchanged')).toBe(true);
    expect(withDroidbusCa('<network-security-config><debug-overrides/></network-security-config>')).toMatch(
      /<debug-overrides>\s*<trust-anchors>\s*<certificates src="@raw\/droidbus_ca" overridePins="true" \/>\s*<\/trust-anchors>\s*<\/debug-overrides>/,
    );
  });
});

describe('writing into a project', () => {
  it('writes whole files inside the project and refuses a path a symlink leads out of', async () => {
    const project = join(dir.dir, 'project');
    const outside = join(dir.dir, 'outside');
    mkdirSync(join(project, 'app', 'src'), { recursive: true });
    mkdirSync(outside, { recursive: true });
    symlinkSync(outside, join(project, 'app', 'src', 'debug'));
    await expect(
      writeProjectFiles(project, [{ path: 'app/src/debug/res/raw/x.pem', content: 'x' }]),
    ).rejects.toThrow(/outside the project \(a symlink leads out\)/);
    await expect(writeProjectFiles(project, [{ path: '../escape.txt', content: 'x' }])).rejects.toThrow(
      /not a relative path inside/,
    );
    symlinkSync(join(outside, 'target.txt'), join(project, 'app', 'link.txt'));
    await expect(writeProjectFiles(project, [{ path: 'app/link.txt', content: 'x' }])).rejects.toThrow(
      /not a regular file/,
    );
    await expect(currentText(project, 'app/link.txt')).rejects.toThrow(/symlink/);
    await writeProjectFiles(project, [{ path: 'app/src/main/res/xml/a.xml', content: '<a/>' }]);
    expect(await currentText(project, 'app/src/main/res/xml/a.xml')).toBe('<a/>');
    await writeProjectFiles(project, [{ path: 'app/src/main/res/xml/a.xml', content: '<b/>' }]);
    expect(readFileSync(join(project, 'app/src/main/res/xml/a.xml'), 'utf8')).toBe('<b/>');
  });
});
