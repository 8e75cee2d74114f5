import { BusError } from '../../../bus/errors.js';
import type { FindQueryPayload } from '../../../bus/messages/ui.js';
import type { HandlerContext } from '../../actor.js';
import type { Capture } from './ui-capture.js';
import { findElements } from './ui-query.js';
import type { UiElement } from './ui-query.js';
import { displayOf, type UiBounds, type UiTree } from '../../../device/ui-dump/ui-types.js';
import { sleep } from '../../../util/sleep.js';

/** Matches of a query on a capture (an invalid query is invalid_argument). */
export function matchesOf(
  tree: UiTree,
  query: FindQueryPayload,
  max = 20,
): { matches: UiElement[]; total: number; truncated: boolean } {
  const found = findElements(tree, { ...query, max_results: max });
  if (!found.ok) {
    throw new BusError('INVALID', found.error.message);
  }
  return found.value;
}

export interface WaitOptions {
  until: 'element' | 'idle';
  query: FindQueryPayload | undefined;
  /** Selects the elements instead of `query` (a Maestro selector: maestro-select.ts). */
  select?: (tree: UiTree) => UiElement[];
  gone: boolean;
  timeoutMs: number;
  intervalMs: number;
  /** A further condition a capture must meet for the wait to end satisfied. */
  accept?: (current: Capture) => boolean;
}

export interface WaitOutcome {
  satisfied: boolean;
  elapsed_ms: number;
  captures: number;
  matches: UiElement[];
  last: Capture;
}

/**
 * Captures repeatedly until the condition holds or the timeout passes (one capture is always
 * made). Sends a progress report after every capture and stops at once when the request is
 * cancelled.
 */
export async function waitOnScreen(
  capture: () => Promise<Capture>,
  options: WaitOptions,
  ctx: HandlerContext,
): Promise<WaitOutcome> {
  const started = Date.now();
  const end = started + options.timeoutMs;
  let captures = 0;
  let previous: Capture | null = null;
  for (;;) {
    const current = await capture();
    captures++;
    let satisfied: boolean;
    let matches: UiElement[] = [];
    if (options.until === 'element') {
      matches = options.select
        ? options.select(current.tree)
        : matchesOf(current.tree, options.query ?? {}).matches;
      satisfied = options.gone ? matches.length === 0 : matches.length > 0;
      if (satisfied && options.accept !== undefined) {
        satisfied = options.accept(current);
      }
    } else {
      satisfied = previous !== null && previous.hash === current.hash;
    }
    const elapsed = Date.now() - started;
    ctx.progress({
      progress: Math.min(elapsed, options.timeoutMs),
      total: options.timeoutMs,
      message: `capture ${captures}: ${satisfied ? 'done' : options.until === 'idle' ? 'screen still changing' : options.gone ? 'still there' : 'not there yet'}`,
    });
    if (satisfied || Date.now() >= end || ctx.signal.aborted) {
      if (ctx.signal.aborted) {
        throw ctx.signal.reason instanceof Error ? ctx.signal.reason : new BusError('CANCELLED', 'cancelled');
      }
      return { satisfied, elapsed_ms: elapsed, captures, matches, last: current };
    }
    previous = current;
    await sleep(Math.min(options.intervalMs, end - Date.now()), ctx.signal);
  }
}

/**
 * The swipe that scrolls content `direction` (the content moves that way, the finger the other): 60 %
 * of the largest scrollable area through its centre, else of the display.
 */
export function scrollSwipe(
  tree: UiTree,
  direction: 'down' | 'up' | 'left' | 'right',
): { x1: number; y1: number; x2: number; y2: number } {
  const size = (b: UiBounds): number => (b.right - b.left) * (b.bottom - b.top);
  const area =
    tree.nodes
      .filter((n) => n.scrollable)
      .map((n) => n.bounds)
      .sort((a, b) => size(b) - size(a))[0] ?? displayOf(tree);
  const cx = Math.round((area.left + area.right) / 2);
  const cy = Math.round((area.top + area.bottom) / 2);
  const dy = Math.round((area.bottom - area.top) * 0.3);
  const dx = Math.round((area.right - area.left) * 0.3);
  switch (direction) {
    case 'down':
      return { x1: cx, y1: cy + dy, x2: cx, y2: cy - dy };
    case 'up':
      return { x1: cx, y1: cy - dy, x2: cx, y2: cy + dy };
    case 'right':
      return { x1: cx + dx, y1: cy, x2: cx - dx, y2: cy };
    default:
      return { x1: cx - dx, y1: cy, x2: cx + dx, y2: cy };
  }
}
