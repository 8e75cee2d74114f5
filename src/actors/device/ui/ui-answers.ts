/**
 * The reading requests' answers built from a capture — what `device.ui_hierarchy`, `device.ui_clickables` and
 * `device.ui_find` reply — kept apart from the device actor so that the property test of device data
 * (tests/property/device-data.test.ts) checks exactly what the actor answers against the bus's schemas.
 */
import type { PayloadOf, ResponseOf } from '../../../bus/registry.js';
import { screenFacts, type Capture } from './ui-capture.js';
import { formatHierarchy } from './ui-format.js';
import { interactiveRows } from './ui-query.js';
import { matchesOf } from './ui-waits.js';
import { nameWindows, windowFacts } from './window-facts.js';

/**
 * The screen read, with the window manager's list beside it (`windows`: null when it could not be
 * read — the capture still counts): the capture's windows named, what covers the app, what the
 * capture could not read.
 */
export function hierarchyAnswer(
  cap: Capture,
  p: Pick<PayloadOf<'device.ui_hierarchy'>, 'max_rows' | 'include_bars' | 'tree'>,
  windows: ResponseOf<'device.windows'> | null,
): ResponseOf<'device.ui_hierarchy'> {
  const formatted = formatHierarchy(cap.tree, {
    max_rows: p.max_rows,
    include_bars: p.include_bars,
    tree: p.tree,
  });
  const facts = windowFacts(windows, cap.reader === 'helper');
  return {
    ...screenFacts(cap),
    text: formatted.text,
    rows: formatted.rows,
    total_rows: formatted.total_rows,
    truncated: formatted.truncated,
    windows: nameWindows(
      cap.tree.windows.map((w) => ({
        index: w.index,
        package: w.package,
        kind: w.kind,
        bounds: w.bounds,
        title: w.title,
        type: w.type,
      })),
      windows,
    ),
    captured_window: facts.captured_window,
    covering: facts.covering,
    not_captured: facts.not_captured,
    window_note: facts.note,
  };
}

export function clickablesAnswer(cap: Capture, limit: number): ResponseOf<'device.ui_clickables'> {
  return { ...screenFacts(cap), ...interactiveRows(cap.tree, limit) };
}

export function findAnswer(
  cap: Capture,
  p: Pick<PayloadOf<'device.ui_find'>, 'query' | 'max_results'>,
): ResponseOf<'device.ui_find'> {
  return { ...screenFacts(cap), ...matchesOf(cap.tree, p.query, p.max_results) };
}
