/**
 * `device.webviews`: the WebViews and browsers a device's apps expose for debugging (issue 73). Each
 * listens on an abstract unix socket (`webview_devtools_remote_<pid>`, `chrome_devtools_remote`, a
 * browser's `<package>_devtools_remote[_<pid>]`), which /proc/net/unix lists with a leading `@`;
 * `adb forward tcp:0 localabstract:NAME` reaches it, and it answers DevTools' HTTP endpoints:
 * `/json/version` (`Android-Package`, `Browser`) and `/json/list` (the pages; a WebView says where
 * it is on screen in each page's `description`, a JSON string: attached, visible, screenX, screenY,
 * width, height). A forward is kept per socket while the device actor lives.
 *
 * Evidence: developer.chrome.com "Remote debug WebViews"; captures of a phone's WebView socket
 * (`curl localhost:9001/json` through adb forward, quoted in public WebView-testing material) and
 * appium-android-driver's webview helpers, which read the same fields.
 */
import { get } from 'node:http';
import type { WebViewInfo } from '../../../bus/messages/web.js';
import { READS } from '../../../device/reads.js';
import type { Device } from '../../../device/device.js';

/** A devtools socket listening on the device. */
export interface DevtoolsSocket {
  socket: string;
  pid: number | null;
}

/** The devtools sockets /proc/net/unix lists (listening, abstract), each once. */
export function parseDevtoolsSockets(procNetUnix: string): DevtoolsSocket[] {
  const seen = new Map<string, DevtoolsSocket>();
  for (const line of procNetUnix.split('\n')) {
    const m = /\s@([\w.]*devtools_remote(?:_(\d+))?)\s*$/.exec(line);
    if (m && !seen.has(m[1]!)) {
      seen.set(m[1]!, { socket: m[1]!, pid: m[2] !== undefined ? Number(m[2]) : null });
    }
  }
  return [...seen.values()];
}

/** A GET of the socket's HTTP endpoints, parsed as JSON. */
export function getJson(port: number, path: string, timeoutMs = 5_000): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const req = get({ host: '127.0.0.1', port, path, agent: false, timeout: timeoutMs }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => {
        body += c;
        if (body.length > 4 * 1024 * 1024) {
          req.destroy(new Error(`${path} answered more than 4 MB`));
        }
      });
      res.on('end', () => {
        try {
          resolve(JSON.parse(body));
        } catch {
          reject(new Error(`${path} did not answer JSON (${res.statusCode}): ${body.slice(0, 120)}`));
        }
      });
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`${path} did not answer in ${timeoutMs} ms`)));
    req.on('error', reject);
  });
}

/** Local ports forwarded to devtools sockets, by socket name (kept while the device actor lives). */
export type WebForwards = Map<string, number>;

/** A local port that reaches `socket` on the device, forwarded once. */
export async function forwardTo(
  device: Device,
  forwards: WebForwards,
  socket: string,
  signal: AbortSignal,
): Promise<number> {
  const known = forwards.get(socket);
  if (known !== undefined) {
    return known;
  }
  const port = await device.forward(`localabstract:${socket}`, { signal });
  forwards.set(socket, port);
  return port;
}

type Page = WebViewInfo['pages'][number];

/** A /json/list entry as droidbus answers it: the WebView's place from its description. */
export function pageOf(raw: Record<string, unknown>): Page {
  let place: Record<string, unknown> = {};
  try {
    place = JSON.parse(typeof raw['description'] === 'string' ? raw['description'] : '') as Record<
      string,
      unknown
    >;
  } catch {
    // A browser tab's description is empty: no place on screen is known.
  }
  const num = (k: string): number | null => (typeof place[k] === 'number' ? (place[k] as number) : null);
  const [x, y, w, h] = [num('screenX'), num('screenY'), num('width'), num('height')];
  return {
    id: String(raw['id'] ?? ''),
    title: String(raw['title'] ?? ''),
    url: String(raw['url'] ?? ''),
    type: String(raw['type'] ?? ''),
    attached: typeof place['attached'] === 'boolean' ? place['attached'] : null,
    visible: typeof place['visible'] === 'boolean' ? place['visible'] : null,
    bounds: x !== null && y !== null && w !== null && h !== null ? [x, y, x + w, y + h] : null,
  };
}

/** Every devtools socket of the device with its pages. */
export async function listWebViews(
  device: Device,
  forwards: WebForwards,
  signal: AbortSignal,
): Promise<WebViewInfo[]> {
  const unix = await device.read(READS.unixSockets, {}, { signal, timeoutMs: 10_000 });
  const sockets = parseDevtoolsSockets(unix.stdout);
  return Promise.all(
    sockets.map(async ({ socket, pid }): Promise<WebViewInfo> => {
      try {
        const port = await forwardTo(device, forwards, socket, signal);
        const version = (await getJson(port, '/json/version')) as Record<string, unknown>;
        const list = (await getJson(port, '/json/list')) as Record<string, unknown>[];
        return {
          socket,
          pid,
          package: typeof version['Android-Package'] === 'string' ? version['Android-Package'] : null,
          browser: typeof version['Browser'] === 'string' ? version['Browser'] : null,
          pages: (Array.isArray(list) ? list : []).map(pageOf).filter((p) => p.type === 'page'),
          unread: null,
        };
      } catch (err) {
        // A stale forward (the app restarted under the same name) is made again next time.
        forwards.delete(socket);
        return {
          socket,
          pid,
          package: null,
          browser: null,
          pages: [],
          unread: err instanceof Error ? err.message : String(err),
        };
      }
    }),
  );
}
