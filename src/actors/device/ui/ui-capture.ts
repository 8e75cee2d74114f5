import { BusError } from '../../../bus/errors.js';
import type { Device } from '../../../device/device.js';
import { READ_ANSWERS, READS, readCommand } from '../../../device/reads.js';
import { parseUiDump } from '../../../device/ui-dump/ui-parse.js';
import { screenHash } from './ui-screen-hash.js';
import { detectOverlays } from './ui-overlays.js';
import { titleOf } from './ui-query.js';
import type { UiTree } from '../../../device/ui-dump/ui-types.js';
import { withUiAutomatorLock } from './ui-lock.js';
import { sleep } from '../../../util/sleep.js';
import { logger } from '../../../util/log.js';
import { ForeignSessionError, type UiHelper } from './ui-helper-reader.js';

const log = logger('ui-capture');

/** Each `uiautomator dump` attempt may take this long. */
export const DUMP_ATTEMPT_MS = 25_000;
/**
 * A whole capture — waiting for the device, retries included — may take this long (60 s, the
 * reference's CAPTURE_TOTAL_DEADLINE; DROIDBUS_CAPTURE_DEADLINE_MS shortens it, for tests and
 * impatient setups).
 */
export const CAPTURE_TOTAL_MS = Math.min(
  60_000,
  Number(process.env['DROIDBUS_CAPTURE_DEADLINE_MS']) || 60_000,
);
const RETRY_PAUSE_MS = 300;

/** Which reader served a capture. */
export type UiReader = 'helper' | 'uiautomator-dump';

/** One read of the screen. */
export interface Capture {
  tree: UiTree;
  hash: string;
  /** The on-device helper (Appium's UiAutomator2 server) or `uiautomator dump`. */
  reader: UiReader;
  /** When it was taken (epoch ms). */
  at: number;
  /** How long it took, lock wait included. */
  ms: number;
}

function captured(tree: UiTree, reader: UiReader, started: number): Capture {
  return { tree, hash: screenHash(tree), reader, at: Date.now(), ms: performance.now() - started };
}

/** What the reading tools report about a capture. */
export function screenFacts(capture: Capture) {
  const overlays = detectOverlays(capture.tree);
  return {
    screen_hash: capture.hash,
    title: titleOf(capture.tree),
    node_count: capture.tree.node_count,
    rotation: capture.tree.rotation,
    overlays: {
      keyboard: overlays.keyboard !== null,
      system_dialog: overlays.system_dialog?.package ?? null,
      app_package: overlays.app_package,
      note: overlays.note,
    },
    repairs: capture.tree.repairs,
    capture_ms: Math.round(capture.ms),
    reader: capture.reader,
  };
}

const ALREADY_REGISTERED = /already registered/i;
/** Answers that mean "the screen was changing or not ready; ask again". */
const TRANSIENT = /null root node|UiAutomation not connected|Killed|Aborted/i;
/**
 * No window to read: a screen in transition, or one that is off — uiautomator has no root while the
 * display sleeps (appium-adb counts screenState=SCREEN_STATE_OFF as locked for the same reason).
 */
const NO_ROOT = /null root node/i;

/**
 * A capture that finds no root twice asks PowerManager once whether the device sleeps: a screen
 * that is off never gets a root, so waiting the whole capture budget for one would be wasted.
 */
async function refuseSleepingScreen(device: Device, serial: string, signal: AbortSignal): Promise<void> {
  // The power manager's state, read and parsed as get_power_state reads it.
  const answer = READ_ANSWERS['device.power_state'];
  const power = await device.exec(readCommand(answer.read), { signal, timeoutMs: 5_000 }).catch(() => null);
  const wakefulness = power === null ? null : answer.parse(power.toString('utf8')).wakefulness;
  if (wakefulness === 'Asleep' || wakefulness === 'Dozing') {
    throw new BusError(
      'FAILED',
      `the screen of ${serial} is off (PowerManager: mWakefulness=${wakefulness}), so there is no UI to read; wake it (press_key KEYCODE_WAKEUP) and read it again`,
      undefined,
      { screen_off: true },
    );
  }
}

/**
 * `uiautomator dump` waits for the UI to go idle first: AOSP's DumpCommand calls
 * `uiAutomation.waitForIdle(1000, 1000 * 10)` and, when that times out, prints
 * `ERROR: could not get idle state.` and dumps nothing. A screen that keeps redrawing (video,
 * spinners, live counters) gives the same answer every time, so asking again only makes the agent
 * wait 10 s more per attempt (another agent harness lost 65 s to one such screen).
 */
const NEVER_IDLE = /could not get idle state/i;
/** DumpCommand's idle wait, 10 s. */
export const DUMP_IDLE_WAIT_MS = 10_000;
/** How long a device whose screen never went idle is taken at its word, unless the screen changes. */
export const NEVER_IDLE_MEMORY_MS = 30_000;

/** The tool error for a screen that never went idle; `since` when it is remembered, not measured. */
export function neverIdleError(serial: string, since?: number): BusError {
  const remembered =
    since === undefined
      ? ''
      : ` (as its last dump found ${Math.round((Date.now() - since) / 1000)} s ago; droidbus dumps it again ${Math.round((since + NEVER_IDLE_MEMORY_MS - Date.now()) / 1000)} s from now, or at once after an input or a launch)`;
  return new BusError(
    'UNAVAILABLE',
    `the screen of ${serial} never goes idle${remembered}: uiautomator dump waits up to ${DUMP_IDLE_WAIT_MS / 1000} s for the UI to stop changing and gave up — something on screen keeps redrawing (a progress bar, a video, an animation, a live counter). Read it with screenshot (annotate: true numbers what it can place), act by coordinates with ui_tap, or change the screen (wait for loading to end, pause the video, navigate) and read it again. The on-device helper reads such screens at once: the user can install it with droidbus helper install.`,
    undefined,
    { never_idle: true },
  );
}

/** Whether a capture failed because the screen never went idle. */
export function isNeverIdle(err: unknown): boolean {
  return err instanceof BusError && err.details?.['never_idle'] === true;
}

/**
 * Reads the screen with `uiautomator dump`, one capture at a time per device across processes.
 * Each attempt gets 25 s, the whole capture 60 s (or less when the request's deadline is sooner);
 * a device that another UI Automator client holds fails at once with BUSY.
 */
export async function captureUi(
  helper: UiHelper,
  signal: AbortSignal,
  requestDeadline: number,
): Promise<Capture> {
  const { serial, device } = helper;
  const started = performance.now();
  const deadline = Math.min(requestDeadline - 250, Date.now() + CAPTURE_TOTAL_MS);
  const budget = `${Math.max(1, Math.round((deadline - Date.now()) / 1000))} s`;
  return withUiAutomatorLock(serial, deadline, signal, async () => {
    let lastProblem = '';
    if (await helper.installed(signal)) {
      const bounded = AbortSignal.any([signal, AbortSignal.timeout(Math.max(1, deadline - Date.now()))]);
      try {
        const parsed = parseUiDump(Buffer.from(await helper.readSource(bounded)), {
          window_order: 'top_first',
        });
        if (parsed.ok) {
          return captured(parsed.value, 'helper', started);
        }
        throw new Error(parsed.error.message);
      } catch (err) {
        if (signal.aborted) {
          throw signal.reason instanceof Error ? signal.reason : new BusError('CANCELLED', 'cancelled');
        }
        if (err instanceof ForeignSessionError) {
          // Its UiAutomation is that client's too: a dump would fail, and stopping the server would
          // end their session. Leave it, and say why.
          throw new BusError('BUSY', err.message);
        }
        // The helper holds the UiAutomation while it runs: stop it, then dump.
        lastProblem = `the UI helper could not read it (${err instanceof Error ? err.message : String(err)})`;
        log.warn('reading the screen with uiautomator dump instead of the UI helper', {
          serial,
          error: lastProblem,
        });
        await helper.stop();
      }
    }
    let attempt = 0;
    while (Date.now() < deadline) {
      attempt++;
      if (signal.aborted) {
        throw signal.reason instanceof Error ? signal.reason : new BusError('CANCELLED', 'cancelled');
      }
      const remaining = deadline - Date.now();
      const out = await device
        .exec(readCommand(READS.uiDump), {
          signal,
          timeoutMs: Math.max(1, Math.min(DUMP_ATTEMPT_MS, remaining)),
          maxBytes: 32 * 1024 * 1024,
        })
        .catch((err: unknown) => {
          if (err instanceof BusError && err.code === 'TIMEOUT' && Date.now() >= deadline) {
            throw new BusError(
              'TIMEOUT',
              `the UI capture of ${serial} did not finish within the ${budget} it had (${attempt} attempt${attempt > 1 ? 's' : ''}); uiautomator dump first waits up to ${DUMP_IDLE_WAIT_MS / 1000} s for the screen to go idle, so a screen that keeps redrawing or a slow device needs more time, or a screenshot instead`,
            );
          }
          throw err;
        });
      const text = out.toString('utf8');
      if (NEVER_IDLE.test(text) && !text.includes('<hierarchy')) {
        throw neverIdleError(serial);
      }
      if (ALREADY_REGISTERED.test(text)) {
        throw new BusError(
          'BUSY',
          `device ${serial} is busy: another UI Automator client is connected (a test run, an IDE's layout inspector, or another tool); close it and try again`,
        );
      }
      if (text.includes('<hierarchy')) {
        const parsed = parseUiDump(out);
        if (parsed.ok) {
          return captured(parsed.value, 'uiautomator-dump', started);
        }
        lastProblem = parsed.error.message;
        if (parsed.error.code === 'EMPTY_DUMP' && attempt >= 3) {
          break; // no window three times running: the screen is off, not changing
        }
      } else {
        lastProblem =
          text.trim().split('\n').slice(-2).join(' ').slice(0, 300) || 'uiautomator printed nothing';
        if (!TRANSIENT.test(text) && attempt >= 2) {
          break;
        }
        if (NO_ROOT.test(text) && attempt === 2) {
          await refuseSleepingScreen(device, serial, signal);
        }
      }
      await sleep(RETRY_PAUSE_MS, signal);
    }
    throw new BusError(
      Date.now() >= deadline ? 'TIMEOUT' : 'FAILED',
      `could not read the screen of ${serial}${Date.now() >= deadline ? ` within the ${budget} it had` : ''}: ${lastProblem}`,
    );
  });
}
