import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startDeviceWorld } from '../helpers/device-world.js';
import type { DeviceWorld } from '../helpers/device-world.js';
import { refusedWith } from '../helpers/tool-errors.js';

// The ui toolset end to end: SDK client → built `droidbus mcp` → real adb server → `droidbus sim`.

let world: DeviceWorld;
let serial: string;

interface Row {
  n: number;
  tree_path: string;
  label: string;
  class: string;
  resource_id: string;
  center: { x: number; y: number };
  editable: boolean;
}

beforeAll(async () => {
  world = await startDeviceWorld({ devices: 2, dumpLatencyMs: 60 });
  serial = world.serials[0]!;
});
afterAll(async () => world.stop());

async function openLogin(target = serial): Promise<void> {
  await world.shell(
    target,
    'am force-stop com.droidbus.sample; am start -W -n com.droidbus.sample/.LoginActivity',
  );
}

async function rows(target = serial): Promise<{ rows: Row[]; hash: string }> {
  const r = await world.call('list_clickable_elements', { device_serial: target });
  expect(r.isError).toBe(false);
  return { rows: r.structured['rows'] as Row[], hash: r.structured['screen_hash'] as string };
}

/** Makes `xml` (a recorded or hand-made dump) the sim device's screen until `sim screen reset`. */
async function loadScreen(xml: string, name: string): Promise<void> {
  const local = path.join(os.tmpdir(), `droidbus-${name}-${process.pid}.xml`);
  writeFileSync(local, xml);
  try {
    const pushed = await world.server.adb(['-s', serial, 'push', local, `/data/local/tmp/${name}.xml`]);
    expect(pushed.code, pushed.stderr).toBe(0);
  } finally {
    rmSync(local, { force: true });
  }
  await world.shell(serial, `sim screen load /data/local/tmp/${name}.xml`);
}

function byId(list: Row[], id: string): Row {
  const row = list.find((r) => r.resource_id.endsWith(`:id/${id}`));
  expect(row, `no row with id ${id}`).toBeDefined();
  return row!;
}

describe('reading the screen', () => {
  it('reads a device nothing touched before with a fresh capture', async () => {
    const r = await world.call('list_clickable_elements', { device_serial: world.serials[1] });
    expect(r.isError).toBe(false);
    expect(r.structured['screen_hash']).toMatch(/^[0-9a-f]{16}$/);
    expect((r.structured['rows'] as Row[]).map((x) => x.label)).toContain('Droidbus Sample');
  });

  it('renders the hierarchy with tree paths and finds elements and their parents', async () => {
    await openLogin();
    const h = await world.call('get_ui_hierarchy', { device_serial: serial });
    expect(h.text).toMatch(/0\.0\.0\.1\.1 EditText .*id=username/);
    const found = await world.call('find_ui_elements', { device_serial: serial, resource_id: 'sign_in' });
    const matches = found.structured['matches'] as Row[];
    expect(matches).toHaveLength(1);
    expect(matches[0]!.label).toBe('Sign in');
    const parent = await world.call('find_ui_parent', {
      device_serial: serial,
      tree_path: matches[0]!.tree_path,
    });
    expect((parent.structured['parent'] as Row).resource_id).toBe('com.droidbus.sample:id/login_form');
    const none = await world.call('find_ui_elements', { device_serial: serial, text: 'No such text' });
    expect(none.structured['total']).toBe(0);
    // "What can I tap": clickable alone lists the form's fields and its button, and only those.
    const tappable = await world.call('find_ui_elements', { device_serial: serial, clickable: true });
    expect(tappable.isError, tappable.text).toBe(false);
    const ids = (tappable.structured['matches'] as Row[]).map((m) => m.resource_id);
    expect(ids).toEqual(
      expect.arrayContaining([
        'com.droidbus.sample:id/username',
        'com.droidbus.sample:id/password',
        'com.droidbus.sample:id/sign_in',
      ]),
    );
    expect(ids).not.toContain('com.droidbus.sample:id/login_form');
  });

  it('refuses a find without criteria, a bad tree path and out-of-range limits with invalid_params', async () => {
    expect(await refusedWith(world.call('find_ui_elements', { device_serial: serial }))).toContain(
      'at least one of',
    );
    expect(
      await refusedWith(world.call('find_ui_parent', { device_serial: serial, tree_path: '0.a' })),
    ).toContain('tree path');
    await refusedWith(world.call('list_clickable_elements', { device_serial: serial, limit: 501 }));
    await refusedWith(world.call('find_ui_elements', { device_serial: serial, text: 'x', max_results: 101 }));
    await refusedWith(
      world.call('wait_for_element', { device_serial: serial, text: 'x', timeout_ms: 30_001 }),
    );
    // A wait needs an element to look for: clickable alone is no such thing.
    expect(
      await refusedWith(world.call('wait_for_element', { device_serial: serial, clickable: true })),
    ).toContain('at least one of');
  });

  it('asks for device_serial when several devices are online', async () => {
    expect(await refusedWith(world.call('get_ui_hierarchy', {}))).toContain('Several devices are online');
  });

  it('says when a device is not connected', async () => {
    const r = await world.call('get_ui_hierarchy', { device_serial: '127.0.0.1:1' });
    expect(r.isError).toBe(true);
    expect(r.text).toContain("'127.0.0.1:1' is not connected");
  });

  it('reads a real dump whole with an empty class="" (as a Samsung multi-window dump has) and a node without class, text or bounds', async () => {
    // The real uiautomator2 dump of tests/fixtures/ui/facebook-multiwindow.xml with two of its views
    // made odd: the status bar's clock with class="" and the navigation bar's root without class,
    // text and bounds attributes.
    const real = readFileSync(new URL('../fixtures/ui/facebook-multiwindow.xml', import.meta.url), 'utf8');
    const odd = real
      .replace(/(resource-id="com\.android\.systemui:id\/clock" )class="[^"]*"/, '$1class=""')
      .replace(
        /<node index="0" text="" resource-id="" class="android\.widget\.FrameLayout" package="com\.android\.systemui"([^>]*?) bounds="\[[^"]*\]"/,
        '<node index="0" resource-id="" package="com.android.systemui"$1',
      );
    expect(odd).toContain('class=""');
    expect(odd).not.toBe(real);
    const nodes = (odd.match(/<node /g) ?? []).length;
    await loadScreen(odd, 'odd');
    try {
      const h = await world.call('get_ui_hierarchy', {
        device_serial: serial,
        tree: true,
        include_system_bars: true,
        max_rows: 500,
      });
      expect(h.isError, h.text).toBe(false);
      expect(h.text).not.toContain('left out');
      expect(h.structured['node_count']).toBe(nodes);
      const clock = (h.structured['rows'] as { text?: string; class?: string }[]).find(
        (r) => r.text === '2:06',
      );
      expect(clock, JSON.stringify(h.structured['rows'])).toBeDefined();
      expect(clock).not.toHaveProperty('class');
      const found = await world.call('find_ui_elements', { device_serial: serial, resource_id: 'clock' });
      expect(found.isError, found.text).toBe(false);
      expect((found.structured['matches'] as { class: string }[]).map((m) => m.class)).toEqual(['']);
      const clickable = await world.call('list_clickable_elements', { device_serial: serial });
      expect(clickable.isError, clickable.text).toBe(false);
      expect(clickable.structured['total']).toBeGreaterThan(0);
    } finally {
      await world.shell(serial, 'sim screen reset');
    }
  });

  it("under a system dialog, names the display's size as the screen, the dialog's capture apart", async () => {
    await openLogin();
    await world.shell(
      serial,
      "sim dialog 'Allow Droidbus Sample to send you notifications?' '' Allow \"Don't allow\"",
    );
    try {
      const size = /Physical size: (\d+)x(\d+)/.exec(await world.shell(serial, 'wm size'));
      expect(size).not.toBeNull();
      const h = await world.call('get_ui_hierarchy', { device_serial: serial });
      expect(h.isError, h.text).toBe(false);
      const line = h.text.split('\n').find((l) => l.startsWith('screen ')) ?? '';
      expect(line.startsWith(`screen ${size![1]}x${size![2]}`), line).toBe(true);
      expect(line, line).toContain('(captured area ');
    } finally {
      await world.shell(serial, 'input keyevent KEYCODE_BACK');
    }
  });

  it('says a system dialog over the app once in a screen read, and launch_app nothing about comparisons (issue 69)', async () => {
    await openLogin();
    await world.shell(
      serial,
      "sim dialog 'Allow Droidbus Sample to send you notifications?' '' Allow \"Don't allow\"",
    );
    try {
      const h = await world.call('get_ui_hierarchy', { device_serial: serial });
      expect(h.isError, h.text).toBe(false);
      // One line of the answer says the dialog covers the app; none says it again.
      const notices = h.text.split('\n').filter((l) => /system (dialog|window)|\(system_dialog/.test(l));
      expect(notices, h.text).toHaveLength(1);
      expect(notices[0]).toContain('covers com.droidbus.sample');
    } finally {
      await world.shell(serial, 'input keyevent KEYCODE_BACK');
    }
    await world.shell(serial, 'am force-stop com.droidbus.sample');
    const launched = await world.call('launch_app', {
      device_serial: serial,
      package: 'com.droidbus.sample',
    });
    expect(launched.isError, launched.text).toBe(false);
    expect(launched.text).not.toMatch(/compare/i);
  });

  it('returns texts verbatim, and a text copied back from an answer finds its element', async () => {
    // A real dump writes a newline and a tab in an attribute as character references (kXML2's
    // KXmlSerializer.writeEscaped, which uiautomator's AccessibilityNodeInfoDumper writes through)
    // and a no-break space as it is; the sim prints dumps the same way (escapeAttr).
    const node = (text: string, id: string, top: number): string =>
      `<node index="0" text="${text}" resource-id="com.example.shop:id/${id}" class="android.widget.TextView" package="com.example.shop" content-desc="" checkable="false" checked="false" clickable="true" enabled="true" focusable="true" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[0,${top}][1080,${top + 200}]" />`;
    const dump = `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0"><node index="0" text="" resource-id="" class="android.widget.FrameLayout" package="com.example.shop" content-desc="" checkable="false" checked="false" clickable="false" enabled="true" focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[0,0][1080,2400]">${node('2\u00a0500 ₽', 'price', 100)}${node('Total:&#10;2 items', 'total', 400)}${node('Qty&#9;3', 'qty', 700)}</node></hierarchy>`;
    await loadScreen(dump, 'shop');
    try {
      const listed = await world.call('list_clickable_elements', { device_serial: serial });
      const texts = (listed.structured['rows'] as { text: string; resource_id: string }[]).map((r) => r.text);
      expect(texts).toEqual(['2\u00a0500 ₽', 'Total:\n2 items', 'Qty\t3']);
      // The one-line rendering escapes the line break and the tab and keeps the no-break space.
      expect(listed.text).toContain('"Total:\\n2 items"');
      expect(listed.text).toContain('"Qty\\t3"');
      expect(listed.text).toContain('"2\u00a0500 ₽"');
      for (const text of texts) {
        const found = await world.call('find_ui_elements', { device_serial: serial, text });
        expect(found.isError, found.text).toBe(false);
        expect((found.structured['matches'] as { text: string }[]).map((m) => m.text)).toEqual([text]);
      }
      // What an agent copies from the one-line text finds the element too.
      for (const [text, id] of [
        ['Total:\\n2 items', 'total'],
        ['2 500 ₽', 'price'],
      ] as const) {
        const found = await world.call('find_ui_elements', { device_serial: serial, text });
        const matches = found.structured['matches'] as { resource_id: string }[];
        expect(matches.map((m) => m.resource_id)).toEqual([`com.example.shop:id/${id}`]);
      }
      const h = await world.call('get_ui_hierarchy', { device_serial: serial });
      const hrows = h.structured['rows'] as { text?: string }[];
      expect(hrows.map((r) => r.text).filter((t) => t !== undefined)).toEqual(texts);
      expect(h.structured).not.toHaveProperty('text');
    } finally {
      await world.shell(serial, 'sim screen reset');
    }
  });

  it('compares the screen with the previous capture', async () => {
    await openLogin();
    await world.call('compare_ui_state', { device_serial: serial });
    const { rows: list } = await rows();
    await world.call('ui_fill_input', {
      device_serial: serial,
      tree_path: byId(list, 'username').tree_path,
      text: 'grace',
    });
    const diff = await world.call('compare_ui_state', { device_serial: serial });
    expect(diff.structured['compared']).toBe(true);
    expect(JSON.stringify(diff.structured['comparison'])).toContain('grace');
  });
});

describe('driving the UI', () => {
  it('taps an element by tree path at its centre', async () => {
    await openLogin();
    const { rows: list, hash } = await rows();
    const field = byId(list, 'password');
    const r = await world.call('ui_tap_element', {
      device_serial: serial,
      tree_path: field.tree_path,
      expect_screen_hash: hash,
    });
    expect(r.isError).toBe(false);
    expect((await world.simStats(serial)).last_input).toEqual(['tap', field.center.x, field.center.y]);
  });

  it('fills the login form and submits it to reach the next screen', async () => {
    await openLogin();
    const { rows: list, hash } = await rows();
    const user = await world.call('ui_fill_input', {
      device_serial: serial,
      tree_path: byId(list, 'username').tree_path,
      text: 'ada lovelace',
      expect_screen_hash: hash,
    });
    expect(user.isError).toBe(false);
    await world.call('ui_fill_input', {
      device_serial: serial,
      tree_path: byId(list, 'password').tree_path,
      text: 'analytical',
    });
    const tap = await world.call('ui_tap_element', {
      device_serial: serial,
      tree_path: byId(list, 'sign_in').tree_path,
    });
    expect(tap.isError).toBe(false);
    const welcome = await world.call('wait_for_element', {
      device_serial: serial,
      text_contains: 'welcome, ada',
      timeout_ms: 10_000,
    });
    expect(welcome.isError).toBe(false);
    const assert = await world.call('ui_assert_element', {
      device_serial: serial,
      resource_id: 'sign_in',
      should_exist: false,
    });
    expect(assert.isError).toBe(false);
  });

  it('fills a form by its labels and submits it in one call, one capture before and one after', async () => {
    await openLogin();
    const { hash } = await rows();
    const before = await world.simStats(serial);
    const r = await world.call('ui_fill_input', {
      device_serial: serial,
      fields: [
        { field: 'Username', text: 'ada' },
        { field: '#password', text: 'analytical' },
      ],
      submit: 'Sign in',
      then: 'welcome, ada',
      expect_screen_hash: hash,
    });
    expect(r.isError).toBe(false);
    // An empty field's dump text is its hint, as on real phones; the masked one is named by its id.
    expect(r.text).toContain('Filled "Username" (3 characters), #password (10 characters, hidden)');
    expect(r.text).toContain('then tapped "Sign in"');
    expect(r.text).toMatch(/Then: "welcome, ada" showed after \d+ ms/);
    // The password's text is in no answer.
    expect(JSON.stringify(r)).not.toContain('analytical');
    const after = await world.simStats(serial);
    expect(after.dumps - before.dumps).toBeLessThanOrEqual(2);
    const welcome = await world.call('ui_assert_element', {
      device_serial: serial,
      text_contains: 'welcome, ada',
      should_exist: true,
    });
    expect(welcome.isError).toBe(false);
  });

  it('types nothing when one target of a form is missing or not there to submit with', async () => {
    await openLogin();
    await rows();
    const before = await world.simStats(serial);
    const missing = await world.call('ui_fill_input', {
      device_serial: serial,
      fields: [
        { field: 'Username', text: 'ada' },
        { field: 'Email', text: 'ada@example.com' },
      ],
    });
    expect(missing.isError).toBe(true);
    expect(missing.text).toContain('no editable field called "Email"');
    expect(missing.text).toMatch(
      /its fields: \[[\d.]+\] EditText "Username", \[[\d.]+\] EditText #password\./,
    );
    const notField = await world.call('ui_fill_input', {
      device_serial: serial,
      fields: [{ field: 'Username', text: 'ada' }],
      submit: 'Register',
    });
    expect(notField.isError).toBe(true);
    expect(notField.text).toContain('no element called "Register"');
    const both = await world.call('ui_fill_input', {
      device_serial: serial,
      tree_path: '0.0',
      text: 'x',
      fields: [{ field: 'Username', text: 'ada' }],
    });
    expect(both.isError).toBe(true);
    expect(both.text).toContain('or fields for a form (not both)');
    expect((await world.simStats(serial)).last_input).toEqual(before.last_input);
  });

  it('refuses to act on a screen that changed since it was read, and does nothing', async () => {
    await openLogin();
    const { rows: list, hash } = await rows();
    await world.call('ui_fill_input', {
      device_serial: serial,
      tree_path: byId(list, 'username').tree_path,
      text: 'changed',
    });
    const before = await world.simStats(serial);
    const r = await world.call('ui_tap_element', {
      device_serial: serial,
      tree_path: byId(list, 'sign_in').tree_path,
      expect_screen_hash: hash,
    });
    expect(r.isError).toBe(true);
    expect(r.text).toContain('the screen changed since it was read');
    // Its own code, so an agent tells a stale read from a failed action; the new hash beside it.
    const error = (r.structured as { error: { code: string; details?: { screen_hash?: string } } }).error;
    expect(error.code).toBe('screen_changed');
    expect(error.details?.screen_hash).toMatch(/^[0-9a-f]+$/);
    expect(error.details?.screen_hash).not.toBe(hash);
    expect((await world.simStats(serial)).last_input).toEqual(before.last_input);
  });

  it('refuses a missing element, and filling something that is not an input field', async () => {
    await openLogin();
    const { rows: list } = await rows();
    const missing = await world.call('ui_tap_element', { device_serial: serial, tree_path: '0.9.9.9' });
    expect(missing.isError).toBe(true);
    expect(missing.text).toContain('no element at tree_path 0.9.9.9');
    const button = await world.call('ui_fill_input', {
      device_serial: serial,
      tree_path: byId(list, 'sign_in').tree_path,
      text: 'x',
    });
    expect(button.isError).toBe(true);
    expect(button.text).toContain('not an editable field');
  });

  it('types Unicode text through ADBKeyBoard, and says how to enable it when it is not the keyboard', async () => {
    await openLogin();
    const { rows: list } = await rows();
    await world.call('ui_tap_element', {
      device_serial: serial,
      tree_path: byId(list, 'username').tree_path,
    });
    await world.shell(serial, 'ime reset');
    const refused = await world.call('ui_type_text_unicode', { device_serial: serial, text: 'Zoë 世界 🙂' });
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain('ime set com.android.adbkeyboard/.AdbIME');
    await world.shell(
      serial,
      'ime enable com.android.adbkeyboard/.AdbIME; ime set com.android.adbkeyboard/.AdbIME',
    );
    const typed = await world.call('ui_type_text_unicode', { device_serial: serial, text: 'Zoë 世界 🙂' });
    expect(typed.isError).toBe(false);
    const found = await world.call('find_ui_elements', { device_serial: serial, text: 'Zoë 世界 🙂' });
    expect(found.structured['total']).toBe(1);
    await world.shell(serial, 'ime reset');
  });

  it('types ASCII text, clears the focused field, sends keys and hides the keyboard', async () => {
    await openLogin();
    const { rows: list } = await rows();
    await world.call('ui_tap_element', {
      device_serial: serial,
      tree_path: byId(list, 'username').tree_path,
    });
    await world.call('ui_type_text', { device_serial: serial, text: 'with spaces & %s inside' });
    expect(
      (await world.call('find_ui_elements', { device_serial: serial, text: 'with spaces & %s inside' }))
        .structured['total'],
    ).toBe(1);
    const cleared = await world.call('clear_focused_input', { device_serial: serial });
    expect(cleared.isError).toBe(false);
    expect(
      (await world.call('find_ui_elements', { device_serial: serial, text_contains: 'with spaces' }))
        .structured['total'],
    ).toBe(0);
    // Tapping the field opened the keyboard: the system says so, though no capture shows its window.
    expect(await world.shell(serial, 'dumpsys input_method')).toContain('mInputShown=true');
    const hidden = await world.call('hide_soft_keyboard', { device_serial: serial });
    expect(hidden.text).toContain('Hid the soft keyboard.');
    expect((await world.simStats(serial)).last_input).toEqual(['keyevent', 'KEYCODE_BACK']);
    expect(await world.shell(serial, 'dumpsys input_method')).toContain('mInputShown=false');
    const again = await world.call('hide_soft_keyboard', { device_serial: serial });
    expect(again.text).toContain('not showing');
    const key = await world.call('send_ui_key', { device_serial: serial, key: 'BACK' });
    expect(key.isError).toBe(false);
    expect((await world.simStats(serial)).last_input).toEqual(['keyevent', 'KEYCODE_BACK']);
    expect(
      await refusedWith(world.call('send_ui_key', { device_serial: serial, key: 'BACK;reboot' })),
    ).toContain('key');
    expect(
      await refusedWith(world.call('send_ui_key', { device_serial: serial, key: 'NOT_A_KEY' })),
    ).toContain('unknown key');
  });

  it('taps and swipes raw coordinates', async () => {
    await world.call('ui_tap', { device_serial: serial, x: 10, y: 20 });
    expect((await world.simStats(serial)).last_input).toEqual(['tap', 10, 20]);
    await world.call('ui_swipe', {
      device_serial: serial,
      x1: 500,
      y1: 1500,
      x2: 500,
      y2: 600,
      duration_ms: 100,
    });
    expect((await world.simStats(serial)).last_input).toEqual(['swipe', 500, 1500, 500, 600, 100]);
    await refusedWith(world.call('ui_tap', { device_serial: serial, x: -1, y: 20 }));
  });

  it('scrolls a list until an element shows, with progress notifications', async () => {
    await openLogin();
    const { rows: list } = await rows();
    await world.call('ui_fill_input', {
      device_serial: serial,
      tree_path: byId(list, 'username').tree_path,
      text: 'ada',
    });
    await world.call('ui_fill_input', {
      device_serial: serial,
      tree_path: byId(list, 'password').tree_path,
      text: 'pw',
    });
    await world.call('ui_tap_element', { device_serial: serial, tree_path: byId(list, 'sign_in').tree_path });
    await world.call('wait_for_element', { device_serial: serial, text: 'Item 1' });
    const progress: number[] = [];
    const r = await world.mcp.client.callTool(
      {
        name: 'ui_scroll_until_element',
        arguments: { device_serial: serial, text: 'Item 30', max_swipes: 25 },
      },
      undefined,
      { onprogress: (p) => progress.push(p.progress) },
    );
    expect(r.isError).toBeFalsy();
    const structured = r.structuredContent as { found: boolean; swipes: number; screen_hash: string };
    expect(structured.found).toBe(true);
    expect(structured.swipes).toBeGreaterThan(0);
    expect(progress.length).toBeGreaterThan(0);
    // The screen it left, as every action answers it: good for the next expect_screen_hash.
    const text = (r.content as { type: string; text: string }[])[0]!.text;
    expect(text).toContain(`screen now ${structured.screen_hash}`);
    const next = await world.call('send_ui_key', {
      device_serial: serial,
      key: 'TAB',
      expect_screen_hash: structured.screen_hash,
    });
    expect(next.isError, next.text).toBe(false);
  });
});

describe('waiting', () => {
  it('reports a wait that times out as a tool error after sending progress', async () => {
    const progress: { progress: number; total?: number; message?: string }[] = [];
    const r = await world.mcp.client.callTool(
      {
        name: 'wait_for_element',
        arguments: { device_serial: serial, text: 'Never there', timeout_ms: 800 },
      },
      undefined,
      { onprogress: (p) => progress.push(p) },
    );
    expect(r.isError).toBe(true);
    expect(progress.length).toBeGreaterThan(0);
    expect(progress[0]!.total).toBe(800);
  });

  it('stops a wait when the client cancels it, and the device serves the next call', async () => {
    const controller = new AbortController();
    const pending = world.mcp.client.callTool(
      {
        name: 'wait_for_element',
        arguments: { device_serial: serial, text: 'Never there', timeout_ms: 30_000 },
      },
      undefined,
      { signal: controller.signal },
    );
    setTimeout(() => controller.abort(), 300);
    await expect(pending).rejects.toThrow();
    const started = Date.now();
    const next = await world.call('get_ui_hierarchy', { device_serial: serial });
    expect(next.isError).toBe(false);
    // The cancelled wait let go of the device: the next capture did not queue behind 30 s of polling.
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('waits until the screen is idle', async () => {
    const r = await world.call('ui_wait_for_idle', { device_serial: serial, timeout_ms: 5_000 });
    expect(r.isError).toBe(false);
    expect(r.structured['captures']).toBeGreaterThanOrEqual(2);
  });
});

describe('screenshots', () => {
  it('scales the long edge to 1024 by default and returns a JPEG with its format and scale', async () => {
    const r = await world.call('screenshot', { device_serial: serial });
    const image = r.raw.content[0] as { type: string; data: string; mimeType: string };
    expect(image.type).toBe('image');
    expect(image.mimeType).toBe('image/jpeg');
    const meta = await sharp(Buffer.from(image.data, 'base64')).metadata();
    expect(meta.format).toBe('jpeg');
    expect([meta.width, meta.height]).toEqual([461, 1024]);
    expect(r.structured).toMatchObject({
      mime: 'image/jpeg',
      deviceWidth: 1080,
      deviceHeight: 2400,
      imageWidth: 461,
      imageHeight: 1024,
      scale: 2.3438,
    });
    // The answer's text says the format and the scale too (a client that shows only text).
    expect(r.text).toContain('"mime":"image/jpeg"');
    expect(r.text).toContain('"scale":2.3438');
  });

  it('returns the capture byte for byte with full_size', async () => {
    const r = await world.call('screenshot', { device_serial: serial, full_size: true });
    const image = r.raw.content[0] as { data: string };
    const direct = await world.server.adb(['-s', serial, 'exec-out', 'screencap', '-p']);
    const meta = await sharp(Buffer.from(image.data, 'base64')).metadata();
    expect([meta.width, meta.height]).toEqual([1080, 2400]);
    expect(r.structured['scale']).toBe(1);
    expect(Buffer.from(image.data, 'base64').equals(direct.stdoutBytes)).toBe(true);
  });

  it('encodes as PNG or WebP when asked, JPEG by default: the same pixels, the mime type saying which', async () => {
    const bytesOf = async (format?: string) => {
      const r = await world.call('screenshot', { device_serial: serial, ...(format ? { format } : {}) });
      const image = r.raw.content[0] as { data: string; mimeType: string };
      const data = Buffer.from(image.data, 'base64');
      const meta = await sharp(data).metadata();
      return {
        mime: image.mimeType,
        format: meta.format,
        size: [meta.width, meta.height],
        bytes: data.length,
      };
    };
    const png = await bytesOf('png');
    const jpeg = await bytesOf();
    const webp = await bytesOf('webp');
    expect([png.mime, jpeg.mime, webp.mime]).toEqual(['image/png', 'image/jpeg', 'image/webp']);
    expect([png.format, jpeg.format, webp.format]).toEqual(['png', 'jpeg', 'webp']);
    expect(jpeg.size).toEqual(png.size);
    expect(webp.size).toEqual(png.size);
    expect(jpeg.bytes).toBeLessThan(png.bytes);
    expect(webp.bytes).toBeLessThan(png.bytes);
    const refused = await world.call('screenshot', {
      device_serial: serial,
      full_size: true,
      format: 'jpeg',
    });
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain('byte for byte');
  });

  it('refuses max_dimension with full_size, or out of range, with invalid_params', async () => {
    expect(
      await refusedWith(
        world.call('screenshot', { device_serial: serial, full_size: true, max_dimension: 512 }),
      ),
    ).toContain('not both');
    await refusedWith(world.call('screenshot', { device_serial: serial, max_dimension: 255 }));
    await refusedWith(world.call('screenshot', { device_serial: serial, max_dimension: 8193 }));
  });

  it('annotates interactive elements with numbers whose legend names their tree paths', async () => {
    await openLogin();
    const r = await world.call('screenshot', { device_serial: serial, annotate: true, max_dimension: 640 });
    const legend = r.structured['legend'] as { n: number; tree_path: string; label: string }[];
    const { rows: list } = await rows();
    expect(legend.map((l) => [l.n, l.tree_path])).toEqual(list.map((row) => [row.n, row.tree_path]));
  });
});

describe('safety', () => {
  const HOSTILE = [
    'a; touch /data/local/tmp/pwn1',
    'b && touch /data/local/tmp/pwn2',
    'c | touch /data/local/tmp/pwn3',
    '$(touch /data/local/tmp/pwn4)',
    "d'; touch /data/local/tmp/pwn5; echo '",
    'e" ; touch /data/local/tmp/pwn6 ; echo "',
    '`touch /data/local/tmp/pwn7`',
  ];

  it('types hostile text literally and runs nothing on the device', async () => {
    await openLogin();
    const { rows: list } = await rows();
    const field = byId(list, 'username').tree_path;
    for (const text of HOSTILE) {
      const fill = await world.call('ui_fill_input', { device_serial: serial, tree_path: field, text });
      expect(fill.isError).toBe(false);
      expect(
        (await world.call('find_ui_elements', { device_serial: serial, text })).structured['total'],
      ).toBe(1);
      await world.call('ui_type_text', { device_serial: serial, text });
    }
    expect(await world.shell(serial, 'ls /data/local/tmp')).not.toMatch(/pwn/);
  });

  it('refuses line breaks in typed text and hostile serials before anything runs', async () => {
    expect(
      await refusedWith(world.call('ui_type_text', { device_serial: serial, text: 'a\nreboot' })),
    ).toContain('printable ASCII');
    await refusedWith(
      world.call('get_ui_hierarchy', { device_serial: `${serial};touch /data/local/tmp/pwn8` }),
    );
    expect(await world.shell(serial, 'ls /data/local/tmp')).not.toMatch(/pwn/);
  });
});

describe('one device, many callers', () => {
  it('never overlaps captures on one device, however many run at once', async () => {
    const target = world.serials[1]!;
    const before = await world.simStats(target);
    const results = await Promise.all(
      Array.from({ length: 20 }, () => world.call('get_ui_hierarchy', { device_serial: target })),
    );
    expect(results.every((r) => !r.isError)).toBe(true);
    const after = await world.simStats(target);
    expect(after.dumps - before.dumps).toBe(20);
    expect(after.overlapping_dumps).toBe(before.overlapping_dumps);
  });

  it('fails a capture on a device another droidbus process holds, naming that process', async () => {
    const { startMcp } = await import('../helpers/mcp-client.js');
    const target = world.serials[1]!;
    const other = await startMcp([], {
      env: {
        ...(world.server.env as Record<string, string>),
        DROIDBUS_HOME: world.home,
        DROIDBUS_CAPTURE_DEADLINE_MS: '1500',
      },
    });
    try {
      const runtime = await world.mcp.client.readResource({ uri: 'droidbus://runtime' });
      const holderPid = (JSON.parse((runtime.contents[0] as { text: string }).text) as { pid: number }).pid;
      await world.shell(target, 'sim latency dump 6000');
      const holding = world.call('get_ui_hierarchy', { device_serial: target });
      // The first process holds the device's lock once its dump is under way.
      await eventually(async () => ((await world.simStats(target)).dumps > 0 ? true : undefined));
      await eventually(() => {
        const dir = path.join(world.home, 'ui-automator-locks');
        return Promise.resolve(
          existsSync(dir) && readdirSync(dir).some((f) => f.endsWith('.lock')) ? true : undefined,
        );
      });
      const refused = await other.client.callTool({
        name: 'get_ui_hierarchy',
        arguments: { device_serial: target },
      });
      expect(refused.isError).toBe(true);
      const text = (refused.content as { text: string }[])[0]!.text;
      expect(text).toContain('another droidbus process');
      expect(text).toContain(`pid ${holderPid}`);
      expect((await holding).isError).toBe(false);
    } finally {
      await world.shell(target, 'sim latency dump 60');
      await other.close();
    }
  });

  it('gives a clear error before the deadline when the device goes away mid-capture', async () => {
    const target = world.serials[1]!;
    await world.shell(target, 'sim latency dump 8000');
    const started = Date.now();
    const pending = world.call('get_ui_hierarchy', { device_serial: target });
    await eventually(async () => ((await world.simStats(target)).dumps > 0 ? true : undefined));
    await world.server.adb(['disconnect', target]);
    const r = await pending;
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/no longer connected|not connected|offline/i);
    expect(Date.now() - started).toBeLessThan(30_000);
  });
});
