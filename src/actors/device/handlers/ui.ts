/**
 * The device actor's UI handlers: captures read as hierarchies, rows, finds and diffs; waits and
 * selections that poll the screen; inputs and scrolls that change it; the on-device helper and UI
 * Automator lent to another client. All but the helper's own requests run in the `ui` lane.
 */
import { requestsSince } from '../ui/ui-requests.js';
import { BusError } from '../../../bus/errors.js';
import { requirePerson } from '../../../bus/origin.js';
import { displayOf, type UiBounds, type UiTree } from '../../../device/ui-dump/ui-types.js';
import { capture, changingScreen, screenLeft, type DeviceHandlers } from '../device-state.js';
import { listWindows } from '../extras/device-extras.js';
import { selectNodes } from '../ui/maestro-select.js';
import { performInput, refuseChangedScreen } from '../ui/ui-actions.js';
import { reusableCapture } from '../ui/ui-after.js';
import { clickablesAnswer, findAnswer, hierarchyAnswer } from '../ui/ui-answers.js';
import { screenFacts } from '../ui/ui-capture.js';
import { compareStates } from '../ui/ui-compare.js';
import { findParent, nodeAt, toElement } from '../ui/ui-query.js';
import { finishSteps } from '../ui/ui-steps.js';
import { matchesOf, scrollSwipe, waitOnScreen } from '../ui/ui-waits.js';

function sizeOf(b: UiBounds): { width: number; height: number } {
  return { width: b.right - b.left, height: b.bottom - b.top };
}

export const uiHandlers = {
  'device.helper': (_p, state, ctx) => state.helper.state(ctx.signal),
  'device.helper_install': (_p, state, ctx) => {
    requirePerson(ctx.origin, 'installs the on-device UI helper');
    return state.helper.install();
  },
  'device.helper_remove': (_p, state, ctx) => {
    requirePerson(ctx.origin, 'removes the on-device UI helper');
    return state.helper.remove();
  },
  'device.ui_lend': async (p, state, ctx) => ({
    serial: state.serial,
    // After a capture in flight (the ui lane), before any other: no reader starts the helper again.
    helper: await state.loan.lend(p.purpose, p.max_ms, ctx.signal),
  }),
  'device.ui_reclaim': async (p, state) => ({
    serial: state.serial,
    returned: await state.loan.reclaim(p.purpose),
  }),
  'device.ui_hierarchy': async (p, state, ctx) => {
    // The window manager's list beside the capture: a classic dump shows only the focused window,
    // so it cannot tell on its own what lies under or over it. Unreadable, it costs nothing.
    const [cap, windows] = await Promise.all([
      capture(state, ctx),
      listWindows(state.device, ctx).catch(() => null),
    ]);
    return hierarchyAnswer(cap, p, windows);
  },
  'device.ui_clickables': async (p, state, ctx) => clickablesAnswer(await capture(state, ctx), p.limit),
  'device.ui_find': async (p, state, ctx) => findAnswer(await capture(state, ctx), p),
  'device.ui_parent': async (p, state, ctx) => {
    const cap = await capture(state, ctx);
    refuseChangedScreen(cap, p.expect_screen_hash);
    const node = nodeAt(cap.tree, p.tree_path);
    if (!node) {
      throw new BusError(
        'NOT_FOUND',
        `no element at tree_path ${p.tree_path} on the current screen (screen_hash ${cap.hash})`,
      );
    }
    const parent = findParent(cap.tree, p.tree_path);
    return {
      ...screenFacts(cap),
      node: toElement(cap.tree, node),
      parent: parent ? toElement(cap.tree, parent) : null,
    };
  },
  'device.ui_compare': async (p, state, ctx) => {
    const before = state.read;
    const cap = await capture(state, ctx);
    if (!before) {
      return { ...screenFacts(cap), compared: false, baseline_age_ms: null, comparison: null };
    }
    return {
      ...screenFacts(cap),
      compared: true,
      baseline_age_ms: cap.at - before.at,
      comparison: compareStates(before.tree, cap.tree, p.limit) as unknown as Record<string, unknown>,
    };
  },
  'device.ui_wait': async (p, state, ctx) => {
    if (p.until === 'element' && !p.query) {
      throw new BusError('INVALID', 'waiting for an element needs a query');
    }
    // The first capture is always made; it may take until the wait's own end (and a little
    // more, so that a screen read just before the end still counts), never the request's 65 s.
    // A floor of 3 s: one dump takes 1–3 s on real phones.
    const end = Date.now() + Math.max(p.timeout_ms, 3_000) + 1_500;
    const outcome = await waitOnScreen(
      () => capture(state, ctx, end),
      { until: p.until, query: p.query, gone: p.gone, timeoutMs: p.timeout_ms, intervalMs: p.interval_ms },
      ctx,
    );
    return {
      ...screenFacts(outcome.last),
      satisfied: outcome.satisfied,
      elapsed_ms: outcome.elapsed_ms,
      captures: outcome.captures,
      matches: outcome.matches,
    };
  },
  'device.ui_select': async (p, state, ctx) => {
    // As ui_wait: the first capture may take until the wait's own end, never the request's.
    const end = Date.now() + Math.max(p.timeout_ms, 3_000) + 1_500;
    const select = (tree: UiTree) => selectNodes(tree, p.selector).map((n) => toElement(tree, n));
    // A flow's next lookup may read the screen the last action's answer just read (ui-after.ts).
    // Only an action's own after-capture, read at most 500 ms before and with no action since: a
    // capture a read made may show a screen that changed by itself since (Maestro reads anew).
    let reuse =
      p.fresh || !state.lastAfter
        ? null
        : reusableCapture(state.last, state.lastActions === state.actions, undefined);
    const outcome = await waitOnScreen(
      async () => {
        const fresh = reuse ?? (await capture(state, ctx, end));
        reuse = null;
        return fresh;
      },
      {
        until: 'element',
        query: undefined,
        select,
        gone: p.gone,
        timeoutMs: p.timeout_ms,
        intervalMs: p.interval_ms,
      },
      ctx,
    );
    return {
      ...screenFacts(outcome.last),
      satisfied: outcome.satisfied,
      elapsed_ms: outcome.elapsed_ms,
      element: outcome.matches[0] ?? null,
      count: outcome.matches.length,
      display: sizeOf(displayOf(outcome.last.tree)),
    };
  },
  'device.ui_input': async (p, state, ctx) => {
    const started = Date.now();
    // The screen before the action: the capture the action resolved against, else the last one.
    let before = state.last;
    const done = await changingScreen(state, () =>
      performInput(
        {
          device: state.device,
          helper: state.helper,
          signal: ctx.signal,
          capture: async () =>
            (before =
              reusableCapture(state.last, state.lastActions === state.actions, p.expect_screen_hash) ??
              (await capture(state, ctx))),
        },
        p.input,
        p.expect_screen_hash,
      ),
    );
    const left = await screenLeft(state, ctx, before, p.then);
    const requests = state.proxyPort ? await requestsSince(state.serial, started, ctx) : [];
    return { ...done, ...left, steps: finishSteps(p.input, done.steps, left, before, state.last), requests };
  },
  'device.ui_scroll_until': async (p, state, ctx) => {
    let cap = await capture(state, ctx);
    refuseChangedScreen(cap, p.expect_screen_hash);
    let swipes = 0;
    let reachedEnd = false;
    for (;;) {
      const found = matchesOf(cap.tree, p.query);
      ctx.progress({
        progress: swipes,
        total: p.max_swipes,
        message: found.matches.length > 0 ? 'found' : `swipe ${swipes} of ${p.max_swipes}: not yet`,
      });
      if (found.matches.length > 0 || swipes >= p.max_swipes || reachedEnd) {
        return {
          ...screenFacts(cap),
          found: found.matches.length > 0,
          swipes,
          reached_end: reachedEnd,
          matches: found.matches,
        };
      }
      const { x1, y1, x2, y2 } = scrollSwipe(cap.tree, p.direction);
      await performInput(
        {
          device: state.device,
          helper: state.helper,
          signal: ctx.signal,
          capture: () => capture(state, ctx),
        },
        { action: 'swipe', x1, y1, x2, y2, duration_ms: 300 },
        undefined,
      );
      swipes++;
      const before = cap.hash;
      cap = await capture(state, ctx);
      reachedEnd = cap.hash === before;
    }
  },
} satisfies Partial<DeviceHandlers>;
