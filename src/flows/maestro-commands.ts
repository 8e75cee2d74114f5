/**
 * Maestro's commands as droidbus reads them, one reader per command: the fields and short forms of
 * maestro-orchestra's `YamlFluentCommand` and each command's `Yaml*` class, with Maestro's defaults
 * (`Orchestra`, `Commands.kt`, `Maestro.kt`; mobile-dev-inc/maestro v1.39.10, dcd2f206). A field
 * droidbus does not act on is refused by name rather than ignored; maestro-flow.ts reads the files.
 */
import type { MaestroSelector } from '../bus/messages/ui.js';
import { checkOpenableUri } from '../util/uri-scheme.js';
import { androidKeyOf, MAESTRO_KEY_NAMES } from './maestro-keys.js';

export class FlowError extends Error {}

/** What droidbus does for one flow command. */
export type FlowOp =
  | { op: 'launch'; appId: string; clearState: boolean; stopApp: boolean }
  | { op: 'stop'; appId: string }
  | {
      op: 'tap';
      selector: MaestroSelector | null;
      point: string | null;
      retryIfNoChange: boolean;
      settleMs?: number;
    }
  | { op: 'input'; text: string }
  | { op: 'erase'; count: number }
  | { op: 'assert'; selector: MaestroSelector; visible: boolean; timeoutMs: number | null }
  | {
      op: 'scroll_until';
      selector: MaestroSelector;
      direction: Direction;
      timeoutMs: number;
      settleMs?: number;
    }
  | { op: 'key'; key: string }
  | { op: 'hide_keyboard' }
  | { op: 'settle'; timeoutMs: number }
  | { op: 'open_link'; link: string }
  | { op: 'screenshot'; name: string }
  | { op: 'swipe'; start: string; end: string; durationMs: number; settleMs?: number };

export type Direction = 'down' | 'up' | 'left' | 'right';

/** maestro-orchestra `Orchestra`: how long an element is looked for (17 s; 7 s when optional). */
export const LOOKUP_TIMEOUT_MS = 17_000;
export const OPTIONAL_LOOKUP_TIMEOUT_MS = 7_000;
/** Maestro.ANIMATION_TIMEOUT_MS. */
const ANIMATION_TIMEOUT_MS = 15_000;
/** ScrollUntilVisibleCommand.DEFAULT_TIMEOUT_IN_MILLIS. */
const SCROLL_TIMEOUT_MS = 20_000;
/** Orchestra.MAX_ERASE_CHARACTERS. */
const MAX_ERASE_CHARACTERS = 50;
/** SwipeCommand.DEFAULT_DURATION_IN_MILLIS. */
const SWIPE_MS = 400;

/** The commands droidbus runs; Maestro's others are refused by name. */
export const SUPPORTED_COMMANDS = [
  'launchApp',
  'tapOn',
  'inputText',
  'eraseText',
  'assertVisible',
  'assertNotVisible',
  'scrollUntilVisible',
  'back',
  'pressKey',
  'hideKeyboard',
  'waitForAnimationToEnd',
  'extendedWaitUntil',
  'openLink',
  'stopApp',
  'killApp',
  'takeScreenshot',
  'runFlow',
  'swipe',
] as const;

/** Maestro's commands (YamlFluentCommand's fields, v1.39.10) droidbus does not run. */
export const MAESTRO_ONLY = new Set([
  'doubleTapOn',
  'longPressOn',
  'assertTrue',
  'assertNoDefectsWithAI',
  'assertWithAI',
  'extractTextWithAI',
  'clearKeychain',
  'pasteText',
  'scroll',
  'inputRandomText',
  'inputRandomNumber',
  'inputRandomEmail',
  'inputRandomPersonName',
  'openBrowser',
  'action',
  'clearState',
  'setLocation',
  'repeat',
  'copyTextFrom',
  'runScript',
  'evalScript',
  'travel',
  'startRecording',
  'stopRecording',
  'addMedia',
  'setAirplaneMode',
  'toggleAirplaneMode',
  'retry',
]);

/** Selector fields droidbus matches (maestro-select.ts); Maestro's relative and size ones are refused. */
const SELECTOR_FIELDS = new Set(['text', 'id', 'index', 'enabled', 'checked', 'focused', 'selected']);
/** Fields every command may carry, and tapOn's that change nothing droidbus does. */
const COMMON_FIELDS = new Set(['label', 'optional']);
/**
 * tapOn's own fields. retryTapIfNoChange (default true, as Maestro's YamlFluentCommand reads it):
 * a tap that left the screen as it was is made once more (Maestro.kt hierarchyBasedTap: two taps at
 * most when retrying).
 */
const TAP_FIELDS = new Set(['point', 'waitUntilVisible', 'waitToSettleTimeoutMs', 'retryTapIfNoChange']);

export type Raw = Record<string, unknown>;

export function isRaw(v: unknown): v is Raw {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A command's one key and its value, as YamlFluentCommand reads an item. */
export function commandOf(item: unknown, where: string): { name: string; value: unknown } {
  if (typeof item === 'string') {
    return { name: item, value: null };
  }
  if (isRaw(item)) {
    const keys = Object.keys(item);
    if (keys.length !== 1) {
      throw new FlowError(
        `${where}: a command is a map with one key (the command), got ${keys.join(', ') || 'none'}`,
      );
    }
    return { name: keys[0]!, value: item[keys[0]!] };
  }
  throw new FlowError(
    `${where}: a command is a name or a one-key map, got ${JSON.stringify(item)?.slice(0, 80)}`,
  );
}

export function refuseUnknown(value: Raw, allowed: Set<string>, where: string, what: string): void {
  const extra = Object.keys(value).filter((k) => !allowed.has(k) && !COMMON_FIELDS.has(k));
  if (extra.length > 0) {
    const known = what === 'selector' ? [...SELECTOR_FIELDS] : [...allowed, ...COMMON_FIELDS];
    throw new FlowError(
      `${where}: ${what} field${extra.length > 1 ? 's' : ''} ${extra.join(', ')} ${extra.length > 1 ? 'are' : 'is'} not supported by droidbus (it reads ${known.join(', ')})`,
    );
  }
}

function bool(v: unknown, where: string, field: string): boolean | undefined {
  if (v === undefined || v === null) {
    return undefined;
  }
  if (typeof v === 'boolean') {
    return v;
  }
  if (v === 'true' || v === 'false') {
    return v === 'true';
  }
  throw new FlowError(`${where}: ${field} must be true or false`);
}

export function str(v: unknown, where: string, field: string): string {
  if (typeof v === 'string') {
    return v;
  }
  if (typeof v === 'number' || typeof v === 'boolean') {
    return String(v);
  }
  throw new FlowError(`${where}: ${field} must be a text`);
}

/** Milliseconds written as a number or a numeric string (Maestro keeps several as strings). */
function millis(v: unknown, fallback: number, where: string, field: string): number {
  if (v === undefined || v === null) {
    return fallback;
  }
  const n = typeof v === 'number' ? v : Number(str(v, where, field));
  if (!Number.isFinite(n) || n < 0 || n > 600_000) {
    throw new FlowError(`${where}: ${field} must be milliseconds from 0 to 600000`);
  }
  return Math.round(n);
}

/** TapOnElementCommand.MAX_TIMEOUT_WAIT_TO_SETTLE_MS: the longest settle wait Maestro keeps. */
const MAX_SETTLE_MS = 30_000;

/**
 * `waitToSettleTimeoutMs`: how long after the action to wait for the screen to hold still (Maestro's
 * ScreenshotUtils.waitForAppToSettle with a timeout: two equal hierarchies), clamped as YamlFluentCommand
 * clamps a tap's. Absent: nothing beyond the action's own after-capture.
 */
function settleOf(map: Raw | null, where: string): { settleMs?: number } {
  const v = map?.['waitToSettleTimeoutMs'];
  return v === undefined
    ? {}
    : { settleMs: Math.min(MAX_SETTLE_MS, millis(v, 0, where, 'waitToSettleTimeoutMs')) };
}

/** A selector as toElementSelector reads it: a string is a text regex. */
function selectorOf(v: unknown, where: string): MaestroSelector {
  if (typeof v === 'string' || typeof v === 'number') {
    return { text: String(v) };
  }
  if (!isRaw(v)) {
    throw new FlowError(`${where}: an element is a text or a map of text, id, index…`);
  }
  refuseUnknown(v, new Set([...SELECTOR_FIELDS, ...TAP_FIELDS]), where, 'selector');
  const s: MaestroSelector = {};
  if (v['text'] !== undefined) {
    s.text = str(v['text'], where, 'text');
  }
  if (v['id'] !== undefined) {
    s.id = str(v['id'], where, 'id');
  }
  if (v['index'] !== undefined) {
    const index = Math.trunc(Number(v['index']));
    if (!Number.isInteger(index) || index < 0 || index > 1000) {
      throw new FlowError(`${where}: index must be a whole number from 0`);
    }
    s.index = index;
  }
  for (const state of ['enabled', 'checked', 'focused', 'selected'] as const) {
    const b = bool(v[state], where, state);
    if (b !== undefined) {
      s[state] = b;
    }
  }
  return s;
}

const DIRECTIONS: Record<string, Direction> = { DOWN: 'down', UP: 'up', LEFT: 'left', RIGHT: 'right' };

function direction(v: unknown, fallback: Direction, where: string): Direction {
  if (v === undefined || v === null) {
    return fallback;
  }
  const d = DIRECTIONS[str(v, where, 'direction').toUpperCase()];
  if (d === undefined) {
    throw new FlowError(`${where}: direction is UP, DOWN, LEFT or RIGHT`);
  }
  return d;
}

/** Swipe directions as Maestro's directional swipe draws them (AndroidDriver.swipe, in percent). */
const SWIPES: Record<Direction, [string, string]> = {
  up: ['50%,50%', '50%,10%'],
  down: ['50%,20%', '50%,90%'],
  right: ['10%,50%', '90%,50%'],
  left: ['90%,50%', '10%,50%'],
};

/** How a command's value is read: `map` when it is a map (its long form), else the short form `v`. */
type Reader = (
  v: unknown,
  map: Raw | null,
  at: { appId: string; where: string; name: string; schemes: readonly string[] },
) => FlowOp;

/** The app a command names (its appId, its short form), else the flow's. */
function appOf(v: unknown, map: Raw | null, at: { appId: string; where: string }): string {
  if (map) {
    return str(map['appId'] ?? map['url'] ?? at.appId, at.where, 'appId');
  }
  return v === null ? at.appId : str(v, at.where, 'appId');
}

function only(map: Raw | null, fields: string[], at: { where: string; name: string }): void {
  if (map) {
    refuseUnknown(map, new Set(fields), at.where, at.name);
  }
}

const stop: Reader = (v, map, at) => {
  only(map, ['appId'], at);
  return { op: 'stop', appId: appOf(v, map, at) };
};

const assertion: Reader = (v, _map, at) => ({
  op: 'assert',
  selector: selectorOf(v, at.where),
  visible: at.name === 'assertVisible',
  timeoutMs: null,
});

/** The schemes openLink opens whatever the app declares. */
const WEB_SCHEMES: readonly string[] = ['http', 'https'];

/** The apps: launchApp (YamlLaunchApp), stopApp and killApp (YamlStopApp, YamlKillApp), openLink. */
const APP_COMMANDS: Record<string, Reader> = {
  launchApp: (v, map, at) => {
    only(map, ['appId', 'url', 'clearState', 'stopApp'], at);
    return {
      op: 'launch',
      appId: appOf(v, map, at),
      clearState: (map && bool(map['clearState'], at.where, 'clearState')) ?? false,
      stopApp: (map && bool(map['stopApp'], at.where, 'stopApp')) ?? true,
    };
  },
  stopApp: stop,
  killApp: stop,
  openLink: (v, map, at) => {
    // browser: true opens the link in a browser instead of the app that claims it: not done here;
    // autoVerify: true (accept the link's verification dialog) neither — false is what droidbus does.
    only(map, ['link', ...(map?.['autoVerify'] === false ? ['autoVerify'] : [])], at);
    const link = map ? str(map['link'], at.where, 'link') : str(v, at.where, 'openLink');
    const checked = checkOpenableUri(link);
    if (!checked.ok) {
      throw new FlowError(`${at.where}: ${checked.message}`);
    }
    // Web links, and the app's own links: no other app's (tel:, market:, a browser's own scheme
    // carrying javascript:, view-source:) is a step of testing this app.
    if (!WEB_SCHEMES.includes(checked.scheme) && !at.schemes.includes(checked.scheme)) {
      throw new FlowError(
        `${at.where}: openLink opens http(s) links and the schemes ${at.appId} declares in its manifest (${at.schemes.length > 0 ? at.schemes.join(', ') : 'none found in the project'}); '${checked.scheme}:' is refused`,
      );
    }
    return { op: 'open_link', link };
  },
};

/** The screen: elements (tapOn, assertions, waits, scrolls), text, keys, swipes, screenshots. */
const SCREEN_COMMANDS: Record<string, Reader> = {
  tapOn: (v, map, at) => {
    const point = map && map['point'] !== undefined ? str(map['point'], at.where, 'point') : null;
    if (point !== null && !/^\s*\d+(\.\d+)?%?\s*,\s*\d+(\.\d+)?%?\s*$/.test(point)) {
      throw new FlowError(`${at.where}: point is "x,y" in pixels or "x%,y%"`);
    }
    if (point !== null) {
      // A tap at a point takes tapOn's own fields only (selectorOf checks them for element taps).
      only(map, [...TAP_FIELDS], at);
    }
    const retry = map ? bool(map['retryTapIfNoChange'], at.where, 'retryTapIfNoChange') : undefined;
    return {
      op: 'tap',
      selector: point === null ? selectorOf(v, at.where) : null,
      point,
      retryIfNoChange: retry ?? true,
      ...settleOf(map, at.where),
    };
  },
  inputText: (v, map, at) => ({
    op: 'input',
    text: map ? str(map['text'] ?? '', at.where, 'text') : str(v, at.where, 'inputText'),
  }),
  eraseText: (v, map, at) => {
    const n = map ? map['charactersToErase'] : v;
    return {
      op: 'erase',
      count:
        n === null || n === undefined
          ? MAX_ERASE_CHARACTERS
          : Math.max(1, Math.min(1000, millis(n, 0, at.where, 'charactersToErase'))),
    };
  },
  assertVisible: assertion,
  assertNotVisible: assertion,
  extendedWaitUntil: (_v, map, at) => {
    if (!map || (map['visible'] === undefined) === (map['notVisible'] === undefined)) {
      throw new FlowError(`${at.where}: extendedWaitUntil takes visible or notVisible (one of them)`);
    }
    only(map, ['visible', 'notVisible', 'timeout'], at);
    const visible = map['visible'] !== undefined;
    return {
      op: 'assert',
      selector: selectorOf(visible ? map['visible'] : map['notVisible'], at.where),
      visible,
      timeoutMs: millis(map['timeout'], LOOKUP_TIMEOUT_MS, at.where, 'timeout'),
    };
  },
  scrollUntilVisible: (_v, map, at) => {
    if (!map || map['element'] === undefined) {
      throw new FlowError(`${at.where}: scrollUntilVisible needs element`);
    }
    // speed, visibilityPercentage and centerElement change how Maestro scrolls and what it counts as
    // seen; droidbus does neither, so they are refused by name rather than ignored.
    only(map, ['element', 'direction', 'timeout', 'waitToSettleTimeoutMs'], at);
    // YamlScrollUntilVisible: a negative timeout falls back to the default, as Maestro reads it.
    const timeout = map['timeout'];
    return {
      op: 'scroll_until',
      selector: selectorOf(map['element'], at.where),
      direction: direction(map['direction'], 'down', at.where),
      timeoutMs:
        typeof timeout === 'number' && timeout < 0
          ? SCROLL_TIMEOUT_MS
          : millis(timeout, SCROLL_TIMEOUT_MS, at.where, 'timeout'),
      ...settleOf(map, at.where),
    };
  },
  back: () => ({ op: 'key', key: 'KEYCODE_BACK' }),
  pressKey: (v, map, at) => {
    const keyName = map ? str(map['key'], at.where, 'key') : str(v, at.where, 'pressKey');
    const key = androidKeyOf(keyName);
    if (key === null) {
      throw new FlowError(
        `${at.where}: unknown key name ${JSON.stringify(keyName.slice(0, 40))}; Maestro's are ${MAESTRO_KEY_NAMES.join(', ')}`,
      );
    }
    return { op: 'key', key };
  },
  hideKeyboard: () => ({ op: 'hide_keyboard' }),
  waitForAnimationToEnd: (_v, map, at) => ({
    op: 'settle',
    timeoutMs: Math.min(30_000, millis(map?.['timeout'], ANIMATION_TIMEOUT_MS, at.where, 'timeout')),
  }),
  takeScreenshot: (v, map, at) => {
    const name = map ? str(map['path'], at.where, 'path') : str(v, at.where, 'takeScreenshot');
    const base = name.replace(/\.png$/i, '');
    if (!/^[\w-][\w.-]{0,99}$/.test(base)) {
      throw new FlowError(
        `${at.where}: a screenshot's name is letters, digits, dot, dash or underscore (no folders)`,
      );
    }
    return { op: 'screenshot', name: base };
  },
  swipe: (_v, map, at) => {
    if (!map) {
      throw new FlowError(`${at.where}: swipe takes direction, or start and end`);
    }
    only(map, ['direction', 'start', 'end', 'duration', 'waitToSettleTimeoutMs'], at);
    const durationMs = millis(map['duration'], SWIPE_MS, at.where, 'duration');
    if (map['direction'] !== undefined) {
      // YamlSwipeDirection names the finger's way (SwipeDirection), not the content's.
      const [start, end] = SWIPES[direction(map['direction'], 'up', at.where)];
      return { op: 'swipe', start, end, durationMs, ...settleOf(map, at.where) };
    }
    return {
      op: 'swipe',
      start: str(map['start'], at.where, 'start'),
      end: str(map['end'], at.where, 'end'),
      durationMs,
      ...settleOf(map, at.where),
    };
  },
};

const READERS: Record<string, Reader> = { ...APP_COMMANDS, ...SCREEN_COMMANDS };

/** One command (its strings already substituted) as the operation droidbus runs; `schemes`: the app's own. */
export function opOf(
  name: string,
  v: unknown,
  appId: string,
  where: string,
  schemes: readonly string[] = [],
): FlowOp {
  const read = READERS[name];
  if (read === undefined) {
    throw new FlowError(`${where}: ${name} is not a command droidbus runs`);
  }
  return read(v, isRaw(v) ? v : null, { appId, where, name, schemes });
}
