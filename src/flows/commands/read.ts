/**
 * What every command's reader shares: the fields and value forms of maestro-orchestra's
 * `YamlFluentCommand` and `YamlElementSelector` (mobile-dev-inc/maestro v1.39.10, dcd2f206) — a
 * command as a one-key map or a bare name, texts, booleans, milliseconds, directions, selectors,
 * and unknown fields refused by name (a field droidbus would not act on is never silently dropped).
 */
import type { MaestroSelector } from '../../bus/messages/ui.js';

export class FlowError extends Error {}

export type Raw = Record<string, unknown>;

/** Where a command is read, for its errors and defaults. */
export interface ReadContext {
  /** The flow's app (a command naming none acts on it). */
  appId: string;
  /** "file:line", prefixed to every error. */
  where: string;
  /** The command's name as written (`assertVisible`). */
  name: string;
  /** The URI schemes the app declares (openLink). */
  schemes: readonly string[];
}

export type Direction = 'down' | 'up' | 'left' | 'right';

/** maestro-orchestra `Orchestra`: how long an element is looked for (17 s; 7 s when optional). */
export const LOOKUP_TIMEOUT_MS = 17_000;
export const OPTIONAL_LOOKUP_TIMEOUT_MS = 7_000;

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

/** Selector fields droidbus matches (maestro-select.ts); Maestro's relative and size ones are refused. */
const SELECTOR_FIELDS = new Set(['text', 'id', 'index', 'enabled', 'checked', 'focused', 'selected']);
/** Fields every command may carry. */
const COMMON_FIELDS = new Set(['label', 'optional']);

export function refuseUnknown(value: Raw, allowed: Set<string>, where: string, what: string): void {
  const extra = Object.keys(value).filter((k) => !allowed.has(k) && !COMMON_FIELDS.has(k));
  if (extra.length > 0) {
    const known = what === 'selector' ? [...SELECTOR_FIELDS] : [...allowed, ...COMMON_FIELDS];
    throw new FlowError(
      `${where}: ${what} field${extra.length > 1 ? 's' : ''} ${extra.join(', ')} ${extra.length > 1 ? 'are' : 'is'} not supported by droidbus (it reads ${known.join(', ')})`,
    );
  }
}

/** A long form's fields, only those named (the common ones besides). */
export function only(map: Raw | null, fields: readonly string[], at: ReadContext): void {
  if (map) {
    refuseUnknown(map, new Set(fields), at.where, at.name);
  }
}

export function bool(v: unknown, where: string, field: string): boolean | undefined {
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
export function millis(v: unknown, fallback: number, where: string, field: string): number {
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
export function settleOf(map: Raw | null, where: string): { settleMs?: number } {
  const v = map?.['waitToSettleTimeoutMs'];
  return v === undefined
    ? {}
    : { settleMs: Math.min(MAX_SETTLE_MS, millis(v, 0, where, 'waitToSettleTimeoutMs')) };
}

/**
 * A selector as toElementSelector reads it: a string is a text regex. `commandFields`: the fields the
 * command itself keeps in the same map (tapOn's `retryTapIfNoChange` beside the selector's `text`).
 */
export function selectorOf(
  v: unknown,
  where: string,
  commandFields: readonly string[] = [],
): MaestroSelector {
  if (typeof v === 'string' || typeof v === 'number') {
    return { text: String(v) };
  }
  if (!isRaw(v)) {
    throw new FlowError(`${where}: an element is a text or a map of text, id, index…`);
  }
  refuseUnknown(v, new Set([...SELECTOR_FIELDS, ...commandFields]), where, 'selector');
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

export function direction(v: unknown, fallback: Direction, where: string): Direction {
  if (v === undefined || v === null) {
    return fallback;
  }
  const d = DIRECTIONS[str(v, where, 'direction').toUpperCase()];
  if (d === undefined) {
    throw new FlowError(`${where}: direction is UP, DOWN, LEFT or RIGHT`);
  }
  return d;
}

/** A point as Maestro writes one: "x,y" in pixels or "x%,y%" of the display. */
export function pointSpec(v: unknown, where: string, field: string): string {
  const spec = str(v, where, field);
  if (!/^\s*\d+(\.\d+)?%?\s*,\s*\d+(\.\d+)?%?\s*$/.test(spec)) {
    throw new FlowError(`${where}: ${field} is "x,y" in pixels or "x%,y%"`);
  }
  return spec;
}

/** The app a command names (its appId, its short form), else the flow's. */
export function appOf(v: unknown, map: Raw | null, at: ReadContext): string {
  if (map) {
    return str(map['appId'] ?? map['url'] ?? at.appId, at.where, 'appId');
  }
  return v === null ? at.appId : str(v, at.where, 'appId');
}
