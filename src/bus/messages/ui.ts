import { z } from 'zod';
import { defineRequest } from '../contract.js';
import { serialSchema } from './devices.js';
import { maestroSelectorSchema, uiStepSchema } from '../../store/formats/ui-step.js';
import { networkEntrySchema } from './network.js';
import { configChangesSchema } from './device-config.js';

export { maestroSelectorSchema, uiStepSchema, MAX_STEPS_PER_ACTION } from '../../store/formats/ui-step.js';
export type { MaestroSelector, UiStep } from '../../store/formats/ui-step.js';

/** Requests of the device actors: UI Automator captures, input, screenshots, device facts. */

const bySerial = (p: { serial: string }): string => p.serial;

export const treePathSchema = z
  .string()
  .regex(/^\d{1,4}(\.\d{1,4}){0,199}$/, 'a tree path is dot-separated child indexes, e.g. 0.1.2')
  .describe('Child indexes from the root (e.g. 0.1.2)');
export const screenHashSchema = z
  .string()
  .regex(/^[0-9a-f]{16}$/, 'a screen hash is 16 hex digits, as the reading tools return it')
  .describe('Refused if the screen_hash changed');

export const boundsSchema = z.object({
  left: z.number(),
  top: z.number(),
  right: z.number(),
  bottom: z.number(),
});
export const pointSchema = z.object({ x: z.number(), y: z.number() });

export const uiElementSchema = z.object({
  tree_path: z.string(),
  label: z.string(),
  label_source: z.string(),
  class: z.string(),
  resource_id: z.string(),
  text: z.string(),
  content_desc: z.string(),
  package: z.string(),
  window_kind: z.string(),
  bounds: boundsSchema,
  center: pointSchema,
  clickable: z.boolean(),
  long_clickable: z.boolean(),
  checkable: z.boolean(),
  checked: z.boolean(),
  editable: z.boolean(),
  scrollable: z.boolean(),
  enabled: z.boolean(),
  focused: z.boolean(),
  selected: z.boolean(),
  password: z.boolean(),
});
export const uiRowSchema = uiElementSchema.extend({ n: z.number().int() });

/** The find criteria, undescribed: tools that say "criteria as find_ui_elements" list them bare. */
export const findFields = {
  text: z.string().max(1000).optional(),
  text_contains: z.string().max(1000).optional(),
  resource_id: z.string().max(300).optional(),
  content_desc: z.string().max(1000).optional(),
  class_name: z.string().max(300).optional(),
  clickable: z.boolean().optional(),
};
export const findQuerySchema = z.object({
  text: findFields.text.describe('Whole text, exact, case-sensitive'),
  text_contains: findFields.text_contains.describe('Part of the text, any case'),
  resource_id: findFields.resource_id.describe('Resource id or bare name (login)'),
  content_desc: findFields.content_desc.describe('Part of the content-desc, any case'),
  class_name: findFields.class_name.describe('Class name or simple name (Button)'),
  clickable: findFields.clickable.describe('Only clickable (true) or not (false)'),
});
export type FindQueryPayload = z.infer<typeof findQuerySchema>;

const overlaysSchema = z.object({
  keyboard: z.boolean(),
  system_dialog: z.string().nullable(),
  app_package: z.string().nullable(),
  note: z.string(),
});

/** One shown row of a hierarchy capture: its tree path, indentation, window, texts, place and state flags. */
export const hierarchyRowSchema = z.object({
  tree_path: z.string(),
  /** Indentation level: how many shown ancestors the row has. */
  level: z.number().int(),
  window: z.number().int(),
  class: z.string(),
  text: z.string(),
  content_desc: z.string(),
  resource_id: z.string(),
  hint: z.string(),
  bounds: boundsSchema,
  center: pointSchema,
  flags: z.array(z.string()),
});

/** How long an action's `then` waits for its text at most. */
export const THEN_WAIT_MS = 10_000;

/** The screen a UI action left, compared with the one before it. */
export const afterActionSchema = z.object({
  screen_hash: z.string(),
  /** The app bar's title, else the topmost text of the app's window; null when there is none. */
  title: z.string().nullable(),
  changed: z.boolean(),
  /** What changed, in words; empty when there was no earlier capture to compare with. */
  summary: z.string(),
  appeared: z.array(z.string()),
  disappeared: z.array(z.string()),
  changed_elements: z.array(z.string()),
  focused: z.string().nullable(),
  keyboard: z.boolean(),
  system_dialog: z.string().nullable(),
  app_package: z.string().nullable(),
});

/** A window as the reading answers name it. */
export const windowRefSchema = z.object({
  title: z.string(),
  package: z.string().nullable(),
  kind: z.string(),
});

/** What the window manager's list adds to a capture: the window read and what covers the app. */
export const windowFactsSchema = {
  captured_window: windowRefSchema
    .nullable()
    .describe('The window the capture shows (the focused one), or null when the window list is unavailable'),
  covering: z
    .array(windowRefSchema)
    .describe('Visible system dialogs, the shade or the keyboard above the app, top-most first'),
  not_captured: z
    .array(windowRefSchema)
    .describe('Visible windows the capture does not hold (a uiautomator dump reads only the focused one)'),
};

/** A window of a capture, named by the window manager where it can be matched. */
export const capturedWindowSchema = z.object({
  index: z.number().int().describe('The first element of the tree paths of its nodes'),
  package: z.string(),
  kind: z.string(),
  title: z.string().nullable().describe("The window manager's title of this window, when matched"),
  type: z.string().nullable().describe("The window manager's type (BASE_APPLICATION, …), when matched"),
});

/** What every capture-based answer carries about the screen it read. */
export const screenSchema = z.object({
  screen_hash: z.string(),
  /** The app bar's title, else the topmost text of the app's window; null when there is none. */
  title: z.string().nullable(),
  node_count: z.number().int(),
  rotation: z.number().nullable(),
  overlays: overlaysSchema,
  /** Repairs made to malformed XML before parsing (empty for a clean dump). */
  repairs: z.array(z.string()),
  capture_ms: z.number(),
  /** What read it: the on-device helper (Appium's UiAutomator2 server) or `uiautomator dump`. */
  reader: z.enum(['helper', 'uiautomator-dump']),
});

const inputActionSchema = z.discriminatedUnion('action', [
  z.object({ action: z.literal('tap'), x: z.number().int(), y: z.number().int() }),
  z.object({ action: z.literal('tap_element'), tree_path: treePathSchema }),
  z.object({ action: z.literal('type'), text: z.string() }),
  z.object({
    /** A form: each field tapped, cleared and typed, then `submit` tapped; one field is a form too. */
    action: z.literal('fill'),
    /** `field`: a tree path, or a label (hint, resource id, description or shown text). */
    fields: z
      .array(z.object({ field: z.string().min(1).max(200), text: z.string() }))
      .min(1)
      .max(10),
    clear_before: z.boolean(),
    /** Tapped after the fields: a tree path or a label. */
    submit: z.string().min(1).max(200).nullable(),
  }),
  z.object({ action: z.literal('type_unicode'), text: z.string() }),
  z.object({ action: z.literal('clear_input') }),
  /** Deletes `count` characters at the end of the focused field (Maestro's eraseText). */
  z.object({ action: z.literal('erase'), count: z.number().int().min(1).max(1000) }),
  z.object({ action: z.literal('hide_keyboard') }),
  z.object({ action: z.literal('key'), key: z.string().max(64) }),
  z.object({
    action: z.literal('swipe'),
    x1: z.number().int(),
    y1: z.number().int(),
    x2: z.number().int(),
    y2: z.number().int(),
    duration_ms: z.number().int(),
  }),
]);
export type InputAction = z.infer<typeof inputActionSchema>;

/** One device's facts, as get_device_info returns them. */
export const deviceInfoSchema = z.object({
  serial: z.string(),
  /** The adb server the device is on (its label) when droidbus serves several; null with one. */
  adb_server: z.string().nullable(),
  model: z.string().nullable(),
  manufacturer: z.string().nullable(),
  brand: z.string().nullable(),
  device: z.string().nullable(),
  android_version: z.string().nullable(),
  sdk: z.number().int().nullable(),
  abi: z.string().nullable(),
  fingerprint: z.string().nullable(),
  is_emulator: z.boolean(),
  screen: z
    .object({
      width: z.number().int(),
      height: z.number().int(),
      density: z.number().int().nullable(),
      override: z.string().nullable(),
    })
    .nullable(),
  battery_level: z.number().int().nullable(),
  foreground: z.object({ package: z.string(), activity: z.string().nullable() }).nullable(),
  shell_v2: z.boolean(),
  features: z.array(z.string()),
  /** The display settings droidbus changed and will give back (set_display_config); null: none. */
  droidbus_changes: configChangesSchema.nullable(),
});

export const uiRequests = {
  'device.ui_hierarchy': defineRequest({
    actor: 'device',
    key: bySerial,
    request: z.object({
      serial: serialSchema,
      max_rows: z.number().int().min(1).max(500).default(80),
      include_bars: z.boolean().default(false),
      /** The whole hierarchy, indented; else the interactive elements first, then the texts. */
      tree: z.boolean().default(false),
    }),
    response: screenSchema.extend({
      text: z.string(),
      rows: z.array(hierarchyRowSchema),
      total_rows: z.number().int(),
      truncated: z.boolean(),
      /**
       * The capture's windows, in tree-path order (the first element of their nodes' paths), named
       * by the window manager's list where it could be read.
       */
      windows: z.array(capturedWindowSchema.extend({ bounds: boundsSchema })),
      ...windowFactsSchema,
      /** A sentence for the model: what covers the app and what the capture could not read; '' when nothing. */
      window_note: z.string(),
    }),
    timeoutMs: 65_000,
  }),
  'device.ui_clickables': defineRequest({
    actor: 'device',
    key: bySerial,
    request: z.object({ serial: serialSchema, limit: z.number().int().min(1).max(500).default(80) }),
    response: screenSchema.extend({
      rows: z.array(uiRowSchema),
      total: z.number().int(),
      truncated: z.boolean(),
    }),
    timeoutMs: 65_000,
  }),
  'device.ui_find': defineRequest({
    actor: 'device',
    key: bySerial,
    request: z.object({
      serial: serialSchema,
      query: findQuerySchema,
      max_results: z.number().int().min(1).max(100).default(20),
    }),
    response: screenSchema.extend({
      matches: z.array(uiElementSchema),
      total: z.number().int(),
      truncated: z.boolean(),
    }),
    timeoutMs: 65_000,
  }),
  'device.ui_parent': defineRequest({
    actor: 'device',
    key: bySerial,
    request: z.object({
      serial: serialSchema,
      tree_path: treePathSchema,
      expect_screen_hash: screenHashSchema.optional(),
    }),
    response: screenSchema.extend({ node: uiElementSchema, parent: uiElementSchema.nullable() }),
    timeoutMs: 65_000,
  }),
  'device.ui_compare': defineRequest({
    actor: 'device',
    key: bySerial,
    request: z.object({ serial: serialSchema, limit: z.number().int().min(1).max(200).default(30) }),
    response: screenSchema.extend({
      /** False when there was no earlier capture of this device to compare with (this one becomes it). */
      compared: z.boolean(),
      baseline_age_ms: z.number().nullable(),
      comparison: z.record(z.string(), z.unknown()).nullable(),
    }),
    timeoutMs: 65_000,
  }),
  'device.ui_wait': defineRequest({
    actor: 'device',
    key: bySerial,
    request: z.object({
      serial: serialSchema,
      /** element: until the query matches (or, with `gone`, stops matching); idle: until two captures in a row show the same screen. */
      until: z.enum(['element', 'idle']),
      query: findQuerySchema.optional(),
      gone: z.boolean().default(false),
      timeout_ms: z.number().int().min(0).max(30_000),
      interval_ms: z.number().int().min(0).max(5_000).default(250),
    }),
    response: screenSchema.extend({
      satisfied: z.boolean(),
      elapsed_ms: z.number(),
      captures: z.number().int(),
      matches: z.array(uiElementSchema),
    }),
    timeoutMs: 100_000,
  }),
  'device.ui_input': defineRequest({
    actor: 'device',
    key: bySerial,
    request: z.object({
      serial: serialSchema,
      input: inputActionSchema,
      expect_screen_hash: screenHashSchema.optional(),
      /** After acting, wait up to THEN_WAIT_MS for an element whose text contains this (any case). */
      then: z.string().min(1).max(1000).optional(),
    }),
    response: z.object({
      done: z.string(),
      /** The element acted on, for element actions. */
      element: uiElementSchema.nullable(),
      /** The device commands run, in order (as argv). */
      commands: z.array(z.array(z.string())),
      /** The screen the action left (src/actors/device/ui/ui-after.ts); null when it could not be read. */
      after: afterActionSchema.nullable(),
      /** Why `after` is null. */
      after_note: z.string().nullable(),
      /** The `then` wait: whether the text showed, and when. */
      then: z
        .object({
          text: z.string(),
          satisfied: z.boolean(),
          elapsed_ms: z.number(),
          /** The screen after the wait is the one before the action (its text does not count). */
          screen_unchanged: z.boolean(),
        })
        .nullable(),
      /**
       * What was done, in Maestro's terms (elements by the selector Maestro finds them with), and what
       * the screen showed after: the debug session keeps these for export_test. A password's text is
       * never in them.
       */
      steps: z.array(uiStepSchema),
      /** The requests the app made from the action on, oldest first, while a network capture runs. */
      requests: z.array(networkEntrySchema),
    }),
    timeoutMs: 95_000,
  }),
  /**
   * Waits until a Maestro selector selects an element (or, with `gone`, selects none), capturing
   * every `interval_ms` up to `timeout_ms`; the element is the one Maestro would act on.
   */
  'device.ui_select': defineRequest({
    actor: 'device',
    key: bySerial,
    request: z.object({
      serial: serialSchema,
      selector: maestroSelectorSchema,
      gone: z.boolean().default(false),
      timeout_ms: z.number().int().min(0).max(60_000),
      interval_ms: z.number().int().min(0).max(5_000).default(250),
      /**
       * Read the screen afresh: never the last action's own after-capture (a flow's first lookup,
       * when nothing says the screen is still the one an action left).
       */
      fresh: z.boolean().default(false),
    }),
    response: screenSchema.extend({
      satisfied: z.boolean(),
      elapsed_ms: z.number(),
      element: uiElementSchema.nullable(),
      /** How many elements the selector selects on the last capture. */
      count: z.number().int(),
      /** The display in the capture's rotation, for points given in percent. */
      display: z.object({ width: z.number().int(), height: z.number().int() }),
    }),
    timeoutMs: 100_000,
  }),
  'device.ui_scroll_until': defineRequest({
    actor: 'device',
    key: bySerial,
    request: z.object({
      serial: serialSchema,
      query: findQuerySchema,
      direction: z.enum(['down', 'up', 'left', 'right']),
      max_swipes: z.number().int().min(1).max(25),
      expect_screen_hash: screenHashSchema.optional(),
    }),
    response: screenSchema.extend({
      found: z.boolean(),
      swipes: z.number().int(),
      /** True when a swipe no longer changed the screen: the end of the list. */
      reached_end: z.boolean(),
      matches: z.array(uiElementSchema),
    }),
    timeoutMs: 600_000,
  }),
  'device.screenshot': defineRequest({
    actor: 'device',
    key: bySerial,
    request: z.object({
      serial: serialSchema,
      max_dimension: z.number().int().min(256).max(8192).optional(),
      full_size: z.boolean().optional(),
      annotate: z.boolean().default(false),
      /**
       * The image's encoding: jpeg by default (quality 80, 4:4:4), png with full_size; webp too. What
       * each does to small text on real screens: bench/screenshot.ts.
       */
      format: z.enum(['png', 'jpeg', 'webp']).optional(),
    }),
    response: z.object({
      /** The image, encoded as `mime` says (the field keeps its name from when it was PNG only). */
      png: z.instanceof(Uint8Array),
      mime: z.enum(['image/png', 'image/jpeg', 'image/webp']),
      deviceWidth: z.number().int(),
      deviceHeight: z.number().int(),
      imageWidth: z.number().int(),
      imageHeight: z.number().int(),
      scale: z.number(),
      resized: z.boolean(),
      hint: z.string(),
      legend: z.array(z.object({ n: z.number().int(), tree_path: z.string(), label: z.string() })).nullable(),
      capture_bytes: z.number().int(),
    }),
    timeoutMs: 35_000,
  }),
  'device.info': defineRequest({
    actor: 'device',
    key: bySerial,
    request: z.object({ serial: serialSchema }),
    response: deviceInfoSchema,
    timeoutMs: 35_000,
  }),
};
