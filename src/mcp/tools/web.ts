/** Inside WebViews (issue 73): the devtools sockets of a device's apps, and a page read like a screen. */
import { z } from 'zod';
import { devtoolsSocketSchema, pageIdSchema, type WebRow } from '../../bus/messages/web.js';
import { defineDeviceTool } from '../define-device-tool.js';
import { deviceResponseOf } from '../responses.js';

/** Which page: the socket and the page, each with its default. */
const pageChoice = {
  socket: devtoolsSocketSchema
    .optional()
    .describe('The devtools socket (list_webviews); needed with several'),
  page_id: pageIdSchema.optional().describe('The page (list_webviews); the visible one by default'),
};

const NO_WEBVIEW_HINT =
  'WebView debugging is off unless the app calls WebView.setWebContentsDebuggingEnabled(true): debug builds usually do, release builds do not.';

export const listWebviews = defineDeviceTool({
  name: 'list_webviews',
  answers: 'device.webviews',
  toolset: 'web',
  kind: 'read',
  title: 'List WebViews',
  description:
    "The device's debuggable WebViews and browsers (their devtools sockets), each with its app and pages: title, URL, and where the WebView is on screen. Read a page with get_webview_page.",
  output: deviceResponseOf('device.webviews'),
  async handle(_args, ctx) {
    const r = await ctx.ask('device.webviews', {});
    if (r.webviews.length === 0) {
      return {
        text: `No debuggable WebView or browser is open on ${ctx.serial}. ${NO_WEBVIEW_HINT}`,
        structured: { ...r, device_serial: ctx.serial },
      };
    }
    const lines = r.webviews.flatMap((w) => [
      `${w.socket}${w.package ? ` — ${w.package}` : ''}${w.browser ? ` (${w.browser})` : ''}${w.unread ? `: not readable (${w.unread})` : ''}`,
      ...w.pages.map(
        (p) =>
          `  page ${p.id}: "${p.title}" ${p.url}${p.visible === true ? ', visible' : p.visible === false ? ', hidden' : ''}${p.bounds ? ` at [${p.bounds.join(',')}]` : ''}`,
      ),
    ]);
    return { text: lines.join('\n'), structured: { ...r, device_serial: ctx.serial } };
  },
});

function rowLine(r: WebRow): string {
  const value = r.value !== null && r.value !== '' ? ` = "${r.value}"` : '';
  const [l, t, rt, b] = r.bounds;
  const at = `(${Math.round((l + rt) / 2)},${Math.round((t + b) / 2)})`;
  return `[${r.ref}] ${r.role} "${r.name}"${value}${r.id ? ` ${r.id}` : ''} ${at}${r.on_screen ? '' : ' off-screen'}`;
}

export const getWebviewPage = defineDeviceTool({
  name: 'get_webview_page',
  answers: 'device.webview_page',
  toolset: 'web',
  kind: 'read',
  title: 'Read a WebView page',
  description:
    "A WebView's page as rows, read through the DevTools protocol without running JavaScript: links, buttons, fields (their values; passwords never), headings and text, each with its centre in screen pixels — tap it with ui_tap (x, y). The visible page of the only debuggable WebView unless socket or page_id says which.",
  input: z.object({
    ...pageChoice,
    max_rows: z.number().int().min(1).max(500).default(150).describe('Rows at most (default 150)'),
  }),
  output: deviceResponseOf('device.webview_page'),
  async handle(args, ctx) {
    const r = await ctx.ask('device.webview_page', {
      max_rows: args.max_rows,
      ...(args.socket !== undefined ? { socket: args.socket } : {}),
      ...(args.page_id !== undefined ? { page_id: args.page_id } : {}),
    });
    const head = `Web page "${r.page.title}" ${r.page.url} in ${r.package ?? r.socket}${r.page.bounds ? ` (WebView at [${r.page.bounds.join(',')}], ${r.scale} px per CSS px)` : ''}:`;
    const tail = r.more > 0 ? [`… ${r.more} more rows (max_rows).`] : [];
    return {
      text: [head, ...r.rows.map(rowLine), ...tail].join('\n'),
      structured: { ...r, device_serial: ctx.serial },
    };
  },
});

export const webviewEvaluate = defineDeviceTool({
  name: 'webview_evaluate',
  answers: 'device.webview_evaluate',
  toolset: 'web',
  kind: 'write',
  title: 'Run JavaScript in a WebView',
  description:
    "Runs a JavaScript expression in a WebView's page (awaited, 5 s at most) and answers its value as JSON, or what it threw. Only for a trusted project's own app (droidbus trust): a page holds the app's and its user's state. Reading the page (get_webview_page) needs none of this.",
  input: z.object({
    expression: z
      .string()
      .min(1)
      .max(4_000)
      .describe('The expression, e.g. document.title or fetch(…).then(r => r.status)'),
    ...pageChoice,
  }),
  output: deviceResponseOf('device.webview_evaluate'),
  async handle(args, ctx) {
    const r = await ctx.ask('device.webview_evaluate', {
      root: ctx.session.project.root,
      expression: args.expression,
      ...(args.socket !== undefined ? { socket: args.socket } : {}),
      ...(args.page_id !== undefined ? { page_id: args.page_id } : {}),
    });
    const text =
      r.exception !== null
        ? `It threw in "${r.page.title}" (${r.package ?? r.socket}): ${r.exception}`
        : `${r.type}: ${r.result ?? 'undefined'}${r.truncated ? ' … (cut)' : ''}`;
    return { text, structured: { ...r, device_serial: ctx.serial } };
  },
});

export const webTools = [listWebviews, getWebviewPage, webviewEvaluate];
