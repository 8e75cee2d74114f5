import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import type { SimDevice } from '../device-api.js';
import { runOn } from './collect-io.js';
import { createSimDevice } from '../control/index.js';
import { parseWindowDump } from '../../device/parsers/window-dump.js';
import { testIdentity } from '../../../tests/helpers/sim-identity.js';

const identity = testIdentity(7002);

let dev: SimDevice;
function device(latency = 5): SimDevice {
  dev = createSimDevice({ identity, logcatRate: 0, dumpLatencyMs: latency });
  return dev;
}
afterEach(() => dev?.close());

async function dump(d: SimDevice): Promise<string> {
  const r = await runOn(d, 'uiautomator dump /dev/tty');
  expect(r.code).toBe(0);
  expect(r.stdout.endsWith('</hierarchy>UI hierchary dumped to: /dev/tty\n')).toBe(true);
  return r.stdout.slice(0, r.stdout.indexOf('UI hierchary'));
}

function nodeAttrs(
  xml: string,
  match: (attrs: Record<string, string>) => boolean,
): Record<string, string> | undefined {
  for (const m of xml.matchAll(/<node ([^>]*?)\/?>/g)) {
    const attrs: Record<string, string> = {};
    for (const a of (m[1] ?? '').matchAll(/([\w-]+)="([^"]*)"/g)) {
      attrs[a[1] as string] = a[2] as string;
    }
    if (match(attrs)) {
      return attrs;
    }
  }
  return undefined;
}

function centre(xml: string, match: (attrs: Record<string, string>) => boolean): [number, number] {
  const attrs = nodeAttrs(xml, match);
  const b = /\[(\d+),(\d+)\]\[(\d+),(\d+)\]/.exec(attrs?.['bounds'] ?? '');
  if (b === null) {
    throw new Error('node not found');
  }
  return [Math.round((Number(b[1]) + Number(b[3])) / 2), Math.round((Number(b[2]) + Number(b[4])) / 2)];
}

const byId = (id: string) => (a: Record<string, string>) =>
  a['resource-id'] === `com.droidbus.sample:id/${id}`;

describe('the simulated screen', () => {
  it('shows the launcher until an app starts, with the sample app on it', async () => {
    const xml = await dump(device());
    expect(xml).toContain('package="com.google.android.apps.nexuslauncher"');
    expect(nodeAttrs(xml, (a) => a['text'] === 'Droidbus Sample')?.['clickable']).toBe('true');
  });

  it('writes attributes in uiautomator’s order to /sdcard/window_dump.xml by default', async () => {
    const d = device();
    const r = await runOn(d, 'uiautomator dump');
    expect(r.stdout).toBe('UI hierchary dumped to: /sdcard/window_dump.xml\n');
    const xml = (await runOn(d, 'cat /sdcard/window_dump.xml')).stdout;
    expect(
      xml.startsWith(
        "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation=\"0\"><node index=\"0\" text=",
      ),
    ).toBe(true);
    const first = /<node ([^>]*?)>/.exec(xml)?.[1] ?? '';
    expect([...first.matchAll(/([\w-]+)=/g)].map((m) => m[1])).toEqual([
      'index',
      'text',
      'resource-id',
      'class',
      'package',
      'content-desc',
      'checkable',
      'checked',
      'clickable',
      'enabled',
      'focusable',
      'focused',
      'scrollable',
      'long-clickable',
      'password',
      'selected',
      'bounds',
    ]);
  });

  it('leaves unimportant layouts out of a --compressed dump', async () => {
    const d = device();
    await runOn(d, 'am start -n com.droidbus.sample/.LoginActivity');
    const full = await dump(d);
    const compressed = (await runOn(d, 'uiautomator dump --compressed /dev/tty')).stdout;
    expect(full).toContain('class="android.widget.LinearLayout"');
    expect(compressed).not.toContain('class="android.widget.LinearLayout"');
    expect(compressed).toContain('resource-id="com.droidbus.sample:id/username"');
    expect(compressed.split('<node').length).toBeLessThan(full.split('<node').length);
  });

  it('signs in through the login form with taps and typed text, and shows an error when a field is empty', async () => {
    const d = device();
    await runOn(d, 'am start -n com.droidbus.sample/.LoginActivity');
    let xml = await dump(d);
    const [sx, sy] = centre(xml, byId('sign_in'));
    await runOn(d, `input tap ${sx} ${sy}`);
    xml = await dump(d);
    expect(nodeAttrs(xml, byId('error'))?.['text']).toBe('Enter a username and password');
    const [ux, uy] = centre(xml, byId('username'));
    await runOn(d, `input tap ${ux} ${uy}`);
    xml = await dump(d);
    expect(nodeAttrs(xml, byId('username'))?.['focused']).toBe('true');
    expect((await runOn(d, 'dumpsys input_method | grep mInputShown')).stdout.trim()).toBe(
      'mInputShown=true',
    );
    await runOn(d, 'input text alice%sb');
    await runOn(d, 'input keyevent KEYCODE_DEL');
    const [px, py] = centre(xml, byId('password'));
    await runOn(d, `input tap ${px} ${py} && input text s3cret`);
    xml = await dump(d);
    expect(nodeAttrs(xml, byId('username'))?.['text']).toBe('alice ');
    expect(nodeAttrs(xml, byId('password'))).toMatchObject({ text: '\u2022'.repeat(6), password: 'true' });
    await runOn(d, `input tap ${sx} ${sy}`);
    xml = await dump(d);
    expect(nodeAttrs(xml, byId('welcome'))?.['text']).toBe('Welcome, alice ');
    expect((await runOn(d, 'dumpsys window windows | grep mCurrentFocus')).stdout).toContain(
      'com.droidbus.sample/com.droidbus.sample.HomeActivity',
    );
  });

  it('records the last input with numbers as numbers', async () => {
    const d = device();
    await runOn(d, 'input tap 540 1200');
    const stats = JSON.parse((await runOn(d, 'sim stats')).stdout) as Record<string, unknown>;
    expect(stats['last_input']).toEqual(['tap', 540, 1200]);
    expect(stats['shell_commands']).toBe(2);
  });

  it('scrolls the home list with a swipe so that rows below the fold appear', async () => {
    const d = device();
    await runOn(d, 'am start -n com.droidbus.sample/.HomeActivity');
    let xml = await dump(d);
    expect(xml).not.toContain('text="Item 30"');
    await runOn(d, 'input swipe 540 2000 540 400 10; input swipe 540 2000 540 400 10');
    xml = await dump(d);
    expect(xml).toContain('text="Item 30"');
    expect(xml).not.toContain('text="Item 1"');
    const [x, y] = centre(xml, (a) => a['text'] === 'Item 30');
    await runOn(d, `input tap ${x} ${y}`);
    xml = await dump(d);
    expect(nodeAttrs(xml, byId('detail_title'))?.['text']).toBe('Item 30');
  });

  it('goes back with BACK (hiding the keyboard first) and home with HOME', async () => {
    const d = device();
    await runOn(d, 'am start -n com.droidbus.sample/.HomeActivity');
    await runOn(d, 'am start -n com.droidbus.sample/.DetailActivity');
    expect(await dump(d)).toContain('text="Details"');
    await runOn(d, 'input keyevent 4');
    expect(await dump(d)).toContain('text="Home"');
    await runOn(d, 'input keyevent KEYCODE_HOME');
    expect(await dump(d)).toContain('package="com.google.android.apps.nexuslauncher"');
    await runOn(d, 'am start -n com.droidbus.sample/.LoginActivity');
    const xml = await dump(d);
    const [ux, uy] = centre(xml, byId('username'));
    await runOn(d, `input tap ${ux} ${uy}; input keyevent BACK`);
    expect((await runOn(d, 'dumpsys input_method | grep mInputShown')).stdout.trim()).toBe(
      'mInputShown=false',
    );
    expect(await dump(d)).toContain('Sign in to Droidbus Sample');
  });

  it('crashes the app from the Crash button, logging FATAL EXCEPTION and recording the exit', async () => {
    const d = device();
    await runOn(d, 'am start -n com.droidbus.sample/.HomeActivity');
    const [x, y] = centre(await dump(d), byId('crash'));
    await runOn(d, `input tap ${x} ${y}`);
    expect((await runOn(d, 'pidof com.droidbus.sample')).code).toBe(1);
    const crash = (await runOn(d, 'logcat -d -b crash')).stdout;
    expect(crash).toContain(' E AndroidRuntime: FATAL EXCEPTION: main');
    expect(crash).toMatch(/E AndroidRuntime: Process: com\.droidbus\.sample, PID: \d+/);
    expect(crash).toContain('Caused by: a.d: No price for sku DEMO-42');
    expect((await runOn(d, 'dumpsys activity exit-info com.droidbus.sample')).stdout).toContain(
      'reason=4 (APP CRASH(EXCEPTION))',
    );
    expect(await dump(d)).toContain('package="com.google.android.apps.nexuslauncher"');
  });

  it('fails a dump that overlaps another with the already-registered error and counts it', async () => {
    const d = device(200);
    const [a, b] = await Promise.all([
      runOn(d, 'uiautomator dump /dev/tty'),
      runOn(d, 'uiautomator dump /dev/tty'),
    ]);
    expect(a.code).toBe(0);
    expect(b.code).not.toBe(0);
    expect(b.stderr).toMatch(
      /^java\.lang\.IllegalStateException: UiAutomationService android\.accessibilityservice\.IAccessibilityServiceClient\$Stub\$Proxy@[0-9a-f]+already registered!\n/,
    );
    const stats = JSON.parse((await runOn(d, 'sim stats')).stdout) as Record<string, number>;
    expect(stats['dumps']).toBe(2);
    expect(stats['overlapping_dumps']).toBe(1);
  });

  it('renders screencap -p as a PNG of the display size, to stdout or to a file', async () => {
    const d = device();
    const r = await runOn(d, 'screencap -p');
    const meta = await sharp(Buffer.from(r.bytes)).metadata();
    expect(meta).toMatchObject({ format: 'png', width: 1080, height: 2400 });
    await runOn(d, 'wm size 720x1600; screencap -p /sdcard/s.png');
    const file = await runOn(d, 'cat /sdcard/s.png');
    expect(await sharp(Buffer.from(file.bytes)).metadata()).toMatchObject({ width: 720, height: 1600 });
    expect((await runOn(d, 'wm size')).stdout).toBe('Physical size: 1080x2400\nOverride size: 720x1600\n');
  });

  it('makes a recorded dump the current screen with sim screen load, and resets it', async () => {
    const d = device();
    const recorded = `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0"><node index="0" text="" resource-id="" class="android.widget.FrameLayout" package="com.example.recorded" content-desc="" checkable="false" checked="false" clickable="false" enabled="true" focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[0,0][1080,2400]"><node index="0" text="Caf\u00e9 &amp; more" resource-id="com.example.recorded:id/b" class="android.widget.Button" package="com.example.recorded" content-desc="" checkable="false" checked="false" clickable="true" enabled="true" focusable="true" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[100,100][500,300]" /></node></hierarchy>`;
    d.fs.write(
      '/data/local/tmp/noisy.xml',
      new TextEncoder().encode('UI hierchary dumped to: /dev/tty\n' + recorded),
      0o100644,
      0,
    );
    expect((await runOn(d, 'sim screen load /data/local/tmp/noisy.xml')).code).toBe(0);
    expect((await runOn(d, 'sim screen load /data/local/tmp/missing.xml')).stderr).toBe(
      'sim: /data/local/tmp/missing.xml: No such file or directory\n',
    );
    d.fs.write('/data/local/tmp/rec.xml', new TextEncoder().encode(recorded), 0o100644, 0);
    expect((await runOn(d, 'sim screen load /data/local/tmp/rec.xml')).code).toBe(0);
    expect(await dump(d)).toBe(recorded);
    expect((await runOn(d, 'dumpsys window | grep mCurrentFocus')).stdout).toContain('com.example.recorded');
    await runOn(d, 'input tap 300 200');
    expect(JSON.parse((await runOn(d, 'sim stats')).stdout).last_input).toEqual(['tap', 300, 200]);
    expect((await sharp(Buffer.from((await runOn(d, 'screencap -p')).bytes)).metadata()).width).toBe(1080);
    await runOn(d, 'sim screen reset');
    expect(await dump(d)).toContain('nexuslauncher');
  });

  it('shows the screens given with --on-tap, in order, as taps land inside their bounds', async () => {
    const d = device();
    const screen = (text: string) =>
      `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0"><node index="0" text="${text}" resource-id="" class="android.widget.Button" package="com.example.app" content-desc="" checkable="false" checked="false" clickable="true" enabled="true" focusable="true" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[0,0][100,100]" /></hierarchy>`;
    for (const name of ['a', 'b', 'c']) {
      d.fs.write(`/data/local/tmp/${name}.xml`, new TextEncoder().encode(screen(name)), 0o100644, 0);
    }
    const load = 'sim screen load /data/local/tmp/a.xml --on-tap 0,0,100,100=/data/local/tmp/b.xml';
    expect((await runOn(d, `${load} --on-tap 0,0,50,50=/data/local/tmp/c.xml`)).code).toBe(0);
    await runOn(d, 'input tap 150 150');
    expect(await dump(d)).toBe(screen('a'));
    await runOn(d, 'input tap 75 75');
    expect(await dump(d)).toBe(screen('b'));
    await runOn(d, 'input tap 75 75');
    expect(await dump(d)).toBe(screen('b'));
    await runOn(d, 'input tap 25 25');
    expect(await dump(d)).toBe(screen('c'));
    expect((await runOn(d, `${load} --on-tap 0,0,100=/data/local/tmp/c.xml`)).stderr).toContain(
      'usage: sim screen load PATH [--on-tap L,T,R,B=NEXT]…',
    );
  });

  it.each([
    ['launcher-korean-cp949.xml', '오늘의 네컷 기록'],
    ['lingbook-list-gbk.xml', '新建'],
  ])(
    'loads %s (a dump saved in a legacy code page) with its text as a reader decodes it',
    async (file, text) => {
      const d = device();
      const bytes = readFileSync(new URL(`../../../tests/fixtures/ui/damaged/${file}`, import.meta.url));
      d.fs.write('/data/local/tmp/legacy.xml', new Uint8Array(bytes), 0o100644, 0);
      expect((await runOn(d, 'sim screen load /data/local/tmp/legacy.xml')).code).toBe(0);
      const dumped = await dump(d);
      expect(dumped).toContain(text);
      expect(dumped).not.toContain('\uFFFD');
    },
  );

  it('a screen that never goes idle makes uiautomator dump wait its idle timeout, then fail as AOSP prints it', async () => {
    const d = device();
    await runOn(d, 'sim latency idle 60');
    await runOn(d, 'am start -n com.droidbus.sample/.DetailActivity --es live true');
    const live = await runOn(d, 'uiautomator dump /dev/tty');
    expect([live.code, live.stdout, live.stderr]).toEqual([0, '', 'ERROR: could not get idle state.\n']);
    expect(JSON.parse((await runOn(d, 'sim stats')).stdout).never_idle).toBe(true);
    // The live screen draws its spinner; the same screen without --es live is idle.
    await runOn(d, 'input keyevent KEYCODE_BACK');
    await runOn(d, 'am start -n com.droidbus.sample/.DetailActivity');
    expect(await dump(d)).not.toContain('live_progress');
    await runOn(d, 'sim screen busy on');
    expect((await runOn(d, 'uiautomator dump /dev/tty')).stderr).toBe('ERROR: could not get idle state.\n');
    await runOn(d, 'sim screen busy off');
    expect(await dump(d)).toContain('Item 1');
  });

  it('loads an Appium UiAutomator2 page source and dumps its views as uiautomator dump writes them', async () => {
    const d = device();
    // A real page source (tests/fixtures/ui/SOURCES.md): 13 class-named elements, 1440x2392.
    const source = readFileSync(
      new URL('../../../tests/fixtures/ui/appium-classengage-login.xml', import.meta.url),
    );
    d.fs.write('/data/local/tmp/page.xml', new Uint8Array(source), 0o100644, 0);
    expect((await runOn(d, 'sim screen load /data/local/tmp/page.xml')).code).toBe(0);
    const xml = await dump(d);
    expect(
      xml.startsWith(
        "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation=\"0\"><node ",
      ),
    ).toBe(true);
    expect(xml.match(/<node /g)).toHaveLength(13);
    expect(xml).not.toContain('<android.widget');
    expect(xml).toContain(
      'text="Phone Number" resource-id="com.classengage.android:id/email_input" class="android.widget.EditText" package="com.classengage.android"',
    );
    expect(xml).toContain('bounds="[499,1264][1345,1422]"');
    expect((await runOn(d, 'dumpsys window | grep mCurrentFocus')).stdout).toContain(
      'com.classengage.android',
    );
  });

  it('types non-ASCII text only through ADBKeyBoard once it is the selected input method', async () => {
    const d = device();
    await runOn(d, 'am start -n com.droidbus.sample/.LoginActivity');
    const [x, y] = centre(await dump(d), byId('username'));
    await runOn(d, `input tap ${x} ${y}`);
    const refused = await runOn(d, "input text 'h\u00e9llo'");
    expect(refused.code).toBe(255);
    expect(refused.stderr).toContain("Exception occurred while executing 'text'");
    expect((await runOn(d, 'ime set com.android.adbkeyboard/.AdbIME')).stdout).toBe(
      'Input method com.android.adbkeyboard/.AdbIME selected for user #0\n',
    );
    const b64 = Buffer.from('h\u00e9llo \u4f60\u597d').toString('base64');
    const r = await runOn(d, `am broadcast -a ADB_INPUT_B64 --es msg ${b64}`);
    expect(r.stdout).toBe(
      'Broadcasting: Intent { act=ADB_INPUT_B64 flg=0x400000 (has extras) }\nBroadcast completed: result=0\n',
    );
    await runOn(d, "am broadcast -a ADB_INPUT_TEXT --es msg '!'");
    expect(nodeAttrs(await dump(d), byId('username'))?.['text']).toBe('h\u00e9llo \u4f60\u597d!');
  });

  it('shows a dialog from sim dialog as the active window, dismissed by its button', async () => {
    const d = device();
    await runOn(d, "sim dialog 'Sample keeps stopping' 'Close the app?' 'Close app' Wait");
    const xml = await dump(d);
    expect(nodeAttrs(xml, (a) => a['resource-id'] === 'android:id/alertTitle')?.['text']).toBe(
      'Sample keeps stopping',
    );
    expect((await runOn(d, 'dumpsys window windows | grep -c "ty=SYSTEM_DIALOG"')).stdout).toBe('1\n');
    const [x, y] = centre(xml, (a) => a['text'] === 'Wait');
    await runOn(d, `input tap ${x} ${y}`);
    expect(await dump(d)).toContain('nexuslauncher');
  });
});

describe('window names and windows as real builds print them', () => {
  const windowsOf = async (d: SimDevice) =>
    parseWindowDump((await runOn(d, 'dumpsys window windows')).stdout);

  it('prints the Vivo header form on a Vivo build, and droidbus reads the same windows from it', async () => {
    const aosp = createSimDevice({ identity, logcatRate: 0 });
    const vivo = createSimDevice({ identity: { ...identity, manufacturer: 'vivo' }, logcatRate: 0 });
    try {
      const text = (await runOn(vivo, 'dumpsys window windows')).stdout;
      expect(text).toMatch(/Window #\d+ Window\{[0-9a-f]+ u0 StatusBar type=2000\}:/);
      const strip = (ws: Awaited<ReturnType<typeof windowsOf>>) =>
        ws.windows.map((w) => [w.title, w.type, w.kind, w.visible]);
      expect(strip(await windowsOf(vivo))).toEqual(strip(await windowsOf(aosp)));
    } finally {
      aosp.close();
      vivo.close();
    }
  });

  it('prints the Android 4.0–4.1 form (no user, paused=) below API 17', async () => {
    const old = createSimDevice({ identity: { ...identity, sdk: 16, release: '4.1.2' }, logcatRate: 0 });
    try {
      const text = (await runOn(old, 'dumpsys window windows')).stdout;
      expect(text).toMatch(/Window #\d+ Window\{[0-9a-f]+ StatusBar paused=false\}:/);
      expect((await windowsOf(old)).windows.find((w) => w.kind === 'status_bar')?.title).toBe('StatusBar');
    } finally {
      old.close();
    }
  });

  it('shows a toast as a window of its own for its duration (SystemUI draws text toasts from Android 11)', async () => {
    const d = device();
    expect((await runOn(d, 'sim toast com.droidbus.sample Saved 60000')).code).toBe(0);
    const toast = (await windowsOf(d)).windows.find((w) => w.kind === 'toast');
    expect(toast).toMatchObject({
      title: 'Toast',
      package: 'com.android.systemui',
      type: 'TOAST',
      visible: true,
    });
    expect((await runOn(d, 'sim toast com.droidbus.sample Gone 0')).code).toBe(0);
    expect((await windowsOf(d)).windows.some((w) => w.kind === 'toast')).toBe(false);
    expect((await runOn(d, 'sim toast')).code).not.toBe(0);
  });
});
