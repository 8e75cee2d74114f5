import { z } from 'zod';
import {
  findQuerySchema,
  screenHashSchema,
  treePathSchema,
  uiElementSchema,
  uiRowSchema,
} from '../../bus/messages/ui.js';
import type { FindQueryPayload, InputAction } from '../../bus/messages/ui.js';
import type { ResponseOf } from '../../bus/registry.js';
import { InvalidParamsError, ToolError, defineTool } from '../define-tool.js';
import type { ToolContext } from '../define-tool.js';
import { optionalSerial, resolveSerial } from './device-serial.js';
import {
  capturedWindowSchema,
  nameWindows,
  windowFacts,
  windowFactsSchema,
  windowsBeside,
} from './window-note.js';

const MAX_TEXT_BYTES = 1000;
const text = (what: string) =>
  z
    .string()
    .max(MAX_TEXT_BYTES)
    .refine((s) => Buffer.byteLength(s, 'utf8') <= MAX_TEXT_BYTES, `at most ${MAX_TEXT_BYTES} bytes (UTF-8)`)
    .describe(what);
const expectHash = screenHashSchema.optional();
const coordinate = (what: string) => z.number().int().min(0).max(100_000).describe(what);

const screenOutput = z.object({
  device_serial: z.string(),
  screen_hash: z.string(),
  node_count: z.number().int(),
  rotation: z.number().nullable(),
  overlays: z.object({
    keyboard: z.boolean(),
    system_dialog: z.string().nullable(),
    app_package: z.string().nullable(),
    note: z.string(),
  }),
  reader: z
    .enum(['helper', 'uiautomator-dump'])
    .describe('What read the screen: the on-device helper or uiautomator dump'),
});

type Screen = Pick<
  ResponseOf<'ui.hierarchy'>,
  'screen_hash' | 'node_count' | 'rotation' | 'overlays' | 'reader'
>;

function screenOf(serial: string, r: Screen) {
  return {
    device_serial: serial,
    screen_hash: r.screen_hash,
    node_count: r.node_count,
    rotation: r.rotation,
    overlays: r.overlays,
    reader: r.reader,
  };
}

function screenLine(serial: string, r: Screen): string {
  return `${serial} · screen_hash ${r.screen_hash}${r.overlays.app_package ? ` · ${r.overlays.app_package}` : ''}${r.overlays.note ? ` · ${r.overlays.note}` : ''}${r.reader === 'helper' ? ' · read by the UI helper' : ''}`;
}

function elementLine(e: z.infer<typeof uiElementSchema>): string {
  const flags = [
    e.clickable && 'clickable',
    e.editable && 'editable',
    e.checkable && (e.checked ? 'checked' : 'unchecked'),
    e.scrollable && 'scrollable',
    !e.enabled && 'disabled',
    e.focused && 'focused',
  ]
    .filter(Boolean)
    .join(',');
  return `[${e.tree_path}] ${e.class.split('.').pop()} "${e.label}" center=(${e.center.x},${e.center.y})${flags ? ` ${flags}` : ''}`;
}

/** The find criteria every query tool takes, flat on the tool. */
const criteria = {
  text: findQuerySchema.shape.text,
  text_contains: findQuerySchema.shape.text_contains,
  resource_id: findQuerySchema.shape.resource_id,
  content_desc: findQuerySchema.shape.content_desc,
  class_name: findQuerySchema.shape.class_name,
  clickable: findQuerySchema.shape.clickable,
};

function queryOf(args: Partial<Record<keyof typeof criteria, unknown>>): FindQueryPayload {
  const query: FindQueryPayload = {};
  for (const key of Object.keys(criteria) as (keyof typeof criteria)[]) {
    if (args[key] !== undefined) {
      (query as Record<string, unknown>)[key] = args[key];
    }
  }
  if (Object.keys(query).filter((k) => k !== 'clickable').length === 0) {
    throw new InvalidParamsError(
      'Give at least one of text, text_contains, resource_id, content_desc or class_name.',
    );
  }
  return query;
}

function describeQuery(q: FindQueryPayload): string {
  return Object.entries(q)
    .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
    .join(' ');
}

async function input(
  ctx: ToolContext,
  serialArg: string | undefined,
  action: InputAction,
  expect: string | undefined,
) {
  const serial = await resolveSerial(ctx, serialArg);
  const result = await ctx.bus.request(
    'ui.input',
    { serial, input: action, ...(expect !== undefined ? { expect_screen_hash: expect } : {}) },
    { signal: ctx.signal },
  );
  return {
    text: `${result.done} (${serial})`,
    structured: {
      device_serial: serial,
      done: result.done,
      element: result.element,
      commands: result.commands,
    },
  };
}

const actionOutput = z.object({
  device_serial: z.string(),
  done: z.string(),
  element: uiElementSchema.nullable(),
  commands: z.array(z.array(z.string())),
});

export const getUiHierarchy = defineTool({
  name: 'get_ui_hierarchy',
  toolset: 'ui',
  kind: 'R',
  title: 'Read the screen',
  description:
    "Captures the screen's UI Automator hierarchy (a fresh capture) and returns it as indented rows, each with its tree_path, class, text, resource id, bounds and state flags, plus the screen_hash to pass as expect_screen_hash to actions. Says which window it captured and notes when the keyboard, the shade or a system dialog (a permission or ANR dialog) covers the app.",
  input: z.object({
    device_serial: optionalSerial,
    max_rows: z
      .number()
      .int()
      .min(1)
      .max(500)
      .default(80)
      .describe('Rows shown at most (default 80, max 500)'),
    include_system_bars: z.boolean().default(false).describe('Also show the status and navigation bars'),
  }),
  output: screenOutput.extend({
    text: z.string(),
    total_rows: z.number().int(),
    truncated: z.boolean(),
    ...windowFactsSchema,
    windows: z.array(capturedWindowSchema).describe("The capture's windows, named by the window manager"),
  }),
  projectIndependent: true,
  async handle(args, ctx) {
    const serial = await resolveSerial(ctx, args.device_serial);
    // The window list comes from the window manager beside the capture: a classic dump shows only
    // the focused window, so it cannot tell on its own what lies under or over it.
    const [r, windows] = await Promise.all([
      ctx.bus.request(
        'ui.hierarchy',
        { serial, max_rows: args.max_rows, include_bars: args.include_system_bars },
        { signal: ctx.signal },
      ),
      windowsBeside(ctx, serial),
    ]);
    const facts = windowFacts(windows, r.reader === 'helper');
    const named = nameWindows(r.windows, windows);
    const windowLine =
      named.length > 1
        ? `\nwindows: ${named.map((w) => `${w.index} ${w.title ?? w.package} (${w.kind}${w.type ? `, ${w.type}` : ''})`).join('; ')}`
        : '';
    return {
      text: `${screenLine(serial, r)}${facts.note ? `\n${facts.note}` : ''}${windowLine}\n${r.text}${r.truncated ? `\n… ${r.total_rows - r.rows.length} more rows (raise max_rows, or use find_ui_elements)` : ''}`,
      structured: {
        ...screenOf(serial, r),
        text: r.text,
        total_rows: r.total_rows,
        truncated: r.truncated,
        captured_window: facts.captured_window,
        covering: facts.covering,
        not_captured: facts.not_captured,
        windows: named,
      },
    };
  },
});

export const listClickableElements = defineTool({
  name: 'list_clickable_elements',
  toolset: 'ui',
  kind: 'R',
  title: 'List interactive elements',
  description:
    'Lists the interactive elements on screen (clickable, long-clickable, checkable, editable, scrollable) with a label, tree_path, bounds and centre — the usual first step before ui_tap_element or ui_fill_input.',
  input: z.object({
    device_serial: optionalSerial,
    limit: z.number().int().min(1).max(500).default(80).describe('Rows at most (default 80, max 500)'),
  }),
  output: screenOutput.extend({
    rows: z.array(uiRowSchema),
    total: z.number().int(),
    truncated: z.boolean(),
  }),
  projectIndependent: true,
  async handle(args, ctx) {
    const serial = await resolveSerial(ctx, args.device_serial);
    const r = await ctx.bus.request('ui.clickables', { serial, limit: args.limit }, { signal: ctx.signal });
    const lines = r.rows.map((row) => `${row.n}. ${elementLine(row)}`);
    return {
      text: [
        screenLine(serial, r),
        ...lines,
        ...(r.truncated ? [`… ${r.total - r.rows.length} more (raise limit)`] : []),
      ].join('\n'),
      structured: { ...screenOf(serial, r), rows: r.rows, total: r.total, truncated: r.truncated },
    };
  },
});

export const findUiElements = defineTool({
  name: 'find_ui_elements',
  toolset: 'ui',
  kind: 'R',
  title: 'Find elements',
  description:
    'Finds elements on the current screen by text (exact), text_contains, resource_id (full or bare name), content_desc, class_name and clickable; all given criteria must hold. Each result has its tree_path, bounds and center.',
  input: z.object({
    device_serial: optionalSerial,
    ...criteria,
    max_results: z
      .number()
      .int()
      .min(1)
      .max(100)
      .default(20)
      .describe('Results at most (default 20, max 100)'),
  }),
  output: screenOutput.extend({
    matches: z.array(uiElementSchema),
    total: z.number().int(),
    truncated: z.boolean(),
  }),
  projectIndependent: true,
  async handle(args, ctx) {
    const query = queryOf(args);
    const serial = await resolveSerial(ctx, args.device_serial);
    const r = await ctx.bus.request(
      'ui.find',
      { serial, query, max_results: args.max_results },
      { signal: ctx.signal },
    );
    const head =
      r.total === 0
        ? `No element matches ${describeQuery(query)}.`
        : `${r.total} match${r.total === 1 ? '' : 'es'} for ${describeQuery(query)}:`;
    return {
      text: [screenLine(serial, r), head, ...r.matches.map(elementLine)].join('\n'),
      structured: { ...screenOf(serial, r), matches: r.matches, total: r.total, truncated: r.truncated },
    };
  },
});

export const findUiParent = defineTool({
  name: 'find_ui_parent',
  toolset: 'ui',
  kind: 'R',
  title: 'Find the parent of an element',
  description:
    'Returns the element at tree_path on the current screen and its parent (e.g. the clickable row around a text).',
  input: z.object({
    device_serial: optionalSerial,
    tree_path: treePathSchema,
    expect_screen_hash: expectHash,
  }),
  output: screenOutput.extend({ node: uiElementSchema, parent: uiElementSchema.nullable() }),
  projectIndependent: true,
  async handle(args, ctx) {
    const serial = await resolveSerial(ctx, args.device_serial);
    const r = await ctx.bus.request(
      'ui.parent',
      {
        serial,
        tree_path: args.tree_path,
        ...(args.expect_screen_hash ? { expect_screen_hash: args.expect_screen_hash } : {}),
      },
      { signal: ctx.signal },
    );
    return {
      text: [
        screenLine(serial, r),
        `element: ${elementLine(r.node)}`,
        r.parent ? `parent:  ${elementLine(r.parent)}` : 'parent: none (it is a window root)',
      ].join('\n'),
      structured: { ...screenOf(serial, r), node: r.node, parent: r.parent },
    };
  },
});

export const compareUiState = defineTool({
  name: 'compare_ui_state',
  toolset: 'ui',
  kind: 'R',
  title: 'Compare with the last capture',
  description:
    "Captures the screen and compares it with this device's previous capture (by any UI tool): what appeared, disappeared, or changed text or state. The first call on a device just records the baseline.",
  input: z.object({
    device_serial: optionalSerial,
    max_results: z
      .number()
      .int()
      .min(1)
      .max(200)
      .default(30)
      .describe('Differences listed at most (default 30)'),
  }),
  output: screenOutput.extend({
    compared: z.boolean(),
    baseline_age_ms: z.number().nullable(),
    comparison: z.record(z.string(), z.unknown()).nullable(),
  }),
  projectIndependent: true,
  async handle(args, ctx) {
    const serial = await resolveSerial(ctx, args.device_serial);
    const r = await ctx.bus.request(
      'ui.compare',
      { serial, limit: args.max_results },
      { signal: ctx.signal },
    );
    const summary = r.compared
      ? String((r.comparison as { summary?: unknown } | null)?.summary ?? '')
      : 'No earlier capture of this device: this one is now the baseline. Act, then call compare_ui_state again.';
    return {
      text: `${screenLine(serial, r)}\n${summary}`,
      structured: {
        ...screenOf(serial, r),
        compared: r.compared,
        baseline_age_ms: r.baseline_age_ms,
        comparison: r.comparison,
      },
    };
  },
});

const waitOutput = screenOutput.extend({
  satisfied: z.boolean(),
  elapsed_ms: z.number(),
  captures: z.number().int(),
  matches: z.array(uiElementSchema),
});

async function wait(
  ctx: ToolContext,
  serialArg: string | undefined,
  until: 'element' | 'idle',
  query: FindQueryPayload | undefined,
  gone: boolean,
  timeoutMs: number,
) {
  const serial = await resolveSerial(ctx, serialArg);
  const r = await ctx.bus.request(
    'ui.wait',
    { serial, until, ...(query ? { query } : {}), gone, timeout_ms: timeoutMs },
    { signal: ctx.signal, timeoutMs: timeoutMs + 65_000, onProgress: (p) => ctx.progress(p) },
  );
  return {
    serial,
    r,
    structured: {
      ...screenOf(serial, r),
      satisfied: r.satisfied,
      elapsed_ms: r.elapsed_ms,
      captures: r.captures,
      matches: r.matches,
    },
  };
}

const timeout = (dflt: number) =>
  z
    .number()
    .int()
    .min(0)
    .max(30_000)
    .default(dflt)
    .describe(`How long to wait, ms (default ${dflt}, max 30,000)`);

export const waitForElement = defineTool({
  name: 'wait_for_element',
  toolset: 'ui',
  kind: 'R',
  title: 'Wait for an element',
  description:
    'Captures the screen repeatedly until an element matching the criteria appears (or, with gone: true, disappears), up to timeout_ms. Sends progress notifications and stops when the request is cancelled. Use it instead of fixed sleeps.',
  input: z.object({
    device_serial: optionalSerial,
    ...criteria,
    gone: z.boolean().default(false).describe('Wait until no element matches instead'),
    timeout_ms: timeout(15_000),
  }),
  output: waitOutput,
  projectIndependent: true,
  async handle(args, ctx) {
    const query = queryOf(args);
    const { serial, r, structured } = await wait(
      ctx,
      args.device_serial,
      'element',
      query,
      args.gone,
      args.timeout_ms,
    );
    if (!r.satisfied) {
      throw new ToolError(
        `${args.gone ? 'Still on screen' : 'Not on screen'} after ${r.elapsed_ms} ms (${r.captures} captures): ${describeQuery(query)} on ${serial} (screen_hash ${r.screen_hash}). Read the screen with get_ui_hierarchy to see what is there.`,
        structured,
      );
    }
    return {
      text: `${args.gone ? 'Gone' : 'Found'} after ${r.elapsed_ms} ms (${r.captures} captures): ${describeQuery(query)}\n${r.matches.map(elementLine).join('\n')}`.trim(),
      structured,
    };
  },
});

export const uiWaitForIdle = defineTool({
  name: 'ui_wait_for_idle',
  toolset: 'ui',
  kind: 'R',
  title: 'Wait until the screen settles',
  description:
    'Captures the screen until two captures in a row are the same (animations and loading done), up to timeout_ms. Sends progress notifications; cancellable.',
  input: z.object({ device_serial: optionalSerial, timeout_ms: timeout(5_000) }),
  output: waitOutput,
  projectIndependent: true,
  async handle(args, ctx) {
    const { serial, r, structured } = await wait(
      ctx,
      args.device_serial,
      'idle',
      undefined,
      false,
      args.timeout_ms,
    );
    if (!r.satisfied) {
      throw new ToolError(
        `The screen of ${serial} was still changing after ${r.elapsed_ms} ms (${r.captures} captures).`,
        structured,
      );
    }
    return {
      text: `The screen of ${serial} is idle (screen_hash ${r.screen_hash}) after ${r.elapsed_ms} ms.`,
      structured,
    };
  },
});

export const uiAssertElement = defineTool({
  name: 'ui_assert_element',
  toolset: 'ui',
  kind: 'R',
  title: 'Assert an element',
  description:
    'Checks that an element matching the criteria is on screen (or, with should_exist: false, is not), waiting up to timeout_ms for it. A failed assertion is a tool error.',
  input: z.object({
    device_serial: optionalSerial,
    ...criteria,
    should_exist: z.boolean().default(true).describe('false asserts that no element matches'),
    timeout_ms: timeout(5_000),
  }),
  output: waitOutput,
  projectIndependent: true,
  async handle(args, ctx) {
    const query = queryOf(args);
    const { r, structured } = await wait(
      ctx,
      args.device_serial,
      'element',
      query,
      !args.should_exist,
      args.timeout_ms,
    );
    if (!r.satisfied) {
      throw new ToolError(
        `Assertion failed: ${describeQuery(query)} ${args.should_exist ? 'is not on screen' : 'is still on screen'} after ${r.elapsed_ms} ms.`,
        structured,
      );
    }
    return {
      text: `Assertion holds: ${describeQuery(query)} ${args.should_exist ? 'is on screen' : 'is not on screen'}.`,
      structured,
    };
  },
});

export const uiTap = defineTool({
  name: 'ui_tap',
  toolset: 'ui',
  kind: 'W',
  title: 'Tap a point',
  description:
    'Taps device coordinates (pixels of the screen in its current rotation). Prefer ui_tap_element with a tree_path; to tap a point on a scaled screenshot, multiply by its scale first.',
  input: z.object({
    device_serial: optionalSerial,
    x: coordinate('X in device pixels'),
    y: coordinate('Y in device pixels'),
    expect_screen_hash: expectHash,
  }),
  output: actionOutput,
  projectIndependent: true,
  handle: (args, ctx) =>
    input(ctx, args.device_serial, { action: 'tap', x: args.x, y: args.y }, args.expect_screen_hash),
});

export const uiTapElement = defineTool({
  name: 'ui_tap_element',
  toolset: 'ui',
  kind: 'W',
  title: 'Tap an element',
  description:
    'Taps the centre of the element at tree_path, resolved on a fresh capture (a tree_path names a position on the current screen). Refuses a missing or disabled element. Pass the screen_hash you read as expect_screen_hash so the tap never lands on a screen that changed.',
  input: z.object({
    device_serial: optionalSerial,
    tree_path: treePathSchema,
    expect_screen_hash: expectHash,
  }),
  output: actionOutput,
  projectIndependent: true,
  handle: (args, ctx) =>
    input(
      ctx,
      args.device_serial,
      { action: 'tap_element', tree_path: args.tree_path },
      args.expect_screen_hash,
    ),
});

export const uiTypeText = defineTool({
  name: 'ui_type_text',
  toolset: 'ui',
  kind: 'W',
  title: 'Type text',
  description:
    'Types text into the focused field with `input text` (printable ASCII; non-ASCII goes through ui_type_text_unicode). At most 1,000 bytes.',
  input: z.object({
    device_serial: optionalSerial,
    text: text('The text to type'),
    expect_screen_hash: expectHash,
  }),
  output: actionOutput,
  projectIndependent: true,
  handle: (args, ctx) =>
    input(ctx, args.device_serial, { action: 'type', text: args.text }, args.expect_screen_hash),
});

export const uiFillInput = defineTool({
  name: 'ui_fill_input',
  toolset: 'ui',
  kind: 'W',
  title: 'Fill a field',
  description:
    'Taps the editable field at tree_path (fresh capture), clears it when clear_before (default true), and types text (ASCII with `input text`; other text through the ADBKeyBoard IME when it is active). Refuses a missing, disabled or non-editable element. At most 1,000 bytes.',
  input: z.object({
    device_serial: optionalSerial,
    tree_path: treePathSchema,
    text: text('The text to put in the field'),
    clear_before: z.boolean().default(true).describe('Delete what the field holds first (default true)'),
    expect_screen_hash: expectHash,
  }),
  output: actionOutput,
  projectIndependent: true,
  handle: (args, ctx) =>
    input(
      ctx,
      args.device_serial,
      { action: 'fill', tree_path: args.tree_path, text: args.text, clear_before: args.clear_before },
      args.expect_screen_hash,
    ),
});

export const uiTypeTextUnicode = defineTool({
  name: 'ui_type_text_unicode',
  toolset: 'ui',
  kind: 'W',
  title: 'Type any text',
  description:
    'Types any Unicode text (accents, CJK, emoji) into the focused field through the ADBKeyBoard IME (broadcast ADB_INPUT_B64); says how to install it when it is not the active keyboard. At most 1,000 bytes.',
  input: z.object({
    device_serial: optionalSerial,
    text: text('The text to type'),
    expect_screen_hash: expectHash,
  }),
  output: actionOutput,
  projectIndependent: true,
  handle: (args, ctx) =>
    input(ctx, args.device_serial, { action: 'type_unicode', text: args.text }, args.expect_screen_hash),
});

export const clearFocusedInput = defineTool({
  name: 'clear_focused_input',
  toolset: 'ui',
  kind: 'W',
  title: 'Clear the focused field',
  description: 'Deletes the text of the field that has focus.',
  input: z.object({ device_serial: optionalSerial, expect_screen_hash: expectHash }),
  output: actionOutput,
  projectIndependent: true,
  handle: (args, ctx) => input(ctx, args.device_serial, { action: 'clear_input' }, args.expect_screen_hash),
});

export const hideSoftKeyboard = defineTool({
  name: 'hide_soft_keyboard',
  toolset: 'ui',
  kind: 'W',
  title: 'Hide the keyboard',
  description: 'Hides the soft keyboard when it is showing (does nothing otherwise).',
  input: z.object({ device_serial: optionalSerial, expect_screen_hash: expectHash }),
  output: actionOutput,
  projectIndependent: true,
  handle: (args, ctx) => input(ctx, args.device_serial, { action: 'hide_keyboard' }, args.expect_screen_hash),
});

export const sendUiKey = defineTool({
  name: 'send_ui_key',
  toolset: 'ui',
  kind: 'W',
  title: 'Press a key',
  description:
    'Sends a key event: a KEYCODE_* name (KEYCODE_ENTER), a short name (BACK, HOME, ENTER, TAB, DEL, ESCAPE, APP_SWITCH, DPAD_DOWN…) or a key code number.',
  input: z.object({
    device_serial: optionalSerial,
    key: z
      .string()
      .min(1)
      .max(64)
      .regex(/^[A-Za-z0-9_]+$/, 'a key name or number')
      .describe('Key name (BACK, ENTER, KEYCODE_TAB…) or code'),
    expect_screen_hash: expectHash,
  }),
  output: actionOutput,
  projectIndependent: true,
  handle: (args, ctx) =>
    input(ctx, args.device_serial, { action: 'key', key: args.key }, args.expect_screen_hash),
});

export const uiSwipe = defineTool({
  name: 'ui_swipe',
  toolset: 'ui',
  kind: 'W',
  title: 'Swipe',
  description: 'Swipes from (x1, y1) to (x2, y2) in device pixels over duration_ms.',
  input: z.object({
    device_serial: optionalSerial,
    x1: coordinate('Start X'),
    y1: coordinate('Start Y'),
    x2: coordinate('End X'),
    y2: coordinate('End Y'),
    duration_ms: z
      .number()
      .int()
      .min(1)
      .max(60_000)
      .default(300)
      .describe('Swipe duration, ms (default 300)'),
    expect_screen_hash: expectHash,
  }),
  output: actionOutput,
  projectIndependent: true,
  handle: (args, ctx) =>
    input(
      ctx,
      args.device_serial,
      { action: 'swipe', x1: args.x1, y1: args.y1, x2: args.x2, y2: args.y2, duration_ms: args.duration_ms },
      args.expect_screen_hash,
    ),
});

export const uiScrollUntilElement = defineTool({
  name: 'ui_scroll_until_element',
  toolset: 'ui',
  kind: 'W',
  title: 'Scroll until an element shows',
  description:
    'Swipes the largest scrollable area in direction (down reveals what is below) until an element matching the criteria is on screen, the list stops moving, or max_swipes (default 10, max 25) is reached. Sends progress notifications; cancellable.',
  input: z.object({
    device_serial: optionalSerial,
    ...criteria,
    direction: z
      .enum(['down', 'up', 'left', 'right'])
      .default('down')
      .describe('Which way to scroll the content'),
    max_swipes: z.number().int().min(1).max(25).default(10).describe('Swipes at most (default 10, max 25)'),
    expect_screen_hash: expectHash,
  }),
  output: screenOutput.extend({
    found: z.boolean(),
    swipes: z.number().int(),
    reached_end: z.boolean(),
    matches: z.array(uiElementSchema),
  }),
  projectIndependent: true,
  async handle(args, ctx) {
    const query = queryOf(args);
    const serial = await resolveSerial(ctx, args.device_serial);
    const r = await ctx.bus.request(
      'ui.scroll_until',
      {
        serial,
        query,
        direction: args.direction,
        max_swipes: args.max_swipes,
        ...(args.expect_screen_hash ? { expect_screen_hash: args.expect_screen_hash } : {}),
      },
      { signal: ctx.signal, onProgress: (p) => ctx.progress(p) },
    );
    const structured = {
      ...screenOf(serial, r),
      found: r.found,
      swipes: r.swipes,
      reached_end: r.reached_end,
      matches: r.matches,
    };
    if (!r.found) {
      throw new ToolError(
        `${describeQuery(query)} did not show after ${r.swipes} swipe${r.swipes === 1 ? '' : 's'}${r.reached_end ? ' (the list stopped moving: its end was reached)' : ''}.`,
        structured,
      );
    }
    return {
      text: `Found after ${r.swipes} swipe${r.swipes === 1 ? '' : 's'}:\n${r.matches.map(elementLine).join('\n')}`,
      structured,
    };
  },
});

export const uiTools = [
  getUiHierarchy,
  listClickableElements,
  findUiElements,
  findUiParent,
  compareUiState,
  waitForElement,
  uiWaitForIdle,
  uiAssertElement,
  uiTap,
  uiTapElement,
  uiTypeText,
  uiFillInput,
  uiTypeTextUnicode,
  clearFocusedInput,
  hideSoftKeyboard,
  sendUiKey,
  uiSwipe,
  uiScrollUntilElement,
];
