import { readFileSync, writeFileSync, mkdirSync, existsSync } from 'node:fs';
import path from 'node:path';
import type { McpError } from '@modelcontextprotocol/sdk/types.js';
import type { AppEntry } from '../../src/device/parsers/app-list.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDeviceWorld } from '../helpers/device-world.js';
import type { DeviceWorld } from '../helpers/device-world.js';
import { startMcp } from '../helpers/mcp-client.js';
import { fromDist, tempDir } from '../helpers/paths.js';
import { runCli } from '../helpers/run-cli.js';
import { badgingLabels, labelForLocale, linkLabelledApk } from '../helpers/aapt2-apk.js';
import { refusedWith } from '../helpers/tool-errors.js';

// The device-extras toolset end to end: SDK client → built `droidbus mcp --toolsets …,device-extras`
// → real adb server → `droidbus sim` (one tcp device, one emulator).

const EXTRAS = ['--toolsets', 'core,ui,device-admin,device-extras'];
const SAMPLE = 'com.droidbus.sample';

let world: DeviceWorld;
let serial: string;
let emulator: string;
let project: ReturnType<typeof tempDir>;
let env: Record<string, string>;

interface Notification {
  key: string;
  package: string;
  title: string | null;
  text: string | null;
  ongoing: boolean;
  clearable: boolean;
  actions: string[];
}

interface SimStats {
  foreground: string;
  shade_open: boolean;
  taps: number;
  last_intent: {
    command: string;
    action: string | null;
    data: string | null;
    categories: string[];
    component: string | null;
    pkg: string | null;
    extras: Record<string, { type: string; value: string }>;
  } | null;
}

beforeAll(async () => {
  project = tempDir('droidbus-extras-project-');
  const mod = await fromDist<{ writeSampleProject(dir: string): Promise<void> }>(
    'sim/sample-project/write-sample-project.ts',
  );
  await mod.writeSampleProject(project.dir);
  world = await startDeviceWorld({ devices: 1, emulators: 1, dumpLatencyMs: 40 }, [
    ...EXTRAS,
    '--project',
    project.dir,
  ]);
  serial = world.farm.devices.find((d) => d.console_port === null)!.serial;
  emulator = world.farm.devices.find((d) => d.console_port !== null)!.serial;
  env = { ...(world.server.env as Record<string, string>), DROIDBUS_HOME: world.home };
});
afterAll(async () => {
  await world?.stop();
  project?.remove();
});

async function stats(target = serial): Promise<SimStats> {
  return JSON.parse(await world.shell(target, 'sim stats')) as SimStats;
}

async function notifications(pkg?: string): Promise<Notification[]> {
  const r = await world.call('list_notifications', {
    device_serial: serial,
    ...(pkg ? { package: pkg } : {}),
  });
  expect(r.isError).toBe(false);
  return r.structured['notifications'] as Notification[];
}

describe('the device-extras toolset', () => {
  it('is off without --toolsets: hidden, refused naming the toolset, and the instructions say how to enable it', async () => {
    const plain = await startMcp([], { env });
    try {
      const names = (await plain.client.listTools()).tools.map((t) => t.name);
      expect(names).toContain('screenshot');
      expect(names).not.toContain('list_notifications');
      const instructions = plain.client.getInstructions() ?? '';
      expect(instructions).toContain('Toolsets served: core, ui, device-admin.');
      expect(instructions).toContain(
        'Not served (the user adds one with --toolsets core,ui,device-admin,NAME in the droidbus registration):',
      );
      expect(instructions).toContain('device-extras (Notifications');
      expect(instructions).toMatch(/camera.*microphone.*tunnels/);
      const err = await plain.client
        .callTool({ name: 'list_notifications', arguments: {} })
        .catch((e: unknown) => e);
      expect((err as McpError).message).toContain('"device-extras" toolset');
    } finally {
      await plain.close();
    }
    const served = (await world.mcp.client.listTools()).tools.map((t) => t.name);
    for (const name of [
      'list_notifications',
      'open_notification',
      'dismiss_notification',
      'list_device_files',
      'pull_device_file',
      'push_device_file',
      'send_intent',
      'list_apps',
      'list_windows',
      'get_device_location',
      'set_emulator_location',
    ]) {
      expect(served).toContain(name);
    }
    expect(world.mcp.client.getInstructions()).not.toMatch(/Not served[^\n]*device-extras \(/);
  });
});

describe('notifications', () => {
  it('lists posted notifications with their keys, texts, actions and ongoing state', async () => {
    await world.shell(
      serial,
      `sim notify ${SAMPLE} 'Order shipped' 'Your parcel is on its way' --action Track --sub Orders`,
    );
    await world.shell(serial, `sim notify ${SAMPLE} 'Syncing' 'Uploading 3 photos' --ongoing`);
    const mine = await notifications(SAMPLE);
    const shipped = mine.find((n) => n.title === 'Order shipped')!;
    expect(shipped).toMatchObject({
      package: SAMPLE,
      text: 'Your parcel is on its way',
      ongoing: false,
      clearable: true,
      actions: ['Track'],
    });
    expect(shipped.key).toMatch(new RegExp(`^0\\|${SAMPLE.replace(/\./g, '\\.')}\\|\\d+\\|null\\|\\d+$`));
    expect(mine.find((n) => n.title === 'Syncing')).toMatchObject({ ongoing: true, clearable: false });
    const limited = await world.call('list_notifications', { device_serial: serial, limit: 1 });
    expect(limited.structured['truncated']).toBe(true);
    await refusedWith(world.call('list_notifications', { device_serial: serial, limit: 201 }));
  });

  it('opens a notification by tapping its row in the shade: its app comes up and it is cancelled', async () => {
    await world.shell(serial, 'input keyevent 3');
    const target = (await notifications(SAMPLE)).find((n) => n.title === 'Order shipped')!;
    const r = await world.call('open_notification', { device_serial: serial, key: target.key });
    expect(r.isError, r.text).toBe(false);
    expect(r.structured['still_listed']).toBe(false);
    expect(r.structured['commands']).toContainEqual(['cmd', 'statusbar', 'expand-notifications']);
    const s = await stats();
    expect(s.foreground).toContain(SAMPLE);
    expect(s.shade_open).toBe(false);
    expect((await notifications(SAMPLE)).some((n) => n.key === target.key)).toBe(false);
  });

  it('dismisses a clearable notification with a swipe, and refuses an ongoing one', async () => {
    await world.shell(serial, `sim notify ${SAMPLE} 'Coupon' 'Ten percent off'`);
    const coupon = (await notifications(SAMPLE)).find((n) => n.title === 'Coupon')!;
    const r = await world.call('dismiss_notification', { device_serial: serial, key: coupon.key });
    expect(r.isError, r.text).toBe(false);
    expect((await notifications(SAMPLE)).some((n) => n.key === coupon.key)).toBe(false);
    const ongoing = (await notifications(SAMPLE)).find((n) => n.title === 'Syncing')!;
    const refused = await world.call('dismiss_notification', { device_serial: serial, key: ongoing.key });
    expect(refused.isError).toBe(true);
    expect(refused.text).toMatch(/ongoing/);
    expect((await notifications(SAMPLE)).some((n) => n.key === ongoing.key)).toBe(true);
  });

  it('refuses a key the device does not list, before touching the screen', async () => {
    const before = await stats();
    for (const tool of ['open_notification', 'dismiss_notification']) {
      const r = await world.call(tool, { device_serial: serial, key: `0|${SAMPLE}|999|null|10150` });
      expect(r.isError).toBe(true);
      expect(r.text).toMatch(/list_notifications/);
    }
    const after = await stats();
    expect(after.taps).toBe(before.taps);
    expect(after.shade_open).toBe(false);
    await refusedWith(world.call('open_notification', { device_serial: serial, key: 'a\nb' }));
  });
});

describe('files in folders the user allowed', () => {
  const exchange = (): string => path.join(world.home, 'exchange');
  const storage = (...args: string[]) => runCli(['storage', ...args], { env });

  it('refuses every file tool until the user allows a folder with droidbus storage', async () => {
    const msg = await refusedWith(
      world.call('list_device_files', { device_serial: serial, path: '/sdcard/Download' }),
    );
    expect(msg).toContain(`droidbus storage allow ${serial}`);
    const allow = await storage('allow', serial, '/sdcard/Download');
    expect(allow.code, allow.stderr).toBe(0);
    expect((await storage('allow', serial, '/')).code).toBe(2);
    const list = await storage('--list');
    expect(list.stdout).toContain(`${serial}\n  /sdcard/Download\n`);
  });

  it('refuses a path with a lone surrogate or a bidi control, before any device command', async () => {
    const surrogate = await refusedWith(
      world.call('push_device_file', {
        device_serial: serial,
        exchange_name: 'a.txt',
        path: '/sdcard/Download/a\ud800.txt',
      }),
      'invalid_argument',
    );
    expect(surrogate).toContain('lone surrogate');
    const bidi = await refusedWith(
      world.call('list_device_files', {
        device_serial: serial,
        path: '/sdcard/Download/invoice\u202Etxt.exe',
      }),
      'invalid_argument',
    );
    expect(bidi).toContain('bidirectional control');
  });

  it('lists and pulls inside the allowed folder, resolving /sdcard, with small text inline', async () => {
    await world.shell(
      serial,
      "printf 'hello\\n' > /sdcard/Download/a.txt; mkdir -p /sdcard/Download/sub; echo secret > /data/local/tmp/secret.txt; ln -s /data/local/tmp /sdcard/Download/out; ln -s /data/local/tmp/secret.txt /sdcard/Download/secret-link.txt",
    );
    const listed = await world.call('list_device_files', {
      device_serial: serial,
      path: '/sdcard/Download/',
    });
    expect(listed.isError, listed.text).toBe(false);
    expect(listed.structured['resolved_path']).toBe('/storage/emulated/0/Download');
    const entries = listed.structured['entries'] as { name: string; type: string; size: number }[];
    expect(entries.find((e) => e.name === 'a.txt')).toMatchObject({ type: 'file', size: 6 });
    expect(entries.find((e) => e.name === 'sub')?.type).toBe('dir');
    expect(entries.find((e) => e.name === 'out')?.type).toBe('link');

    const pulled = await world.call('pull_device_file', {
      device_serial: serial,
      path: '/sdcard/Download/a.txt',
    });
    expect(pulled.isError, pulled.text).toBe(false);
    expect(pulled.structured).toMatchObject({
      exchange_name: 'a.txt',
      bytes: 6,
      inline: 'text',
      mime_type: 'text/plain',
    });
    const resource = pulled.raw.content.find((c) => c.type === 'resource') as { resource: { text: string } };
    expect(resource.resource.text).toBe('hello\n');
    expect(readFileSync(path.join(exchange(), 'a.txt'), 'utf8')).toBe('hello\n');
    expect(
      await refusedWith(
        world.call('pull_device_file', { device_serial: serial, path: '/sdcard/Download/a.txt' }),
      ),
    ).toMatch(/overwrite: true/);
    expect(
      (
        await world.call('pull_device_file', {
          device_serial: serial,
          path: '/sdcard/Download/a.txt',
          overwrite: true,
        })
      ).isError,
    ).toBe(false);
  });

  it('returns a text inline only within max_inline_chars (40,000 by default), saying how to get more', async () => {
    await world.shell(serial, 'seq 1 9000 > /sdcard/Download/big.txt');
    const size = Array.from({ length: 9000 }, (_, i) => `${i + 1}\n`).join('').length;
    const kept = await world.call('pull_device_file', {
      device_serial: serial,
      path: '/sdcard/Download/big.txt',
    });
    expect(kept.isError, kept.text).toBe(false);
    expect(kept.structured).toMatchObject({ bytes: size, inline: 'none' });
    expect(kept.raw.content.some((c) => c.type === 'resource')).toBe(false);
    expect(kept.text).toContain(
      `${size.toLocaleString('en-US')} characters inline, over max_inline_chars 40,000`,
    );
    expect(readFileSync(path.join(exchange(), 'big.txt'), 'utf8')).toHaveLength(size);
    const asked = await world.call('pull_device_file', {
      device_serial: serial,
      path: '/sdcard/Download/big.txt',
      overwrite: true,
      max_inline_chars: 100_000,
    });
    expect(asked.structured['inline']).toBe('text');
    const resource = asked.raw.content.find((c) => c.type === 'resource') as { resource: { text: string } };
    expect(resource.resource.text).toHaveLength(size);
    const listing = await world.mcp.client.listTools();
    expect(listing.tools.find((t) => t.name === 'pull_device_file')?._meta).toEqual({
      'anthropic/maxResultSizeChars': 401_000,
    });
  });

  it('refuses a path outside the folder, a .. path, symlinks that lead out and special files', async () => {
    const outside = await refusedWith(
      world.call('pull_device_file', { device_serial: serial, path: '/data/local/tmp/secret.txt' }),
    );
    expect(outside).toContain('outside the folders the user allowed');
    expect(
      await refusedWith(
        world.call('pull_device_file', { device_serial: serial, path: '/sdcard/Download/../Music/x' }),
      ),
    ).toContain("'..'");
    for (const p of ['/sdcard/Download/secret-link.txt', '/sdcard/Download/out/secret.txt']) {
      expect(await refusedWith(world.call('pull_device_file', { device_serial: serial, path: p }))).toContain(
        '/data/local/tmp/secret.txt',
      );
    }
    expect(
      await refusedWith(
        world.call('list_device_files', { device_serial: serial, path: '/sdcard/Download/out' }),
      ),
    ).toContain('outside');
    await storage('allow', serial, '/dev');
    expect(
      await refusedWith(world.call('pull_device_file', { device_serial: serial, path: '/dev/null' })),
    ).toContain('special file');
    await storage('revoke', serial, '/dev');
    expect(existsSync(path.join(exchange(), 'secret.txt'))).toBe(false);
    expect(existsSync(path.join(exchange(), 'null'))).toBe(false);
  });

  it('pushes from the exchange folder, never over an existing file without overwrite, never through a symlink', async () => {
    mkdirSync(exchange(), { recursive: true });
    const bytes = Buffer.from([0, 1, 2, 250, 251, 255, 10, 13, 39, 36]);
    writeFileSync(path.join(exchange(), 'blob.bin'), bytes);
    const pushed = await world.call('push_device_file', {
      device_serial: serial,
      exchange_name: 'blob.bin',
      path: '/sdcard/Download/blob.bin',
    });
    expect(pushed.isError, pushed.text).toBe(false);
    expect(pushed.structured).toMatchObject({
      replaced: false,
      bytes: 10,
      resolved_path: '/storage/emulated/0/Download/blob.bin',
    });
    const back = await world.call('pull_device_file', {
      device_serial: serial,
      path: '/sdcard/Download/blob.bin',
      exchange_name: 'blob-back.bin',
    });
    expect(back.structured['inline']).toBe('resource');
    const blob = back.raw.content.find((c) => c.type === 'resource') as { resource: { blob: string } };
    expect(Buffer.from(blob.resource.blob, 'base64')).toEqual(bytes);

    const again = { device_serial: serial, exchange_name: 'blob.bin', path: '/sdcard/Download/blob.bin' };
    expect(await refusedWith(world.call('push_device_file', again))).toContain('overwrite: true');
    const replaced = await world.call('push_device_file', { ...again, overwrite: true });
    expect(replaced.structured['replaced']).toBe(true);
    expect(
      await refusedWith(
        world.call('push_device_file', {
          ...again,
          path: '/sdcard/Download/secret-link.txt',
          overwrite: true,
        }),
      ),
    ).toContain('symbolic link');
    expect(
      await refusedWith(world.call('push_device_file', { ...again, path: '/sdcard/Download/out/evil.bin' })),
    ).toContain('outside');
    expect(await world.shell(serial, 'cat /data/local/tmp/secret.txt')).toBe('secret\n');
    expect(await world.shell(serial, 'ls /data/local/tmp')).not.toContain('evil');
    await refusedWith(world.call('push_device_file', { ...again, exchange_name: '../settings.json' }));
  });

  it('closes again when the user revokes the folder', async () => {
    expect((await storage('revoke', serial)).code).toBe(0);
    await refusedWith(world.call('list_device_files', { device_serial: serial, path: '/sdcard/Download' }));
  });
});

describe('intents', () => {
  it('starts an activity with typed extras, delivered exactly', async () => {
    const r = await world.call('send_intent', {
      device_serial: serial,
      mode: 'start',
      component: `${SAMPLE}/.LoginActivity`,
      extras: [
        { key: 'user', type: 'string', value: 'ada lovelace' },
        { key: 'count', type: 'int', value: '-7' },
        { key: 'big', type: 'long', value: '9000000000' },
        { key: 'on', type: 'bool', value: 'true' },
        { key: 'ratio', type: 'float', value: '0.5' },
      ],
    });
    expect(r.isError, r.text).toBe(false);
    expect(r.structured['command']).toEqual([
      'am',
      'start',
      '-W',
      '--es',
      'user',
      'ada lovelace',
      '--ei',
      'count',
      '-7',
      '--el',
      'big',
      '9000000000',
      '--ez',
      'on',
      'true',
      '--ef',
      'ratio',
      '0.5',
      '-n',
      `${SAMPLE}/.LoginActivity`,
    ]);
    const s = await stats();
    expect(s.foreground).toContain(`${SAMPLE}/.LoginActivity`);
    expect(s.last_intent?.extras).toEqual({
      user: { type: 'string', value: 'ada lovelace' },
      count: { type: 'int', value: '-7' },
      big: { type: 'long', value: '9000000000' },
      on: { type: 'bool', value: 'true' },
      ratio: { type: 'float', value: '0.5' },
    });
  });

  it('reports am errors that come with exit status 0, and refuses blocked schemes', async () => {
    const r = await world.call('send_intent', {
      device_serial: serial,
      mode: 'start',
      action: 'com.example.NOTHING_HANDLES_THIS',
    });
    expect(r.isError).toBe(true);
    expect(r.text).toContain('unable to resolve');
    const service = await world.call('send_intent', {
      device_serial: serial,
      mode: 'start-service',
      component: 'com.example.missing/.SyncService',
    });
    expect(service.isError).toBe(true);
    for (const uri of ['javascript:alert(1)', 'file:///sdcard/x', 'INTENT:#Intent;end', 'content://x/y']) {
      expect(
        await refusedWith(world.call('send_intent', { device_serial: serial, mode: 'start', data_uri: uri })),
      ).toMatch(/refused|scheme/);
    }
  });

  it("broadcasts to the project's package, and needs allow_foreign_package for any other", async () => {
    const mine = await world.call('send_intent', {
      device_serial: serial,
      mode: 'broadcast',
      action: 'com.droidbus.sample.PING',
      package: SAMPLE,
    });
    expect(mine.isError, mine.text).toBe(false);
    expect((await stats()).last_intent).toMatchObject({
      command: 'broadcast',
      action: 'com.droidbus.sample.PING',
      pkg: SAMPLE,
    });
    const foreign = {
      device_serial: serial,
      mode: 'broadcast',
      action: 'com.x.PING',
      package: 'com.android.chrome',
    };
    expect(await refusedWith(world.call('send_intent', foreign))).toContain('allow_foreign_package: true');
    expect(
      await refusedWith(
        world.call('send_intent', { device_serial: serial, mode: 'broadcast', action: 'com.x.PING' }),
      ),
    ).toContain('every app');
    expect((await world.call('send_intent', { ...foreign, allow_foreign_package: true })).isError).toBe(
      false,
    );
  });

  const HOSTILE = [
    'a; touch /data/local/tmp/pwn1',
    'b && touch /data/local/tmp/pwn2',
    'c | touch /data/local/tmp/pwn3',
    '$(touch /data/local/tmp/pwn4)',
    "d'; touch /data/local/tmp/pwn5; echo '",
    'e" ; touch /data/local/tmp/pwn6 ; echo "',
    '`touch /data/local/tmp/pwn7`',
    'f\ntouch /data/local/tmp/pwn8',
  ];

  it('delivers hostile extra values verbatim and runs nothing on the device', async () => {
    const extras = HOSTILE.map((value, i) => ({ key: `k${i}`, type: 'string', value }));
    const r = await world.call('send_intent', {
      device_serial: serial,
      mode: 'broadcast',
      action: 'com.droidbus.sample.PING',
      package: SAMPLE,
      extras,
    });
    expect(r.isError, r.text).toBe(false);
    const delivered = (await stats()).last_intent!.extras;
    expect(HOSTILE.map((_, i) => delivered[`k${i}`]?.value)).toEqual(HOSTILE);
    expect(await world.shell(serial, 'ls /data/local/tmp')).not.toMatch(/pwn/);
  });

  it('refuses hostile keys, actions, categories, components and data URIs before anything runs', async () => {
    const before = (await stats()).last_intent;
    const base = { device_serial: serial, mode: 'broadcast', package: SAMPLE, allow_foreign_package: true };
    for (const value of HOSTILE) {
      await refusedWith(
        world.call('send_intent', {
          ...base,
          action: 'a.B',
          extras: [{ key: value, type: 'string', value: 'x' }],
        }),
      );
      await refusedWith(world.call('send_intent', { ...base, action: value }));
      await refusedWith(world.call('send_intent', { ...base, action: 'a.B', category: value }));
      await refusedWith(world.call('send_intent', { ...base, component: value }));
      await refusedWith(world.call('send_intent', { ...base, data_uri: `myapp://x/${value}` }));
    }
    await refusedWith(
      world.call('send_intent', {
        ...base,
        action: 'a.B',
        extras: [{ key: 'n', type: 'int', value: '1; reboot' }],
      }),
    );
    expect((await stats()).last_intent).toEqual(before);
    expect(await world.shell(serial, 'ls /data/local/tmp')).not.toMatch(/pwn/);
  });
});

describe('apps, windows and location', () => {
  it('lists third-party apps with versions and install times, and every app on request', async () => {
    const r = await world.call('list_apps', { device_serial: serial });
    expect(r.isError, r.text).toBe(false);
    const apps = r.structured['apps'] as AppEntry[];
    const sample = apps.find((a) => a.package === SAMPLE)!;
    expect(sample).toMatchObject({ enabled: true, system: false });
    expect(sample.version_name).toMatch(/\d/);
    expect(sample.version_code).toBeGreaterThan(0);
    expect(sample.first_install_time).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(apps.some((a) => a.package === 'com.android.systemui')).toBe(false);
    // The project's app comes first and is marked, so a limit never hides it.
    expect(r.structured['project_packages']).toEqual([SAMPLE]);
    expect(r.text).toMatch(
      new RegExp(`^"Droidbus Sample" ${SAMPLE.replace(/\./g, '\\.')} .*\\[project\\]`, 'm'),
    );
    const first = await world.call('list_apps', { device_serial: serial, limit: 1 });
    expect((first.structured['apps'] as { package: string }[]).map((a) => a.package)).toEqual([SAMPLE]);
    expect(first.structured['truncated']).toBe(true);
    const all = await world.call('list_apps', {
      device_serial: serial,
      third_party_only: false,
      limit: 1000,
    });
    expect(
      (all.structured['apps'] as { package: string; system: boolean }[]).find(
        (a) => a.package === 'com.android.systemui',
      )?.system,
    ).toBe(true);
  });

  it("names each app as the launcher does, in the device's language, from the APK's resource table", async () => {
    const dir = tempDir('droidbus-labelled-');
    const apk = linkLabelledApk(dir.dir, { packageName: 'com.example.pricebook' });
    const expected = badgingLabels(apk);
    const installed = await world.server.adb(['-s', serial, 'install', apk]);
    expect(installed.stdout).toContain('Success');
    const labelOf = async (): Promise<string | null | undefined> => {
      const r = await world.call('list_apps', { device_serial: serial });
      expect(r.isError, r.text).toBe(false);
      expect(r.structured['labels_unread']).toEqual([]);
      return (r.structured['apps'] as { package: string; label: string | null }[]).find(
        (a) => a.package === 'com.example.pricebook',
      )?.label;
    };
    try {
      expect(await labelOf()).toBe(labelForLocale(expected, 'en-US'));
      await world.shell(serial, 'sim locale de-DE');
      expect(await labelOf()).toBe(labelForLocale(expected, 'de-DE'));
      expect(labelForLocale(expected, 'de-DE')).not.toBe(labelForLocale(expected, 'en-US'));
    } finally {
      await world.shell(serial, 'sim locale en-US');
      await world.server.adb(['-s', serial, 'uninstall', 'com.example.pricebook']);
      dir.remove();
    }
  });

  it('shows a system dialog over the app, which get_ui_hierarchy also names', async () => {
    await world.shell(serial, `am start -W -n ${SAMPLE}/.LoginActivity`);
    await world.shell(
      serial,
      "sim dialog 'Allow Sample to access photos?' 'Photos and videos' Allow 'Don''t allow'",
    );
    try {
      const r = await world.call('list_windows', { device_serial: serial });
      expect(r.isError, r.text).toBe(false);
      const dialog = r.structured['system_dialog'] as { title: string; kind: string; visible: boolean };
      expect(dialog).toMatchObject({
        title: 'Allow Sample to access photos?',
        kind: 'system_dialog',
        visible: true,
      });
      expect((r.structured['app_window'] as { package: string }).package).toBe(SAMPLE);
      expect(r.structured['focused']).toBe('Allow Sample to access photos?');
      const windows = r.structured['windows'] as { kind: string; title: string }[];
      expect(windows.findIndex((w) => w.kind === 'system_dialog')).toBeLessThan(
        windows.findIndex((w) => w.kind === 'application'),
      );
      const h = await world.call('get_ui_hierarchy', { device_serial: serial });
      expect(h.structured['captured_window']).toMatchObject({ title: 'Allow Sample to access photos?' });
      expect(h.structured['covering']).toEqual([
        { title: 'Allow Sample to access photos?', package: 'android', kind: 'system_dialog' },
      ]);
      expect(h.text).toContain(
        'a system dialog "Allow Sample to access photos?" (android) covers com.droidbus.sample',
      );
      // The dump holds the dialog only: the app under it is named as not captured.
      expect(
        (h.structured['not_captured'] as { package: string; kind: string }[]).map((w) => [w.package, w.kind]),
      ).toEqual([[SAMPLE, 'application']]);
      expect(h.text).toContain('not in this capture: ');
    } finally {
      await world.shell(serial, 'sim dialog dismiss');
    }
    const clear = await world.call('list_windows', { device_serial: serial });
    expect(clear.structured['system_dialog']).toBeNull();
  });

  it('sees the keyboard open over the app', async () => {
    const rows = await world.call('find_ui_elements', { device_serial: serial, resource_id: 'username' });
    const field = (rows.structured['matches'] as { tree_path: string }[])[0]!.tree_path;
    await world.call('ui_tap_element', { device_serial: serial, tree_path: field });
    const r = await world.call('list_windows', { device_serial: serial });
    expect(r.structured['ime_visible']).toBe(true);
    const h = await world.call('get_ui_hierarchy', { device_serial: serial });
    expect((h.structured['covering'] as { kind: string }[]).map((c) => c.kind)).toContain('input_method');
    await world.shell(serial, 'input keyevent 4');
  });

  it('sets an emulator location through its console and reads it back from dumpsys location', async () => {
    const set = await world.call('set_emulator_location', {
      device_serial: emulator,
      latitude: 48.8584,
      longitude: 2.2945,
      altitude: 35,
    });
    expect(set.isError, set.text).toBe(false);
    expect(set.structured['command']).toBe('geo fix 2.2945 48.8584 35');
    const r = await world.call('get_device_location', { device_serial: emulator });
    expect(r.structured['location_enabled']).toBe(true);
    const gps = (
      r.structured['fixes'] as {
        provider: string;
        latitude: number;
        longitude: number;
        altitude: number | null;
        age_ms: number | null;
        coarse: boolean;
      }[]
    ).find((f) => f.provider === 'gps' && !f.coarse);
    expect(gps).toMatchObject({ latitude: 48.8584, longitude: 2.2945, altitude: 35 });
    expect(gps!.age_ms).toBeLessThan(60_000);
    expect(
      await refusedWith(
        world.call('set_emulator_location', { device_serial: serial, latitude: 1, longitude: 2 }),
      ),
    ).toContain('not an emulator');
    await refusedWith(
      world.call('set_emulator_location', { device_serial: emulator, latitude: 91, longitude: 0 }),
    );
  });
});
