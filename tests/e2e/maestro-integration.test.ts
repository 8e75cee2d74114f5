/**
 * Maestro's own IntegrationTest.kt (mobile-dev-inc/maestro v1.39.10) as the oracle for run_flow
 * (issue 71): each case's flow, byte for byte (tests/fixtures/maestro/integration/SOURCES.md), runs
 * on a simulated device showing the case's fake screen — its elements written as a uiautomator dump
 * and loaded with `sim screen load`, on a display of FakeDriver's grid (540 × 960) — and what the
 * device received must be what Maestro's FakeDriver recorded: the same taps at the same points, the
 * same keys and text, or the same failure. Built CLI → real adb server → `droidbus sim`.
 *
 * A fake element's onClick is the next screen, shown when a tap lands inside it (`sim screen load …
 * --on-tap`); a screen that changes on every read (case 113's mutatingText) is not modelled. Cases
 * that need JavaScript are refused by name, as droidbus refuses it.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyCodeOf } from '../../src/actors/device/ui/android-keycodes.js';
import { linkLabelledApk } from '../helpers/aapt2-apk.js';
import { startDeviceWorld, type DeviceWorld } from '../helpers/device-world.js';
import { ROOT, tempDir } from '../helpers/paths.js';

const FIXTURES = path.join(ROOT, 'tests', 'fixtures', 'maestro', 'integration');
/** FakeDriver.deviceInfo: the grid Maestro's fake device taps on. */
const GRID = { width: 540, height: 960 };

/** A FakeDriver element: `Bounds(left, top, right, bottom)`, its children inside. */
interface Fake {
  id?: string;
  text?: string;
  bounds: [number, number, number, number];
  clickable?: boolean;
  enabled?: boolean;
  children?: Fake[];
}

/** A screen a tap inside `on` (FakeDriver's onClick of the element there) shows next. */
interface Then {
  on: [number, number, number, number];
  screen: Fake[];
}

function attr(v: string): string {
  return v.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;').replace(/\n/g, '&#10;');
}

function node(e: Fake): string {
  const [l, t, r, b] = e.bounds;
  return `<node index="0" text="${attr(e.text ?? '')}" resource-id="${attr(e.id ?? '')}" class="android.view.View" package="com.example.app" content-desc="" checkable="false" checked="false" clickable="${e.clickable ?? false}" enabled="${e.enabled ?? true}" focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[${l},${t}][${r},${b}]">${(e.children ?? []).map(node).join('')}</node>`;
}

/** The fake screen as a uiautomator dump: the elements under one root as large as the grid. */
function dumpOf(elements: Fake[]): string {
  return `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0">${node({
    bounds: [0, 0, GRID.width, GRID.height],
    children: elements,
  })}</hierarchy>`;
}

let world: DeviceWorld;
let serial: string;
const work = tempDir('droidbus-maestro-it-');

beforeAll(async () => {
  world = await startDeviceWorld({ devices: 1, dumpLatencyMs: 20 });
  serial = world.serials[0]!;
  // FakeDriver's grid is the display droidbus reads (wm size), before its first capture.
  await world.shell(serial, `wm size ${GRID.width}x${GRID.height}`);
}, 120_000);

afterAll(async () => {
  await world?.stop();
  work.remove();
});

interface Outcome {
  failed: { reason: string } | null;
  /** What the device received, as `input` recorded it: `tap 50 50`, `keyevent 4`, `text Hello`. */
  inputs: string[];
}

let seq = 0;

/** Every input the device received (`sim stats`), as `input` recorded it: `tap 50 50`. */
async function deviceInputs(): Promise<string[]> {
  const stats = JSON.parse(await world.shell(serial, 'sim stats')) as { inputs: (string | number)[][] };
  return stats.inputs.map((i) => i.join(' '));
}

/** A fake screen as a dump on the device; its path there. */
async function pushScreen(screen: Fake[]): Promise<string> {
  const local = path.join(work.dir, `screen-${++seq}.xml`);
  mkdirSync(work.dir, { recursive: true });
  writeFileSync(local, dumpOf(screen));
  const remote = `/data/local/tmp/maestro-case-${seq}.xml`;
  expect((await world.server.adb(['-s', serial, 'push', local, remote])).code).toBe(0);
  return remote;
}

/** Runs a case's flow on its fake screen; what failed, and the inputs the device received. */
async function runCase(
  flow: string,
  screen: Fake[],
  env: Record<string, string> = {},
  then: Then[] = [],
): Promise<Outcome> {
  const onTap: string[] = [];
  for (const next of then) {
    onTap.push('--on-tap', `${next.on.join(',')}=${await pushScreen(next.screen)}`);
  }
  await world.shell(serial, ['sim screen load', await pushScreen(screen), ...onTap].join(' '));
  const before = (await deviceInputs()).length;
  const r = await world.call('run_flow', {
    yaml: readFileSync(path.join(FIXTURES, `${flow}.yaml`), 'utf8'),
    device_serials: [serial],
    env,
    lookup_timeout_ms: 2_000,
  });
  expect(r.isError, r.text).toBe(false);
  const device = (r.structured['devices'] as { failed: { reason: string } | null }[])[0]!;
  return { failed: device.failed, inputs: (await deviceInputs()).slice(before) };
}

/** run_flow's refusal of a flow before anything runs (a command or a script droidbus does not run). */
async function refusal(flow: string): Promise<string> {
  const r = await world.call('run_flow', {
    yaml: readFileSync(path.join(FIXTURES, `${flow}.yaml`), 'utf8'),
    device_serials: [serial],
  });
  expect(r.isError).toBe(true);
  return r.text;
}

describe("Maestro's IntegrationTest cases, on the simulator", () => {
  it('Case 001 - Assert element visible by id', async () => {
    const o = await runCase('001_assert_visible_by_id', [{ id: 'element_id', bounds: [0, 0, 100, 100] }]);
    expect(o).toEqual({ failed: null, inputs: [] });
  });

  it('Case 002 - Assert element visible by text', async () => {
    const o = await runCase('002_assert_visible_by_text', [
      { text: 'Element Text', bounds: [0, 0, 100, 100] },
    ]);
    expect(o).toEqual({ failed: null, inputs: [] });
  });

  it('Case 004 - Assert visible - no element with id', async () => {
    const o = await runCase('004_assert_no_visible_element_with_id', [
      { id: 'another_id', bounds: [0, 0, 100, 100] },
    ]);
    expect(o.failed?.reason).toContain('element_id');
  });

  it('Case 005 - Assert visible - no element with text', async () => {
    const o = await runCase('005_assert_no_visible_element_with_text', [
      { text: 'Some other text', bounds: [0, 0, 100, 100] },
    ]);
    expect(o.failed).not.toBeNull();
  });

  it('Case 008 - Tap on element - Retry if no UI change', async () => {
    const o = await runCase('008_tap_on_element', [{ text: 'Primary button', bounds: [0, 0, 100, 100] }]);
    expect(o).toEqual({ failed: null, inputs: ['tap 50 50', 'tap 50 50'] });
  });

  it('Case 009 - Skip optional elements', async () => {
    const o = await runCase('009_skip_optional_elements', [
      { text: 'Non Optional', bounds: [0, 0, 100, 100] },
    ]);
    expect(o).toEqual({ failed: null, inputs: [] });
  });

  it('Case 011 - Back press', async () => {
    const o = await runCase('011_back_press', []);
    expect(o).toEqual({ failed: null, inputs: ['keyevent KEYCODE_BACK'] });
  });

  it('Case 012 - Input text', async () => {
    const o = await runCase('012_input_text', []);
    expect(o).toEqual({ failed: null, inputs: ['text Hello%sWorld', 'text user@example.com'] });
  });

  it('Case 036 - Erase text with numbers', async () => {
    const o = await runCase('036_erase_text', []);
    expect(o.failed).toBeNull();
    // FakeDriver's text is then "Hello": six characters deleted from the end of the field.
    expect(o.inputs).toEqual([
      'text Hello%sWorld',
      `keyevent KEYCODE_MOVE_END ${Array.from({ length: 6 }, () => 'KEYCODE_DEL').join(' ')}`,
    ]);
  });

  it('Case 014 - Tap on point', async () => {
    const o = await runCase('014_tap_on_point', []);
    // The screen does not change: Maestro taps twice, its test asserts the point (assertHasEvent).
    expect(o.failed).toBeNull();
    expect(o.inputs).toContain('tap 100 200');
  });

  it('Case 016 - Multiline text', async () => {
    const o = await runCase('016_multiline_text', [
      { text: 'Hello World\nHere is a second line', bounds: [0, 0, 100, 100] },
    ]);
    expect(o).toEqual({ failed: null, inputs: ['tap 50 50'] });
  });

  it('Case 017 - Swipe', async () => {
    const o = await runCase('017_swipe', []);
    expect(o).toEqual({ failed: null, inputs: ['swipe 100 500 100 200 3000'] });
  });

  it('Case 029 - Long press on element', async () => {
    // AndroidDriver.longPress: `input swipe x y x y 3000`; the screen does not change, so once more.
    const o = await runCase('029_long_press_on_element', [
      { text: 'Primary button', bounds: [0, 0, 100, 100] },
    ]);
    expect(o).toEqual({ failed: null, inputs: ['swipe 50 50 50 50 3000', 'swipe 50 50 50 50 3000'] });
  });

  it('Case 030 - Long press on point', async () => {
    const o = await runCase('030_long_press_on_point', []);
    expect(o).toEqual({ failed: null, inputs: ['swipe 100 200 100 200 3000', 'swipe 100 200 100 200 3000'] });
  });

  it('Case 019 - Do not wait until visible', async () => {
    const o = await runCase('019_dont_wait_for_visibility', [
      { text: 'Button', bounds: [0, 0, 100, 100] },
      { bounds: [0, 0, 100, 100] },
    ]);
    // retryTapIfNoChange: false — one tap though the screen did not change.
    expect(o).toEqual({ failed: null, inputs: ['tap 50 50'] });
  });

  it('Case 034 - Press key: every key Maestro names, its name in any case', async () => {
    const o = await runCase('034_press_key', []);
    // Lock and Power leave the screen as a phone would (off, or on again): wake it for the next case.
    await world.shell(serial, 'input keyevent KEYCODE_WAKEUP');
    expect(o.failed).toBeNull();
    // AndroidDriver.pressKey's codes for the flow's 29 keys, in its order — but Tab: Maestro sends 62
    // (KEYCODE_SPACE, a space typed), droidbus KEYCODE_TAB (61), the key the name says.
    const maestro = [66, 67, 3, 4, 24, 25, 276, 19, 20, 21, 22, 23, 85, 86, 87, 88, 89, 90, 26, 62, 280, 281];
    const tab = maestro.indexOf(62);
    const expected = [
      ...maestro.slice(0, tab),
      61,
      ...maestro.slice(tab + 1),
      96,
      97,
      82,
      178,
      243,
      244,
      245,
    ];
    const sent = o.inputs.map((i) => {
      const [verb, key] = i.split(' ') as [string, string];
      return verb === 'keyevent' ? keyCodeOf(key.replace(/^KEYCODE_/, '')) : i;
    });
    expect(sent).toEqual(expected);
  });

  it('Case 072 - Assert element visible by id: the deepest of nested matches is tapped', async () => {
    const o = await runCase('072_searchDepthFirst', [
      { text: 'Element', bounds: [0, 0, 100, 100], children: [{ text: 'Element', bounds: [0, 0, 50, 50] }] },
      { text: 'Element', bounds: [0, 100, 100, 200] },
    ]);
    expect(o.failed).toBeNull();
    expect(o.inputs[0]).toBe('tap 25 25');
  });

  it('Case 068 - Erase all text', async () => {
    // Orchestra: eraseText with no count erases MAX_ERASE_CHARACTERS (50), the field's end first.
    const o = await runCase('068_erase_all_text', []);
    expect(o.failed).toBeNull();
    expect(o.inputs[0]).toBe('text Hello%sWorld');
    const keys = o.inputs.slice(1).flatMap((i) => i.split(' ').slice(1));
    expect(keys.filter((k) => k === 'KEYCODE_DEL')).toHaveLength(50);
    expect(keys.filter((k) => k !== 'KEYCODE_DEL')).toEqual(['KEYCODE_MOVE_END']);
  });

  it('Case 027 - Open link', async () => {
    // OpenLink("https://example.com"): a VIEW intent, which the device's browser takes.
    expect(await runCase('027_open_link', [])).toEqual({ failed: null, inputs: [] });
    expect(await world.shell(serial, 'dumpsys activity activities')).toMatch(
      /topResumedActivity=ActivityRecord\{\S+ u0 com\.android\.chrome\//,
    );
    expect(await world.shell(serial, 'uiautomator dump /dev/tty')).toContain('text="https://example.com"');
  });

  it('Case 008 - Tap on element - Do not retry if view hierarchy changed', async () => {
    const o = await runCase(
      '008_tap_on_element',
      [{ text: 'Primary button', bounds: [0, 0, 100, 100] }],
      {},
      [{ on: [0, 0, 100, 100], screen: [{ text: 'Updated text', bounds: [0, 0, 100, 100] }] }],
    );
    expect(o).toEqual({ failed: null, inputs: ['tap 50 50'] });
  });

  it('Case 048 - tapOn prioritises clickable elements', async () => {
    const o = await runCase(
      '048_tapOn_clickable',
      [
        { text: 'Button', bounds: [0, 0, 100, 100] },
        { text: 'Button', bounds: [0, 0, 200, 200], clickable: true },
      ],
      {},
      [
        {
          on: [0, 0, 200, 200],
          screen: [
            { text: 'Button', bounds: [0, 0, 100, 100] },
            { text: 'Clicked', bounds: [0, 0, 200, 200], clickable: true },
          ],
        },
      ],
    );
    expect(o).toEqual({ failed: null, inputs: ['tap 100 100'] });
  });

  it('Case 054 - Enabled state', async () => {
    const o = await runCase('054_enabled', [{ text: 'Button', bounds: [0, 0, 100, 100] }], {}, [
      { on: [0, 0, 100, 100], screen: [{ text: 'Button', bounds: [0, 0, 100, 100], enabled: false }] },
    ]);
    expect(o).toEqual({ failed: null, inputs: ['tap 50 50'] });
  });

  it('Case 073 - Handle linebreaks', async () => {
    const screen = (marks: string): Fake[] => [
      { text: `Indicator${marks}`, bounds: [0, 100, 100, 100] },
      { text: 'Hello\nWorld', bounds: [0, 0, 100, 100] },
    ];
    const o = await runCase('073_handle_linebreaks', screen(''), {}, [
      { on: [0, 0, 100, 100], screen: screen('!') },
      { on: [0, 0, 100, 100], screen: screen('!!') },
    ]);
    expect(o).toEqual({ failed: null, inputs: ['tap 50 50', 'tap 50 50'] });
  });

  it('Case 039 - Hide keyboard', async () => {
    // FakeDriver records HideKeyboard whatever shows; with no keyboard up, droidbus has nothing to send.
    expect((await runCase('039_hide_keyboard', [])).failed).toBeNull();
  });

  it('Case 059 - Do a directional swipe command', async () => {
    const o = await runCase('059_directional_swipe_command', []);
    expect(o.failed).toBeNull();
    // SwipeWithDirection(RIGHT, 500): left to right across the middle, in 500 ms.
    const [verb, x1, y1, x2, y2, ms] = o.inputs[0]!.split(' ').map((w, i) => (i === 0 ? w : Number(w)));
    expect(verb).toBe('swipe');
    expect(x2).toBeGreaterThan(x1 as number);
    expect(y2).toBe(y1);
    expect(ms).toBe(500);
  });

  it('Case 069 - Wait for animation to end', async () => {
    expect(await runCase('069_wait_for_animation_to_end', [])).toEqual({ failed: null, inputs: [] });
  });

  it('Case 078 - Swipe with relative coordinates', async () => {
    // widthGrid / 2, heightGrid * 30 / 100 → heightGrid * 60 / 100.
    const o = await runCase('078_swipe_relative', []);
    expect(o).toEqual({ failed: null, inputs: ['swipe 270 288 270 576 3000'] });
  });

  it('Case 026 - Assert not visible - no element with id, and - element with id is present', async () => {
    expect(await runCase('026_assert_not_visible', [{ id: 'another_id', bounds: [0, 0, 100, 100] }])).toEqual(
      {
        failed: null,
        inputs: [],
      },
    );
    const present = await runCase('026_assert_not_visible', [{ id: 'element_id', bounds: [0, 0, 100, 100] }]);
    expect(present.failed?.reason).toContain('still on screen');
  });

  it('Case 032 - Element index: its `${0 + 1}` is JavaScript, refused by name', async () => {
    expect(await refusal('032_element_index')).toContain('${0 + 1} is JavaScript');
  });

  it('refuses by name what droidbus does not run: cases 010, 018, 062, 063, 076, 079, 112, 118', async () => {
    const refused: Record<string, string> = {
      '010_scroll': 'scroll is a Maestro command droidbus does not run',
      '018_contains_child': 'selector field containsChild is not supported',
      '062_copy_paste_text': 'copyTextFrom is a Maestro command droidbus does not run',
      '063_js_injection': 'droidbus does not run',
      '079_scroll_until_visible':
        'scrollUntilVisible fields speed, visibilityPercentage are not supported by droidbus',
      '112_scroll_until_visible_center':
        'scrollUntilVisible fields centerElement, speed, visibilityPercentage are not supported',
      '118_scroll_until_visible_negative': 'scrollUntilVisible field speed is not supported by droidbus',
      '076_optional_assertion': 'assertTrue is a Maestro command droidbus does not run',
    };
    for (const [flow, words] of Object.entries(refused)) {
      expect(await refusal(flow), flow).toContain(words);
    }
  });

  it('Case 033 - Text with number', async () => {
    const o = await runCase('033_int_text', [{ text: '2022', bounds: [0, 0, 100, 100] }]);
    expect(o.failed).toBeNull();
    expect(o.inputs[0]).toBe('tap 50 50');
  });

  it('Case 038 - Partial id matching', async () => {
    const o = await runCase('038_partial_id', [
      { id: 'com.google.android.inputmethod.latin:id/another_keyboard_area', bounds: [0, 0, 100, 100] },
      { id: 'com.google.android.inputmethod.latin:id/keyboard_area', bounds: [0, 100, 100, 200] },
    ]);
    expect(o).toEqual({ failed: null, inputs: ['tap 50 150', 'tap 50 50'] });
  });

  it('Case 040 - Escape regex characters', async () => {
    const o = await runCase('040_escape_regex', [{ text: '+123456', bounds: [0, 0, 100, 100] }]);
    expect(o.failed).toBeNull();
    expect(o.inputs[0]).toBe('tap 50 50');
  });

  it('Case 042 - Extended waitUntil', async () => {
    const o = await runCase('042_extended_wait', [{ text: 'Item', bounds: [0, 0, 100, 100] }]);
    expect(o).toEqual({ failed: null, inputs: [] });
  });

  it('Case 042 - Extended waitUntil - element not found', async () => {
    // MaestroException.AssertionFailure: the first wait fails, nothing is sent.
    const o = await runCase('042_extended_wait', []);
    expect(o.inputs).toEqual([]);
    expect(o.failed?.reason).toMatch(/^no element matches text: "Item" after \d+ ms$/);
  });

  it('Case 055 - Tap on element - Compare regex', async () => {
    const o = await runCase('055_compare_regex', [
      { text: '(Secondary button)', bounds: [0, 100, 100, 200] },
    ]);
    expect(o.failed).toBeNull();
    expect(o.inputs[0]).toBe('tap 50 150');
  });

  it('Case 080 - Hierarchy pruning assert visible', async () => {
    const { width: w, height: h } = GRID;
    const o = await runCase('080_hierarchy_pruning_assert_visible', [
      {
        id: 'root',
        bounds: [0, 0, 500, 500],
        children: [
          { id: 'visible_1', bounds: [0, 0, 100, 100] },
          { id: 'visible_2', bounds: [w - 50, 0, w + 100, 100] },
          { id: 'visible_3', bounds: [0, h - 50, 100, h + 100] },
          { id: 'visible_4', bounds: [-100, -100, w + 200, h + 200] },
        ],
      },
    ]);
    expect(o).toEqual({ failed: null, inputs: [] });
  });

  it('Case 081 - Hierarchy pruning assert not visible', async () => {
    const { width: w, height: h } = GRID;
    const o = await runCase('081_hierarchy_pruning_assert_not_visible', [
      {
        id: 'root',
        bounds: [0, 0, 500, 500],
        children: [
          { id: 'not_visible_1', bounds: [-100, -100, 0, 0] },
          { id: 'not_visible_2', bounds: [w, 0, w + 100, 100] },
          { id: 'not_visible_3', bounds: [0, h, 100, h + 100] },
          { id: 'not_visible_4', bounds: [0, h - 10, 100, h + 100] },
        ],
      },
    ]);
    expect(o).toEqual({ failed: null, inputs: [] });
  });

  it('Case 091 - Assert visible by index', async () => {
    const o = await runCase('091_assert_visible_by_index', [
      { text: 'Item', bounds: [0, 0, 100, 100] },
      { text: 'Item', bounds: [0, 100, 100, 200] },
    ]);
    expect(o).toEqual({ failed: null, inputs: [] });
  });
});

describe("Maestro's IntegrationTest app cases, on the simulator", () => {
  const APP = 'com.example.app';
  /** The app's process id, or '' when it does not run. */
  const pidOf = async (): Promise<string> => (await world.shell(serial, `pidof ${APP}`)).trim();
  const run = async (flow: string) => {
    const r = await world.call('run_flow', {
      yaml: readFileSync(path.join(FIXTURES, `${flow}.yaml`), 'utf8'),
      device_serials: [serial],
      // The cases' app is none of a project's: the person named it, as `droidbus flow run` does.
      allow_foreign_package: true,
    });
    expect(r.isError, r.text).toBe(false);
    type Failed = { reason: string; index: number; line: number } | null;
    return (r.structured['devices'] as { failed: Failed }[])[0]!.failed;
  };

  beforeAll(async () => {
    // FakeDriver.addInstalledApp("com.example.app"): a real APK of that package, with a launcher activity.
    const apk = linkLabelledApk(path.join(work.dir, 'app'), { packageName: APP });
    expect((await world.server.adb(['-s', serial, 'install', apk])).stdout).toContain('Success');
  }, 60_000);

  it('Case 013 - Launch app: stopped, then launched', async () => {
    await world.shell(serial, `am start -W -n ${APP}/.Main`);
    const before = await pidOf();
    expect(before).not.toBe('');
    expect(await run('013_launch_app')).toBeNull();
    const after = await pidOf();
    expect(after).not.toBe('');
    expect(after).not.toBe(before);
  });

  it('Case 061 - Launch app without stopping it', async () => {
    const before = await pidOf();
    expect(before).not.toBe('');
    expect(await run('061_launchApp_withoutStopping')).toBeNull();
    expect(await pidOf()).toBe(before);
  });

  it('Case 043 - Stop app (and another, not installed)', async () => {
    expect(await pidOf()).not.toBe('');
    expect(await run('043_stop_app')).toBeNull();
    expect(await pidOf()).toBe('');
  });

  it('Case 116 - Kill app: a background app dies as the system kills it, an app in front is spared', async () => {
    // AndroidDriver.killApp is `am kill`, which kills background processes only
    // (ActivityManagerService.killBackgroundProcesses): with the app in front it keeps running.
    await world.shell(serial, `am start -W -n ${APP}/.Main`);
    const front = await pidOf();
    expect(front).not.toBe('');
    expect(await run('115_kill_app')).toBeNull();
    expect(await pidOf()).toBe(front);
    await world.shell(serial, 'input keyevent KEYCODE_HOME');
    expect(await run('115_kill_app')).toBeNull();
    expect(await pidOf()).toBe('');
  });

  it('Case 022 - Launch app that is not installed', async () => {
    // MaestroException.UnableToLaunchApp: the run fails at launchApp, naming the package.
    const failed = await run('022_launch_app_that_is_not_installed');
    expect(failed).toMatchObject({ index: 1, line: 3 });
    expect(failed?.reason).toContain('com.example.nonexistent is not installed on');
  });

  it('Case 021 - Launch app with clear state', async () => {
    await world.shell(serial, `am start -W -n ${APP}/.Main`);
    const before = await pidOf();
    expect(await run('021_launch_app_with_clear_state')).toBeNull();
    const after = await pidOf();
    expect(after).not.toBe('');
    expect(after).not.toBe(before);
  });
});

describe('a display whose size changes', () => {
  it('is read again: a flow taps at the percent of the new size once wm size changed', async () => {
    await world.shell(serial, 'wm size 720x1280');
    try {
      const flow =
        'appId: com.example.app\n---\n- tapOn:\n    point: 50%,50%\n    retryTapIfNoChange: false\n';
      const deadline = Date.now() + 30_000;
      let last = '';
      // The device actor reads `wm size` again beside a capture once its read is 5 s old.
      while (Date.now() < deadline) {
        const before = (await deviceInputs()).length;
        const r = await world.call('run_flow', { yaml: flow, device_serials: [serial] });
        expect(r.isError, r.text).toBe(false);
        last = (await deviceInputs()).slice(before).join(', ');
        if (last === 'tap 360 640') {
          break;
        }
      }
      expect(last).toBe('tap 360 640');
    } finally {
      await world.shell(serial, `wm size ${GRID.width}x${GRID.height}`);
    }
  }, 60_000);
});
