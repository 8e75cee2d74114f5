/**
 * A simulated Appium UiAutomator2 server: what `am instrument -w … io.appium.uiautomator2.server.test/
 * androidx.test.runner.AndroidJUnitRunner` starts on a sim device once both of the real APKs (npm
 * `appium-uiautomator2-server`) are installed. It is a real HTTP server (node:http) fed by the
 * device's `tcp:6790` streams, so `adb forward` through the real adb server reaches it.
 *
 * Modelled on appium/appium-uiautomator2-server (Apache-2.0; line numbers at 10.6.2, commit
 * 5412fdb3):
 * * paths with or without the legacy `/wd/hub` prefix (http/ServerHandler.java:43, 69–72 strip it);
 *   the routes droidbus uses (server/AppiumServlet.java: DELETE session 115, POST session 119, keys
 *   128, press_keycode 130, settings 132, actions 138; GET status 161, sessions 163, session 165,
 *   source 181, settings 184); anything else is UnknownCommandException (ServerHandler.java:81–85:
 *   404, "unknown command");
 * * every answer is `{"sessionId": …, "value": …}` (http/AppiumResponse.java renderTo, 68); errors put
 *   `{"error", "message", "stacktrace"}` in `value` with their HTTP status; a missing required field is
 *   "<Model>: The mandatory field '<name>' is not present in JSON" (model/api/BaseModel.java:64–67),
 *   answered as 400 "invalid argument" (handler/request/SafeRequestHandler.java:64–65); a session is
 *   created from `{"capabilities": {…}}` (handler/NewSession.java:48–50: without it, "'capabilities'
 *   are mandatory for session creation", wrapped as "session not created"); an unknown session is
 *   404 "invalid session id", "A session is either terminated or not started"
 *   (model/AppiumUIA2Driver.java:55);
 * * a key press (handler/PressKeyCode.java:41–49, model/api/KeyCodeModel.java:22–25: `keycode`
 *   required, `metastate` and `flags` optional) is `UiDevice.pressKeyCode`; `/keys`
 *   (handler/SendKeysToElement.java:62–117, model/api/SendKeysModel.java:22–24) sets the focused
 *   element's text through the accessibility API — its text plus `text`, or `text` alone with
 *   `replace` — and presses Enter when `text` ends in a backslash and `n`; no focused element is 404
 *   "no such element", "An element could not be located on the page using the given search
 *   parameters" (common/exceptions/ElementNotFoundException.java:23, 40, 45);
 * * the status text as real servers answer it through Appium's proxy (public Appium logs):
 *   `{"sessionId":"None","value":{"build":{…},"message":"UiAutomator2 Server is ready to accept
 *   commands","ready":true}}`;
 * * the page source: helper-page-source.ts.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Device } from './device.js';
import { noteInput } from './input-log.js';
import { KEY, keyEvent, setFieldText, setFocusedText, swipe, tap } from './ui/input-actions.js';
import { elementRoute, ElementsCache } from './helper-elements.js';
import {
  gestureOf,
  HttpError,
  mergedCapabilities,
  missing,
  readBody,
  send,
  unknownCommand,
} from './helper-http.js';
import { shadeTree } from './ui/shade-tree.js';
import { keyboardTree, navigationBarTree, statusBarTree } from './ui/system-windows.js';
import type { ViewNode } from './ui/view.js';
import { pageSourceXml } from './helper-page-source.js';

export const HELPER_VERSION_NAME = '10.6.6';
/** server/ServerInstrumentation.java: WAKE_LOCK_TAG and MAX_TEST_DURATION. */
const WAKE_LOCK_TAG = 'UiAutomator2:ScreenKeeper';
const MAX_TEST_DURATION_MS = 24 * 60 * 60 * 1000;
const HELPER_VERSION_CODE = 278;

/** The settings droidbus may send, with the server's defaults (Appium's settings docs). */
const DEFAULT_SETTINGS: Record<string, unknown> = {
  waitForIdleTimeout: 10_000,
  enableMultiWindows: false,
  ignoreUnimportantViews: false,
  allowInvisibleElements: false,
};

const LEGACY_PREFIX = '/wd/hub';

/** A window on screen as the window manager lists it, top-most first (commands/dumpsys-window.ts). */
export interface ScreenWindow {
  type: string;
  pkg: string;
  frame: readonly [number, number, number, number];
  visible: boolean;
}

/** What the server reads of the device beside its views, and how its instrumentation ends. */
export interface ServerScreen {
  windows(): readonly ScreenWindow[];
  screenshot(): Promise<Uint8Array>;
  /** ServerInstrumentation.stop: the instrumentation finishes (and its process with it). */
  finish(): void;
}

/** One running server; `stop` ends it (force-stop, uninstall), `stopped` resolves then. */
export class SimHelperServer {
  readonly stopped: Promise<void>;
  private readonly http: Server;
  private readonly sessions = new Map<string, Record<string, unknown>>();
  /** Each session's found elements (ElementsCache). */
  private readonly elements = new Map<string, ElementsCache>();
  /** Each session's capabilities as W3CCapsUtils.parseCapabilities merged them (GetSessions lists them). */
  private readonly capabilities = new Map<string, Record<string, unknown>>();
  private resolveStopped!: () => void;
  private readonly sockets = new Set<Duplex>();
  private running = true;
  /**
   * The `am` process that ran `am instrument -w` is gone (its adb shell closed): the UiAutomation it
   * lent the instrumentation (ActivityManagerService.startInstrumentation takes the caller's
   * IUiAutomationConnection) died with it. The HTTP server still runs and /status still says ready;
   * every command that needs the UiAutomation fails with UiAutomation's own "UiAutomation not
   * connected" IllegalStateException (UiAutomation.throwIfNotConnectedLocked).
   */
  private uiAutomationLost = false;

  /**
   * `screen`: what is on screen (the windows top-most first, a PNG of it) and what ends the
   * instrumentation. `owner`: the instrumented process (its wake lock dies with it). `suppress`: the
   * UiAutomation was connected without FLAG_DONT_SUPPRESS_ACCESSIBILITY_SERVICES (power-a11y.ts).
   */
  constructor(
    private readonly dev: Device,
    private readonly screen: ServerScreen,
    private readonly owner: { uid: number; pid: number } = { uid: 10_000, pid: 0 },
    suppress = true,
  ) {
    this.stopped = new Promise((r) => (this.resolveStopped = r));
    this.http = createServer((req, res) => void this.serve(req, res));
    dev.power.suppressing = suppress;
    // HttpdThread.startServer: acquireWakeLock(MAX_TEST_DURATION), which also wakes the screen.
    this.holdScreen(MAX_TEST_DURATION_MS);
  }

  /** ServerInstrumentation.acquireWakeLock: the lock released, then taken for `ms` (none for 0). */
  private holdScreen(ms: number): void {
    this.dev.power.release(WAKE_LOCK_TAG);
    if (ms <= 0) {
      return;
    }
    const now = Date.now();
    this.dev.power.acquire({
      level: 'SCREEN_DIM_WAKE_LOCK',
      tag: WAKE_LOCK_TAG,
      acquiredAt: now,
      until: now + ms,
      ...this.owner,
    });
    this.dev.ui.screenOn = true;
  }

  get isRunning(): boolean {
    return this.running;
  }

  /**
   * It holds the device's one UiAutomation: running, and the `am` process that lent it still there
   * (when that process dies, UiAutomationManager's death recipient unregisters the connection).
   */
  get holdsUiAutomation(): boolean {
    return this.running && !this.uiAutomationLost;
  }

  /** A new connection from `adb forward` (the device's tcp:6790). */
  accept(socket: Duplex): void {
    if (!this.running) {
      socket.destroy();
      return;
    }
    this.sockets.add(socket);
    socket.once('close', () => this.sockets.delete(socket));
    this.http.emit('connection', socket);
  }

  stop(): void {
    if (!this.running) {
      return;
    }
    this.running = false;
    for (const s of this.sockets) {
      s.destroy();
    }
    // The process is gone: its wake lock with it, and the UiAutomation's suppression.
    this.dev.power.release(WAKE_LOCK_TAG);
    this.dev.power.suppressing = false;
    this.resolveStopped();
  }

  /** The shell that started the instrumentation went away (see uiAutomationLost). */
  loseUiAutomation(): void {
    this.uiAutomationLost = true;
  }

  /**
   * The page source of what is on screen: with enableMultiWindows every window a reader of the
   * accessibility windows gets, in their order — top-most first (AXWindowHelpers.getWindowRoots maps
   * `getWindowsOnAllDisplays()` as it comes; AOSP AccessibilityWindowManager fills that list from the
   * window manager's top-to-bottom list, flipping layers "to be consistent with
   * AccessibilityService#getWindows"), the bars and the keyboard included; else the active one.
   * Wallpaper and toast windows have no node tree here (a wallpaper is not an accessibility window;
   * toasts are not modelled as nodes).
   */
  pageSource(multiWindow: boolean): string {
    // A profile device answers with the page source its recording kept, until the screen changes.
    return (
      this.dev.replay?.helperSource() ?? pageSourceXml(this.windowRoots(multiWindow), this.dev.display())
    );
  }

  /** The window roots a read sees: every window with enableMultiWindows, else the active one. */
  private windowRoots(multiWindow: boolean): ViewNode[] {
    const d = this.dev.display();
    if (!multiWindow) {
      return [this.dev.currentTree()];
    }
    const windows = this.screen.windows().flatMap((w): ViewNode[] => {
      if (!w.visible) {
        return [];
      }
      switch (w.type) {
        case 'INPUT_METHOD':
          return [keyboardTree(w.frame, w.pkg)];
        case 'NAVIGATION_BAR':
          return [navigationBarTree(w.frame)];
        case 'STATUS_BAR':
          return [statusBarTree(w.frame, new Date())];
        case 'NOTIFICATION_SHADE':
          return [shadeTree(this.dev)];
        case 'SYSTEM_DIALOG':
          return [this.dev.ui.dialogTree(d.width, d.height, d.density)].filter((t) => t !== null);
        case 'BASE_APPLICATION':
          return [this.dev.currentTreeBelowDialog()];
        default:
          return [];
      }
    });
    return windows;
  }

  private async serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let sessionId: string | null = null;
    try {
      const body = await readBody(req);
      if (this.dev.helperLatencyMs > 0) {
        await new Promise((r) => setTimeout(r, this.dev.helperLatencyMs));
      }
      // What the helper reads of a WebView in front is its page's echo as the page is now.
      await this.dev.webviews.settle();
      let path = (req.url ?? '/').split('?')[0] ?? '/';
      if (path.startsWith(LEGACY_PREFIX)) {
        path = path.slice(LEGACY_PREFIX.length);
      }
      const [what, id, ...rest] = path.split('/').filter((p) => p !== '');
      const route = `${req.method ?? 'GET'} ${what ?? ''}${id !== undefined ? '/:id' : ''}${rest.length ? '/' + rest.join('/') : ''}`;
      if (this.serverCommand(route, body, res)) {
        return;
      }
      if (what !== 'session' || id === undefined) {
        throw unknownCommand();
      }
      sessionId = id;
      const settings = this.sessions.get(id);
      if (settings === undefined) {
        throw new HttpError(404, 'invalid session id', `A session is either terminated or not started`);
      }
      // Settings and ending or describing the session touch no UiAutomation; reading and acting do.
      if (
        this.uiAutomationLost &&
        !route.includes('/appium/settings') &&
        route !== 'DELETE session/:id' &&
        route !== 'GET session/:id'
      ) {
        throw new HttpError(
          500,
          'unknown error',
          'java.lang.IllegalStateException: UiAutomation not connected, UiAutomation@5c2a1f3[id=-1, displayId=0, flags=0]',
        );
      }
      const answered = await elementRoute(req.method ?? 'GET', rest, body, this.elementsOf(id), {
        roots: () => this.windowRoots(settings['enableMultiWindows'] === true),
        appPackage: () => this.dev.foregroundPackage(),
        display: () => this.dev.display(),
        screenshot: () => this.screen.screenshot(),
        tap: (x, y) => tap(this.dev, x, y),
        back: () => keyEvent(this.dev, KEY.BACK),
        setField: (field, text, replace) => setFieldText(this.dev, field, text, replace),
        noteInput: (entry) => noteInput(this.dev.stats, entry),
      });
      if (answered !== undefined) {
        send(res, 200, id, answered.value);
        return;
      }
      await this.sessionCommand(route, id, settings, body);
      send(res, 200, id, this.answerOf(route, settings));
      if (route === 'DELETE session/:id') {
        // DeleteSession.java: the server stops 15 ms after the answer is delivered.
        setTimeout(() => this.screen.finish(), 15).unref();
      }
    } catch (err) {
      const e = err instanceof HttpError ? err : new HttpError(500, 'unknown error', String(err));
      send(res, e.status, sessionId ?? 'None', {
        error: e.error,
        message: e.message,
        stacktrace: `io.appium.uiautomator2.common.exceptions.UiAutomator2Exception: ${e.message}`,
      });
    }
  }

  /** The commands outside a session (status, sessions, creating one); false for any other. */
  private serverCommand(route: string, body: unknown, res: ServerResponse): boolean {
    if (route === 'GET status') {
      send(res, 200, 'None', {
        build: { version: HELPER_VERSION_NAME, versionCode: HELPER_VERSION_CODE },
        message: 'UiAutomator2 Server is ready to accept commands',
        ready: true,
      });
      return true;
    }
    if (route === 'GET sessions') {
      send(
        res,
        200,
        'None',
        [...this.sessions.keys()].map((s) => ({ id: s, capabilities: this.capabilities.get(s) ?? {} })),
      );
      return true;
    }
    if (route !== 'POST session') {
      return false;
    }
    const caps = (body as { capabilities?: unknown } | null)?.capabilities;
    if (typeof caps !== 'object' || caps === null) {
      throw new HttpError(
        500,
        'session not created',
        "io.appium.uiautomator2.common.exceptions.InvalidArgumentException: 'capabilities' are mandatory for session creation",
      );
    }
    // One session at a time, as AppiumUIA2Driver.initializeSession keeps one.
    this.sessions.clear();
    this.capabilities.clear();
    const created = randomUUID();
    this.sessions.set(created, { ...DEFAULT_SETTINGS });
    this.capabilities.set(
      created,
      mergedCapabilities(caps as { alwaysMatch?: unknown; firstMatch?: unknown }),
    );
    send(res, 200, created, null);
    return true;
  }

  /** A session's found elements. */
  private elementsOf(session: string): ElementsCache {
    let cache = this.elements.get(session);
    if (cache === undefined) {
      cache = new ElementsCache();
      this.elements.set(session, cache);
    }
    return cache;
  }

  /** What a session command answers once it has run (null for the commands that only act). */
  private answerOf(route: string, settings: Record<string, unknown>): unknown {
    switch (route) {
      case 'GET session/:id':
        return { capabilities: {} };
      case 'GET session/:id/source':
        return this.pageSource(settings['enableMultiWindows'] === true);
      case 'GET session/:id/appium/settings':
        return settings;
      default:
        return null;
    }
  }

  /** Runs a session command (throws for an unknown one). */
  private async sessionCommand(
    route: string,
    id: string,
    settings: Record<string, unknown>,
    body: unknown,
  ): Promise<void> {
    switch (route) {
      case 'GET session/:id':
      case 'GET session/:id/source':
      case 'GET session/:id/appium/settings':
        return;
      case 'DELETE session/:id':
        this.sessions.delete(id);
        this.capabilities.delete(id);
        return;
      case 'POST session/:id/actions':
        return this.actions(body);
      case 'POST session/:id/appium/device/press_keycode':
        return this.pressKeycode(body);
      case 'POST session/:id/keys':
        return this.keys(body);
      case 'POST session/:id/appium/settings': {
        const update = (body as { settings?: unknown } | null)?.settings;
        if (typeof update !== 'object' || update === null) {
          throw missing('SettingsModel', 'settings');
        }
        Object.assign(settings, update);
        // model/settings/WakeLockTimeout.java: a new timeout acquires the lock again for it.
        const timeout = (update as { wakeLockTimeout?: unknown }).wakeLockTimeout;
        if (typeof timeout === 'number') {
          this.holdScreen(timeout);
        }
        return;
      }
      default:
        throw unknownCommand();
    }
  }

  /**
   * W3C Actions (handler/W3CActions.java): one touch pointer that moves, goes down and up in place
   * is a tap; down, one move and up is a swipe; both injected through the server's UiAutomation.
   * Other gestures are not modelled (droidbus sends only these).
   */
  private async actions(body: unknown): Promise<void> {
    const gesture = gestureOf(body);
    if (gesture === null) {
      throw new HttpError(
        400,
        'invalid argument',
        'only a one-pointer tap or swipe is modelled by the simulator',
      );
    }
    if (gesture.to === undefined) {
      noteInput(this.dev.stats, ['helper-tap', gesture.from.x, gesture.from.y]);
      tap(this.dev, gesture.from.x, gesture.from.y);
      return;
    }
    const { from, to } = gesture;
    noteInput(this.dev.stats, ['helper-swipe', from.x, from.y, to.x, to.y]);
    swipe(this.dev, from.x, from.y, to.x, to.y);
    // A pointerMove with a duration moves over that time (W3C WebDriver, "perform a pointer
    // move": the move is interpolated until duration has passed); capped as `input swipe` is here.
    await new Promise((r) => setTimeout(r, Math.min(2000, gesture.durationMs)));
  }

  /**
   * handler/PressKeyCode.java: `{keycode, metastate?, flags?}` → UiDevice.pressKeyCode; a body
   * without a numeric keycode fails the model's parsing (KeyCodeModel).
   */
  private pressKeycode(body: unknown): void {
    const keycode = (body as { keycode?: unknown } | null)?.keycode;
    if (typeof keycode !== 'number' || !Number.isInteger(keycode)) {
      throw missing('KeyCodeModel', 'keycode');
    }
    noteInput(this.dev.stats, ['helper-key', keycode]);
    keyEvent(this.dev, keycode);
  }

  /**
   * The focused element's text set (see the header); a trailing backslash-n presses Enter and, as
   * in setText (69: the regex removes a newline character, not those two), stays.
   */
  private keys(body: unknown): void {
    const p = body as { text?: unknown; replace?: unknown } | null;
    if (typeof p?.text !== 'string') {
      throw missing('SendKeysModel', 'text');
    }
    const text = p.text;
    noteInput(this.dev.stats, ['helper-keys', [...text].length]);
    if (!setFocusedText(this.dev, text, p.replace === true)) {
      throw new HttpError(
        404,
        'no such element',
        'An element could not be located on the page using the given search parameters',
      );
    }
    if (text.endsWith('\\n')) {
      keyEvent(this.dev, KEY.ENTER);
    }
  }
}
