/**
 * The simulator's WebView as a phone's, judged by the real adb client and a CDP client we did not
 * write (chrome-remote-interface) (issue 73): a debuggable build's WebActivity opens
 * `@webview_devtools_remote_<pid>` (listed in /proc/net/unix), `adb forward … localabstract:` reaches
 * it, its /json endpoints answer as a WebView's do, and its page is a real Chromium's. A release
 * build opens no socket.
 */
import { get } from 'node:http';
import CDP from 'chrome-remote-interface';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE_PACKAGE } from '../../src/sim/index.js';
import { debugSampleApk, SAMPLE_WEB_ACTIVITY, WEBVIEW_DEBUG_PACKAGE } from '../helpers/webview-apk.js';
import { startAdbServer, type AdbServer } from '../helpers/adb-server.js';
import { tempDir } from '../helpers/paths.js';
import { startSimFarm, type SimFarm } from '../helpers/sim-farm.js';
import { until } from '../helpers/until.js';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { ocrWords } from '../helpers/legibility.js';
import { parseUiDump } from '../../src/device/ui-dump/ui-parse.js';
import type { UiNode } from '../../src/device/ui-dump/ui-types.js';
import { uiFixtureText } from '../../src/device/ui-dump/test-fixtures.js';

const DEBUG_PACKAGE = WEBVIEW_DEBUG_PACKAGE;
const WEB = SAMPLE_WEB_ACTIVITY;
let server: AdbServer;
let farm: SimFarm;
let serial: string;
const dir = tempDir('droidbus-sim-webview-');

function getJson(port: number, path: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    get({ host: '127.0.0.1', port, path }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => {
        try {
          resolve(JSON.parse(body));
        } catch {
          reject(new Error(`not JSON: ${body.slice(0, 200)}`));
        }
      });
    }).on('error', reject);
  });
}

async function shell(command: string): Promise<string> {
  return (await server.adb(['-s', serial, 'shell', command])).stdout;
}

beforeAll(async () => {
  server = await startAdbServer();
  farm = await startSimFarm(server, { devices: 1 });
  serial = farm.devices[0]!.serial;
  const apk = join(dir.dir, 'debug.apk');
  writeFileSync(apk, debugSampleApk());
  expect((await server.adb(['-s', serial, 'install', apk])).stdout).toContain('Success');
}, 120_000);

afterAll(async () => {
  await farm?.stop();
  await server?.stop();
  dir.remove();
});

describe("a WebView's devtools socket", () => {
  it('is opened by a debuggable build only, and answers as a WebView does through adb forward', async () => {
    await shell(`am start -W -n ${SAMPLE_PACKAGE}/${WEB}`);
    expect(await shell('cat /proc/net/unix')).not.toContain('webview_devtools_remote');

    await shell(`am start -W -n ${DEBUG_PACKAGE}/${WEB}`);
    const pid = (await shell(`pidof ${DEBUG_PACKAGE}`)).trim();
    const unix = await shell('cat /proc/net/unix');
    expect(unix.split('\n')[0]).toBe('Num       RefCount Protocol Flags    Type St Inode Path');
    expect(unix).toMatch(
      new RegExp(
        `^0000000000000000: 00000002 00000000 00010000 0001 01 +\\d+ @webview_devtools_remote_${pid}$`,
        'm',
      ),
    );

    const forwarded = await server.adb([
      '-s',
      serial,
      'forward',
      'tcp:0',
      `localabstract:webview_devtools_remote_${pid}`,
    ]);
    const port = Number(forwarded.stdout.trim());
    expect(port).toBeGreaterThan(0);

    const version = (await getJson(port, '/json/version')) as Record<string, string>;
    expect(version['Android-Package']).toBe(DEBUG_PACKAGE);
    expect(version['User-Agent']).toMatch(/; wv\) AppleWebKit\/537\.36 .* Chrome\/[\d.]+ Mobile Safari/);

    const pages = await until(
      'the page in /json/list',
      async () => {
        const list = (await getJson(port, '/json/list')) as { title: string }[];
        return list.length === 1 && list[0]!.title === 'Sign in (web)' ? list : undefined;
      },
      20_000,
    );
    const page = pages[0] as unknown as {
      id: string;
      type: string;
      url: string;
      description: string;
      webSocketDebuggerUrl: string;
    };
    expect(page.type).toBe('page');
    expect(page.url).toMatch(/^file:\/\/.*sign-in\.html$/);
    expect(page.webSocketDebuggerUrl).toBe(`ws://127.0.0.1:${port}/devtools/page/${page.id}`);
    const place = JSON.parse(page.description) as Record<string, unknown>;
    expect(place).toMatchObject({
      attached: true,
      empty: false,
      never_attached: false,
      visible: true,
      screenX: 0,
    });

    // The page is a real engine's: a CDP client evaluates in it through the forwarded socket.
    const client = await CDP({ host: '127.0.0.1', port, target: page.id, local: true });
    try {
      const r = await client.Runtime.evaluate({
        expression:
          'JSON.stringify([document.querySelector("#email").placeholder, innerWidth, devicePixelRatio])',
        returnByValue: true,
      });
      const [placeholder, cssWidth, dpr] = JSON.parse(r.result.value as string) as [string, number, number];
      expect(placeholder).toBe('you@example.com');
      // The viewport is the WebView's width in CSS pixels (whole ones, as Chromium lays out).
      expect(Math.abs(cssWidth * dpr - (place['width'] as number))).toBeLessThan(dpr);
      expect(dpr).toBeGreaterThan(1);
    } finally {
      await client.close();
    }

    // The screenshot shows the page inside the WebView's bounds, drawn by the engine: OCR reads
    // the page's words there (the native view tree has none of them).
    await shell('screencap -p /sdcard/webview.png');
    const png = join(dir.dir, 'webview.png');
    await server.adb(['-s', serial, 'pull', '/sdcard/webview.png', png]);
    const region = await sharp(readFileSync(png))
      .extract({
        left: place['screenX'] as number,
        top: place['screenY'] as number,
        width: place['width'] as number,
        height: Math.min(place['height'] as number, 1200),
      })
      .png()
      .toBuffer();
    const words = await ocrWords(new Uint8Array(region));
    expect([...words]).toEqual(expect.arrayContaining(['continue', 'password', 'forgot']));
  }, 60_000);
});

/** The nodes under a dump's outermost WebView, as `class #id "text"` (flags when set), in order. */
function webEcho(dump: string): { rows: string[]; outer: UiNode; inner: UiNode | undefined } {
  const parsed = parseUiDump(dump);
  if (!parsed.ok) {
    throw new Error(parsed.error.message);
  }
  const nodes = parsed.value.nodes;
  const outer = nodes.find((n) => n.class === 'android.webkit.WebView')!;
  const rows: string[] = [];
  const walk = (n: UiNode): void => {
    for (const c of n.children.map((i) => nodes[i]!)) {
      const flags = [c.clickable && 'clickable', c.password && 'password', c.focused && 'focused']
        .filter(Boolean)
        .join(',');
      rows.push(
        `${c.class.replace(/^android\.(widget|view|webkit)\./, '')}${c.resource_id ? ` #${c.resource_id}` : ''} "${c.text}"${flags ? ` ${flags}` : ''}`,
      );
      walk(c);
    }
  };
  walk(outer);
  return { rows, outer, inner: outer.children.map((i) => nodes[i]!)[0] };
}

describe("a WebView's accessibility echo", () => {
  it('is in the UI dump as a phone prints it, and follows the page as the device input changes it', async () => {
    // The real capture the echo is modelled on: a login page in an app's WebView.
    const real = webEcho(
      `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0">${uiFixtureText('argent-webview-inapp-excerpt.xml')}</hierarchy>`,
    );
    expect(real.rows).toContain('EditText #password "" clickable,password');
    expect(real.rows).toContain('Button #login "Login" clickable');

    await shell(`am start -W -n ${DEBUG_PACKAGE}/${WEB}`);
    const dumped = async (): Promise<string> => shell('uiautomator dump /dev/tty');
    const first = webEcho(
      await until(
        'the echo',
        async () => ((await dumped()).includes('Use your Droidbus') ? dumped() : undefined),
        20_000,
      ),
    );
    // The same shape as the real one: the app's WebView, the root web area inside it (the page's
    // title, focusable, focused), then the page's nodes with Chromium's classes.
    for (const e of [real, first]) {
      expect(e.outer.focusable).toBe(false);
      expect(e.inner).toMatchObject({ class: 'android.webkit.WebView', focusable: true, focused: true });
      expect(e.inner!.bounds).toEqual(e.outer.bounds);
    }
    expect(first.inner!.text).toBe('Sign in (web)');
    expect(first.rows).toEqual([
      'WebView "Sign in (web)" focused',
      'TextView "Sign in"',
      'TextView #intro "Use your Droidbus account."',
      'View #login ""',
      'View "Email"',
      'EditText #email "" clickable',
      'View "Password"',
      'EditText #password "" clickable,password',
      'Button #submit "Continue" clickable',
      'TextView #status ""',
      'View #help "Forgot your password?" clickable',
    ]);

    // The ordinary device input reaches the page through the echo's bounds: tap a field, type, tap the button.
    const tree = parseUiDump(await dumped());
    if (!tree.ok) {
      throw new Error(tree.error.message);
    }
    const at = (id: string): string => {
      const n = tree.value.nodes.find((x) => x.resource_id === id)!;
      return `${n.center.x} ${n.center.y}`;
    };
    await shell(`input tap ${at('email')}`);
    await shell("input text 'ada@example.com'");
    await shell(`input tap ${at('password')}`);
    await shell("input text 'hunter22'");
    await shell(`input tap ${at('submit')}`);
    const after = webEcho(await dumped());
    expect(after.rows).toContain('EditText #email "ada@example.com" clickable');
    expect(after.rows).toContain('EditText #password "••••••••" clickable,password');
    expect(after.rows).toContain('TextView #status "Signed in as ada@example.com"');
  }, 60_000);
});
