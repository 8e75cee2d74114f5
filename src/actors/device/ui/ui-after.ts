/**
 * What a UI action left on the screen (issue 34): one capture after the action, compared with the
 * capture before it, told compactly — the new screen hash (for the next expect_screen_hash), the
 * windows that came and went, a few elements that appeared, went or changed, the focused field, the
 * keyboard and a system dialog over the app. The agent acts again without reading the whole screen.
 *
 * The capture after the action is one `uiautomator dump` (or helper read), which waits for the UI to
 * idle before it reads; an animation that outlasts that wait shows as it is at that moment.
 */
import type { z } from 'zod';
import { THEN_WAIT_MS, type afterActionSchema } from '../../../bus/messages/ui.js';
import type { ResponseOf } from '../../../bus/registry.js';
import type { HandlerContext } from '../../actor.js';
import { waitOnScreen } from './ui-waits.js';
import { compareStates, type FieldChange } from './ui-compare.js';
import type { Capture } from './ui-capture.js';
import { detectOverlays } from './ui-overlays.js';
import { focusedNode, nodeLabel, shortClass, titleOf } from './ui-query.js';
import { clip } from './ui-text.js';

/** Elements named per list (appeared, disappeared, changed): the counts are always whole. */
const NAMED = 5;
/** How often a `then` wait reads the screen again. */
const THEN_INTERVAL_MS = 250;

export type AfterAction = z.infer<typeof afterActionSchema>;

/** An element as a summary names it: shown text quoted, an id marked as one (`#login_form`). */
function named(e: { label: string; label_source: string; class: string }): string {
  if (!e.label) {
    return e.class;
  }
  return e.label_source === 'resource_id' ? `#${clip(e.label, 40)}` : `"${clip(e.label, 40)}"`;
}

function change(f: FieldChange): string {
  if (f.hidden === true) {
    return f.after === '0' ? 'cleared (hidden)' : `filled (${f.after} characters, hidden)`;
  }
  return `${f.field} ${f.before}→${f.after}`;
}

/** The screen an action left, compared with `before` (null: nothing to compare with). */
export function afterAction(before: Capture | null, after: Capture): AfterAction {
  const overlays = detectOverlays(after.tree);
  const node = focusedNode(after.tree);
  const label = node ? nodeLabel(after.tree, node).label : '';
  const focused = node
    ? `[${node.tree_path}] ${shortClass(node.class)}${label ? ` "${clip(label, 40)}"` : ''}`
    : null;
  const common = {
    screen_hash: after.hash,
    title: titleOf(after.tree),
    focused,
    keyboard: overlays.keyboard !== null,
    system_dialog: overlays.system_dialog?.package ?? null,
    app_package: overlays.app_package,
  };
  if (before === null) {
    return {
      ...common,
      changed: true,
      // Nothing to compare with (the first read of this device, a fresh launch): nothing to say.
      summary: '',
      appeared: [],
      disappeared: [],
      changed_elements: [],
    };
  }
  const diff = compareStates(before.tree, after.tree, NAMED * 3);
  return {
    ...common,
    changed: !diff.same_screen,
    summary: diff.summary,
    appeared: diff.appeared.slice(0, NAMED).map(named),
    disappeared: diff.disappeared.slice(0, NAMED).map(named),
    changed_elements: diff.changed
      .slice(0, NAMED)
      .map((c) => `${named(c)} ${c.changes.map(change).join(', ')}`),
  };
}

/** What `device.ui_input` answers about the screen after its action. */
export type ScreenAfter = Pick<ResponseOf<'device.ui_input'>, 'after' | 'after_note' | 'then'>;

/**
 * Reads the screen once after an action — or, with `then`, until an element whose text contains it
 * shows (THEN_WAIT_MS at most; the wait's last capture is the one reported). A read that fails
 * after the action does not fail the action, which was done: the answer says why there is no screen.
 */
export async function screenAfter(
  capture: () => Promise<Capture>,
  before: Capture | null,
  thenText: string | undefined,
  ctx: HandlerContext,
): Promise<ScreenAfter> {
  const started = Date.now();
  try {
    if (thenText === undefined) {
      return { after: afterAction(before, await capture()), after_note: null, then: null };
    }
    const outcome = await waitOnScreen(
      capture,
      {
        until: 'element',
        query: { text_contains: thenText },
        gone: false,
        timeoutMs: THEN_WAIT_MS,
        intervalMs: THEN_INTERVAL_MS,
        // Only the next screen meets it: text that was already there on an unchanged screen is the
        // old screen (a slow transition, or an action that did nothing), never success.
        accept: (current) => before === null || current.hash !== before.hash,
      },
      ctx,
    );
    const after = afterAction(before, outcome.last);
    return {
      after,
      after_note: null,
      then: {
        text: thenText,
        satisfied: outcome.satisfied,
        elapsed_ms: outcome.elapsed_ms,
        screen_unchanged: !outcome.satisfied && before !== null && outcome.last.hash === before.hash,
      },
    };
  } catch (err) {
    if (ctx.signal.aborted) {
      throw err;
    }
    return {
      after: null,
      after_note: `the action was done, but the screen could not be read after it: ${err instanceof Error ? err.message : String(err)}`,
      then:
        thenText === undefined
          ? null
          : { text: thenText, satisfied: false, elapsed_ms: Date.now() - started, screen_unchanged: false },
    };
  }
}

/**
 * How old a capture an element action may act on instead of capturing again: one started after the
 * last action and taken this recently (an action's own after-capture, read by the next action of a
 * quick agent) is the screen as it is. DROIDBUS_REUSE_CAPTURE_MS changes it (tests make it long so
 * that a loaded machine's slower round trips do not decide what they see).
 */
const REUSE_CAPTURE_MS = Number(process.env['DROIDBUS_REUSE_CAPTURE_MS'] ?? '') || 500;

/**
 * The last capture when an action may act on it: it started after the last action
 * (`sinceLastAction`; a dump that began before it may show the screen before it), it is fresh, and
 * it is the screen `expectHash` names.
 */
export function reusableCapture(
  last: Capture | null,
  sinceLastAction: boolean,
  expectHash: string | undefined,
): Capture | null {
  if (last === null || !sinceLastAction || Date.now() - last.at > REUSE_CAPTURE_MS) {
    return null;
  }
  return expectHash === undefined || expectHash === last.hash ? last : null;
}
