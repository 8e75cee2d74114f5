import { requireBroadcastScope, requirePackageInScope } from './apps/package-scope.js';
import os from 'node:os';
import { READS, readCommand } from '../../adb/device-reads.js';
import { BusError } from '../../bus/errors.js';
import type { PayloadOf, ResponseOf } from '../../bus/registry.js';
import { defineActor } from '../actor.js';
import type { HandlerContext } from '../actor.js';
import { withAdbErrors } from '../adb-errors.js';
import { DEFAULT_GROUPS } from '../kinds.js';
import { createPool, type TaskPool } from '../pool.js';
import { adbClient } from '../adb-instance.js';
import { listDeviceFiles, pullDeviceFile, pushDeviceFile } from './extras/device-files.js';
import { listApps, listWindows, readLocation } from './extras/device-extras.js';
import { setEmulatorLocation } from './extras/emulator-geo.js';
import { changePermission, stopApp } from './apps/app-control.js';
import { installApk } from './apps/app-install.js';
import { launchApp, restartApp } from './apps/app-launch.js';
import { deviceShell } from './device-shell.js';
import { setNetworkState } from './extras/network-state.js';
import { setOrientation } from './extras/orientation.js';
import { sendIntent } from './apps/intent-command.js';
import { actOnNotification, listNotifications } from './extras/notification-actions.js';
import { deviceInfo } from './device-info.js';
import type { ScreenshotResults, ScreenshotTask } from './screenshot/screenshot-task.js';
import { answerFormat } from './screenshot/screenshot-format.js';
import {
  captureUi,
  isNeverIdle,
  NEVER_IDLE_MEMORY_MS,
  neverIdleError,
  screenFacts,
} from './ui/ui-capture.js';
import type { Capture } from './ui/ui-capture.js';
import { compareStates } from './ui/ui-compare.js';
import { clickablesAnswer, findAnswer, hierarchyAnswer } from './ui/ui-answers.js';
import { findParent, interactiveRows, nodeAt, toElement } from './ui/ui-query.js';
import { performInput, refuseChangedScreen } from './ui/ui-actions.js';
import { finishSteps } from './ui/ui-steps.js';
import { UiHelper } from './ui/ui-helper-reader.js';
import { UiLoan } from './ui/ui-loan.js';
import type { LabelCache } from './apps/app-labels.js';
import { requirePerson } from '../../bus/origin.js';
import { reusableCapture, screenAfter } from './ui/ui-after.js';
import { matchesOf, scrollSwipe, waitOnScreen } from './ui/ui-waits.js';
import { displayOf, type UiBounds, type UiResult, type UiTree } from './ui/ui-types.js';
import { selectNodes } from './ui/maestro-select.js';
import { noteDisplay, type DisplaySize } from './ui/ui-display.js';

interface DeviceState {
  serial: string;
  /** The latest capture. */
  last: Capture | null;
  /**
   * The latest capture but an action's own after-capture: the baseline compare_ui_state diffs
   * against (what changed since the screen was last read; an action's answer tells its own change).
   */
  read: Capture | null;
  /** When a dump last found the screen never idle; cleared when something changes the screen. */
  neverIdleSince: number | null;
  /** How many times droidbus acted on the screen; a capture started before the last one is stale. */
  actions: number;
  /** `actions` when `last` started. */
  lastActions: number;
  /** The display's size (`wm size`), read with the first capture; null when it could not be read. */
  display?: DisplaySize | null;
  /** The on-device UI helper's whole life on this device. */
  helper: UiHelper;
  /** App labels read from APKs (list_apps), kept per APK and locale. */
  labels: LabelCache;
  /** UI Automator lent to another client (device.ui_lend), when it is. */
  loan: UiLoan;
}

let imagePool: TaskPool<ScreenshotTask, ScreenshotResults> | undefined;
/**
 * One image pool per device thread, started on the first screenshot; together the pools have about
 * one scaling thread per core (at most 4 per device thread). Scaling streams the capture, so a
 * thread holds little memory.
 */
function screenshots(): TaskPool<ScreenshotTask, ScreenshotResults> {
  imagePool ??= createPool<ScreenshotTask, ScreenshotResults>({
    module: new URL('./screenshot/screenshot-task.js', import.meta.url),
    name: 'screenshots',
    maxThreads: Math.min(4, Math.max(1, Math.floor(os.availableParallelism() / DEFAULT_GROUPS.devices!))),
    idleTimeoutMs: 60_000,
  });
  return imagePool;
}

/**
 * A capture for a request; `deadline` narrows it (a wait's own timeout counts the dump's idle wait).
 * An action's after-capture (`after`) is not a read: compare_ui_state's baseline stays.
 */
async function capture(
  state: DeviceState,
  ctx: HandlerContext,
  deadline = ctx.deadline,
  after = false,
): Promise<Capture> {
  // Polling tools (waits, scrolls) would pay the 10 s idle wait on every poll: take the last answer.
  if (state.neverIdleSince !== null && Date.now() - state.neverIdleSince < NEVER_IDLE_MEMORY_MS) {
    throw neverIdleError(state.serial, state.neverIdleSince);
  }
  try {
    const actions = state.actions;
    const taken = await captureUi(state.helper, ctx.signal, Math.min(deadline, ctx.deadline));
    state.display = await noteDisplay(taken.tree, state.display, state.serial, ctx.signal);
    state.last = taken;
    state.lastActions = actions;
    if (!after) {
      state.read = taken;
    }
    state.neverIdleSince = null;
    return taken;
  } catch (err) {
    if (isNeverIdle(err)) {
      state.neverIdleSince = Date.now();
    }
    throw err;
  }
}

/**
 * Runs an action that may change the screen. Once it ends (done or failed: a command may have run),
 * the never-idle memory no longer holds and every capture started before now is stale.
 */
async function changingScreen<T>(state: DeviceState, action: () => Promise<T>): Promise<T> {
  try {
    return await action();
  } finally {
    state.neverIdleSince = null;
    state.actions++;
  }
}

/** The screen an action left, compared with `before`: one after-capture, or a `then` wait. */
function screenLeft(state: DeviceState, ctx: HandlerContext, before: Capture | null, then?: string) {
  return screenAfter(() => capture(state, ctx, ctx.deadline, true), before, then, ctx);
}

function sizeOf(b: UiBounds): { width: number; height: number } {
  return { width: b.right - b.left, height: b.bottom - b.top };
}

function unwrapImage<T>(result: UiResult<T>): T {
  if (!result.ok) {
    throw new BusError(result.error.code === 'INVALID_ARGUMENT' ? 'INVALID' : 'FAILED', result.error.message);
  }
  return result.value;
}

async function screenshot(
  state: DeviceState,
  payload: PayloadOf<'device.screenshot'>,
  ctx: HandlerContext,
): Promise<ResponseOf<'device.screenshot'>> {
  const format = answerFormat(payload);
  if (payload.full_size === true && format !== 'png') {
    throw new BusError(
      'INVALID',
      'full_size returns the capture byte for byte, which is a PNG: leave out format',
    );
  }
  const raw = await withAdbErrors(() =>
    adbClient().exec(state.serial, readCommand(READS.screencap), {
      signal: ctx.signal,
      timeoutMs: 30_000,
      maxBytes: 33 * 1024 * 1024,
    }),
  );
  const png = new Uint8Array(raw.buffer, raw.byteOffset, raw.byteLength);
  const scaleTask = {
    op: 'scale' as const,
    png,
    ...(payload.max_dimension !== undefined ? { max_dimension: payload.max_dimension } : {}),
    ...(payload.full_size !== undefined ? { full_size: payload.full_size } : {}),
    // Encoded once from the averaged pixels; an annotated image is drawn on a PNG, then encoded.
    format: payload.annotate ? 'png' : format,
  } satisfies ScreenshotTask;
  const scaled = unwrapImage(await screenshots().run(scaleTask, { signal: ctx.signal }));
  let image = scaled.image;
  let legend: ResponseOf<'device.screenshot'>['legend'] = null;
  if (payload.annotate) {
    const cap = await capture(state, ctx);
    const rows = interactiveRows(cap.tree, 500).rows.map((r) => ({
      n: r.n,
      tree_path: r.tree_path,
      label: r.label,
      bounds: r.bounds,
    }));
    const annotated = unwrapImage(
      await screenshots().run(
        { op: 'annotate', png: image, rows, scale: scaled.scale },
        { signal: ctx.signal },
      ),
    );
    image = annotated.png;
    legend = annotated.legend;
  }
  if (payload.annotate && format !== 'png') {
    image = unwrapImage(
      await screenshots().run({ op: 'encode', png: image, format }, { signal: ctx.signal }),
    );
  }
  return {
    png: image as Uint8Array<ArrayBuffer>,
    mime: `image/${format}`,
    deviceWidth: scaled.deviceWidth,
    deviceHeight: scaled.deviceHeight,
    imageWidth: scaled.imageWidth,
    imageHeight: scaled.imageHeight,
    scale: scaled.scale,
    resized: scaled.resized,
    hint: scaled.hint,
    legend,
    capture_bytes: raw.byteLength,
  };
}

/**
 * The device actor, one per device: it owns UI Automator captures (one at a time, also across
 * processes), input and screenshots for its device. Captures and input share the `ui` lane so an
 * action never lands in the middle of a capture; screenshots and facts run beside them.
 */
export default defineActor({
  kind: 'device',
  concurrency: 4,
  lanes: {
    'device.ui_hierarchy': 'ui',
    'device.ui_clickables': 'ui',
    'device.ui_find': 'ui',
    'device.ui_parent': 'ui',
    'device.ui_compare': 'ui',
    'device.ui_wait': 'ui',
    'device.ui_select': 'ui',
    'device.ui_input': 'ui',
    'device.ui_scroll_until': 'ui',
    'device.act_on_notification': 'ui',
    'device.ui_lend': 'ui',
    // One app change at a time per device: an install, then its launch, never interleaved.
    'device.install_app': 'app',
    'device.launch_app': 'app',
    'device.restart_app': 'app',
    'device.stop_app': 'app',
    'device.set_permission': 'app',
  },
  startTimeoutMs: 30_000,
  async start(ctx) {
    const serial = ctx.key!;
    // Only devices adb lists as `device` get an actor; otherwise the start fails DEVICE_OFFLINE.
    await ctx.bus.request('devices.require', { serial });
    const helper = new UiHelper(serial);
    const state: DeviceState = {
      serial,
      last: null,
      read: null,
      neverIdleSince: null,
      actions: 0,
      lastActions: 0,
      helper,
      labels: new Map(),
      loan: new UiLoan(helper),
    };
    return state;
  },
  async stop(state, ctx) {
    await state.loan.end();
    // Leaving (the process ends, the device goes): the phone's screen may sleep again.
    await state.helper.release();
    adbClient().forget(ctx.key!);
    // Its instrumentation stream and port forward went with the device: read it afresh when it is back.
    state.helper.forget();
  },
  handlers: {
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
        listWindows(state.serial, ctx).catch(() => null),
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
      let reuse = reusableCapture(state.last, state.lastActions === state.actions, undefined);
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
      // The screen before the action: the capture the action resolved against, else the last one.
      let before = state.last;
      const done = await changingScreen(state, () =>
        performInput(
          {
            serial: state.serial,
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
      return { ...done, ...left, steps: finishSteps(p.input, done.steps, left, before, state.last) };
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
            serial: state.serial,
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
    'device.screenshot': (p, state, ctx) => screenshot(state, p, ctx),
    'device.info': (_p, state, ctx) => deviceInfo(state, ctx),
    'device.notifications': (p, state, ctx) => listNotifications(state.serial, p, ctx),
    'device.act_on_notification': (p, state, ctx) =>
      actOnNotification(state.serial, p, () => capture(state, ctx), ctx),
    'device.list_files': (p, state, ctx) => listDeviceFiles(state.serial, p, ctx),
    'device.pull_file': (p, state, ctx) => pullDeviceFile(state.serial, p, ctx),
    'device.push_file': (p, state, ctx) => pushDeviceFile(state.serial, p, ctx),
    'device.send_intent': async (p, state, ctx) => {
      if (p.mode === 'broadcast') {
        await requireBroadcastScope(
          ctx,
          p.scope,
          p.component?.slice(0, p.component.indexOf('/')) ?? p.package,
        );
      }
      return changingScreen(state, () => sendIntent(state.serial, p, ctx));
    },
    'device.list_apps': (p, state, ctx) => listApps(state.serial, state.labels, p, ctx),
    'device.windows': (_p, state, ctx) => listWindows(state.serial, ctx),
    'device.location': (_p, state, ctx) => readLocation(state.serial, ctx),
    'device.set_emulator_location': (p, state, ctx) =>
      setEmulatorLocation(state.serial, p.latitude, p.longitude, p.altitude, ctx.signal),
    'device.install_app': (p, state, ctx) => installApk(state.serial, p, ctx),
    'device.launch_app': async (p, state, ctx) => {
      const before = state.last;
      const launched = await changingScreen(state, () => launchApp(state.serial, p, ctx));
      const { after, after_note } = await screenLeft(state, ctx, before);
      return { ...launched, after, after_note };
    },
    'device.restart_app': async (p, state, ctx) => {
      await requirePackageInScope(ctx, p.scope, p.package);
      const before = state.last;
      const restarted = await changingScreen(state, () => restartApp(state.serial, p, ctx));
      const { after, after_note } = await screenLeft(state, ctx, before);
      return { ...restarted, after, after_note };
    },
    'device.stop_app': async (p, state, ctx) => {
      await requirePackageInScope(ctx, p.scope, p.package);
      return changingScreen(state, () => stopApp(state.serial, p, ctx));
    },
    'device.set_permission': async (p, state, ctx) => {
      await requirePackageInScope(ctx, p.scope, p.package);
      return changePermission(state.serial, p, ctx);
    },
    'device.network': (p, state, ctx) =>
      setNetworkState(state.serial, deviceShell(state.serial, ctx.signal), p),
    'device.orientation': (p, state, ctx) =>
      setOrientation(state.serial, deviceShell(state.serial, ctx.signal), p),
  },
});
