/**
 * Inside a WebView through MCP (issue 73): MCP client → built droidbus → real adb server → sim
 * device whose WebView runs in a real Chromium. list_webviews finds the debuggable build's page and
 * where it is on screen; get_webview_page reads the sign-in form as rows whose screen points land on
 * the same elements when the page itself is asked (elementFromPoint, through chrome-remote-interface).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import CDP from 'chrome-remote-interface';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebRow } from '../../src/bus/messages/web.js';
import { SAMPLE_PACKAGE } from '../../src/sim/index.js';
import { debugSampleApk, SAMPLE_WEB_ACTIVITY, WEBVIEW_DEBUG_PACKAGE } from '../helpers/webview-apk.js';
import { startDeviceWorld, type DeviceWorld } from '../helpers/device-world.js';
import { tempDir } from '../helpers/paths.js';
import { until } from '../helpers/until.js';

const DEBUG_PACKAGE = WEBVIEW_DEBUG_PACKAGE;
const WEB = SAMPLE_WEB_ACTIVITY;
const dir = tempDir('droidbus-webview-');
let world: DeviceWorld;
let serial: string;

beforeAll(async () => {
  world = await startDeviceWorld({ devices: 1, dumpLatencyMs: 20 }, ['--toolsets', 'core,ui,web']);
  serial = world.serials[0]!;
  const apk = join(dir.dir, 'debug.apk');
  writeFileSync(apk, debugSampleApk());
  expect((await world.server.adb(['-s', serial, 'install', apk])).stdout).toContain('Success');
}, 120_000);

afterAll(async () => {
  await world?.stop();
  dir.remove();
});

describe('WebViews through MCP', () => {
  it("says there is none while only a release build's WebView is open, and why", async () => {
    await world.shell(serial, `am start -W -n ${SAMPLE_PACKAGE}/${WEB}`);
    const r = await world.call('list_webviews', { device_serial: serial });
    expect(r.isError, r.text).toBe(false);
    expect(r.structured['webviews']).toEqual([]);
    expect(r.text).toContain('setWebContentsDebuggingEnabled(true)');
    const page = await world.call('get_webview_page', { device_serial: serial });
    expect(page.isError).toBe(true);
    expect(page.text).toContain('no app on');
  });

  it("lists the debug build's page and reads its form as rows that land on the elements", async () => {
    await world.shell(serial, `am start -W -n ${DEBUG_PACKAGE}/${WEB}`);
    const pid = (await world.shell(serial, `pidof ${DEBUG_PACKAGE}`)).trim();
    // The native screen shows the page as its accessibility echo, and says which rows are web.
    const screen = await world.call('get_ui_hierarchy', { device_serial: serial });
    const web = screen.structured['web'] as { tree_path: string; page_rows: number }[];
    expect(web, screen.text).toHaveLength(1);
    expect(web[0]!.page_rows).toBeGreaterThanOrEqual(5);
    expect(screen.text).toMatch(
      new RegExp(
        `web: the rows under ${web[0]!.tree_path.replace(/\./g, '\\.')} are the web page in the WebView at \\[0,\\d+\\]\\[\\d+,\\d+\\]`,
      ),
    );
    expect(screen.text).toMatch(/EditText id=email \{click,edit\}/);
    const listed = await until(
      'the page in list_webviews',
      async () => {
        const r = await world.call('list_webviews', { device_serial: serial });
        const views = r.structured['webviews'] as { pages: { title: string }[] }[];
        return views[0]?.pages[0]?.title === 'Sign in (web)' ? r : undefined;
      },
      20_000,
    );
    const view = (
      listed.structured['webviews'] as {
        socket: string;
        package: string;
        pages: { id: string; visible: boolean; bounds: [number, number, number, number] }[];
      }[]
    )[0]!;
    expect(view.socket).toBe(`webview_devtools_remote_${pid}`);
    expect(view.package).toBe(DEBUG_PACKAGE);
    expect(view.pages[0]!.visible).toBe(true);
    expect(listed.text).toContain(`webview_devtools_remote_${pid} — ${DEBUG_PACKAGE}`);

    const r = await world.call('get_webview_page', { device_serial: serial });
    expect(r.isError, r.text).toBe(false);
    const rows = r.structured['rows'] as WebRow[];
    const byName = (role: string, name: string): WebRow => {
      const row = rows.find((x) => x.role === role && x.name === name);
      expect(row, `${role} "${name}" in\n${r.text}`).toBeDefined();
      return row!;
    };
    byName('heading', 'Sign in');
    const email = byName('textbox', 'Email');
    const password = byName('textbox', 'Password');
    const submit = byName('button', 'Continue');
    byName('link', 'Forgot your password?');
    expect(email.id).toBe('#email');
    expect(password.value).toBeNull();
    expect(email.value).toBe('');
    // A field's label is its name, not a row of its own.
    expect(
      rows.filter((x) => x.name === 'Email'),
      r.text,
    ).toHaveLength(1);
    expect(r.text).toMatch(/\[\d+\] textbox "Email" #email \(\d+,\d+\)/);
    // Each row is inside the WebView, in order down the page.
    const [wl, wt, wr, wb] = view.pages[0]!.bounds;
    for (const row of [email, password, submit]) {
      expect(row.on_screen).toBe(true);
      expect(row.bounds[0]).toBeGreaterThanOrEqual(wl);
      expect(row.bounds[1]).toBeGreaterThanOrEqual(wt);
      expect(row.bounds[2]).toBeLessThanOrEqual(wr);
      expect(row.bounds[3]).toBeLessThanOrEqual(wb);
    }
    expect(email.bounds[1]).toBeLessThan(password.bounds[1]);
    expect(password.bounds[1]).toBeLessThan(submit.bounds[1]);

    // The page itself agrees: each row's centre, mapped back to CSS pixels, hits that element.
    const forwarded = await world.server.adb([
      '-s',
      serial,
      'forward',
      'tcp:0',
      `localabstract:${view.socket}`,
    ]);
    const port = Number(forwarded.stdout.trim());
    const client = await CDP({ host: '127.0.0.1', port, target: view.pages[0]!.id, local: true });
    try {
      const scale = r.structured['scale'] as number;
      for (const [row, id] of [
        [email, 'email'],
        [password, 'password'],
        [submit, 'submit'],
      ] as const) {
        const x = ((row.bounds[0] + row.bounds[2]) / 2 - wl) / scale;
        const y = ((row.bounds[1] + row.bounds[3]) / 2 - wt) / scale;
        const hit = await client.Runtime.evaluate({
          expression: `document.elementFromPoint(${x}, ${y})?.id`,
          returnByValue: true,
        });
        expect(hit.result.value).toBe(id);
      }
    } finally {
      await client.close();
      await world.server.adb(['-s', serial, 'forward', '--remove', `tcp:${port}`]);
    }
  }, 60_000);

  it('fills and submits the web form with the ordinary UI tools, and the console is in logcat', async () => {
    expect((await world.call('start_logcat', { device_serial: serial, from_now: true })).isError).toBe(false);
    const read = async (): Promise<WebRow[]> => {
      const r = await world.call('get_webview_page', { device_serial: serial });
      expect(r.isError, r.text).toBe(false);
      return r.structured['rows'] as WebRow[];
    };
    const find = (rows: WebRow[], role: string, name: string): WebRow =>
      rows.find((x) => x.role === role && x.name === name)!;
    const fill = async (email: string, password: string | null): Promise<string> => {
      const r = await world.call('ui_fill_input', {
        device_serial: serial,
        fields: [
          { field: 'Email', text: email },
          ...(password !== null ? [{ field: 'Password', text: password }] : []),
        ],
        submit: 'Continue',
      });
      expect(r.isError, r.text).toBe(false);
      return r.text;
    };

    // Not an email: the page refuses it and says so on its console.
    expect(await fill('ada', null)).toMatch(/Filled #email \(3 characters\); then tapped "Continue"/);
    const refused = await until(
      'the console error in logcat',
      async () => {
        const r = await world.call('get_logcat_entries', { device_serial: serial, tag: 'chromium' });
        return r.text.includes('sign-in refused: not an email address: ada') ? r : undefined;
      },
      10_000,
    );
    expect(refused.text).toMatch(
      /\[INFO:CONSOLE\(\d+\)\] "sign-in refused: not an email address: ada", source: file:/,
    );

    // Filled again (the old text cleared first, through the device's keys), with the password.
    const done = await fill('ada@example.com', 's3cret');
    expect(done).toContain('"Signed in as ada@example.com" text');
    const after = await read();
    expect(find(after, 'text', 'Signed in as ada@example.com')).toBeDefined();
    expect(find(after, 'textbox', 'Email').value).toBe('ada@example.com');
    expect(find(after, 'textbox', 'Password').value).toBeNull();

    // The help link is a row of the screen like any other: tapped by its tree path.
    const screen = await world.call('find_ui_elements', {
      device_serial: serial,
      text: 'Forgot your password?',
    });
    const link = (screen.structured['matches'] as { tree_path: string }[])[0]!;
    const tapped = await world.call('ui_tap_element', { device_serial: serial, tree_path: link.tree_path });
    expect(tapped.isError, tapped.text).toBe(false);
    // The help link's handler throws: an uncaught error, a crash group of its own kind.
    const crashes = await until(
      'the JavaScript error as a crash',
      async () => {
        const r = await world.call('get_crash_logs', { device_serial: serial });
        const list = r.structured['crashes'] as { kind: string }[];
        return list.some((c) => c.kind === 'js') ? r : undefined;
      },
      10_000,
    );
    const js = (
      crashes.structured['crashes'] as {
        kind: string;
        package: string;
        exception: string;
        message: string;
        frames: string[];
        group_id: string;
      }[]
    ).find((c) => c.kind === 'js')!;
    expect(js).toMatchObject({
      package: DEBUG_PACKAGE,
      exception: 'TypeError',
      message: 'help is not available offline',
    });
    expect(js.frames[0]).toMatch(/sign-in\.html:\d+$/);
    expect(crashes.text).toMatch(/\[js\] .*TypeError/);
    const groups = crashes.structured['groups'] as { id: string; title: string }[];
    expect(groups.find((g) => g.id === js.group_id)?.title).toMatch(
      /^TypeError in sign-in\.html:\d+ \(JavaScript\)$/,
    );
  }, 60_000);
});
