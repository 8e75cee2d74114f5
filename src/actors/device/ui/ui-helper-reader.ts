/**
 * Reading the screen through the on-device helper (Appium's UiAutomator2 server, installed by the
 * person with `droidbus helper install`): its instrumentation is started once, a local port is
 * forwarded to its device port through the adb server, one session is kept with settings that make
 * reads best-effort (`waitForIdleTimeout: 0`, so a screen that never idles is still read) and
 * multi-window (`enableMultiWindows: true`: dialogs, the keyboard and the shade are in the source),
 * and every read is one `GET /wd/hub/session/:id/source`. When the server cannot be reached it is
 * started again once; when that fails too the caller falls back to `uiautomator dump`, after the
 * instrumentation is stopped (while it runs, it holds the device's UiAutomation).
 *
 * Callers hold the device's UI Automator lock (ui-lock.ts), so one process at a time talks to the
 * server; processes share its single session (GET /wd/hub/sessions finds it).
 *
 * Its whole life on one device — installed or not, the port forward, the instrumentation, the
 * session, the person's install and removal — is one `UiHelper`, owned by that device's actor.
 */
import { READS, readCommand } from '../../../device/reads.js';
import { sh } from '../../../adb/shell-command.js';
import {
  HELPER_DEVICE_PORT,
  HELPER_PACKAGE,
  helperState,
  installHelper,
  instrumentCommand,
  removeHelper,
  type HelperState,
} from '../../../device/uiautomator2-helper.js';
import { BusError } from '../../../bus/errors.js';
import { logger } from '../../../util/log.js';
import type { Device } from '../../../device/device.js';

const log = logger('ui-helper');

/** How long an "installed or not" answer is trusted. */
const INSTALLED_TTL_MS = 30_000;
/** How long the server may take to answer /status after its start (real logs: 2.5–5.3 s). */
const START_TIMEOUT_MS = 20_000;
const REQUEST_TIMEOUT_MS = 15_000;
const STATUS_TIMEOUT_MS = 1_500;
/**
 * The server holds a screen wake lock for 24 h from its start (ServerInstrumentation.startServer:
 * acquireWakeLock(MAX_TEST_DURATION)). droidbus leases it instead: 10 minutes, renewed by reads, so
 * the phone sleeps as its owner set it at most that long after the agent stops — and at once when
 * droidbus leaves (wakeLockTimeout 0, what Appium's driver sends when its session ends).
 */
const WAKE_LEASE_MS = 10 * 60_000;

interface Link {
  port: number;
  sessionId: string | null;
  /** When the screen wake lock's lease was last set (epoch ms; 0: not by this process). */
  leaseAt: number;
}

async function hub(
  link: Link,
  method: string,
  path: string,
  body: unknown,
  signal: AbortSignal,
  timeoutMs = REQUEST_TIMEOUT_MS,
): Promise<unknown> {
  const timeout = AbortSignal.timeout(timeoutMs);
  const r = await fetch(`http://127.0.0.1:${link.port}/wd/hub${path}`, {
    method,
    signal: AbortSignal.any([signal, timeout]),
    ...(body !== undefined
      ? { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }
      : {}),
  });
  const text = await r.text();
  const json = (text === '' ? null : JSON.parse(text)) as { sessionId?: string; value?: unknown } | null;
  if (!r.ok) {
    const value = json?.value as { error?: string; message?: string } | undefined;
    throw new HelperHttpError(
      r.status,
      value?.error ?? `HTTP ${r.status}`,
      value?.message ?? text.slice(0, 200),
    );
  }
  return json;
}

class HelperHttpError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    message: string,
  ) {
    super(`${error}: ${message}`);
  }
}

async function ready(link: Link, signal: AbortSignal): Promise<boolean> {
  try {
    // Short: while the server starts, a forwarded connection may be accepted and never answered.
    const status = (await hub(link, 'GET', '/status', undefined, signal, STATUS_TIMEOUT_MS)) as {
      value?: { ready?: boolean };
    };
    return status.value?.ready === true;
  } catch {
    return false;
  }
}

/** The last lines `am instrument` wrote, when it has ended (its result printed); null while it runs. */
async function endedStart(device: Device, signal: AbortSignal): Promise<string | null> {
  const log = await device
    .shell(readCommand(READS.helperStartLog), { signal, timeoutMs: 5_000 })
    .then((r) => r.stdout)
    .catch(() => '');
  return /^INSTRUMENTATION_(?:RESULT|CODE|FAILED)|^Error:|Exception/m.test(log)
    ? log.trim().split('\n').slice(-2).join(' ').slice(0, 300)
    : null;
}

/**
 * Starts the instrumentation (again), detached from this process (instrumentCommand), and waits for
 * the server to answer.
 */
async function start(device: Device, link: Link, signal: AbortSignal): Promise<void> {
  link.sessionId = null;
  log.info('starting the UI helper', { serial: device.serial });
  await device.shell(instrumentCommand(), { signal, timeoutMs: 15_000 });
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (let polls = 1; Date.now() < deadline && !signal.aborted; polls++) {
    if (await ready(link, signal)) {
      return;
    }
    // `am instrument -w` returned before the server answered: it could not start (every 2 s).
    const ended = polls % 10 === 0 ? await endedStart(device, signal) : null;
    if (ended !== null) {
      throw new Error(`the UI helper's instrumentation ended at once: ${ended}`);
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  const ended = await endedStart(device, signal);
  throw new Error(
    `the UI helper did not answer within ${START_TIMEOUT_MS / 1000} s of its start${ended !== null ? `: ${ended}` : ''}`,
  );
}

/** The capability droidbus marks its own session with (kept as is by W3CCapsUtils: only `appium:` is stripped). */
const OWNER_CAP = 'droidbus:client';

/**
 * The server's one session belongs to someone else — Appium's driver, a test run — whose settings
 * droidbus must not change and whose session it must not end: it reads nothing through the helper
 * until that session is gone.
 */
export class ForeignSessionError extends Error {
  constructor(readonly sessionId: string) {
    super(
      `another client's Appium session (${sessionId}) is using the UiAutomator2 server on this device; droidbus leaves it and its settings alone. End that session (or stop its test run) and read again`,
    );
  }
}

/** The server's one session, if any, and whether droidbus made it. */
async function serverSession(
  link: Link,
  signal: AbortSignal,
  timeoutMs = REQUEST_TIMEOUT_MS,
): Promise<{ id: string; ours: boolean } | null> {
  const sessions = (await hub(link, 'GET', '/sessions', undefined, signal, timeoutMs)) as {
    value?: { id?: string; capabilities?: Record<string, unknown> }[];
  };
  const found = sessions.value?.find((s) => typeof s.id === 'string');
  return found === undefined ? null : { id: found.id!, ours: found.capabilities?.[OWNER_CAP] === 'droidbus' };
}

async function session(link: Link, signal: AbortSignal): Promise<string> {
  if (link.sessionId !== null) {
    return link.sessionId;
  }
  // Another droidbus process may have made the server's one session: take it rather than replace it.
  const existing = await serverSession(link, signal);
  if (existing !== null && !existing.ours) {
    throw new ForeignSessionError(existing.id);
  }
  let id = existing?.id;
  if (id === undefined) {
    const created = (await hub(
      link,
      'POST',
      '/session',
      { capabilities: { alwaysMatch: { [OWNER_CAP]: 'droidbus' }, firstMatch: [{}] } },
      signal,
    )) as {
      sessionId?: string;
    };
    id = created.sessionId;
  }
  if (typeof id !== 'string') {
    throw new Error('the UI helper made no session');
  }
  await hub(
    link,
    'POST',
    `/session/${id}/appium/settings`,
    { settings: { waitForIdleTimeout: 0, enableMultiWindows: true, wakeLockTimeout: WAKE_LEASE_MS } },
    signal,
  );
  link.sessionId = id;
  link.leaseAt = Date.now();
  return id;
}

/** The page source, in the `<node>` form the dump parser reads (the class stays an attribute). */
export function pageSourceAsDump(xml: string): string {
  return xml.replace(
    /<(\/?)([A-Za-z_][\w.$-]*)((?:[^>"]|"[^"]*")*)>/g,
    (m, close: string, name: string, rest: string) => (name === 'hierarchy' ? m : `<${close}node${rest}>`),
  );
}

/** One touch pointer's W3C actions (handler/W3CActions.java reads them as a gesture). */
function touch(steps: object[]): unknown {
  return {
    actions: [{ type: 'pointer', id: 'finger1', parameters: { pointerType: 'touch' }, actions: steps }],
  };
}

/** The on-device helper as one device's actor knows it. */
export class UiHelper {
  private installedAnswer: { at: number; yes: boolean; refreshing: boolean } | null = null;
  private link: Link | null = null;

  constructor(readonly device: Device) {}

  get serial(): string {
    return this.device.serial;
  }

  /**
   * Whether the helper's two APKs are on the device. Asked on the device's first capture; after that
   * the answer is used at once and asked again in the background when it is 30 s old, so no capture
   * waits for the two adb commands (pm list packages, pidof) it takes.
   */
  async installed(signal: AbortSignal): Promise<boolean> {
    const ask = (on: AbortSignal): Promise<boolean> =>
      helperState(this.device, on)
        .then((s) => s.installed)
        .catch(() => false);
    const known = this.installedAnswer;
    if (known === null) {
      const yes = await ask(signal);
      this.installedAnswer = { at: Date.now(), yes, refreshing: false };
      return yes;
    }
    if (Date.now() - known.at >= INSTALLED_TTL_MS && !known.refreshing) {
      known.refreshing = true;
      void ask(AbortSignal.timeout(INSTALLED_TTL_MS)).then((yes) => {
        // Unless it was forgotten meanwhile (the device left, or the person changed the helper).
        if (this.installedAnswer === known) {
          this.installedAnswer = { at: Date.now(), yes, refreshing: false };
        }
      });
    }
    return known.yes;
  }

  /**
   * Lets go of the phone when droidbus is done with it: the server's screen wake lock released
   * (the helper keeps running for the next reader). Best effort, within a second.
   */
  async release(): Promise<void> {
    const link = this.link;
    if (link === null || link.sessionId === null || link.leaseAt === 0) {
      return;
    }
    await hub(
      link,
      'POST',
      `/session/${link.sessionId}/appium/settings`,
      { settings: { wakeLockTimeout: 0 } },
      AbortSignal.timeout(1_000),
      1_000,
    ).catch((err: unknown) =>
      log.info('the UI helper kept its wake lock', { serial: this.serial, error: String(err) }),
    );
    link.leaseAt = 0;
  }

  /** Forgets what was known (the device went away, or the person changed the helper). */
  forget(): void {
    this.installedAnswer = null;
    const link = this.link;
    this.link = null;
    if (link !== null) {
      this.device.removeForward(link.port).catch(() => undefined);
    }
  }

  private async linkOf(signal: AbortSignal): Promise<Link> {
    if (this.link === null) {
      const port = await this.device.forward(`tcp:${HELPER_DEVICE_PORT}`, { signal });
      this.link = { port, sessionId: null, leaseAt: 0 };
    }
    return this.link;
  }

  /**
   * One read of the screen through the helper, as dump XML; throws when the helper cannot serve it
   * (the caller stops it and falls back to the dump).
   */
  async readSource(signal: AbortSignal): Promise<string> {
    const link = await this.linkOf(signal);
    let refreshed = false;
    for (let attempt = 1; ; attempt++) {
      try {
        if (link.sessionId === null && !(await ready(link, signal))) {
          await start(this.device, link, signal);
        }
        const id = await session(link, signal);
        if (Date.now() - link.leaseAt > WAKE_LEASE_MS / 2) {
          await hub(
            link,
            'POST',
            `/session/${id}/appium/settings`,
            { settings: { wakeLockTimeout: WAKE_LEASE_MS } },
            signal,
          );
          link.leaseAt = Date.now();
        }
        const source = (await hub(link, 'GET', `/session/${id}/source`, undefined, signal)) as {
          value?: unknown;
        };
        if (typeof source.value !== 'string') {
          throw new Error('the UI helper answered no page source');
        }
        return pageSourceAsDump(source.value);
      } catch (err) {
        link.sessionId = null;
        if (attempt >= 2 || signal.aborted || err instanceof ForeignSessionError) {
          throw err;
        }
        if (err instanceof HelperHttpError && err.error === 'invalid session id' && !refreshed) {
          // Our session was ended (another client made its own): look at the server's session again,
          // once, before starting anything (a restart would end that client's session).
          refreshed = true;
          attempt--;
          continue;
        }
        // The server died (the app under test crashed it, someone stopped it): start it again.
        log.info('the UI helper did not answer; starting it again', {
          serial: this.serial,
          error: String(err),
        });
        await start(this.device, link, signal);
      }
    }
  }

  /**
   * One input through the helper's UiAutomation, when this process already reads the device through
   * it; false when it does not, or when the helper refused (the caller then uses `adb shell input`).
   * An `input` command starts a Java process per call — 1,160 ms for a tap on a Galaxy Note 4 in a
   * public measurement (prog.world, "tap, swipe and two smoking events") — while the helper injects
   * in the process already running: one HTTP round trip.
   */
  private async act(what: string, path: string, body: unknown, signal: AbortSignal): Promise<boolean> {
    const link = this.link;
    if (link === null || link.sessionId === null) {
      return false;
    }
    try {
      await hub(link, 'POST', `/session/${link.sessionId}${path}`, body, signal);
      return true;
    } catch (err) {
      log.info(`the UI helper could not ${what}; using adb shell input`, {
        serial: this.serial,
        error: String(err),
      });
      // A refusal keeps the session; a lost connection or session makes the next read find one.
      if (!(err instanceof HelperHttpError) || err.error === 'invalid session id') {
        link.sessionId = null;
      }
      return false;
    }
  }

  /** A tap: move, down, a 50 ms hold, up. */
  tap(x: number, y: number, signal: AbortSignal): Promise<boolean> {
    const steps = [
      { type: 'pointerMove', duration: 0, x, y },
      { type: 'pointerDown', button: 0 },
      { type: 'pause', duration: 50 },
      { type: 'pointerUp', button: 0 },
    ];
    return this.act('tap', '/actions', touch(steps), signal);
  }

  /** A swipe: down at the start, a move to the end lasting `durationMs`, up. */
  swipe(
    from: { x: number; y: number },
    to: { x: number; y: number },
    durationMs: number,
    signal: AbortSignal,
  ): Promise<boolean> {
    const steps = [
      { type: 'pointerMove', duration: 0, x: from.x, y: from.y },
      { type: 'pointerDown', button: 0 },
      { type: 'pointerMove', duration: durationMs, x: to.x, y: to.y },
      { type: 'pointerUp', button: 0 },
    ];
    return this.act('swipe', '/actions', touch(steps), signal);
  }

  /** A key press (handler/PressKeyCode.java: `UiDevice.pressKeyCode`, the same injection as `input keyevent`). */
  key(keycode: number, signal: AbortSignal): Promise<boolean> {
    return this.act('press a key', '/appium/device/press_keycode', { keycode }, signal);
  }

  /**
   * Text appended to the focused field (handler/SendKeysToElement.java on `/keys`: the focused
   * element's text is set to its text plus this one through the accessibility API, so any Unicode
   * text can be typed; no key events are sent).
   */
  type(text: string, signal: AbortSignal): Promise<boolean> {
    return this.act('type', '/keys', { text, replace: false }, signal);
  }

  /**
   * Frees the device's UiAutomation for another client (an app's connected tests): droidbus's server
   * is stopped (the next read starts it again); one serving another client's Appium session is left
   * alone, as everywhere else.
   */
  async yieldUiAutomation(
    signal: AbortSignal,
  ): Promise<'stopped' | 'not_running' | 'not_installed' | 'foreign'> {
    const now = await this.state(signal);
    if (!now.installed) {
      return 'not_installed';
    }
    if (!now.running) {
      return 'not_running';
    }
    const link = await this.linkOf(signal);
    const existing = await serverSession(link, signal, STATUS_TIMEOUT_MS).catch(() => null);
    if (existing !== null && !existing.ours) {
      return 'foreign';
    }
    await this.stop();
    return 'stopped';
  }

  /** Stops the helper's instrumentation so `uiautomator dump` can have the UiAutomation. */
  async stop(): Promise<void> {
    if (this.link !== null) {
      this.link.sessionId = null;
    }
    await this.device
      .shell(sh`am force-stop ${HELPER_PACKAGE}`, { timeoutMs: 10_000 })
      .catch(() => undefined);
  }

  /** What is on the device (the person's page and CLI show it). */
  state(signal?: AbortSignal): Promise<HelperState> {
    return helperState(this.device, signal);
  }

  /** Installs (or updates) the helper's two APKs: the person's decision. */
  async install(): Promise<HelperState> {
    await this.stop();
    await installHelper(this.device).catch((err: unknown) => {
      throw new BusError('FAILED', err instanceof Error ? err.message : String(err));
    });
    this.forget();
    return this.state();
  }

  /** Stops and uninstalls the helper. */
  async remove(): Promise<HelperState> {
    await this.stop();
    await removeHelper(this.device);
    this.forget();
    return this.state();
  }
}
