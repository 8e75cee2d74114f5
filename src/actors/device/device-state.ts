/**
 * What one device's actor keeps (its handle, the last captures, the helper, the label cache) and
 * the three steps every screen-changing handler shares: a capture, an action that changes the
 * screen, and the screen that action left. The handlers by concern (handlers/) work on it.
 */
import type { WebForwards } from './web/webviews.js';
import type { Handlers, HandlerContext } from '../actor.js';
import type { Device } from '../../device/device.js';
import type { LabelCache } from './apps/app-labels.js';
import {
  captureUi,
  isNeverIdle,
  NEVER_IDLE_MEMORY_MS,
  neverIdleError,
  type Capture,
} from './ui/ui-capture.js';
import { screenAfter } from './ui/ui-after.js';
import { DISPLAY_MAX_AGE_MS, noteDisplay, readDisplay, type DisplaySize } from './ui/ui-display.js';
import type { UiHelper } from './ui/ui-helper-reader.js';
import type { UiLoan } from './ui/ui-loan.js';

export interface DeviceState {
  /** The device's handle: every command the actor runs goes through it. */
  device: Device;
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
  /** Whether `last` is an action's own after-capture (the screen the action left), not a read. */
  lastAfter: boolean;
  /** The display's size (`wm size`), read beside a capture; null when it could not be read. */
  display?: DisplaySize | null;
  /** When `display` was read (it is read again, beside a capture, once DISPLAY_MAX_AGE_MS old). */
  displayAt?: number;
  /** The on-device UI helper's whole life on this device. */
  helper: UiHelper;
  /** App labels read from APKs (list_apps), kept per APK and locale. */
  labels: LabelCache;
  /** UI Automator lent to another client (device.ui_lend), when it is. */
  loan: UiLoan;
  /** A network capture routes this device through droidbus's proxy (its port): UI answers name requests. */
  proxyPort?: number | null;
  /** Local ports forwarded to the device's devtools sockets (WebViews), by socket name. */
  webForwards: WebForwards;
}

/** The device actor's handler map, which the concern files fill in part each. */
export type DeviceHandlers = Handlers<'device', DeviceState>;

/**
 * A capture for a request; `deadline` narrows it (a wait's own timeout counts the dump's idle wait).
 * An action's after-capture (`after`) is not a read: compare_ui_state's baseline stays.
 */
export async function capture(
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
    // The display's size is read beside the dump when it is not known or is getting old.
    const started = Date.now();
    const reading =
      state.display === undefined || started - (state.displayAt ?? 0) > DISPLAY_MAX_AGE_MS
        ? readDisplay(state.device, ctx.signal)
        : null;
    const [taken, size] = await Promise.all([
      captureUi(state.helper, ctx.signal, Math.min(deadline, ctx.deadline)),
      reading ?? state.display ?? null,
    ]);
    if (reading !== null) {
      state.display = size;
      state.displayAt = started;
    }
    noteDisplay(taken.tree, size);
    state.last = taken;
    state.lastActions = actions;
    state.lastAfter = after;
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
export async function changingScreen<T>(state: DeviceState, action: () => Promise<T>): Promise<T> {
  try {
    return await action();
  } finally {
    state.neverIdleSince = null;
    state.actions++;
  }
}

/** The screen an action left, compared with `before`: one after-capture, or a `then` wait. */
export function screenLeft(state: DeviceState, ctx: HandlerContext, before: Capture | null, then?: string) {
  return screenAfter(() => capture(state, ctx, ctx.deadline, true), before, then, ctx);
}
