/** The device actor's WebView handlers (issue 73): the devtools sockets and their pages, a page's rows. */
import type { DeviceHandlers } from '../device-state.js';
import { evaluateInWebView } from '../web/web-evaluate.js';
import { readWebViewPage } from '../web/web-page.js';
import { listWebViews } from '../web/webviews.js';

export const webHandlers = {
  'device.webviews': async (_p, state, ctx) => ({
    webviews: await listWebViews(state.device, state.webForwards, ctx.signal),
  }),
  'device.webview_page': (p, state, ctx) => readWebViewPage(state.device, state.webForwards, p, ctx.signal),
  'device.webview_evaluate': (p, state, ctx) => evaluateInWebView(state.device, state.webForwards, p, ctx),
} satisfies Partial<DeviceHandlers>;
