/** What the ui tools share: argument schemas, the screen part of every answer, queries, input. */
import { screenSchema } from '../../bus/messages/ui.js';
import { z } from 'zod';
import type { DeviceToolContext } from '../define-device-tool.js';
import { findFields, findQuerySchema, screenHashSchema, uiElementSchema } from '../../bus/messages/ui.js';
import type { FindQueryPayload, InputAction } from '../../bus/messages/ui.js';
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
  .pick({ screen_hash: true, node_count: true, rotation: true, overlays: true, reader: true })
  .extend({ device_serial: z.string() });

export type Screen = Pick<
  ResponseOf<'ui.hierarchy'>,
  'screen_hash' | 'node_count' | 'rotation' | 'overlays' | 'reader'
>;

export function screenOf(serial: string, r: Screen) {
  return {
    device_serial: serial,
    screen_hash: r.screen_hash,
    node_count: r.node_count,
    rotation: r.rotation,
    overlays: r.overlays,
    reader: r.reader,
  };
}

export function screenLine(serial: string, r: Screen): string {
  return `${serial} · screen_hash ${r.screen_hash}${r.overlays.app_package ? ` · ${r.overlays.app_package}` : ''}${r.overlays.note ? ` · ${r.overlays.note}` : ''}${r.reader === 'helper' ? ' · read by the UI helper' : ''}`;
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

export function queryOf(args: Partial<Record<keyof typeof criteria, unknown>>): FindQueryPayload {
  const query: FindQueryPayload = {};
  for (const key of Object.keys(criteria) as (keyof typeof criteria)[]) {
    if (args[key] !== undefined) {
      (query as Record<string, unknown>)[key] = args[key];
    }
  }
  if (Object.keys(query).filter((k) => k !== 'clickable').length === 0) {
    throw new ArgumentError(
      'Give at least one of text, text_contains, resource_id, content_desc or class_name.',
    );
  }
  return query;
}

export function describeQuery(q: FindQueryPayload): string {
  return Object.entries(q)
    .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
    .join(' ');
}

export async function input(ctx: DeviceToolContext, action: InputAction, expect: string | undefined) {
  const { serial } = ctx;
  const result = await ctx.ask('ui.input', {
    input: action,
    ...(expect !== undefined ? { expect_screen_hash: expect } : {}),
  });
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

export const actionOutput = z.object({
  device_serial: z.string(),
  done: z.string(),
  element: uiElementSchema.nullable(),
  commands: z.array(z.array(z.string())),
});
