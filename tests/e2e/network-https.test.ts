/**
 * HTTPS read as a new user gets there (issue 72), MCP client → built droidbus → real adb server →
 * sim device: add_network_security_config writes the debug-only config into the sample project,
 * the debug build carries it (the stand-in Gradle packages it as AGP does), the sim's app trusts
 * droidbus's CA because its APK says so, and the capture reads the sign-in's HTTPS whole. The
 * release build on the same device still refuses the proxy.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { generateCACertificate } from 'mockttp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE_PACKAGE } from '../../src/sim/index.js';
import { setTrust, writeSample } from '../helpers/build-project.js';
import { eventually, startDeviceWorld, type DeviceWorld } from '../helpers/device-world.js';
import { tempDir } from '../helpers/paths.js';
import { signInSample } from '../helpers/sample-sign-in.js';

const project = tempDir('droidbus-https-project-');
const home = tempDir('droidbus-https-home-');
let world: DeviceWorld;
let serial: string;
let api: Server;
let debugPackage: string;

beforeAll(async () => {
  // The app's server: HTTPS with a certificate of its own (a developer's local server).
  const ca = await generateCACertificate({ subject: { commonName: 'localhost' } });
  api = createServer({ key: ca.key, cert: ca.cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      res.writeHead(401, { 'Content-Type': 'application/json' });
      res.end(
        JSON.stringify({
          error: 'bad credentials',
          seen: JSON.parse(Buffer.concat(chunks).toString()).username,
        }),
      );
    });
  });
  await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
  await writeSample(project.dir, home.dir);
  await setTrust(project.dir, home.dir, true);
  world = await startDeviceWorld({ devices: 1, dumpLatencyMs: 20 }, ['--project', project.dir], {
    DROIDBUS_HOME: home.dir,
  });
  serial = world.serials[0]!;
  await world.shell(serial, `sim app-server https://localhost:${(api.address() as AddressInfo).port}`);
}, 120_000);

afterAll(async () => {
  await world?.stop();
  api?.close();
  project.remove();
  home.remove();
});

describe('HTTPS of a debug build, read through the capture', () => {
  it('writes the debug-only config on request, and only then', async () => {
    const dry = await world.call('add_network_security_config', { dry_run: true });
    expect(dry.isError, dry.text).toBe(false);
    expect(dry.text).toContain('dry run, nothing written');
    expect(existsSync(path.join(project.dir, 'app/src/debug/res/raw/droidbus_ca.pem'))).toBe(false);

    const r = await world.call('add_network_security_config', {});
    expect(r.isError, r.text).toBe(false);
    expect(
      (r.structured['files'] as { path: string; action: string }[]).map((f) => [f.path, f.action]),
    ).toEqual([
      ['app/src/debug/res/raw/droidbus_ca.pem', 'create'],
      ['app/src/debug/res/xml/network_security_config.xml', 'create'],
      ['app/src/debug/AndroidManifest.xml', 'create'],
    ]);
    const ca = readFileSync(path.join(home.dir, 'network-ca', 'droidbus-ca.pem'), 'utf8');
    expect(readFileSync(path.join(project.dir, 'app/src/debug/res/raw/droidbus_ca.pem'), 'utf8')).toBe(ca);
    const again = await world.call('add_network_security_config', {});
    expect(again.text).toContain('already trust');
  });

  it("reads the sign-in's HTTPS from the debug build, and says so when the capture starts", async () => {
    const build = await world.call('run_gradle_task', { task: 'assembleDemoDebug' });
    expect(build.text).toContain('BUILD SUCCESSFUL');
    const apk = await world.call('find_apk_path', { variant: 'demoDebug' });
    debugPackage = String(apk.structured['application_id']);
    const installed = await world.call('install_apk', {
      device_serial: serial,
      apk_path: String(apk.structured['path']),
    });
    expect(installed.isError, installed.text).toBe(false);

    const logcat = await world.call('start_logcat', { device_serial: serial, from_now: true });
    expect(logcat.isError, logcat.text).toBe(false);
    const started = await world.call('start_network_capture', {
      device_serial: serial,
      package: debugPackage,
    });
    expect(started.isError, started.text).toBe(false);
    expect(started.structured['https']).toMatchObject({ readable: 'yes', pinned_hosts: [] });
    expect(started.text).toContain("trusts droidbus's CA (res/raw/droidbus_ca.pem)");
    try {
      const launched = await world.call('launch_app', {
        device_serial: serial,
        package: debugPackage,
      });
      expect(launched.isError, launched.text).toBe(false);
      const filled = await world.call('ui_fill_input', {
        device_serial: serial,
        fields: [
          { field: 'Username', text: 'ada' },
          { field: 'Password', text: 'wrong' },
        ],
        submit: 'Sign in',
      });
      expect(filled.isError, filled.text).toBe(false);
      const log = await eventually(
        async () => {
          const l = await world.call('get_network_log', { device_serial: serial });
          const reqs = (l.structured as { requests: { id: string; status: number | null }[] }).requests;
          return reqs.some((e) => e.status === 401) ? reqs : undefined;
        },
        15_000,
        'the HTTPS sign-in in the log',
      );
      const signIn = log.find((e) => e.status === 401)!;
      const one = await world.call('get_network_request', { device_serial: serial, id: signIn.id });
      expect(one.structured['url']).toMatch(/^https:\/\/localhost:\d+\/auth$/);
      expect(one.text).toMatch(/^POST localhost:\d+\/auth → 401/);
      expect(one.text).toContain('"seen": "ada"');
      expect(one.text).toContain('"password": "[redacted]"');
      expect(one.text).not.toContain('wrong');

      // The install's debug session has the request in its timeline, between the launch and what follows.
      const list = await world.call('list_debug_sessions', { package: debugPackage });
      const id = (list.structured['sessions'] as { id: string }[])[0]!.id;
      const timeline = await eventually(
        async () => {
          const s = await world.call('get_debug_session', { session_id: id });
          const events = s.structured['timeline'] as { kind: string; summary: string }[];
          return events.some((e) => e.kind === 'network') ? events : undefined;
        },
        10_000,
        'the request in the debug session',
      );
      const kinds = timeline.map((e) => e.kind);
      expect(kinds.indexOf('launch')).toBeLessThan(kinds.indexOf('network'));
      expect(timeline.find((e) => e.kind === 'network')!.summary).toMatch(
        /^POST localhost:\d+\/auth → 401, \d+ ms$/,
      );

      // A crash right after: its report names the request before it.
      await world.shell(serial, `sim crash ${debugPackage} java`);
      const crash = await eventually(
        async () => {
          const c = await world.call('get_crash_logs', { package: debugPackage });
          return (c.structured['crashes'] as unknown[]).length > 0 ? c : undefined;
        },
        10_000,
        'the crash in logcat',
      );
      expect(crash.text).toMatch(/Requests in the minute before it: POST localhost:\d+\/auth → 401/);
    } finally {
      await world.call('stop_network_capture', { device_serial: serial });
    }
  });

  it('still refuses the proxy from the release build beside it', async () => {
    const started = await world.call('start_network_capture', {
      device_serial: serial,
      package: SAMPLE_PACKAGE,
    });
    expect(started.structured['https']).toMatchObject({ readable: 'no' });
    try {
      await signInSample(world, serial, 'wrong');
      const log = await eventually(
        async () => {
          const r = await world.call('get_network_log', { device_serial: serial });
          return (r.structured as { requests: unknown[] }).requests.length > 0 ? r : undefined;
        },
        10_000,
        'the refused handshake',
      );
      expect(log.text).toMatch(/TLS handshake refused by the app/);
    } finally {
      await world.call('stop_network_capture', { device_serial: serial });
    }
  });
});
