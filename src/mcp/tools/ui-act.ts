/** The ui tools that act on the screen: taps, text, keys, swipes, scrolls. */
import { z } from 'zod';
import { limitParam } from '../params.js';
import { treePathSchema } from '../../bus/messages/ui.js';
import { ArgumentError, ToolError } from '../define-tool.js';
import { defineDeviceTool } from '../define-device-tool.js';
import { responseOf } from '../responses.js';

import {
  text,
  expectHash,
  coordinate,
  screenOutput,
  screenOf,
  elementLine,
  criteriaAsFind,
  queryOf,
  describeQuery,
  selectorOfQuery,
  input,
  actionOutput,
  thenParam,
} from './ui-shared.js';

export const uiTap = defineDeviceTool({
  name: 'ui_tap',
  answers: 'device.ui_input',
  // The element acted on, in the few fields an answer needs.
  reshaped: ['element'],
  toolset: 'ui',
  kind: 'write',
  title: 'Tap a point',
  description:
    'Taps device coordinates (pixels in the current rotation). Prefer ui_tap_element; for a point on a scaled screenshot, multiply by its scale first.',
  input: z.object({
    x: coordinate('X in device pixels'),
    y: coordinate('Y in device pixels'),
    expect_screen_hash: expectHash,
  }),
  output: actionOutput,
  handle: (args, ctx) => input(ctx, { action: 'tap', x: args.x, y: args.y }, args.expect_screen_hash),
});

export const uiTapElement = defineDeviceTool({
  name: 'ui_tap_element',
  answers: 'device.ui_input',
  // The element acted on, in the few fields an answer needs.
  reshaped: ['element'],
  toolset: 'ui',
  kind: 'write',
  title: 'Tap an element',
  description:
    'Taps the centre of the element at tree_path on a fresh capture; refuses a missing or disabled element. Like every action, answers what changed on screen and its new screen_hash.',
  input: z.object({
    tree_path: treePathSchema,
    expect_screen_hash: expectHash,
    then: thenParam,
  }),
  output: actionOutput,
  handle: (args, ctx) =>
    input(ctx, { action: 'tap_element', tree_path: args.tree_path }, args.expect_screen_hash, args.then),
});

/** A tool that types text into the focused field, by `input text` (ASCII) or by any Unicode route. */
function typeTool(
  action: 'type' | 'type_unicode',
  declared: { name: string; toolset: 'ui' | 'ui-extras'; title: string; description: string },
) {
  return defineDeviceTool({
    ...declared,
    answers: 'device.ui_input',
    reshaped: ['element'],
    kind: 'write',
    input: z.object({ text: text('The text to type'), expect_screen_hash: expectHash }),
    output: actionOutput,
    handle: (args, ctx) => input(ctx, { action, text: args.text }, args.expect_screen_hash),
  });
}

export const uiTypeText = typeTool('type', {
  name: 'ui_type_text',
  toolset: 'ui',
  title: 'Type text',
  description: 'Types any text, at most 1,000 bytes, into the focused field.',
});

const MAX_FIELDS = 10;
const targetSchema = z.string().min(1).max(200);

export const uiFillInput = defineDeviceTool({
  name: 'ui_fill_input',
  answers: 'device.ui_input',
  // The element acted on, in the few fields an answer needs.
  reshaped: ['element'],
  toolset: 'ui',
  kind: 'write',
  title: 'Fill fields',
  description: `Fills a field (tree_path, text) or a form (≤${MAX_FIELDS} fields by tree path or label), then taps submit. Types nothing unless every target is there and editable.`,
  input: z.object({
    tree_path: treePathSchema.optional(),
    text: text('Text').optional(),
    fields: z
      .array(z.object({ field: targetSchema, text: text('Text') }).strict())
      .min(1)
      .max(MAX_FIELDS)
      .optional()
      .describe('A form, in order'),
    clear_before: z.boolean().default(true).describe('Clear each first'),
    submit: targetSchema.optional().describe('Tree path or label'),
    expect_screen_hash: expectHash,
    then: thenParam,
  }),
  output: actionOutput,
  handle(args, ctx) {
    const one = args.tree_path !== undefined || args.text !== undefined;
    if (
      one === (args.fields !== undefined) ||
      (one && (args.tree_path === undefined || args.text === undefined))
    ) {
      throw new ArgumentError('Give tree_path and text for one field, or fields for a form (not both).');
    }
    const fields = args.fields ?? [{ field: args.tree_path!, text: args.text! }];
    return input(
      ctx,
      { action: 'fill', fields, clear_before: args.clear_before, submit: args.submit ?? null },
      args.expect_screen_hash,
      args.then,
    );
  },
});

export const uiTypeTextUnicode = typeTool('type_unicode', {
  name: 'ui_type_text_unicode',
  toolset: 'ui-extras',
  title: 'Type any text',
  description:
    'Types any Unicode text (accents, CJK, emoji) into the focused field, through ADBKeyBoard when it is the keyboard, else the on-device helper; says how to get one when neither is there. At most 1,000 bytes.',
});

export const clearFocusedInput = defineDeviceTool({
  name: 'clear_focused_input',
  answers: 'device.ui_input',
  // The element acted on, in the few fields an answer needs.
  reshaped: ['element'],
  toolset: 'ui-extras',
  kind: 'write',
  title: 'Clear the focused field',
  description: 'Deletes the text of the field that has focus.',
  input: z.object({ expect_screen_hash: expectHash }),
  output: actionOutput,
  handle: (args, ctx) => input(ctx, { action: 'clear_input' }, args.expect_screen_hash),
});

export const hideSoftKeyboard = defineDeviceTool({
  name: 'hide_soft_keyboard',
  answers: 'device.ui_input',
  // The element acted on, in the few fields an answer needs.
  reshaped: ['element'],
  toolset: 'ui-extras',
  kind: 'write',
  title: 'Hide the keyboard',
  description: 'Hides the soft keyboard when it is showing (does nothing otherwise).',
  input: z.object({ expect_screen_hash: expectHash }),
  output: actionOutput,
  handle: (args, ctx) => input(ctx, { action: 'hide_keyboard' }, args.expect_screen_hash),
});

export const sendUiKey = defineDeviceTool({
  name: 'send_ui_key',
  answers: 'device.ui_input',
  // The element acted on, in the few fields an answer needs.
  reshaped: ['element'],
  toolset: 'ui',
  kind: 'write',
  title: 'Press a key',
  description:
    'Sends a key event: a KEYCODE_* name (KEYCODE_ENTER), a short name (BACK, HOME, ENTER, TAB, DEL, ESCAPE, APP_SWITCH, DPAD_DOWN…) or a key code number.',
  input: z.object({
    key: z
      .string()
      .min(1)
      .max(64)
      .regex(/^[A-Za-z0-9_]+$/, 'a key name or number')
      .describe('Key name or code'),
    expect_screen_hash: expectHash,
    then: thenParam,
  }),
  output: actionOutput,
  handle: (args, ctx) => input(ctx, { action: 'key', key: args.key }, args.expect_screen_hash, args.then),
});

export const uiSwipe = defineDeviceTool({
  name: 'ui_swipe',
  answers: 'device.ui_input',
  // The element acted on, in the few fields an answer needs.
  reshaped: ['element'],
  toolset: 'ui',
  kind: 'write',
  title: 'Swipe',
  description: 'Swipes from (x1, y1) to (x2, y2) in device pixels over duration_ms.',
  input: z.object({
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
  handle: (args, ctx) =>
    input(
      ctx,
      { action: 'swipe', x1: args.x1, y1: args.y1, x2: args.x2, y2: args.y2, duration_ms: args.duration_ms },
      args.expect_screen_hash,
    ),
});

export const uiScrollUntilElement = defineDeviceTool({
  name: 'ui_scroll_until_element',
  answers: 'device.ui_scroll_until',
  toolset: 'ui',
  kind: 'write',
  title: 'Scroll until an element shows',
  description:
    'Swipes the largest scrollable area in direction until an element matching the criteria (as find_ui_elements) shows, the list stops moving, or max_swipes is reached.',
  input: z.object({
    ...criteriaAsFind,
    direction: z
      .enum(['down', 'up', 'left', 'right'])
      .default('down')
      .describe('Which way to scroll the content'),
    max_swipes: limitParam('Swipes', 10, 25),
    expect_screen_hash: expectHash,
  }),
  output: screenOutput.extend(
    responseOf('device.ui_scroll_until').pick({ found: true, swipes: true, reached_end: true, matches: true })
      .shape,
  ),
  async handle(args, ctx) {
    const query = queryOf(args);
    const { serial } = ctx;
    const r = await ctx.bus.request(
      'device.ui_scroll_until',
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
        `${describeQuery(query)} did not show after ${r.swipes} swipe${r.swipes === 1 ? '' : 's'}${r.reached_end ? ' (the list stopped moving: its end was reached)' : ''}. Screen now ${r.screen_hash}.`,
        structured,
      );
    }
    const selector = selectorOfQuery(query, r.matches[0]);
    return {
      text: `Found after ${r.swipes} swipe${r.swipes === 1 ? '' : 's'}; screen now ${r.screen_hash}:\n${r.matches.map(elementLine).join('\n')}`,
      structured,
      steps: selector === null ? [] : [{ do: 'scroll_until', selector, direction: args.direction }],
    };
  },
});

/** The acting tools, in the order tools/list shows them. */
export const uiActTools = [
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
