/**
 * The WebViews of a device's apps and the devtools sockets they open. The sample app's WebActivity
 * shows its APK's `assets/web/sign-in.html` in a WebView; a debuggable build enables WebView
 * debugging (`WebView.setWebContentsDebuggingEnabled(BuildConfig.DEBUG)`, the usual code), so its
 * process listens on the abstract socket `webview_devtools_remote_<pid>`, which /proc/net/unix lists
 * and `adb forward tcp:N localabstract:NAME` reaches. A release build opens none.
 *
 * Evidence: developer.chrome.com "Remote debug WebViews" (debugging needs
 * setWebContentsDebuggingEnabled; the socket name), /proc/net/unix rows as Chromium's own
 * adb_client tests quote them (`00000000: 00000002 00000000 00010000 0001 01  5394 /dev/socket/vold`;
 * an abstract name is printed with a leading `@`: net/unix/af_unix.c unix_seq_show), and phones'
 * listings quoted in public tools' tests (`... 00010000 0001 01 12345 @webview_devtools_remote_4012`).
 * Console messages and uncaught errors reach logcat as phones print them, every level under
 * `I chromium` (`[INFO:CONSOLE(53)] "Uncaught TypeError: … is not a function", source:
 * file:///android_asset/metro.html (53)`, quoted from a phone's log in a public project).
 * A tap inside the WebView goes to the page (a mouse press and release at the CSS point: focus,
 * click); typing and Enter, Backspace and Tab go to the page's focused element while the WebView
 * holds the input focus.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Duplex } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { readZipEntries, readZipEntryData } from '../../../util/apk-zip.js';
import { logger } from '../../../util/log.js';
import { SAMPLE_PACKAGE } from '../../sample-app.js';
import { buildActivityScreen } from '../ui/screens.js';
import type { ActivityRecord, ScreenEnv, Task } from '../ui/ui-model.js';
import type { ViewNode } from '../ui/view.js';
import { chromium, type ChromiumPage, type WebKey } from './chromium.js';
import { serveDevtools, type WebViewPlace } from './devtools-socket.js';
import { echoTree, type PageAccessibility } from './echo.js';

const log = logger('sim');

/** The sample's activity whose content is a WebView. */
export const SAMPLE_WEB_ACTIVITY = `${SAMPLE_PACKAGE}.WebActivity`;
/** The page it loads from its APK. */
export const SAMPLE_WEB_ASSET = 'assets/web/sign-in.html';

interface WebViewInstance {
  pid: number;
  pkg: string;
  rec: ActivityRecord;
  inode: number;
  /** WebView debugging is on (a debuggable build): its devtools socket listens. */
  debuggable: boolean;
  page: Promise<ChromiumPage>;
  /** Input to the page, in the order it came. */
  input: Promise<unknown>;
  /** The page's accessibility tree as last read (settle), for the WebView's echo; null before. */
  echo: PageAccessibility | null;
  dir: string;
}

/** A unix socket row of /proc/net/unix. */
export interface AbstractSocket {
  name: string;
  uid: number;
  inode: number;
}

function findWebView(n: ViewNode): ViewNode | undefined {
  if (n.cls === 'android.webkit.WebView') {
    return n;
  }
  for (const c of n.children) {
    const found = findWebView(c);
    if (found) {
      return found;
    }
  }
  return undefined;
}

/** What the registry reads of its device (the Device, without importing it). */
export interface WebViewHost {
  readonly identity: { release: string; model: string };
  readonly ui: { readonly tasks: readonly Task[]; readonly screenOn: boolean };
  readonly packages: ReadonlyMap<
    string,
    { uid: number; info: { debuggable: boolean; apkBytes: Uint8Array | null } }
  >;
  readonly procs: { forPackage(pkg: string): { pid: number } | undefined };
  readonly log: { append(entries: { pid: number; priority: 'I'; tag: string; message: string }[]): void };
  screenEnv(): ScreenEnv;
  topActivity(): ActivityRecord;
}

export class WebViews {
  private readonly byPid = new Map<number, WebViewInstance>();
  private nextInode = 310_000;

  constructor(private readonly dev: WebViewHost) {}

  /** Where `rec`'s WebView is on screen now, and whether it shows. */
  private place(rec: ActivityRecord): WebViewPlace {
    const web = findWebView(buildActivityScreen(rec, this.dev.screenEnv()));
    const [l, t, r, b] = web?.bounds ?? [0, 0, 0, 0];
    return {
      left: l,
      top: t,
      width: r - l,
      height: b - t,
      visible: this.dev.ui.screenOn && this.dev.topActivity() === rec,
    };
  }

  /** Brings the registry up to date: a WebView per live WebActivity of a debuggable app. */
  private sync(): void {
    const live = new Set<number>();
    for (const task of this.dev.ui.tasks) {
      for (const rec of task.activities) {
        const p = this.dev.packages.get(rec.pkg);
        const pid = this.dev.procs.forPackage(rec.pkg)?.pid;
        if (rec.cls !== SAMPLE_WEB_ACTIVITY || pid === undefined || p === undefined) {
          continue;
        }
        live.add(pid);
        if (!this.byPid.has(pid)) {
          this.byPid.set(pid, this.open(pid, rec, p.info.apkBytes, p.info.debuggable));
        }
      }
    }
    for (const [pid, w] of this.byPid) {
      if (!live.has(pid)) {
        this.byPid.delete(pid);
        this.dispose(w);
      }
    }
  }

  private open(
    pid: number,
    rec: ActivityRecord,
    apk: Uint8Array | null,
    debuggable: boolean,
  ): WebViewInstance {
    const dir = mkdtempSync(join(tmpdir(), 'droidbus-sim-webview-'));
    const file = join(dir, 'sign-in.html');
    const entry = apk === null ? undefined : readZipEntries(apk).find((e) => e.name === SAMPLE_WEB_ASSET);
    writeFileSync(
      file,
      entry !== undefined && apk !== null
        ? readZipEntryData(apk, entry)
        : '<html><body><p>Web page not available</p></body></html>',
    );
    const place = this.place(rec);
    const dpr = this.dev.screenEnv().density / 160;
    const page = chromium().then((c) =>
      c.openPage(pathToFileURL(file).href, place.width / dpr, place.height / dpr, dpr, (m) =>
        // Android WebView hands console messages to logcat under the tag chromium, every level
        // as INFO:CONSOLE (a phone's `I chromium: [INFO:CONSOLE(12)] "…", source: … (12)`).
        this.dev.log.append([
          {
            pid,
            priority: 'I',
            tag: 'chromium',
            message: `[INFO:CONSOLE(${m.line})] "${m.text}", source: ${m.source} (${m.line})`,
          },
        ]),
      ),
    );
    page.catch((err: unknown) => log.warn(`the WebView of ${rec.pkg} has no page: ${String(err)}`));
    return {
      pid,
      pkg: rec.pkg,
      rec,
      inode: this.nextInode++,
      debuggable,
      page,
      input: page,
      echo: null,
      dir,
    };
  }

  private dispose(w: WebViewInstance): void {
    void w.page.then(
      (p) => p.close(),
      () => undefined,
    );
    rmSync(w.dir, { recursive: true, force: true });
  }

  /** The devtools sockets listening now (rows of /proc/net/unix). */
  sockets(): AbstractSocket[] {
    this.sync();
    return [...this.byPid.values()]
      .filter((w) => w.debuggable)
      .map((w) => ({
        name: `webview_devtools_remote_${w.pid}`,
        uid: this.dev.packages.get(w.pkg)?.uid ?? 10_000,
        inode: w.inode,
      }));
  }

  /** What connecting to the abstract socket `name` reaches; undefined when nothing listens there. */
  accept(name: string): ((socket: Duplex) => void) | undefined {
    this.sync();
    const pid = /^webview_devtools_remote_(\d+)$/.exec(name)?.[1];
    const w = pid === undefined ? undefined : this.byPid.get(Number(pid));
    if (w === undefined || !w.debuggable) {
      return undefined;
    }
    const identity = this.dev.identity;
    return (socket) =>
      serveDevtools(
        {
          pkg: w.pkg,
          release: identity.release,
          model: identity.model,
          page: () => w.page,
          place: () => this.place(w.rec),
        },
        socket,
      );
  }

  /** The WebView `rec` shows, once it has one. */
  private of(rec: ActivityRecord): WebViewInstance | undefined {
    this.sync();
    return [...this.byPid.values()].find((w) => w.rec === rec);
  }

  /** Runs `act` on `rec`'s page after the input before it; false when `rec` has no WebView. */
  private send(rec: ActivityRecord, act: (page: ChromiumPage, w: WebViewInstance) => Promise<void>): boolean {
    const w = this.of(rec);
    if (w === undefined) {
      return false;
    }
    w.input = w.input.then((page) => act(page as ChromiumPage, w).then(() => page)).catch(() => w.page);
    return true;
  }

  /** A tap at screen pixels inside `rec`'s WebView, delivered to its page. */
  tap(rec: ActivityRecord, x: number, y: number): boolean {
    return this.send(rec, async (page, w) => {
      const place = this.place(w.rec);
      const dpr = this.dev.screenEnv().density / 160;
      await page.tap((x - place.left) / dpr, (y - place.top) / dpr);
    });
  }

  /** Text typed while `rec`'s WebView has focus (the IME commits it to the focused element). */
  type(rec: ActivityRecord, text: string): boolean {
    return this.send(rec, (page) => page.insertText(text));
  }

  /** A key pressed while `rec`'s WebView has focus. */
  key(rec: ActivityRecord, key: WebKey): boolean {
    return this.send(rec, (page) => page.key(key));
  }

  /**
   * Reads the page of the WebView in front again, after the input sent to it, so the next view tree
   * carries its accessibility echo as it is now (what a dump or a helper read waits for: a phone's
   * WebView publishes its tree as the page changes). A page that cannot be read keeps its last echo.
   */
  async settle(): Promise<void> {
    this.sync();
    const top = this.dev.topActivity();
    await Promise.all(
      [...this.byPid.values()]
        .filter((w) => w.rec === top)
        .map(async (w) => {
          try {
            w.echo = await ((await w.input) as ChromiumPage).accessibility();
          } catch {
            // No engine or no page: the WebView node stands alone, as before its page loads.
          }
        }),
    );
  }

  /** The echo under `rec`'s WebView at `bounds` (echo.ts); null before its page was read. */
  echo(
    rec: ActivityRecord,
    bounds: readonly [number, number, number, number],
    focused: boolean,
  ): ViewNode | null {
    const w = [...this.byPid.values()].find((x) => x.rec === rec);
    if (w === undefined || w.echo === null) {
      return null;
    }
    return echoTree(w.echo, { bounds, dpr: this.dev.screenEnv().density / 160, pkg: w.pkg, focused });
  }

  /**
   * What `rec`'s WebView shows, for a screenshot: its page's picture at its place on screen, after
   * the input sent to it; null when `rec` has no WebView or its engine cannot picture it.
   */
  async picture(
    rec: ActivityRecord,
  ): Promise<{ bounds: [number, number, number, number]; png: string } | null> {
    const w = this.of(rec);
    if (w === undefined) {
      return null;
    }
    try {
      const page = (await w.input) as ChromiumPage;
      const png = await page.picture();
      const p = this.place(w.rec);
      return {
        bounds: [p.left, p.top, p.left + p.width, p.top + p.height],
        png: `data:image/png;base64,${png.toString('base64')}`,
      };
    } catch {
      return null;
    }
  }

  close(): void {
    for (const w of this.byPid.values()) {
      this.dispose(w);
    }
    this.byPid.clear();
  }
}
