/**
 * `device.webview_evaluate`: JavaScript run in a WebView's page (CDP Runtime.evaluate, issue 73) —
 * never by default: only when the session's project is trusted (`droidbus trust`, the same word
 * that lets its Gradle run) and the WebView belongs to one of the project's own application ids.
 * A page holds the app's and its user's state; reading it (get_webview_page) runs nothing.
 */
import CDP from 'chrome-remote-interface';
import { fail } from '../../../bus/errors.js';
import { MAX_EVAL_RESULT_CHARS } from '../../../bus/messages/web.js';
import type { PayloadOf, ResponseOf } from '../../../bus/registry.js';
import type { Device } from '../../../device/device.js';
import { isProjectTrusted, trustHint } from '../../../project/trust.js';
import type { HandlerContext } from '../../actor.js';
import { requirePackageInScope } from '../apps/package-scope.js';
import { choosePage } from './web-page.js';
import type { WebForwards } from './webviews.js';

/** How long the page's script may run. */
const EVAL_TIMEOUT_MS = 5_000;

interface EvalAnswer {
  result: { type: string; value?: unknown; description?: string; unserializableValue?: string };
  exceptionDetails?: { text: string; exception?: { description?: string } };
}

export async function evaluateInWebView(
  device: Device,
  forwards: WebForwards,
  p: PayloadOf<'device.webview_evaluate'>,
  ctx: HandlerContext,
): Promise<ResponseOf<'device.webview_evaluate'>> {
  if (p.root === null || !isProjectTrusted(p.root)) {
    throw fail.invalid(
      `JavaScript runs in a WebView only for a trusted project's own app, never by default. ${trustHint(p.root) ?? ''}`.trim(),
      { reason: p.root === null ? 'no_project' : 'untrusted_project' },
    );
  }
  const { view, page, port } = await choosePage(device, forwards, p, ctx.signal);
  if (view.package === null) {
    throw fail.invalid(
      `the devtools socket ${view.socket} does not name its app, so it cannot be checked as the project's`,
    );
  }
  await requirePackageInScope(ctx, { root: p.root, allow_foreign_package: false }, view.package);
  const client = await CDP({ host: '127.0.0.1', port, target: page.id, local: true });
  try {
    const r = (await client.send('Runtime.evaluate', {
      expression: p.expression,
      returnByValue: true,
      awaitPromise: true,
      timeout: EVAL_TIMEOUT_MS,
    })) as EvalAnswer;
    const exception = r.exceptionDetails
      ? (r.exceptionDetails.exception?.description?.split('\n')[0] ?? r.exceptionDetails.text)
      : null;
    const json =
      exception !== null
        ? null
        : (r.result.unserializableValue ??
          (r.result.value === undefined ? (r.result.description ?? null) : JSON.stringify(r.result.value)));
    return {
      socket: view.socket,
      package: view.package,
      page,
      result: json === null ? null : json.slice(0, MAX_EVAL_RESULT_CHARS),
      type: r.result.type,
      truncated: json !== null && json.length > MAX_EVAL_RESULT_CHARS,
      exception,
    };
  } finally {
    await client.close().catch(() => undefined);
  }
}
