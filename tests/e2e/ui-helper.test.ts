/**
 * Reading the screen through the on-device helper, end to end: `droidbus helper install` (the built
 * CLI) on a `droidbus sim` device, then the UI tools of `droidbus mcp` sessions, whose device actor
 * starts the helper's instrumentation, forwards its port through the real adb server and reads
 * every window from its page source.
 */
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADB_BINARY } from '../helpers/adb-server.js';
import { eventually, startDeviceWorld, type DeviceWorld, type ToolOutcome } from '../helpers/device-world.js';
import { startMcp, type McpSessionHandle } from '../helpers/mcp-client.js';
import { runCli } from '../helpers/run-cli.js';

let world: DeviceWorld;
let serial: string;
let env: Record<string, string>;
let second: McpSessionHandle | undefined;

beforeAll(async () => {
  world = await startDeviceWorld({ devices: 1, dumpLatencyMs: 40, logcatRate: 0 });
  serial = world.serials[0]!;
  env = { ...(world.server.env as Record<string, string>), DROIDBUS_HOME: world.home };
  await world.shell(serial, 'sim latency helper-start 300; sim latency helper 20');
  const r = await runCli(['helper', 'install', '--serial', serial], { env });
  expect(r.code, r.stderr).toBe(0);
}, 120_000);
afterAll(async () => {
  await second?.close();
  await world?.stop();
});

type Node = { tree_path: string; text: string; class: string };

async function hierarchy(): Promise<ToolOutcome> {
  const r = await world.call('get_ui_hierarchy', { device_serial: serial, max_rows: 500 });
  expect(r.isError, r.text).toBe(false);
  return r;
}

/** Which reader served one get_ui_hierarchy call of `client` (which must succeed). */
async function readerOf(client: McpSessionHandle['client']): Promise<string> {
  const r = (await client.callTool({ name: 'get_ui_hierarchy', arguments: { device_serial: serial } })) as {
    isError?: boolean;
    structuredContent?: Record<string, unknown>;
  };
  expect(r.isError ?? false).toBe(false);
  return r.structuredContent?.['reader'] as string;
}

const INSTRUMENTATION = 'io.appium.uiautomator2.server.test/androidx.test.runner.AndroidJUnitRunner';

/** Runs `use` with the server's base URL, through a port forwarded for it alone. */
async function withHub<T>(use: (hub: string) => Promise<T>): Promise<T> {
  const forwarded = await world.server.adb(['-s', serial, 'forward', 'tcp:0', 'tcp:6790']);
  const port = Number(forwarded.stdout.trim());
  try {
    return await use(`http://127.0.0.1:${port}/wd/hub`);
  } finally {
    await world.server.adb(['-s', serial, 'forward', '--remove', `tcp:${port}`]);
  }
}

/** A session made on the server directly, as another client (Appium's driver) makes one. */
async function newSession(hub: string, alwaysMatch: Record<string, unknown>): Promise<{ sessionId: string }> {
  const r = await fetch(`${hub}/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ capabilities: { alwaysMatch, firstMatch: [{}] } }),
  });
  return (await r.json()) as { sessionId: string };
}

/** A new droidbus process reads the screen through the helper, not by falling back to uiautomator dump. */
async function readsInANewProcess(): Promise<void> {
  const dumps = (await world.simStats(serial)).dumps;
  const next = await startMcp([], { env });
  try {
    expect(await readerOf(next.client)).toBe('helper');
  } finally {
    await next.close();
  }
  expect((await world.simStats(serial)).dumps).toBe(dumps);
}

/** The server's own page source, through droidbus's session (its settings: every window). */
function rawPageSource(): Promise<string> {
  return withHub(async (hub) => {
    const sessions = (await (await fetch(`${hub}/sessions`)).json()) as { value: { id: string }[] };
    const source = (await (await fetch(`${hub}/session/${sessions.value[0]!.id}/source`)).json()) as {
      value: string;
    };
    return source.value;
  });
}

describe('the UI helper as the reader', () => {
  it('reads a screen that never goes idle, and says the helper read it', async () => {
    await world.shell(serial, 'am start -W -n com.droidbus.sample/.DetailActivity --es live true');
    const r = await hierarchy();
    expect(r.structured['reader']).toBe('helper');
    expect(r.text).toContain('live_progress');
    expect(r.text).toContain('read by the UI helper');
    // uiautomator dump was never asked.
    expect((await world.simStats(serial)).dumps).toBe(0);
  });

  it('shows a dialog as its own window, and ui_tap_element on its button dismisses it', async () => {
    await world.shell(serial, 'am start -W -n com.droidbus.sample/.LoginActivity');
    await world.shell(serial, "sim dialog 'Allow access?' 'The app wants your location' Allow Deny");
    // Each window of the capture is named by the window manager's list.
    const windows = (await hierarchy()).structured['windows'] as {
      index: number;
      package: string;
      title: string | null;
    }[];
    // The server lists them top-most first, the bars included; the app's window is still window 0.
    expect(windows.map((w) => [w.index, w.package])).toEqual([
      [0, 'com.droidbus.sample'],
      [1, 'android'],
      [2, 'com.android.systemui'],
      [3, 'com.android.systemui'],
    ]);
    expect(windows[1]!.title).toBe('Allow access?');
    expect(windows[0]!.title).toContain('com.droidbus.sample');
    const found = await world.call('find_ui_elements', { device_serial: serial, text: 'Allow' });
    expect(found.isError, found.text).toBe(false);
    const allow = (found.structured['matches'] as Node[])[0]!;
    // The app's window is first, the dialog's second: its nodes' paths start with 1.
    expect(allow.tree_path.split('.')[0]).toBe('1');
    const app = await world.call('find_ui_elements', {
      device_serial: serial,
      resource_id: 'com.droidbus.sample:id/username',
    });
    expect((app.structured['matches'] as Node[])[0]!.tree_path.split('.')[0]).toBe('0');
    const tapped = await world.call('ui_tap_element', { device_serial: serial, tree_path: allow.tree_path });
    expect(tapped.isError, tapped.text).toBe(false);
    // The tap went through the helper's UiAutomation (W3C actions), not a spawned `input tap`.
    expect((await world.simStats(serial)).last_input?.[0]).toBe('helper-tap');
    const after = await hierarchy();
    expect(after.text).not.toContain('Allow access?');
    // The helper reads every window: nothing is named as not captured.
    expect(after.structured['not_captured']).toEqual([]);
  });

  it("keeps an app element's tree path when the keyboard shows", async () => {
    await world.shell(serial, 'am start -W -n com.droidbus.sample/.LoginActivity');
    const find = async (): Promise<{ path: string; kinds: string[] }> => {
      const r = await world.call('find_ui_elements', {
        device_serial: serial,
        resource_id: 'com.droidbus.sample:id/password',
      });
      expect(r.isError, r.text).toBe(false);
      const h = await hierarchy();
      return {
        path: (r.structured['matches'] as Node[])[0]!.tree_path,
        kinds: (h.structured['windows'] as { kind: string }[]).map((w) => w.kind),
      };
    };
    const before = await find();
    expect(before.kinds).not.toContain('input_method');
    const username = await world.call('find_ui_elements', {
      device_serial: serial,
      resource_id: 'com.droidbus.sample:id/username',
    });
    const tapped = await world.call('ui_tap_element', {
      device_serial: serial,
      tree_path: (username.structured['matches'] as Node[])[0]!.tree_path,
    });
    expect(tapped.isError, tapped.text).toBe(false);
    // The server's page source lists the keyboard's window first (top-most); the app's paths stay.
    const source = await rawPageSource();
    expect(source.indexOf('package="com.google.android.inputmethod.latin"')).toBeGreaterThan(0);
    expect(source.indexOf('package="com.google.android.inputmethod.latin"')).toBeLessThan(
      source.indexOf('package="com.droidbus.sample"'),
    );
    const after = await find();
    expect(after.kinds).toContain('input_method');
    expect(after.path).toBe(before.path);
  });

  it('types Unicode, presses keys and swipes through the helper, with no ADBKeyBoard', async () => {
    await world.shell(serial, 'am start -W -n com.droidbus.sample/.LoginActivity');
    const field = await world.call('find_ui_elements', {
      device_serial: serial,
      resource_id: 'com.droidbus.sample:id/username',
    });
    const username = (field.structured['matches'] as Node[])[0]!;
    expect(
      (await world.call('ui_tap_element', { device_serial: serial, tree_path: username.tree_path })).isError,
    ).toBe(false);
    // `input text` cannot type this and ADBKeyBoard is not the keyboard: the helper sets the text.
    const text = 'Ёлка 2\u00a0500 ₽';
    const typed = await world.call('ui_type_text_unicode', { device_serial: serial, text });
    expect(typed.isError, typed.text).toBe(false);
    expect((await world.simStats(serial)).last_input).toEqual(['helper-keys', [...text].length]);
    const read = await world.call('find_ui_elements', {
      device_serial: serial,
      resource_id: 'com.droidbus.sample:id/username',
    });
    expect((read.structured['matches'] as Node[])[0]!.text).toContain('Ёлка');
    const key = await world.call('send_ui_key', { device_serial: serial, key: 'TAB' });
    expect(key.isError, key.text).toBe(false);
    expect((await world.simStats(serial)).last_input).toEqual(['helper-key', 61]);
    await world.shell(serial, 'am start -W -n com.droidbus.sample/.HomeActivity');
    const before = (await hierarchy()).structured['screen_hash'];
    const swiped = await world.call('ui_swipe', {
      device_serial: serial,
      x1: 540,
      y1: 1800,
      x2: 540,
      y2: 900,
      duration_ms: 200,
    });
    expect(swiped.isError, swiped.text).toBe(false);
    expect((await world.simStats(serial)).last_input).toEqual(['helper-swipe', 540, 1800, 540, 900]);
    expect((await hierarchy()).structured['screen_hash']).not.toBe(before);
  });

  it('starts the helper again when it was killed mid-session, with no failed call', async () => {
    expect((await hierarchy()).structured['reader']).toBe('helper');
    await world.shell(serial, 'am force-stop io.appium.uiautomator2.server');
    const r = await hierarchy();
    expect(r.structured['reader']).toBe('helper');
    expect(await world.shell(serial, 'pidof io.appium.uiautomator2.server')).toMatch(/\d/);
  });

  it('reads through the helper again once the device comes back from a disconnect', async () => {
    expect((await hierarchy()).structured['reader']).toBe('helper');
    await world.server.adb(['disconnect', serial]);
    await eventually(async () => {
      const r = await world.call('get_ui_hierarchy', { device_serial: serial });
      return r.isError ? r : undefined;
    });
    await world.server.adb(['connect', serial]);
    const back = await eventually(async () => {
      const r = await world.call('get_ui_hierarchy', { device_serial: serial, max_rows: 500 });
      return r.isError ? undefined : r;
    });
    expect(back.structured['reader']).toBe('helper');
  });

  it('lets two droidbus processes read one device in turns through the one helper', async () => {
    second = await startMcp([], { env });
    const readers = await Promise.all([
      readerOf(world.mcp.client),
      readerOf(second.client),
      readerOf(world.mcp.client),
      readerOf(second.client),
    ]);
    expect(readers).toEqual(['helper', 'helper', 'helper', 'helper']);
  });

  it('keeps the helper running after the droidbus process that started it exits: a second one reads through it', async () => {
    await world.shell(serial, 'am force-stop io.appium.uiautomator2.server');
    const first = await startMcp([], { env });
    expect(await readerOf(first.client)).toBe('helper');
    const pid = (await world.shell(serial, 'pidof io.appium.uiautomator2.server')).trim();
    expect(pid).toMatch(/^\d+$/);
    await first.close();
    // Started with nohup: its `am` (and the UiAutomation it lends) outlived the first process's shell.
    await withHub(async (hub) => {
      const sessions = (await (await fetch(`${hub}/sessions`)).json()) as { value: { id: string }[] };
      expect((await fetch(`${hub}/session/${sessions.value[0]!.id}/source`)).status).toBe(200);
    });
    await readsInANewProcess();
    // The same server, not restarted.
    expect((await world.shell(serial, 'pidof io.appium.uiautomator2.server')).trim()).toBe(pid);
  });

  it("restarts once a server whose UiAutomation left with the shell that started it (the driver's way)", async () => {
    await world.shell(serial, 'am force-stop io.appium.uiautomator2.server');
    // Started as Appium's driver starts it: `am instrument -w` held by an adb shell, which then goes.
    const starter = spawn(
      ADB_BINARY,
      ['-s', serial, 'shell', 'am', 'instrument', '-w', '-e', 'disableAnalytics', 'true', INSTRUMENTATION],
      { env: world.server.env },
    );
    const pid = await eventually(async () => {
      const found = (await world.shell(serial, 'pidof io.appium.uiautomator2.server')).trim();
      return found === '' ? undefined : found;
    });
    await withHub(async (hub) => {
      await eventually(async () => {
        // Short: until the server listens, a forwarded connection is accepted and never answered.
        const status = (await (
          await fetch(`${hub}/status`, { signal: AbortSignal.timeout(1_500) })
        ).json()) as {
          value: { ready: boolean };
        };
        return status.value.ready ? true : undefined;
      });
    });
    const exited = new Promise((r) => starter.once('exit', r));
    starter.kill('SIGKILL');
    await exited;
    // The server still answers /status, but its UiAutomation left with that shell's `am`.
    await withHub(async (hub) => {
      const created = await newSession(hub, {});
      const source = await eventually(async () => {
        const r = await fetch(`${hub}/session/${created.sessionId}/source`);
        return r.status === 500 ? r : undefined;
      });
      expect(await source.text()).toContain('UiAutomation not connected');
      expect((await fetch(`${hub}/session/${created.sessionId}`, { method: 'DELETE' })).status).toBe(200);
    });
    await readsInANewProcess();
    // Restarted: a new process.
    expect((await world.shell(serial, 'pidof io.appium.uiautomator2.server')).trim()).not.toBe(pid);
  });

  it('leaves the phone as its owner set it: TalkBack bound while it reads, no wake lock once it leaves', async () => {
    const talkback = 'com.google.android.marvin.talkback/com.google.android.marvin.talkback.TalkBackService';
    await world.shell(
      serial,
      `am force-stop io.appium.uiautomator2.server; settings put secure enabled_accessibility_services ${talkback}; settings put secure touch_exploration_enabled 1`,
    );
    const bound = async (): Promise<boolean> =>
      /Bound services:\{Service\[label=TalkBack/.test(await world.shell(serial, 'dumpsys accessibility'));
    const screenKeeper = async (): Promise<boolean> =>
      (await world.shell(serial, 'dumpsys power')).includes("'UiAutomator2:ScreenKeeper'");
    const before = { bound: await bound(), locks: await screenKeeper() };
    expect(before).toEqual({ bound: true, locks: false });
    // The control: a server started as Appium's driver starts it by default suppresses TalkBack.
    await world.shell(
      serial,
      'am instrument -e disableAnalytics true io.appium.uiautomator2.server.test/androidx.test.runner.AndroidJUnitRunner',
    );
    await eventually(async () => ((await bound()) ? undefined : true), 10_000, 'TalkBack unbound');
    await world.shell(serial, 'am force-stop io.appium.uiautomator2.server');
    expect(await bound()).toBe(true);
    // droidbus's own start keeps it bound, and leases the screen while it reads.
    const guest = await startMcp([], { env });
    try {
      const r = (await guest.client.callTool({
        name: 'get_ui_hierarchy',
        arguments: { device_serial: serial },
      })) as {
        structuredContent?: Record<string, unknown>;
      };
      expect(r.structuredContent?.['reader']).toBe('helper');
      expect(await bound()).toBe(true);
      expect(await screenKeeper()).toBe(true);
    } finally {
      await guest.close();
    }
    // The process left: the lock is released, the services and settings are as they were.
    await eventually(
      async () => ((await screenKeeper()) ? undefined : true),
      10_000,
      'the wake lock released',
    );
    expect(await bound()).toBe(true);
    expect((await world.shell(serial, 'settings get secure enabled_accessibility_services')).trim()).toBe(
      talkback,
    );
  });

  it("leaves another client's Appium session alone: no settings changed, nothing ended, and says why", async () => {
    expect(await readerOf(world.mcp.client)).toBe('helper');
    await withHub(async (hub) => {
      // Appium's driver makes its session (the server keeps one: droidbus's is replaced).
      const created = await newSession(hub, { platformName: 'Android' });
      const settingsOf = async (): Promise<Record<string, unknown>> =>
        (
          (await (await fetch(`${hub}/session/${created.sessionId}/appium/settings`)).json()) as {
            value: Record<string, unknown>;
          }
        ).value;
      const before = await settingsOf();
      const r = await world.call('get_ui_hierarchy', { device_serial: serial });
      expect(r.isError).toBe(true);
      expect(r.text).toContain("another client's Appium session");
      expect(await settingsOf()).toEqual(before);
      const sessions = (await (await fetch(`${hub}/sessions`)).json()) as { value: { id: string }[] };
      expect(sessions.value.map((x) => x.id)).toEqual([created.sessionId]);
      // Its session ended, droidbus reads through the helper again.
      await fetch(`${hub}/session/${created.sessionId}`, { method: 'DELETE' });
      expect(await readerOf(world.mcp.client)).toBe('helper');
    });
  });

  it('falls back to uiautomator dump when the helper cannot start, and says so', async () => {
    // Without its instrumentation package the server cannot be started.
    await world.shell(
      serial,
      'am force-stop io.appium.uiautomator2.server; pm uninstall io.appium.uiautomator2.server.test',
    );
    const r = await hierarchy();
    expect(r.structured['reader']).toBe('uiautomator-dump');
    expect((await world.simStats(serial)).dumps).toBeGreaterThan(0);
  });
});
