/**
 * The real browser engine behind the simulator's WebViews: one headless Chromium per sim process
 * (Debian's `chromium`; DROIDBUS_SIM_CHROMIUM names another), each WebView a page target of it sized
 * as the WebView is on the device's screen (CSS pixels at the device's density, mobile emulation).
 *
 * Evidence: Android WebView is Chromium (developer.chrome.com "Remote debug WebViews"); a WebView's
 * devtools socket serves the DevTools HTTP endpoints and per-page WebSockets of Chromium's own
 * DevToolsHttpHandler, which headless Chromium serves on --remote-debugging-port (its stderr line
 * `DevTools listening on ws://127.0.0.1:PORT/devtools/browser/ID`, measured with Chromium 156).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import CDP from 'chrome-remote-interface';
import type { AxNode, PageAccessibility } from './echo.js';

/** A WebView's page in the shared Chromium. */
export interface ChromiumPage {
  /** Chromium's target id (what `/json/list` and `/devtools/page/ID` name). */
  readonly id: string;
  /** Chromium's DevTools port on 127.0.0.1. */
  readonly port: number;
  /** A tap at CSS pixels of the viewport (a mouse press and release: focus and click). */
  tap(x: number, y: number): Promise<void>;
  /** Text committed into the focused element, as an IME commits it. */
  insertText(text: string): Promise<void>;
  /** What the page shows now: a PNG of its viewport (the device's pixels). */
  picture(): Promise<Buffer>;
  /** One key pressed and released. */
  key(key: WebKey): Promise<void>;
  /** The engine's accessibility tree of the page and its layout, for the WebView's echo (echo.ts). */
  accessibility(): Promise<PageAccessibility>;
  close(): Promise<void>;
}

/** Windows virtual key codes Chromium's key events carry. */
const KEY_CODES = { Enter: 13, Backspace: 8, Tab: 9, End: 35 } as const;

/** The keys a WebView's page takes from the device's keys. */
export type WebKey = keyof typeof KEY_CODES;

interface DomSnapshot {
  documents: {
    nodes: { backendNodeId?: number[]; attributes?: number[][] };
    layout: { nodeIndex: number[]; bounds: number[][] };
    scrollOffsetX?: number;
    scrollOffsetY?: number;
  }[];
  strings: string[];
}

/** A snapshot's boxes by backend node id, with each element's id and whether it is a password input. */
function boxesOf(snap: DomSnapshot): PageAccessibility['boxes'] {
  const doc = snap.documents[0];
  const boxes = new Map<number, { box: readonly number[]; id: string; password: boolean }>();
  if (doc === undefined) {
    return boxes;
  }
  const s = (i: number | undefined): string => (i === undefined || i < 0 ? '' : (snap.strings[i] ?? ''));
  doc.layout.nodeIndex.forEach((index, k) => {
    const backend = doc.nodes.backendNodeId?.[index];
    if (backend === undefined) {
      return;
    }
    const attrs = doc.nodes.attributes?.[index] ?? [];
    const attr = (name: string): string => {
      for (let a = 0; a + 1 < attrs.length; a += 2) {
        if (s(attrs[a]).toLowerCase() === name) {
          return s(attrs[a + 1]);
        }
      }
      return '';
    };
    boxes.set(backend, {
      box: doc.layout.bounds[k] ?? [],
      id: attr('id'),
      password: attr('type').toLowerCase() === 'password',
    });
  });
  return boxes;
}

/** Ends Chromium and every process it started (its process group). */
function killGroup(child: ChildProcess): void {
  if (child.pid === undefined) {
    return;
  }
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // Gone already.
  }
}

/** A console message or an uncaught error of a page: its text and where it came from. */
export interface ConsoleMessage {
  text: string;
  source: string;
  line: number;
}

interface ConsoleEvent {
  args: { value?: unknown; description?: string }[];
  stackTrace?: { callFrames: { url: string; lineNumber: number }[] };
}

interface ExceptionEvent {
  exceptionDetails: { text: string; url?: string; lineNumber: number; exception?: { description?: string } };
}

/** How long Chromium may take to say where it listens. */
const START_TIMEOUT_MS = 20_000;

class ChromiumHost {
  private constructor(
    private readonly child: ChildProcess,
    readonly port: number,
    private readonly profile: string,
  ) {
    process.once('exit', () => this.kill());
  }

  static async start(): Promise<ChromiumHost> {
    const profile = mkdtempSync(join(tmpdir(), 'droidbus-sim-chromium-'));
    const child = spawn(
      process.env['DROIDBUS_SIM_CHROMIUM'] ?? 'chromium',
      [
        '--headless=new',
        '--no-sandbox',
        '--disable-gpu',
        '--no-first-run',
        '--disable-extensions',
        '--remote-debugging-address=127.0.0.1',
        '--remote-debugging-port=0',
        `--user-data-dir=${profile}`,
        'about:blank',
      ],
      // Its own process group: the renderers and utilities it starts go with it (kill below).
      { stdio: ['ignore', 'ignore', 'pipe'], detached: true },
    );
    const port = await new Promise<number>((resolve, reject) => {
      let said = '';
      const timer = setTimeout(() => fail(new Error('Chromium did not start in time')), START_TIMEOUT_MS);
      const fail = (err: Error): void => {
        clearTimeout(timer);
        killGroup(child);
        rmSync(profile, { recursive: true, force: true });
        reject(new Error(`${err.message}: ${said.slice(-500)}`));
      };
      child.once('error', (err) => fail(err));
      child.once('exit', (code) => fail(new Error(`Chromium exited (${code})`)));
      child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
        said += chunk;
        const m = /DevTools listening on ws:\/\/127\.0\.0\.1:(\d+)\//.exec(said);
        if (m) {
          clearTimeout(timer);
          child.removeAllListeners('exit');
          said = '';
          resolve(Number(m[1]));
        }
        said = said.slice(-4000);
      });
    });
    // Its stderr (dbus complaints in a container) is read and dropped, so the pipe never fills; it
    // does not keep the sim running (stopChromium and the exit hook end it).
    child.stderr!.resume();
    child.unref();
    (child.stderr as unknown as { unref?: () => void }).unref?.();
    return new ChromiumHost(child, port, profile);
  }

  /**
   * A new page at `url`, its viewport `width`×`height` CSS pixels at `dpr`, as a phone's WebView.
   * The emulation belongs to the CDP session that set it, so the WebView keeps that session open
   * (the app's own end of its WebView) until the page closes.
   */
  async openPage(
    url: string,
    width: number,
    height: number,
    dpr: number,
    onConsole: (message: ConsoleMessage) => void = () => undefined,
  ): Promise<ChromiumPage> {
    const target = await CDP.New({ port: this.port, host: '127.0.0.1', url: 'about:blank' });
    const client = await CDP({ port: this.port, host: '127.0.0.1', target: target.id });
    try {
      await client.send('Emulation.setDeviceMetricsOverride', {
        width: Math.round(width),
        height: Math.round(height),
        deviceScaleFactor: dpr,
        mobile: true,
      });
      await client.send('Page.enable');
      // What the page logs and throws, as the WebView hands it to its client (webviews.ts logs it).
      client.on('Runtime.consoleAPICalled', (e: ConsoleEvent) => {
        const frame = e.stackTrace?.callFrames[0];
        onConsole({
          text: e.args
            .map((a) => (a.value !== undefined ? String(a.value) : (a.description ?? '')))
            .join(' '),
          source: frame?.url ?? '',
          line: (frame?.lineNumber ?? -1) + 1,
        });
      });
      client.on('Runtime.exceptionThrown', (e: ExceptionEvent) => {
        const d = e.exceptionDetails;
        onConsole({
          text: `Uncaught ${d.exception?.description?.split('\n')[0] ?? d.text}`,
          source: d.url ?? '',
          line: d.lineNumber + 1,
        });
      });
      await client.send('Runtime.enable');
      const loaded = client.Page.loadEventFired();
      await client.send('Page.navigate', { url });
      await Promise.race([loaded, new Promise((resolve) => setTimeout(resolve, 5_000))]);
    } catch (err) {
      await client.close().catch(() => undefined);
      throw err;
    }
    const port = this.port;
    const mouse = (type: 'mousePressed' | 'mouseReleased', x: number, y: number) =>
      client.send('Input.dispatchMouseEvent', { type, x, y, button: 'left', clickCount: 1 });
    return {
      id: target.id,
      port,
      tap: async (x, y) => {
        await mouse('mousePressed', x, y);
        await mouse('mouseReleased', x, y);
      },
      picture: async () => {
        const shot = (await client.send('Page.captureScreenshot', { format: 'png' })) as { data: string };
        return Buffer.from(shot.data, 'base64');
      },
      insertText: async (text) => {
        await client.send('Input.insertText', { text });
      },
      key: async (key) => {
        const code = KEY_CODES[key];
        const text = key === 'Enter' ? '\r' : undefined;
        await client.send('Input.dispatchKeyEvent', {
          type: 'keyDown',
          key,
          code: key,
          windowsVirtualKeyCode: code,
          ...(text !== undefined ? { text } : {}),
        });
        await client.send('Input.dispatchKeyEvent', {
          type: 'keyUp',
          key,
          code: key,
          windowsVirtualKeyCode: code,
        });
      },
      accessibility: async () => {
        const [tree, snap] = await Promise.all([
          client.send('Accessibility.getFullAXTree', {}) as Promise<{ nodes: AxNode[] }>,
          client.send('DOMSnapshot.captureSnapshot', { computedStyles: [] }) as Promise<DomSnapshot>,
        ]);
        return {
          nodes: tree.nodes,
          boxes: boxesOf(snap),
          scrollX: snap.documents[0]?.scrollOffsetX ?? 0,
          scrollY: snap.documents[0]?.scrollOffsetY ?? 0,
        };
      },
      close: async () => {
        await client.close().catch(() => undefined);
        await CDP.Close({ port, host: '127.0.0.1', id: target.id }).catch(() => undefined);
      },
    };
  }

  kill(): void {
    killGroup(this.child);
    rmSync(this.profile, { recursive: true, force: true });
  }
}

let shared: Promise<ChromiumHost> | null = null;

/** The sim process's Chromium, started on first use. Rejects when it cannot start (not installed). */
export function chromium(): Promise<ChromiumHost> {
  if (shared === null) {
    shared = ChromiumHost.start();
    shared.catch(() => {
      shared = null;
    });
  }
  return shared;
}

/** Stops the shared Chromium, if one runs (the farm's stop). */
export async function stopChromium(): Promise<void> {
  const running = shared;
  shared = null;
  (await running?.catch(() => null))?.kill();
}
