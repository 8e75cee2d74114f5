/**
 * Device data is input, not a contract (issue 51): whatever a phone prints — attributes empty,
 * missing, unknown or twice, tag names in any script, numbers where text goes and text where numbers
 * go, 200 levels deep or 50,000 nodes wide — each parser answers what it could read, and every answer
 * built from it fits the schema droidbus promises for it (the bus's, and the tools' shaping on top).
 * A parser may refuse an input with its own error value; it may not throw, and no answer may fail
 * its schema. 10,000 generated inputs over UI dumps, window lists, logcat and dumpsys outputs.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { REQUESTS } from '../../src/bus/registry.js';
import { afterActionSchema } from '../../src/bus/messages/ui.js';
import { windowEntrySchema } from '../../src/bus/messages/extras.js';
import { logEntryWireSchema } from '../../src/bus/messages/logcat.js';
import { exitRecordWireSchema } from '../../src/bus/messages/app.js';
import { deviceInfoSchema } from '../../src/bus/messages/ui.js';
import { clickablesAnswer, findAnswer, hierarchyAnswer } from '../../src/actors/device/ui/ui-answers.js';
import { afterAction } from '../../src/actors/device/ui/ui-after.js';
import type { Capture } from '../../src/actors/device/ui/ui-capture.js';
import { displayBounds } from '../../src/actors/device/ui/ui-display.js';
import { parseUiDump } from '../../src/device/ui-dump/ui-parse.js';
import { screenHash } from '../../src/actors/device/ui/ui-screen-hash.js';
import { parseWindowDump, summarizeWindows } from '../../src/device/parsers/window-dump.js';
import { parseLogcat } from '../../src/actors/logcat/logcat-parse.js';
import { toWireEntry, toWireExit } from '../../src/actors/logcat/logcat-wire.js';
import { parseExitInfo } from '../../src/actors/logcat/exit-info.js';
import { parseBatteryLevel, parseResumedActivity, parseWm } from '../../src/device/parsers/device-facts.js';
import { withoutEmpty } from '../../src/mcp/compact.js';
import { getUiHierarchy } from '../../src/mcp/tools/ui-read.js';

const SEED = Number(process.env['PROPERTY_SEED']) || 51;

/** Fails with the schema's own words and the input that made it, so a failure can be replayed. */
function fits(schema: z.ZodType, value: unknown, input: string): void {
  const checked = schema.safeParse(value);
  if (!checked.success) {
    expect.fail(`${z.prettifyError(checked.error)}\n--- input ---\n${input.slice(0, 2000)}`);
  }
}

// ---- UI dumps ----

const ATTRS = [
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
  'visible-to-user',
  'bounds',
  'hint',
  'drawing-order',
  'display-id',
];

const xmlText = fc.oneof(
  fc.constant(''),
  fc.string({ maxLength: 12 }),
  fc.string({ unit: 'grapheme', maxLength: 8 }),
  fc.constantFrom(
    'true',
    'false',
    'TRUE',
    '1',
    'android.widget.Button',
    'a:id/x',
    '&amp;',
    '&#10;',
    '&bogus;',
    '<',
    '"',
  ),
);
const boundsText = fc.oneof(
  fc
    .tuple(
      fc.integer({ min: -5000, max: 5000 }),
      fc.integer({ min: -5000, max: 5000 }),
      fc.nat(5000),
      fc.nat(5000),
    )
    .map(([l, t, w, h]) => `[${l},${t}][${l + w},${t + h}]`),
  fc.constantFrom(
    '',
    '[0,0][0,0]',
    '[a,b][c,d]',
    '[1,2]',
    '[0,0][99999999999999,1]',
    '[5,5][1,1]',
    '0,0,10,10',
  ),
);
const attrValue = (name: string) => (name === 'bounds' ? boundsText : xmlText);
const attribute = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...ATTRS).chain((n) => attrValue(n).map((v) => [n, v] as const)) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('x-oem', 'näme', 'data-v', '属性'), xmlText) },
);
const escapeAttr = (v: string): string =>
  // Kept raw sometimes: the sanitizer has to cope with what a broken dumper writes.
  v.replace(/"/g, '&quot;');
const tagName = fc.oneof(
  { weight: 12, arbitrary: fc.constant('node') },
  { weight: 1, arbitrary: fc.constantFrom('nöde', '節点', 'view', 'android.widget.TextView') },
);

const { tree: nodeXml } = fc.letrec<{ tree: string }>((tie) => ({
  tree: fc
    .tuple(
      tagName,
      fc.array(attribute, { maxLength: 14 }),
      fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        fc.constant([] as string[]),
        fc.array(tie('tree'), { maxLength: 4 }),
      ),
    )
    .map(([tag, attrs, kids]) => {
      const a = attrs.map(([n, v]) => ` ${n}="${escapeAttr(v)}"`).join('');
      return kids.length === 0 ? `<${tag}${a} />` : `<${tag}${a}>${kids.join('')}</${tag}>`;
    }),
}));

const dumpXml = fc
  .tuple(
    fc.constantFrom('0', '1', '3', '', 'x', '9'),
    fc.array(nodeXml, { minLength: 0, maxLength: 3 }),
    fc.boolean(),
  )
  .map(
    ([rotation, roots, prolog]) =>
      `${prolog ? "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>" : ''}<hierarchy rotation="${rotation}">${roots.join('')}</hierarchy>`,
  );

const REAL_WINDOWS = (() => {
  const { windows, focused } = parseWindowDump(
    readFileSync(new URL('../fixtures/windows/android11-anr-dialog-appium.txt', import.meta.url), 'utf8'),
  );
  return { windows, focused, ...summarizeWindows(windows) };
})();

const rowsOutput = (getUiHierarchy.output as unknown as z.ZodObject).pick({ rows: true });

function checkDump(xml: string, display: boolean): void {
  const parsed = parseUiDump(xml);
  if (!parsed.ok) {
    // Refused with its own error, never a throw.
    expect(parsed.error.message.length).toBeGreaterThan(0);
    return;
  }
  const tree = parsed.value;
  if (display) {
    tree.display = displayBounds({ width: 1080, height: 2400 }, tree.rotation);
  }
  const cap: Capture = { tree, hash: screenHash(tree), reader: 'uiautomator-dump', at: Date.now(), ms: 1 };
  for (const p of [
    { max_rows: 80, include_bars: false, tree: false },
    { max_rows: 500, include_bars: true, tree: true },
  ]) {
    // With the window manager's list of a real device (the Android 11 ANR capture), and without one.
    const h = hierarchyAnswer(cap, p, display ? REAL_WINDOWS : null);
    fits(REQUESTS['device.ui_hierarchy'].response, h, xml);
    fits(rowsOutput, { rows: h.rows.map((r) => withoutEmpty(r)) }, xml);
  }
  fits(REQUESTS['device.ui_clickables'].response, clickablesAnswer(cap, 80), xml);
  for (const query of [
    { clickable: true },
    { text_contains: 'a' },
    { class_name: 'Button' },
    { resource_id: 'x' },
  ]) {
    fits(REQUESTS['device.ui_find'].response, findAnswer(cap, { query, max_results: 20 }), xml);
  }
  fits(afterActionSchema, afterAction(cap, cap), xml);
  fits(afterActionSchema, afterAction(null, cap), xml);
}

describe('UI dumps of any shape', () => {
  it('4,000 generated dumps: every answer fits its schema', () => {
    fc.assert(
      fc.property(dumpXml, fc.boolean(), (xml, display) => checkDump(xml, display)),
      { numRuns: 4000, seed: SEED },
    );
  });

  it('a dump with every attribute empty, and nodes with no attribute or only a package', () => {
    const node = (attrs: string, kids = ''): string => `<node ${attrs}>${kids}</node>`;
    const empty = ATTRS.map((a) => `${a}=""`).join(' ');
    checkDump(`<hierarchy rotation="0">${node(empty, node(empty) + node(''))}</hierarchy>`, true);
    checkDump(
      `<hierarchy rotation="0">${node('class="" text="" bounds="[0,0][1080,2400]"', node('package="p"'))}</hierarchy>`,
      false,
    );
  });

  it('200 levels deep, and 50,000 nodes wide (cut at the node limit and saying so)', () => {
    let deep = '<node class="android.widget.TextView" text="leaf" bounds="[0,0][10,10]" />';
    for (let i = 0; i < 200; i++) {
      deep = `<node class="android.widget.FrameLayout" bounds="[0,0][1080,2400]">${deep}</node>`;
    }
    checkDump(`<hierarchy rotation="0">${deep}</hierarchy>`, true);
    const wide = Array.from(
      { length: 50_000 },
      (_, i) =>
        `<node class="android.widget.TextView" text="item ${i}" clickable="${i % 2 === 0}" bounds="[0,${i}][1080,${i + 1}]" />`,
    ).join('');
    const xml = `<hierarchy rotation="0"><node class="android.widget.FrameLayout" bounds="[0,0][1080,2400]">${wide}</node></hierarchy>`;
    const parsed = parseUiDump(xml);
    expect(parsed.ok && parsed.value.truncated).toBe(true);
    checkDump(xml, true);
  });
});

// ---- window lists ----

const title = fc.oneof(
  fc.constantFrom(
    'StatusBar',
    'NavigationBar0',
    'InputMethod',
    'NotificationShade',
    'Toast',
    'com.x/com.x.Main',
    'Application Not Responding: a',
    'a}b',
    '',
  ),
  fc.string({ maxLength: 20 }),
);
const header = fc
  .tuple(
    fc.nat(40),
    fc.constantFrom('', ':'),
    fc.stringMatching(/^[0-9a-f]{1,8}$/),
    fc.constantFrom('u0 ', 'u-1 ', 'u10 ', ''),
    title,
    fc.constantFrom('', ' EXITING', ' paused=false', ' type=2000', ' type=2011 ', ' type=x'),
    fc.constantFrom(':', '', ': extra'),
  )
  .map(
    ([i, colon, hash, user, t, tail, end]) =>
      `  Window #${i}${colon} Window{${hash} ${user}${t}${tail}}${end}`,
  );
const windowLine = fc.oneof(
  header,
  fc
    .tuple(fc.string({ maxLength: 16 }))
    .map(([p]) => `    mOwnerUid=10095 showForAllUsers=true package=${p} appop=NONE`),
  fc
    .constantFrom('BASE_APPLICATION', 'STATUS_BAR', '2040', '2011', '1', '99999', '', 'INPUT_METHOD', 'TOAST')
    .map((t) => `    mAttrs={(0,0)(fillxfill) ty=${t} fmt=TRANSLUCENT`),
  boundsText.map((b) => `    mFrame=${b} last=${b}`),
  boundsText.map((b) => `    Frames: parent=${b} display=${b} frame=${b} last=${b}`),
  fc.constantFrom(
    '    isVisible=true',
    '    isVisible=false',
    '    isOnScreen=true',
    '    mViewVisibility=0x0 mHaveFrame=true',
    '    mHasSurface=true',
  ),
  header.map(
    (h) =>
      `  mCurrentFocus=${h
        .trim()
        .replace(/^Window #\d+:? /, '')
        .replace(/:.*$/, '')}`,
  ),
  fc.string({ maxLength: 40 }),
);

describe('window lists of any shape', () => {
  it('2,000 generated `dumpsys window windows` outputs: every window fits its schema', () => {
    fc.assert(
      fc.property(fc.array(windowLine, { maxLength: 40 }), (lines) => {
        const text = lines.join('\n');
        const { windows } = parseWindowDump(text);
        fits(z.array(windowEntrySchema), windows, text);
        const s = summarizeWindows(windows);
        fits(
          REQUESTS['device.windows'].response.pick({
            ime_visible: true,
            system_dialog: true,
            app_window: true,
          }),
          s,
          text,
        );
      }),
      { numRuns: 2000, seed: SEED },
    );
  });
});

// ---- logcat ----

const logLine = fc.oneof(
  fc
    .tuple(
      fc.constantFrom('12-06', '01-01', '13-45', '1970-01-01'),
      fc.constantFrom('20:08:00.123', '00:00:00.000', '99:99:99.999', '20:08'),
      fc.integer({ min: -5, max: 99999 }),
      fc.integer({ min: -5, max: 99999 }),
      fc.constantFrom('V', 'D', 'I', 'W', 'E', 'F', 'A', 'S', 'X'),
      fc.string({ maxLength: 20 }),
      fc.oneof(
        fc.string({ maxLength: 80 }),
        fc.constantFrom(
          'FATAL EXCEPTION: main',
          'Process: com.x, PID: 1',
          '\tat a.b(c.kt:1)',
          'Caused by: x.Y: z',
          '*** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***',
          'Fatal signal 11 (SIGSEGV)',
          'ANR in com.x',
          '{"a":[1,{"b":2}]}',
          'Displayed com.x/.Main: +1s2ms',
        ),
      ),
    )
    .map(([d, t, pid, tid, lvl, tag, msg]) => `${d} ${t} ${pid} ${tid} ${lvl} ${tag}: ${msg}`),
  fc.constantFrom('--------- beginning of main', '--------- beginning of crash', ''),
  fc.string({ maxLength: 60 }),
);

describe('logcat of any shape', () => {
  it('2,000 generated logs: every stored line fits the wire schema', () => {
    fc.assert(
      fc.property(fc.array(logLine, { maxLength: 30 }), (lines) => {
        const text = lines.join('\n');
        const { entries } = parseLogcat(text, { device: 'emulator-5554' });
        fits(z.array(logEntryWireSchema), entries.map(toWireEntry), text);
      }),
      { numRuns: 2000, seed: SEED },
    );
  });
});

// ---- dumpsys ----

const dumpsysText = fc.oneof(
  fc.array(
    fc.oneof(
      fc.constantFrom(
        'Physical size: 1080x2400',
        'Override size: 720x1600',
        'Override size: ',
        'Physical density: 420',
        'Physical size: 0x0',
        'Physical size: 99999999999x1',
      ),
      fc.constantFrom(
        '  level: 87',
        '  level: -1',
        '  level: x',
        'mResumedActivity: ActivityRecord{1 u0 com.x/.Main t1}',
        'topResumedActivity=ActivityRecord{1 u0 a/b}',
      ),
      fc.constantFrom(
        'ApplicationExitInfo #0:',
        '  timestamp=2026-12-06 20:08:00.123 pid=1234 realUid=10190 packageUid=10190 definingUid=10190 user=0',
        '  process=com.x reason=4 (CRASH) subreason=0 (UNKNOWN) status=0',
        '  importance=100 pss=12MB rss=80MB description=crash',
        '  timestamp=garbage pid=x',
        '  process= reason=99 (WHAT)',
      ),
      fc.string({ maxLength: 40 }),
    ),
    { maxLength: 20 },
  ),
);

describe('dumpsys outputs of any shape', () => {
  it('2,000 generated outputs: display, battery, resumed activity and exit records fit their schemas', () => {
    const screen = deviceInfoSchema.shape.screen;
    fc.assert(
      fc.property(dumpsysText, (lines) => {
        const text = lines.join('\n');
        fits(screen, parseWm(text, text), text);
        fits(deviceInfoSchema.shape.battery_level, parseBatteryLevel(text), text);
        fits(deviceInfoSchema.shape.foreground, parseResumedActivity(text), text);
        fits(z.array(exitRecordWireSchema), parseExitInfo(text).map(toWireExit), text);
      }),
      { numRuns: 2000, seed: SEED },
    );
  });
});
