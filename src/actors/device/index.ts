/**
 * The device actor's pure core: parsing and repairing UI Automator dumps, screen hashes, queries,
 * diffs and renderings of a capture, `input`/`am` argument vectors, and screenshot scaling and
 * annotation. No I/O besides sharp's image work; every result is plain data (structured-clone and
 * JSON safe) and every failure a `{ ok: false, error: { code, message } }`.
 *
 * Typical flow in the actor: `parseUiDump(bytes)` → `screenHash(tree)` → `interactiveRows(tree)` /
 * `formatHierarchy(tree)` / `findElements(tree, q)` / `nodeAt(tree, path)`; actions build argv with
 * `tapArgs`, `typeTextArgs`… and quote each element with `quoteDeviceShellArg`.
 */
export type {
  UiBounds,
  UiError,
  UiNode,
  UiPoint,
  UiResult,
  UiTree,
  UiWindow,
  UiWindowKind,
} from '../../device/ui-dump/ui-types.js';

export { decodeDumpBytes } from '../../util/dump-decode.js';
export { sanitizeUiXml, type SanitizedXml } from '../../device/ui-dump/ui-xml-sanitize.js';
export {
  DEFAULT_NODE_LIMIT,
  MAX_NODE_LIMIT,
  isEditableClass,
  parseBounds,
  parseUiDump,
  type ParseOptions,
} from '../../device/ui-dump/ui-parse.js';
export { normalizeVolatileText, screenHash } from './ui/ui-screen-hash.js';
export {
  DEFAULT_FIND_RESULTS,
  DEFAULT_ROWS,
  MAX_FIND_RESULTS,
  MAX_ROWS,
  findElements,
  findParent,
  interactiveRows,
  isInteractive,
  isTreePath,
  nodeAt,
  nodeLabel,
  shortClass,
  shortResourceId,
  toElement,
  type FindQuery,
  type FindResult,
  type LabelSource,
  type UiElement,
  type UiRow,
  type UiRowsResult,
} from './ui/ui-query.js';
export {
  DEFAULT_COMPARE_LIMIT,
  MAX_COMPARE_LIMIT,
  compareStates,
  type DiffChange,
  type DiffElement,
  type UiComparison,
} from './ui/ui-compare.js';
export {
  DEFAULT_HIERARCHY_ROWS,
  MAX_HIERARCHY_CHARS,
  MAX_HIERARCHY_ROWS,
  formatHierarchy,
  nodeFlags,
  type FormattedHierarchy,
  type HierarchyOptions,
  type HierarchyRow,
} from './ui/ui-format.js';
export { detectOverlays, type UiOverlays, type UiWindowSummary } from './ui/ui-overlays.js';
export { inferWindowKind, isImePackage, isSystemPackage } from '../../device/ui-dump/ui-windows.js';
export {
  DEFAULT_SWIPE_MS,
  KEYS_PER_COMMAND,
  MAX_COORDINATE,
  MAX_DELETE_CHARS,
  MAX_NUMERIC_KEYCODE,
  MAX_SWIPE_MS,
  MAX_TEXT_BYTES,
  clearTextBroadcastArgs,
  decodeInputText,
  deleteTextArgs,
  keyeventArgs,
  knownKeyNames,
  resolveKey,
  swipeArgs,
  tapArgs,
  typeTextArgs,
  unicodeTextArgs,
  type Argv,
} from './ui/ui-input.js';
export {
  DEFAULT_MAX_DIMENSION,
  MAX_MAX_DIMENSION,
  MAX_SCREENSHOT_BYTES,
  MAX_SCREENSHOT_PIXELS,
  MIN_MAX_DIMENSION,
  checkScreenshotOptions,
  readPngInfo,
  scaleScreenshot,
  type PngInfo,
  type ScaledScreenshot,
  type ScreenshotMeta,
  type ScreenshotOptions,
} from './screenshot/screenshot-scale.js';
export {
  ANNOTATION_COLORS,
  annotateScreenshot,
  type AnnotatedScreenshot,
  type AnnotationLegendEntry,
  type AnnotationRow,
} from './screenshot/screenshot-annotate.js';
