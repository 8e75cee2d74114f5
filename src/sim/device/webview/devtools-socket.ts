/**
 * One WebView's devtools socket (`@webview_devtools_remote_<pid>`), as the app's process serves it:
 * `/json/version` names the app (`Android-Package`) and a WebView user agent (`; wv)`); `/json` and
 * `/json/list` list this WebView's page only, with its place on screen in `description` (a JSON
 * string: attached, empty, height, never_attached, screenX, screenY, visible, width — physical
 * pixels); `/devtools/page/ID` is the page's WebSocket, joined to the real Chromium's.
 *
 * Evidence: captures of a phone's WebView socket through `adb forward` (`curl localhost:9001/json`
 * and `/json/version` of io.appium.android.apis on Android 10, quoted in a public WebView-testing
 * course; the same shape in appium-android-driver's webview helper tests and Chromium's
 * devtools_http_handler: `description` is set by the embedder, AwDevToolsManagerDelegate).
 * The browser-wide WebSocket (`/devtools/browser`) is refused here: the sim's Chromium holds every
 * device's pages, and one device's socket must not reach another's.
 */
import { get } from 'node:http';
import { connect } from 'node:net';
import type { Duplex } from 'node:stream';

/** Where the WebView is, in screen pixels, and whether it is shown. */
export interface WebViewPlace {
  left: number;
  top: number;
  width: number;
  height: number;
  visible: boolean;
}

export interface DevtoolsTarget {
  pkg: string;
  /** The device's Android version and model, for the user agent. */
  release: string;
  model: string;
  /** The page, once Chromium has it. */
  page(): Promise<{ id: string; port: number }>;
  place(): WebViewPlace;
}

function fetchJson(port: number, path: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    get({ host: '127.0.0.1', port, path }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => {
        try {
          resolve(JSON.parse(body));
        } catch (err) {
          reject(err instanceof Error ? err : new Error(String(err)));
        }
      });
    }).on('error', reject);
  });
}

function answer(
  socket: Duplex,
  status: string,
  body: string,
  type = 'application/json; charset=UTF-8',
): void {
  const bytes = Buffer.from(body, 'utf8');
  // One answer per connection, said so: a keep-alive client must not send a second request on it.
  socket.end(
    `HTTP/1.1 ${status}\r\nContent-Type:${type}\r\nContent-Length:${bytes.length}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** Serves one connection to the socket. */
export function serveDevtools(target: DevtoolsTarget, socket: Duplex): void {
  let head = Buffer.alloc(0);
  const onData = (chunk: Buffer): void => {
    head = Buffer.concat([head, chunk]);
    const end = head.indexOf('\r\n\r\n');
    if (end < 0) {
      if (head.length > 64 * 1024) {
        socket.destroy();
      }
      return;
    }
    socket.off('data', onData);
    socket.pause();
    void handle(target, socket, head, end).catch((err: unknown) =>
      answer(
        socket,
        '500 Internal Server Error',
        `the WebView's page is not available: ${String(err)}`,
        'text/plain',
      ),
    );
  };
  socket.on('data', onData);
  socket.on('error', () => undefined);
}

async function handle(target: DevtoolsTarget, socket: Duplex, head: Buffer, end: number): Promise<void> {
  const text = head.subarray(0, end).toString('latin1');
  const [requestLine = '', ...headerLines] = text.split('\r\n');
  const [method = '', path = ''] = requestLine.split(' ');
  const host =
    headerLines
      .find((l) => /^host:/i.test(l))
      ?.slice(5)
      .trim() ?? 'localhost';
  const page = await target.page();
  const upgrade = headerLines.some((l) => /^upgrade:\s*websocket/i.test(l));
  if (upgrade) {
    if (path !== `/devtools/page/${page.id}`) {
      answer(socket, '404 Not Found', 'No such target id', 'text/plain');
      return;
    }
    const upstream = connect(page.port, '127.0.0.1');
    upstream.on('error', () => socket.destroy());
    socket.on('close', () => upstream.destroy());
    upstream.once('connect', () => {
      upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
      socket.resume();
    });
    return;
  }
  if (method !== 'GET') {
    answer(socket, '404 Not Found', 'Unknown command', 'text/plain');
    return;
  }
  if (path === '/json/version') {
    const v = (await fetchJson(page.port, '/json/version')) as Record<string, string>;
    const chrome = /Chrome\/([\d.]+)/.exec(v['Browser'] ?? '')?.[1] ?? '0';
    answer(
      socket,
      '200 OK',
      JSON.stringify(
        {
          'Android-Package': target.pkg,
          Browser: `Chrome/${chrome}`,
          'Protocol-Version': v['Protocol-Version'] ?? '1.3',
          'User-Agent': `Mozilla/5.0 (Linux; Android ${target.release}; ${target.model}; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/${chrome} Mobile Safari/537.36`,
          'V8-Version': v['V8-Version'] ?? '',
          'WebKit-Version': v['WebKit-Version'] ?? '',
          webSocketDebuggerUrl: `ws://${host}/devtools/browser`,
        },
        null,
        3,
      ),
    );
    return;
  }
  if (path === '/json' || path === '/json/list') {
    const list = (await fetchJson(page.port, '/json/list')) as Record<string, unknown>[];
    const place = target.place();
    const pages = list
      .filter((p) => p['id'] === page.id)
      .map((p) => ({
        description: JSON.stringify({
          attached: true,
          empty: false,
          height: place.height,
          never_attached: false,
          screenX: place.left,
          screenY: place.top,
          visible: place.visible,
          width: place.width,
        }),
        devtoolsFrontendUrl: `https://chrome-devtools-frontend.appspot.com/serve_rev/@0/inspector.html?ws=${host}/devtools/page/${page.id}`,
        id: page.id,
        title: p['title'],
        type: 'page',
        url: p['url'],
        webSocketDebuggerUrl: `ws://${host}/devtools/page/${page.id}`,
      }));
    answer(socket, '200 OK', JSON.stringify(pages, null, 3));
    return;
  }
  answer(
    socket,
    '200 OK',
    "<html><head><title>WebView remote debugging</title></head><body>Please use <a href='chrome://inspect'>chrome://inspect</a></body></html>",
    'text/html',
  );
}
