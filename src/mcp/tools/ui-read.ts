/** The ui tools that read the screen and find elements; `uiTools` collects every ui tool (reading, waiting, acting). */
import { z } from 'zod';
import { limitParam } from '../params.js';
import {
  capturedWindowSchema,
  hierarchyRowSchema,
  treePathSchema,
  windowFactsSchema,
} from '../../bus/messages/ui.js';
import { defineDeviceTool } from '../define-device-tool.js';
import { withoutEmpty } from '../compact.js';
import { responseOf } from '../responses.js';
import {
  expectHash,
  screenOutput,
  screenOf,
  screenLine,
  elementLine,
  criteria,
  queryOf,
  describeQuery,
} from './ui-shared.js';
import { uiActTools } from './ui-act.js';
import { uiWaitTools } from './ui-wait.js';

/**
 * A row of get_ui_hierarchy's structured answer: the bus row without its empty fields. A real view
 * may have an empty class (a Samsung multi-window dump has `class=""`), so class may be absent too.
 */
const hierarchyRowOutput = hierarchyRowSchema.partial({
  class: true,
  text: true,
  content_desc: true,
  resource_id: true,
  hint: true,
  flags: true,
});
type HierarchyRowOutput = z.infer<typeof hierarchyRowOutput>;

const webPartSchema = z.object({
  tree_path: z.string().describe("The WebView's row; the rows under it are its page"),
  bounds: z.object({ left: z.number(), top: z.number(), right: z.number(), bottom: z.number() }),
  page_rows: z.number().int().describe('Rows of its page shown (0: the page is not in the dump)'),
});
type WebPart = z.infer<typeof webPartSchema>;

/**
 * The web parts of a screen: each outermost WebView row (an app's WebView, or the root web area
 * Chromium publishes inside it) and how many rows under it are the page's accessibility echo.
 */
function webParts(
  rows: readonly { tree_path: string; class?: string; bounds: WebPart['bounds'] }[],
): WebPart[] {
  const views = rows.filter((row) => /(^|\.)WebView$/.test(row.class ?? ''));
  return views
    .filter((v) => !views.some((o) => o !== v && v.tree_path.startsWith(`${o.tree_path}.`)))
    .map((v) => ({
      tree_path: v.tree_path,
      bounds: v.bounds,
      page_rows: rows.filter((row) => row.tree_path.startsWith(`${v.tree_path}.`)).length,
    }));
}

function webPartLine(w: WebPart): string {
  const at = `[${w.bounds.left},${w.bounds.top}][${w.bounds.right},${w.bounds.bottom}]`;
  return w.page_rows > 0
    ? `web: the rows under ${w.tree_path} are the web page in the WebView at ${at}, as its accessibility echo shows them — tap and fill them like any row; get_webview_page reads the page itself (values, ids, rows off screen; toolset web)`
    : `web: the WebView at ${at} shows a web page this dump has nothing of — get_webview_page reads it as rows (toolset web; a debuggable WebView)`;
}

export const getUiHierarchy = defineDeviceTool({
  name: 'get_ui_hierarchy',
  answers: 'device.ui_hierarchy',
  toolset: 'ui',
  kind: 'read',
  title: 'Read the screen',
  description:
    'Reads the screen (fresh): title, windows, screen_hash, then the interactive elements and the texts as rows with tree_path, class, text, id, bounds and flags. Notes a keyboard, the shade or a system dialog.',
  input: z.object({
    tree: z.boolean().default(false).describe('The whole hierarchy, indented'),
    max_rows: limitParam('Rows shown', 80, 500),
    include_system_bars: z.boolean().default(false).describe('Also show the status and navigation bars'),
  }),
  output: screenOutput
    .extend(responseOf('device.ui_hierarchy').pick({ total_rows: true, truncated: true }).shape)
    .extend({
      rows: z
        .array(hierarchyRowOutput)
        .describe(
          'The rows shown, in order; class, text, content_desc, resource_id, hint and flags only when set',
        ),
      ...windowFactsSchema,
      windows: z.array(capturedWindowSchema).describe("The capture's windows, named by the window manager"),
      web: z
        .array(webPartSchema)
        .describe('The WebViews on screen: which rows are their pages (their accessibility echo)'),
    }),
  reshaped: ['rows', 'windows'],
  async handle(args, ctx) {
    const { serial } = ctx;
    const r = await ctx.ask('device.ui_hierarchy', {
      max_rows: args.max_rows,
      include_bars: args.include_system_bars,
      tree: args.tree,
    });
    const named = r.windows.map(({ bounds: _bounds, ...w }) => w);
    // The window manager's note names the captured window and what covers the app: said there, it is
    // said once — not again in the first line or in a list of the capture's windows.
    const windowLine =
      named.length > 1 && !r.window_note
        ? `\nwindows: ${named.map((w) => `${w.index} ${w.title ?? w.package} (${w.kind}${w.type ? `, ${w.type}` : ''})`).join('; ')}`
        : '';
    const web = webParts(r.rows);
    const webLine = web.length > 0 ? `\n${web.map(webPartLine).join('\n')}` : '';
    return {
      text: `${screenLine(serial, r, !r.window_note)}${r.window_note ? `\n${r.window_note}` : ''}${windowLine}\n${r.text}${r.truncated ? `\n… ${r.total_rows - r.rows.length} more rows (raise max_rows, or use find_ui_elements)` : ''}${webLine}`,
      structured: {
        ...screenOf(serial, r),
        rows: r.rows.map((row) => withoutEmpty(row) as HierarchyRowOutput),
        total_rows: r.total_rows,
        truncated: r.truncated,
        captured_window: r.captured_window,
        covering: r.covering,
        not_captured: r.not_captured,
        windows: named,
        web,
      },
    };
  },
});

export const listClickableElements = defineDeviceTool({
  name: 'list_clickable_elements',
  answers: 'device.ui_clickables',
  toolset: 'ui-extras',
  kind: 'read',
  title: 'List interactive elements',
  description:
    'Lists the interactive elements on screen (clickable, long-clickable, checkable, editable, scrollable) with label, tree_path, bounds and centre: the usual first step before ui_tap_element or ui_fill_input.',
  input: z.object({
    limit: limitParam('Rows', 80, 500),
  }),
  output: screenOutput.extend(
    responseOf('device.ui_clickables').pick({ rows: true, total: true, truncated: true }).shape,
  ),
  async handle(args, ctx) {
    const { serial } = ctx;
    const r = await ctx.ask('device.ui_clickables', { limit: args.limit });
    const lines = r.rows.map((row) => `${row.n}. ${elementLine(row)}`);
    return {
      text: [
        screenLine(serial, r),
        ...lines,
        ...(r.truncated ? [`… ${r.total - r.rows.length} more (raise limit)`] : []),
      ].join('\n'),
      structured: { ...screenOf(serial, r), rows: r.rows, total: r.total, truncated: r.truncated },
    };
  },
});

export const findUiElements = defineDeviceTool({
  name: 'find_ui_elements',
  answers: 'device.ui_find',
  toolset: 'ui',
  kind: 'read',
  title: 'Find elements',
  description:
    'Finds elements on screen by text (exact), text_contains, resource_id, content_desc, class_name, clickable (all must hold; clickable alone: what can be tapped), each with tree_path, bounds, center.',
  input: z.object({
    ...criteria,
    max_results: limitParam('Results', 20, 100),
  }),
  output: screenOutput.extend(
    responseOf('device.ui_find').pick({ matches: true, total: true, truncated: true }).shape,
  ),
  async handle(args, ctx) {
    const query = queryOf(args, true);
    const { serial } = ctx;
    const r = await ctx.ask('device.ui_find', { query, max_results: args.max_results });
    const head =
      r.total === 0
        ? `No element matches ${describeQuery(query)}.`
        : `${r.total} match${r.total === 1 ? '' : 'es'} for ${describeQuery(query)}:`;
    return {
      text: [screenLine(serial, r), head, ...r.matches.map(elementLine)].join('\n'),
      structured: { ...screenOf(serial, r), matches: r.matches, total: r.total, truncated: r.truncated },
    };
  },
});

export const findUiParent = defineDeviceTool({
  name: 'find_ui_parent',
  answers: 'device.ui_parent',
  toolset: 'ui-extras',
  kind: 'read',
  title: 'Find the parent of an element',
  description:
    'Returns the element at tree_path on the current screen and its parent (e.g. the clickable row around a text).',
  input: z.object({
    tree_path: treePathSchema,
    expect_screen_hash: expectHash,
  }),
  output: screenOutput.extend(responseOf('device.ui_parent').pick({ node: true, parent: true }).shape),
  async handle(args, ctx) {
    const { serial } = ctx;
    const r = await ctx.ask('device.ui_parent', {
      tree_path: args.tree_path,
      ...(args.expect_screen_hash ? { expect_screen_hash: args.expect_screen_hash } : {}),
    });
    return {
      text: [
        screenLine(serial, r),
        `element: ${elementLine(r.node)}`,
        r.parent ? `parent:  ${elementLine(r.parent)}` : 'parent: none (it is a window root)',
      ].join('\n'),
      structured: { ...screenOf(serial, r), node: r.node, parent: r.parent },
    };
  },
});

export const compareUiState = defineDeviceTool({
  name: 'compare_ui_state',
  answers: 'device.ui_compare',
  toolset: 'ui-extras',
  kind: 'read',
  title: 'Compare with the last capture',
  description:
    "Captures the screen and compares it with this device's previous read (actions answer their own change): what appeared, disappeared, or changed text or state. The first call records a baseline.",
  input: z.object({
    max_results: z
      .number()
      .int()
      .min(1)
      .max(200)
      .default(30)
      .describe('Differences listed at most (default 30)'),
  }),
  output: screenOutput.extend(
    responseOf('device.ui_compare').pick({ compared: true, baseline_age_ms: true, comparison: true }).shape,
  ),
  async handle(args, ctx) {
    const { serial } = ctx;
    const r = await ctx.ask('device.ui_compare', { limit: args.max_results });
    const summary = r.compared
      ? String((r.comparison as { summary?: unknown } | null)?.summary ?? '')
      : 'No earlier capture of this device: this one is now the baseline. Act, then call compare_ui_state again.';
    return {
      text: `${screenLine(serial, r)}\n${summary}`,
      structured: {
        ...screenOf(serial, r),
        compared: r.compared,
        baseline_age_ms: r.baseline_age_ms,
        comparison: r.comparison,
      },
    };
  },
});

export const uiTools = [
  getUiHierarchy,
  listClickableElements,
  findUiElements,
  findUiParent,
  compareUiState,
  ...uiWaitTools,
  ...uiActTools,
];
