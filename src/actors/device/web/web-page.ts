/**
 * `device.webview_page`: a WebView's page read like a screen (issue 73), through the Chrome DevTools
 * protocol on its forwarded socket — no JavaScript runs in the page: `DOMSnapshot.captureSnapshot`
 * gives every rendered node with its layout box (CSS pixels in the document), `Page.getLayoutMetrics`
 * the viewport and its scroll. Interactive elements (links, buttons, fields, anything with a click
 * listener) and headings and text become rows; each box is mapped onto the screen: the WebView's
 * place (from /json/list) plus (box − scroll) × the WebView's width over the viewport's CSS width.
 *
 * Evidence: the protocol's DOMSnapshot and Page domains (chromedevtools.github.io/devtools-protocol,
 * tot), checked against a real Chromium behind the simulator's WebView (tests/e2e/webview.test.ts).
 */
import CDP from 'chrome-remote-interface';
import { fail } from '../../../bus/errors.js';
import type { PayloadOf, ResponseOf } from '../../../bus/registry.js';
import type { WebRow, WebViewInfo } from '../../../bus/messages/web.js';
import type { Device } from '../../../device/device.js';
import { forwardTo, listWebViews, type WebForwards } from './webviews.js';

type Answer = ResponseOf<'device.webview_page'>;
type Bounds = [number, number, number, number];

interface Snapshot {
  documents: {
    nodes: {
      parentIndex?: number[];
      nodeType?: number[];
      nodeName?: number[];
      nodeValue?: number[];
      attributes?: number[][];
      inputValue?: { index: number[]; value: number[] };
      isClickable?: { index: number[] };
    };
    layout: { nodeIndex: number[]; bounds: number[][] };
    scrollOffsetX?: number;
    scrollOffsetY?: number;
  }[];
  strings: string[];
}

const INTERACTIVE: Readonly<Record<string, string>> = {
  A: 'link',
  BUTTON: 'button',
  SELECT: 'combobox',
  TEXTAREA: 'textbox',
  SUMMARY: 'button',
};
const ROLES = new Set([
  'button',
  'link',
  'checkbox',
  'radio',
  'switch',
  'tab',
  'menuitem',
  'textbox',
  'combobox',
]);
const INPUT_ROLES: Readonly<Record<string, string>> = {
  submit: 'button',
  button: 'button',
  reset: 'button',
  checkbox: 'checkbox',
  radio: 'radio',
  range: 'slider',
};

/** A snapshot's first document, read by node index: names, attributes, text, boxes. */
function documentOf(snap: Snapshot) {
  const doc = snap.documents[0]!;
  const s = (i: number | undefined): string => (i === undefined || i < 0 ? '' : (snap.strings[i] ?? ''));
  const n = doc.nodes;
  const count = n.nodeName?.length ?? 0;
  const children = new Map<number, number[]>();
  for (let i = 0; i < count; i++) {
    const p = n.parentIndex?.[i] ?? -1;
    children.set(p, [...(children.get(p) ?? []), i]);
  }
  const boxes = new Map<number, number[]>();
  doc.layout.nodeIndex.forEach((node, k) => boxes.set(node, doc.layout.bounds[k] ?? []));
  const inputValues = new Map<number, string>();
  (n.inputValue?.index ?? []).forEach((node, k) => inputValues.set(node, s(n.inputValue!.value[k])));
  const d = {
    count,
    children,
    boxes,
    inputValues,
    clickable: new Set(n.isClickable?.index ?? []),
    isElement: (i: number): boolean => n.nodeType?.[i] === 1,
    isText: (i: number): boolean => n.nodeType?.[i] === 3,
    value: (i: number): string => s(n.nodeValue?.[i]),
    tag: (i: number): string => s(n.nodeName?.[i]).toUpperCase(),
    attrs: (i: number): Map<string, string> => {
      const a = n.attributes?.[i] ?? [];
      const m = new Map<string, string>();
      for (let k = 0; k + 1 < a.length; k += 2) {
        m.set(s(a[k]).toLowerCase(), s(a[k + 1]));
      }
      return m;
    },
    textOf: (i: number): string =>
      d.isText(i) ? d.value(i) : (children.get(i) ?? []).map((c) => d.textOf(c)).join(' '),
  };
  return d;
}
type Doc = ReturnType<typeof documentOf>;

function clean(t: string): string {
  return t.replace(/\s+/g, ' ').trim().slice(0, 200);
}

/** What a node is to an agent: a button, a field, a heading, text; undefined for none of these. */
function roleOf(d: Doc, i: number, a: Map<string, string>, insideRow: boolean): string | undefined {
  if (d.isText(i)) {
    return !insideRow && d.boxes.has(i) && clean(d.value(i)) !== '' ? 'text' : undefined;
  }
  if (!d.isElement(i)) {
    return undefined;
  }
  const tag = d.tag(i);
  if (tag === 'INPUT') {
    return a.get('type') === 'hidden' ? undefined : (INPUT_ROLES[a.get('type') ?? ''] ?? 'textbox');
  }
  const aria = a.get('role');
  const role = INTERACTIVE[tag] ?? (aria && ROLES.has(aria) ? aria : undefined);
  if (role !== undefined) {
    return role;
  }
  if (/^H[1-6]$/.test(tag)) {
    return 'heading';
  }
  const plain = ['BODY', 'HTML', 'FORM', 'LABEL'].includes(tag);
  return d.clickable.has(i) && !insideRow && !plain ? 'clickable' : undefined;
}

/** What a row says: its label, a field's placeholder, a button's text. */
function nameOf(
  d: Doc,
  i: number,
  a: Map<string, string>,
  role: string,
  labels: Map<string, string>,
): string {
  if (role === 'text') {
    return clean(d.value(i));
  }
  const tag = d.tag(i);
  const id = a.get('id');
  const own =
    tag === 'INPUT' && ['submit', 'button', 'reset'].includes(a.get('type') ?? '')
      ? a.get('value')
      : tag === 'INPUT' || tag === 'TEXTAREA'
        ? (a.get('placeholder') ?? a.get('name'))
        : d.textOf(i);
  return clean(
    a.get('aria-label') ??
      (id !== undefined ? labels.get(id) : undefined) ??
      own ??
      a.get('title') ??
      a.get('alt') ??
      '',
  );
}

/** The rows of a snapshot, in document order; `toScreen` maps a CSS box to screen pixels. */
export function pageRows(
  snap: Snapshot,
  toScreen: (box: number[]) => Bounds,
  viewport: Bounds,
): Omit<WebRow, 'ref'>[] {
  if (snap.documents[0] === undefined) {
    return [];
  }
  const d = documentOf(snap);
  const labels = new Map<string, string>();
  for (let i = 0; i < d.count; i++) {
    const target = d.tag(i) === 'LABEL' ? d.attrs(i).get('for') : undefined;
    if (target) {
      labels.set(target, clean(d.textOf(i)));
    }
  }
  const rows: Omit<WebRow, 'ref'>[] = [];
  const visit = (i: number, insideRow: boolean): void => {
    const a = d.isElement(i) ? d.attrs(i) : new Map<string, string>();
    const tag = d.tag(i);
    const role = roleOf(d, i, a, insideRow);
    const box = d.boxes.get(i);
    if (role !== undefined && box !== undefined && box[2]! > 0 && box[3]! > 0) {
      const bounds = toScreen(box);
      const cx = (bounds[0] + bounds[2]) / 2;
      const cy = (bounds[1] + bounds[3]) / 2;
      const field = tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT';
      rows.push({
        role,
        name: nameOf(d, i, a, role, labels),
        // A password's value is never read out.
        value: field
          ? a.get('type') === 'password'
            ? null
            : (d.inputValues.get(i) ?? a.get('value') ?? '')
          : null,
        id: a.has('id') ? `#${a.get('id')}` : null,
        bounds,
        on_screen: cx >= viewport[0] && cx < viewport[2] && cy >= viewport[1] && cy < viewport[3],
      });
    }
    // A field's label names the field's row, so its own text is no row of its own; a row's text is its name.
    const labelOfField = tag === 'LABEL' && a.has('for');
    const inRow = insideRow || labelOfField || (role !== undefined && role !== 'text');
    for (const c of d.children.get(i) ?? []) {
      visit(c, inRow);
    }
  };
  for (const root of d.children.get(-1) ?? []) {
    visit(root, false);
  }
  return rows;
}

/** The page a request names: the socket's (the only debuggable one by default), the page (the visible one). */
export async function choosePage(
  device: Device,
  forwards: WebForwards,
  p: { socket?: string | undefined; page_id?: string | undefined },
  signal: AbortSignal,
): Promise<{ view: WebViewInfo; page: WebViewInfo['pages'][number]; port: number }> {
  const all = await listWebViews(device, forwards, signal);
  const readable = all.filter((w) => w.unread === null);
  const view =
    p.socket !== undefined
      ? all.find((w) => w.socket === p.socket)
      : readable.length === 1
        ? readable[0]
        : readable.find((w) => w.pages.some((pg) => pg.visible === true));
  if (view === undefined) {
    throw fail.notFound(
      all.length === 0
        ? `no app on ${device.serial} has a debuggable WebView open: WebView debugging is off unless the app calls WebView.setWebContentsDebuggingEnabled(true) (debug builds usually do, release builds do not); open the screen with the WebView, or install the debug build`
        : p.socket !== undefined
          ? `no devtools socket ${p.socket} on ${device.serial} (list_webviews names them: ${all.map((w) => w.socket).join(', ')})`
          : `several WebViews are open on ${device.serial} (${readable.map((w) => w.socket).join(', ')}): say which with socket`,
    );
  }
  if (view.unread !== null) {
    throw fail.failed(`the devtools socket ${view.socket} could not be read: ${view.unread}`);
  }
  const page =
    p.page_id !== undefined
      ? view.pages.find((pg) => pg.id === p.page_id)
      : (view.pages.find((pg) => pg.visible === true) ?? view.pages[0]);
  if (page === undefined) {
    throw fail.notFound(
      p.page_id !== undefined
        ? `no page ${p.page_id} in ${view.socket} (its pages: ${view.pages.map((pg) => pg.id).join(', ') || 'none'})`
        : `${view.socket} has no page open`,
    );
  }
  const port = await forwardTo(device, forwards, view.socket, signal);
  return { view, page, port };
}

/** Reads one page of the device's WebViews (the only debuggable one, the visible page, unless named). */
export async function readWebViewPage(
  device: Device,
  forwards: WebForwards,
  p: PayloadOf<'device.webview_page'>,
  signal: AbortSignal,
): Promise<Answer> {
  const { view, page, port } = await choosePage(device, forwards, p, signal);
  // The socket's own list names the page's WebSocket; the client is told where, never asked to look.
  const client = await CDP({ host: '127.0.0.1', port, target: page.id, local: true });
  try {
    const metrics = (await client.send('Page.getLayoutMetrics')) as {
      cssLayoutViewport: { pageX: number; pageY: number; clientWidth: number; clientHeight: number };
    };
    const snap = (await client.send('DOMSnapshot.captureSnapshot', {
      computedStyles: [],
      includeDOMRects: true,
    })) as unknown as Snapshot;
    const vp = metrics.cssLayoutViewport;
    const place = page.bounds;
    const scale = place !== null && vp.clientWidth > 0 ? (place[2] - place[0]) / vp.clientWidth : 1;
    const [left, top] = place ?? [0, 0];
    const toScreen = (box: number[]): Bounds => {
      const [x = 0, y = 0, w = 0, h = 0] = box;
      const l = Math.round(left + (x - vp.pageX) * scale);
      const t = Math.round(top + (y - vp.pageY) * scale);
      return [l, t, Math.round(l + w * scale), Math.round(t + h * scale)];
    };
    const viewport: Bounds = place ?? [0, 0, Math.round(vp.clientWidth), Math.round(vp.clientHeight)];
    const rows = pageRows(snap, toScreen, viewport);
    const kept = rows.slice(0, p.max_rows).map((r, i) => ({ ref: i + 1, ...r }));
    return {
      socket: view.socket,
      package: view.package,
      page,
      scale: Math.round(scale * 1000) / 1000,
      rows: kept,
      more: rows.length - kept.length,
    };
  } finally {
    await client.close().catch(() => undefined);
  }
}
