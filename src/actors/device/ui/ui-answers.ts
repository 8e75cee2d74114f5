/**
 * The reading requests' answers built from a capture — what `ui.hierarchy`, `ui.clickables` and
 * `ui.find` reply — kept apart from the device actor so that the property test of device data
 * (tests/property/device-data.test.ts) checks exactly what the actor answers against the bus's schemas.
 */
import type { PayloadOf, ResponseOf } from '../../../bus/registry.js';
import { screenFacts, type Capture } from './ui-capture.js';
import { formatHierarchy } from './ui-format.js';
import { interactiveRows } from './ui-query.js';
import { matchesOf } from './ui-waits.js';

export function hierarchyAnswer(
  cap: Capture,
  p: Pick<PayloadOf<'ui.hierarchy'>, 'max_rows' | 'include_bars' | 'tree'>,
): ResponseOf<'ui.hierarchy'> {
  const formatted = formatHierarchy(cap.tree, {
    max_rows: p.max_rows,
    include_bars: p.include_bars,
    tree: p.tree,
  });
  return {
    ...screenFacts(cap),
    text: formatted.text,
    rows: formatted.rows,
    total_rows: formatted.total_rows,
    truncated: formatted.truncated,
    windows: cap.tree.windows.map((w) => ({
      index: w.index,
      package: w.package,
      kind: w.kind,
      bounds: w.bounds,
      title: w.title,
      type: w.type,
    })),
  };
}

export function clickablesAnswer(cap: Capture, limit: number): ResponseOf<'ui.clickables'> {
  return { ...screenFacts(cap), ...interactiveRows(cap.tree, limit) };
}

export function findAnswer(
  cap: Capture,
  p: Pick<PayloadOf<'ui.find'>, 'query' | 'max_results'>,
): ResponseOf<'ui.find'> {
  return { ...screenFacts(cap), ...matchesOf(cap.tree, p.query, p.max_results) };
}
