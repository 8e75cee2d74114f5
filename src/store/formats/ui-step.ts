/**
 * A file format: the UI steps a debug session keeps of an agent's actions (issue 59), from which
 * `export_test` writes a Maestro flow. A step says what was done in Maestro's terms — elements by
 * the selector Maestro would find them with — never how droidbus did it. Text typed into a password
 * field is never kept: the step says `secret` and the flow gets a variable. Add fields as optional.
 */
import { z } from 'zod';

/**
 * An element as a Maestro selector selects it (maestro-orchestra `YamlElementSelector`, v1.39.10):
 * `text` is a regex matched against the text, hint and content description; `id` a regex against
 * the resource id, whole or after its last `/`; `index` the n-th match top to bottom, left to right.
 */
export const maestroSelectorSchema = z
  .object({
    text: z.string().max(1000).optional(),
    id: z.string().max(300).optional(),
    index: z.number().int().min(0).max(1000).optional(),
    enabled: z.boolean().optional(),
    checked: z.boolean().optional(),
    focused: z.boolean().optional(),
    selected: z.boolean().optional(),
  })
  .strict();
export type MaestroSelector = z.infer<typeof maestroSelectorSchema>;

const point = z.object({ x: z.number().int(), y: z.number().int() });
/** The display a point was on, so that a flow can say it in percent and fit other screens. */
const screen = z.object({ width: z.number().int().min(1), height: z.number().int().min(1) });

export const uiStepSchema = z.discriminatedUnion('do', [
  z.object({ do: z.literal('launch'), package: z.string(), clear_state: z.boolean() }),
  z.object({ do: z.literal('stop'), package: z.string() }),
  z.object({
    do: z.literal('tap'),
    /** null for a tap on a point where no element was named. */
    selector: maestroSelectorSchema.nullable(),
    point: point.nullable(),
    screen: screen.nullable(),
  }),
  z.object({
    do: z.literal('type'),
    /** null when the field was a password field (`secret`): the text is not kept. */
    text: z.string().max(1000).nullable(),
    secret: z.boolean(),
    /** What the field is called, for the variable's name (its resource id's last part or label). */
    field: z.string().max(200).nullable(),
  }),
  z.object({ do: z.literal('erase'), characters: z.number().int().min(1).nullable() }),
  z.object({ do: z.literal('key'), key: z.string().max(64) }),
  z.object({ do: z.literal('hide_keyboard') }),
  z.object({
    do: z.literal('swipe'),
    from: point,
    to: point,
    screen: screen.nullable(),
    duration_ms: z.number().int(),
  }),
  z.object({
    do: z.literal('scroll_until'),
    selector: maestroSelectorSchema,
    direction: z.enum(['down', 'up', 'left', 'right']),
  }),
  /** Waited for an element to show (an action's `then`, wait_for_element). */
  z.object({ do: z.literal('wait'), selector: maestroSelectorSchema, timeout_ms: z.number().int() }),
  z.object({ do: z.literal('assert'), selector: maestroSelectorSchema, visible: z.boolean() }),
  z.object({ do: z.literal('open_link'), url: z.string().max(2000) }),
  /**
   * What the screen showed after the step before it: one element that names it (the flow's last
   * assertion), and the package it belongs to (absent in sessions recorded before it was kept).
   */
  z.object({
    do: z.literal('screen'),
    selector: maestroSelectorSchema,
    package: z.string().max(255).optional(),
  }),
]);
export type UiStep = z.infer<typeof uiStepSchema>;

/** Steps one tool call may add to a session. */
export const MAX_STEPS_PER_ACTION = 24;
