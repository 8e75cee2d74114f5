/** What the ui tools share: argument schemas, the screen part of every answer, queries, input. */
import { exchangeLine } from '../../util/exchange-line.js';
import { screenSchema } from '../../bus/messages/ui.js';
import { z } from 'zod';
import type { DeviceToolContext } from '../define-device-tool.js';
import {
  THEN_WAIT_MS,
  findFields,
  findQuerySchema,
  screenHashSchema,
  uiElementSchema,
} from '../../bus/messages/ui.js';
import { responseOf } from '../responses.js';
import type { FindQueryPayload, InputAction, MaestroSelector } from '../../bus/messages/ui.js';
import { escapeRegExp } from '../../util/escape-regexp.js';
import type { ResponseOf } from '../../bus/registry.js';
import { ArgumentError } from '../define-tool.js';

export const MAX_TEXT_BYTES = 1000;
export const text = (what: string) =>
  z
    .string()
    .max(MAX_TEXT_BYTES)
    .refine((s) => Buffer.byteLength(s, 'utf8') <= MAX_TEXT_BYTES, `at most ${MAX_TEXT_BYTES} bytes (UTF-8)`)
    .describe(what);
export const expectHash = screenHashSchema.optional();
export const coordinate = (what: string) => z.number().int().min(0).max(100_000).describe(what);

export const screenOutput = screenSchema
  .pick({ screen_hash: true, title: true, node_count: true, rotation: true, overlays: true, reader: true })
  .extend({ device_serial: z.string() });

export type Screen = Pick<
  ResponseOf<'device.ui_hierarchy'>,
  'screen_hash' | 'title' | 'node_count' | 'rotation' | 'overlays' | 'reader'
>;

export function screenOf(serial: string, r: Screen) {
  return {
    device_serial: serial,
    screen_hash: r.screen_hash,
    title: r.title,
    node_count: r.node_count,
    rotation: r.rotation,
    overlays: r.overlays,
    reader: r.reader,
  };
}

/**
 * The first line of a screen answer. `overlayNote: false` leaves out what covers the app when the
 * answer says it elsewhere (the window manager's facts): one notice per condition per answer.
 */
export function screenLine(serial: string, r: Screen, overlayNote = true): string {
  return `${serial} · screen_hash ${r.screen_hash}${r.title ? ` · "${r.title}"` : ''}${r.overlays.app_package ? ` · ${r.overlays.app_package}` : ''}${overlayNote && r.overlays.note ? ` · ${r.overlays.note}` : ''}${r.reader === 'helper' ? ' · read by the UI helper' : ''}`;
}

export function elementLine(e: z.infer<typeof uiElementSchema>): string {
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
export const criteria = {
  text: findQuerySchema.shape.text,
  text_contains: findQuerySchema.shape.text_contains,
  resource_id: findQuerySchema.shape.resource_id,
  content_desc: findQuerySchema.shape.content_desc,
  class_name: findQuerySchema.shape.class_name,
  clickable: findQuerySchema.shape.clickable,
};
/**
 * The same criteria without their descriptions, for the tools whose description says "criteria as
 * find_ui_elements": the model reads them once, on find_ui_elements.
 */
export const criteriaAsFind = findFields;

/**
 * The find criteria of a call. `clickable` alone is a query of its own where the caller lists
 * (find_ui_elements: "what can I tap"); a wait or a scroll needs an element to look for.
 */
export function queryOf(
  args: Partial<Record<keyof typeof criteria, unknown>>,
  clickableAlone = false,
): FindQueryPayload {
  const query: FindQueryPayload = {};
  for (const key of Object.keys(criteria) as (keyof typeof criteria)[]) {
    if (args[key] !== undefined) {
      (query as Record<string, unknown>)[key] = args[key];
    }
  }
  const keys = Object.keys(query).filter((k) => clickableAlone || k !== 'clickable');
  if (keys.length === 0) {
    throw new ArgumentError(
      `Give at least one of text, text_contains, resource_id, content_desc${clickableAlone ? ', class_name or clickable' : ' or class_name'}.`,
    );
  }
  return query;
}

/**
 * A find query as the Maestro selector that finds the same element (for the debug session's steps):
 * text → the whole text; text_contains and content_desc → a pattern around them (Maestro's text
 * also matches content descriptions, ignoring case); resource_id → the id. A query Maestro cannot
 * say (a class, clickable) is named by the element it found, or by nothing.
 */
export function selectorOfQuery(
  q: FindQueryPayload,
  found: { text: string; resource_id: string; content_desc: string } | undefined,
): MaestroSelector | null {
  const around = (s: string) => `.*${escapeRegExp(s)}.*`;
  const text =
    q.text !== undefined
      ? escapeRegExp(q.text)
      : q.text_contains !== undefined
        ? around(q.text_contains)
        : q.content_desc !== undefined
          ? around(q.content_desc)
          : undefined;
  const id = q.resource_id !== undefined ? escapeRegExp(q.resource_id.split('/').pop()!) : undefined;
  if (text !== undefined || id !== undefined) {
    return { ...(text !== undefined ? { text } : {}), ...(id !== undefined ? { id } : {}) };
  }
  if (found === undefined) {
    return null;
  }
  if (found.resource_id !== '') {
    return { id: escapeRegExp(found.resource_id.split('/').pop()!) };
  }
  const name = found.text || found.content_desc;
  return name === '' ? null : { text: escapeRegExp(name.replace(/\n/g, ' ')) };
}

export function describeQuery(q: FindQueryPayload): string {
  return Object.entries(q)
    .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
    .join(' ');
}

/** The `then` parameter of the actions that navigate: wait for a text after acting. */
export const thenParam = z
  .string()
  .min(1)
  .max(1000)
  .optional()
  .describe(`Then wait (≤${THEN_WAIT_MS / 1000} s) for a text to show (part, any case)`);

type InputAnswer = ResponseOf<'device.ui_input'>;

/** The answer's lines about the screen an action left: a few hundred characters. */
export function describeAfter(r: Pick<InputAnswer, 'after' | 'after_note' | 'then'>): string {
  const lines: string[] = [];
  if (r.then) {
    lines.push(
      r.then.satisfied
        ? `Then: "${r.then.text}" showed after ${r.then.elapsed_ms} ms.`
        : r.then.screen_unchanged
          ? `Then: the screen did not change within ${THEN_WAIT_MS / 1000} s of the action ("${r.then.text}" was already on it, so it does not count).`
          : `Then: "${r.then.text}" did not show within ${THEN_WAIT_MS / 1000} s.`,
    );
  }
  const a = r.after;
  if (a === null) {
    lines.push(`${r.after_note ?? 'The screen was not read after the action.'}`);
    return lines.join('\n');
  }
  lines.push(
    `Screen now ${a.screen_hash}${a.title ? ` ("${a.title}")` : ''}${a.summary ? `: ${a.summary}` : ''}.`,
  );
  if (a.appeared.length > 0) {
    lines.push(`Appeared: ${a.appeared.join(', ')}.`);
  }
  if (a.disappeared.length > 0) {
    lines.push(`Gone: ${a.disappeared.join(', ')}.`);
  }
  if (a.changed_elements.length > 0) {
    lines.push(`Changed: ${a.changed_elements.join('; ')}.`);
  }
  const state = [
    a.focused ? `focused ${a.focused}` : null,
    a.keyboard ? 'keyboard open' : null,
    a.system_dialog ? `a system dialog of ${a.system_dialog} is over the app` : null,
    a.app_package ? `app ${a.app_package}` : null,
  ].filter(Boolean);
  if (state.length > 0) {
    lines.push(`${state.join('; ')}.`);
  }
  return lines.join('\n');
}

export async function input(
  ctx: DeviceToolContext,
  action: InputAction,
  expect: string | undefined,
  then?: string,
) {
  const { serial } = ctx;
  const result = await ctx.ask('device.ui_input', {
    input: action,
    ...(expect !== undefined ? { expect_screen_hash: expect } : {}),
    ...(then !== undefined ? { then } : {}),
  });
  const { steps, ...answer } = result;
  const e = answer.element;
  const network =
    answer.requests.length > 0 ? `\nNetwork: ${answer.requests.map(exchangeLine).join('; ')}.` : '';
  return {
    text: `${answer.done} (${serial})\n${describeAfter(answer)}${network}`,
    steps,
    structured: {
      device_serial: serial,
      ...answer,
      element: e && {
        tree_path: e.tree_path,
        label: e.label,
        class: e.class,
        resource_id: e.resource_id,
        center: e.center,
      },
    },
  };
}

/** An action's answer; the element acted on is named, not described in full (a read tool does that). */
export const actionOutput = responseOf('device.ui_input')
  .omit({ steps: true })
  .extend({
    device_serial: z.string(),
    element: uiElementSchema
      .pick({ tree_path: true, label: true, class: true, resource_id: true, center: true })
      .nullable(),
  });
