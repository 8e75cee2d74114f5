/**
 * A simulated Appium UiAutomator2 server: what `am instrument -w … io.appium.uiautomator2.server.test/
 * androidx.test.runner.AndroidJUnitRunner` starts on a sim device once both of the real APKs (npm
 * `appium-uiautomator2-server`) are installed. It is a real HTTP server (node:http) fed by the
 * device's `tcp:6790` streams, so `adb forward` through the real adb server reaches it.
 *
 * Modelled on appium/appium-uiautomator2-server (Apache-2.0):
 * * routes under `/wd/hub` (server/AppiumServlet.java, registerGetHandler / registerPostHandler /
 *   registerDeleteHandler): GET status, POST session, GET and DELETE session/:id, GET source,
 *   GET and POST appium/settings, POST actions (taps); anything else answers 404 with no body
 *   (handleRequest);
 * * every answer is `{"sessionId": …, "value": …}` (http/AppiumResponse.renderTo); errors put
 *   `{"error", "message", "stacktrace"}` in `value` with their HTTP status; a session is created from
 *   `{"capabilities": {…}}` (handler/NewSession.java: without it, "'capabilities' are mandatory for
 *   session creation", wrapped as "session not created");
 * * the status text as real servers answer it through Appium's proxy (public Appium logs):
 *   `{"sessionId":"None","value":{"build":{…},"message":"UiAutomator2 Server is ready to accept
 *   commands","ready":true}}`;
 * * the page source (utils/AccessibilityNodeInfoDumper.java, toStream/serializeUiElement): one
 *   snapshot of the window roots (`getCachedWindowRoots()`) under a root element that gets the
 *   display's rotation, width and height; each element is named after its class (toXmlNodeName:
 *   `$ @ # &` become dots, repeated dots collapse, leading and trailing dots go, blank names become
 *   android.view.View), attributes with no value are left out, and the output is indented. No
 *   element marks a window: with `enableMultiWindows` every window's root is a child of
 *   `<hierarchy>`, without it only the active window's. The element form matches the real page
 *   source under tests/fixtures/ui/appium-classengage-login.xml.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Device } from './device.js';
import { tap } from './ui/input-actions.js';
import { shadeTree } from './ui/shade.js';
import { escapeAttr } from './ui/uiautomator-xml.js';
import { F, type ViewNode } from './ui/view.js';

export const HELPER_VERSION_NAME = '10.6.6';
const HELPER_VERSION_CODE = 278;

/** The settings droidbus may send, with the server's defaults (Appium's settings docs). */
const DEFAULT_SETTINGS: Record<string, unknown> = {
  waitForIdleTimeout: 10_000,
  enableMultiWindows: false,
  ignoreUnimportantViews: false,
  allowInvisibleElements: false,
};

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    message: string,
  ) {
    super(message);
  }
}

function bool(flags: number, bit: number): string {
  return (flags & bit) !== 0 ? 'true' : 'false';
}

function element(n: ViewNode, index: number, out: string[], indent: string): void {
  const cls = n.cls === '' ? 'android.view.View' : n.cls;
  const attrs = [
    `index="${index}"`,
    `package="${escapeAttr(n.pkg)}"`,
    `class="${escapeAttr(cls)}"`,
    `text="${escapeAttr(n.text)}"`,
    ...(n.id !== '' ? [`resource-id="${escapeAttr(n.id)}"`] : []),
    ...(n.desc !== '' ? [`content-desc="${escapeAttr(n.desc)}"`] : []),
    `checkable="${bool(n.flags, F.CHECKABLE)}"`,
    `checked="${bool(n.flags, F.CHECKED)}"`,
    `clickable="${bool(n.flags, F.CLICKABLE)}"`,
    `enabled="${bool(n.flags, F.ENABLED)}"`,
    `focusable="${bool(n.flags, F.FOCUSABLE)}"`,
    `focused="${bool(n.flags, F.FOCUSED)}"`,
    `long-clickable="${bool(n.flags, F.LONG_CLICKABLE)}"`,
    `password="${bool(n.flags, F.PASSWORD)}"`,
    `scrollable="${bool(n.flags, F.SCROLLABLE)}"`,
    `selected="${bool(n.flags, F.SELECTED)}"`,
    `bounds="[${n.bounds[0]},${n.bounds[1]}][${n.bounds[2]},${n.bounds[3]}]"`,
    'displayed="true"',
  ].join(' ');
  // toXmlNodeName: `$@#&` → '.', dots collapsed and trimmed.
  const tag =
    cls
      .replace(/[$@#&]/g, '.')
      .replace(/\.+/g, '.')
      .replace(/(^\.|\.$)/g, '') || 'android.view.View';
  if (n.children.length === 0) {
    out.push(`${indent}<${tag} ${attrs} />`);
    return;
  }
  out.push(`${indent}<${tag} ${attrs}>`);
  n.children.forEach((c, i) => element(c, i, out, indent + '  '));
  out.push(`${indent}</${tag}>`);
}

/** One running server; `stop` ends it (force-stop, uninstall), `stopped` resolves then. */
export class SimHelperServer {
  readonly stopped: Promise<void>;
  private readonly http: Server;
  private readonly sessions = new Map<string, Record<string, unknown>>();
  private resolveStopped!: () => void;
  private readonly sockets = new Set<Duplex>();
  private running = true;

  constructor(private readonly dev: Device) {
    this.stopped = new Promise((r) => (this.resolveStopped = r));
    this.http = createServer((req, res) => void this.serve(req, res));
  }

  get isRunning(): boolean {
    return this.running;
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
    this.resolveStopped();
  }

  /** The page source of what is on screen: every window with enableMultiWindows, else the top one. */
  pageSource(multiWindow: boolean): string {
    const d = this.dev.display();
    const windows: ViewNode[] = [];
    if (!multiWindow) {
      windows.push(this.dev.currentTree());
    } else {
      windows.push(this.dev.currentTreeBelowDialog());
      const dialog = this.dev.ui.dialogTree(d.width, d.height, d.density);
      if (dialog !== null) {
        windows.push(dialog);
      }
      if (this.dev.ui.shadeOpen) {
        windows.push(shadeTree(this.dev));
      }
    }
    const out = [
      "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>",
      `<hierarchy index="0" class="hierarchy" rotation="${d.rotation}" width="${d.width}" height="${d.height}">`,
    ];
    windows.forEach((w, i) => element(w, i, out, '  '));
    out.push('</hierarchy>');
    return out.join('\r\n');
  }

  private async serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let sessionId: string | null = null;
    try {
      const body = await readBody(req);
      if (this.dev.helperLatencyMs > 0) {
        await new Promise((r) => setTimeout(r, this.dev.helperLatencyMs));
      }
      const path = (req.url ?? '/').split('?')[0] ?? '/';
      const parts = path.split('/').filter((p) => p !== '');
      if (parts[0] !== 'wd' || parts[1] !== 'hub') {
        throw new HttpError(404, '', '');
      }
      const [what, id, ...rest] = parts.slice(2);
      const route = `${req.method ?? 'GET'} ${what ?? ''}${id !== undefined ? '/:id' : ''}${rest.length ? '/' + rest.join('/') : ''}`;
      if (route === 'GET status') {
        return send(res, 200, 'None', {
          build: { version: HELPER_VERSION_NAME, versionCode: HELPER_VERSION_CODE },
          message: 'UiAutomator2 Server is ready to accept commands',
          ready: true,
        });
      }
      if (route === 'GET sessions') {
        return send(
          res,
          200,
          'None',
          [...this.sessions.keys()].map((s) => ({ id: s, capabilities: {} })),
        );
      }
      if (route === 'POST session') {
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
        const created = randomUUID();
        this.sessions.set(created, { ...DEFAULT_SETTINGS });
        return send(res, 200, created, null);
      }
      if (what !== 'session' || id === undefined) {
        throw new HttpError(404, '', '');
      }
      sessionId = id;
      const settings = this.sessions.get(id);
      if (settings === undefined) {
        throw new HttpError(404, 'invalid session id', `A session is either terminated or not started`);
      }
      switch (route) {
        case 'GET session/:id':
          return send(res, 200, id, { capabilities: {} });
        case 'DELETE session/:id':
          this.sessions.delete(id);
          return send(res, 200, id, null);
        case 'GET session/:id/source':
          return send(res, 200, id, this.pageSource(settings['enableMultiWindows'] === true));
        case 'GET session/:id/appium/settings':
          return send(res, 200, id, settings);
        case 'POST session/:id/actions': {
          // W3C Actions (handler/W3CActions.java): a touch pointer that moves, goes down and up in
          // place is a tap, injected through the server's UiAutomation; other gestures are not
          // modelled here (droidbus sends only taps this way).
          const at = tapOf(body);
          if (at === null) {
            throw new HttpError(
              400,
              'invalid argument',
              'only a one-pointer tap is modelled by the simulator',
            );
          }
          this.dev.stats.lastInput = ['helper-tap', at.x, at.y];
          this.dev.stats.taps++;
          tap(this.dev, at.x, at.y);
          return send(res, 200, id, null);
        }
        case 'POST session/:id/appium/settings': {
          const update = (body as { settings?: unknown } | null)?.settings;
          if (typeof update !== 'object' || update === null) {
            throw new HttpError(400, 'invalid argument', "'settings' are mandatory for this command");
          }
          Object.assign(settings, update);
          return send(res, 200, id, null);
        }
        default:
          throw new HttpError(404, '', '');
      }
    } catch (err) {
      if (err instanceof HttpError && err.error === '') {
        res.writeHead(404).end();
        return;
      }
      const e = err instanceof HttpError ? err : new HttpError(500, 'unknown error', String(err));
      send(res, e.status, sessionId ?? 'None', {
        error: e.error,
        message: e.message,
        stacktrace: `io.appium.uiautomator2.common.exceptions.UiAutomator2Exception: ${e.message}`,
      });
    }
  }
}

/** The point of a W3C tap: one pointer source whose actions are pointerMove, pointerDown, (pause), pointerUp. */
function tapOf(body: unknown): { x: number; y: number } | null {
  const sources = (body as { actions?: unknown } | null)?.actions;
  if (!Array.isArray(sources) || sources.length !== 1) {
    return null;
  }
  const steps = (sources[0] as { type?: string; actions?: unknown }).actions;
  if ((sources[0] as { type?: string }).type !== 'pointer' || !Array.isArray(steps)) {
    return null;
  }
  const kinds = steps.map((a) => (a as { type?: string }).type).filter((t) => t !== 'pause');
  const move = steps[0] as { type?: string; x?: unknown; y?: unknown };
  if (
    kinds.join(',') !== 'pointerMove,pointerDown,pointerUp' ||
    typeof move.x !== 'number' ||
    typeof move.y !== 'number'
  ) {
    return null;
  }
  return { x: Math.round(move.x), y: Math.round(move.y) };
}

function send(res: ServerResponse, status: number, sessionId: string, value: unknown): void {
  const body = JSON.stringify({ sessionId, value });
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
  });
  res.end(body);
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const c of req) {
    chunks.push(c as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') {
    return null;
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new HttpError(400, 'invalid argument', `the body is not JSON: ${text.slice(0, 100)}`);
  }
}
