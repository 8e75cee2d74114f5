/** The ui tools that wait: for an element (or its absence), for an idle screen, and assert one. */
import { z } from 'zod';
import type { DeviceToolContext } from '../define-device-tool.js';
import type { FindQueryPayload } from '../../bus/messages/ui.js';
import { ToolError } from '../define-tool.js';
import { defineDeviceTool } from '../define-device-tool.js';
import { responseOf } from '../responses.js';
import {
  criteriaAsFind,
  describeQuery,
  elementLine,
  queryOf,
  screenOf,
  screenOutput,
  selectorOfQuery,
} from './ui-shared.js';

const waited = responseOf('device.ui_wait').shape;
const waitOutput = screenOutput.extend({
  satisfied: waited.satisfied,
  elapsed_ms: waited.elapsed_ms,
  captures: waited.captures,
  matches: waited.matches,
});

async function wait(
  ctx: DeviceToolContext,
  until: 'element' | 'idle',
  query: FindQueryPayload | undefined,
  gone: boolean,
  timeoutMs: number,
) {
  const { serial } = ctx;
  const r = await ctx.bus.request(
    'device.ui_wait',
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

export const waitForElement = defineDeviceTool({
  name: 'wait_for_element',
  answers: 'device.ui_wait',
  toolset: 'ui',
  kind: 'read',
  title: 'Wait for an element',
  description:
    'Captures the screen until an element matching the criteria (as find_ui_elements) appears (or, with gone: true, disappears), up to timeout_ms. Use it instead of fixed sleeps.',
  input: z.object({
    ...criteriaAsFind,
    gone: z.boolean().default(false).describe('Wait until no element matches instead'),
    timeout_ms: timeout(15_000),
  }),
  output: waitOutput,
  async handle(args, ctx) {
    const query = queryOf(args);
    const { serial, r, structured } = await wait(ctx, 'element', query, args.gone, args.timeout_ms);
    if (!r.satisfied) {
      throw new ToolError(
        `${args.gone ? 'Still on screen' : 'Not on screen'} after ${r.elapsed_ms} ms (${r.captures} captures): ${describeQuery(query)} on ${serial} (screen_hash ${r.screen_hash}). Read the screen with get_ui_hierarchy to see what is there.`,
        structured,
      );
    }
    const selector = selectorOfQuery(query, r.matches[0]);
    return {
      text: `${args.gone ? 'Gone' : 'Found'} after ${r.elapsed_ms} ms (${r.captures} captures): ${describeQuery(query)}\n${r.matches.map(elementLine).join('\n')}`.trim(),
      structured,
      steps:
        selector === null
          ? []
          : [
              args.gone
                ? { do: 'assert', selector, visible: false }
                : { do: 'wait', selector, timeout_ms: args.timeout_ms },
            ],
    };
  },
});

export const uiWaitForIdle = defineDeviceTool({
  name: 'ui_wait_for_idle',
  answers: 'device.ui_wait',
  toolset: 'ui-extras',
  kind: 'read',
  title: 'Wait until the screen settles',
  description:
    'Captures the screen until two captures in a row are the same (animations and loading done), up to timeout_ms. Sends progress notifications; cancellable.',
  input: z.object({ timeout_ms: timeout(5_000) }),
  output: waitOutput,
  async handle(args, ctx) {
    const { serial, r, structured } = await wait(ctx, 'idle', undefined, false, args.timeout_ms);
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

export const uiAssertElement = defineDeviceTool({
  name: 'ui_assert_element',
  answers: 'device.ui_wait',
  toolset: 'ui-extras',
  kind: 'read',
  title: 'Assert an element',
  description:
    'Checks that an element matching the criteria (as find_ui_elements) is on screen (or, with should_exist: false, is not), waiting up to timeout_ms for it. A failed assertion is a tool error.',
  input: z.object({
    ...criteriaAsFind,
    should_exist: z.boolean().default(true).describe('false asserts that no element matches'),
    timeout_ms: timeout(5_000),
  }),
  output: waitOutput,
  async handle(args, ctx) {
    const query = queryOf(args);
    const { r, structured } = await wait(ctx, 'element', query, !args.should_exist, args.timeout_ms);
    if (!r.satisfied) {
      throw new ToolError(
        `Assertion failed: ${describeQuery(query)} ${args.should_exist ? 'is not on screen' : 'is still on screen'} after ${r.elapsed_ms} ms.`,
        structured,
      );
    }
    const selector = selectorOfQuery(query, r.matches[0]);
    return {
      text: `Assertion holds: ${describeQuery(query)} ${args.should_exist ? 'is on screen' : 'is not on screen'}.`,
      structured,
      steps: selector === null ? [] : [{ do: 'assert', selector, visible: args.should_exist }],
    };
  },
});

export const uiWaitTools = [waitForElement, uiWaitForIdle, uiAssertElement];
