import sharp from 'sharp';
import type { TaskFunction } from '../../pool.js';
import { annotateScreenshot } from './screenshot-annotate.js';
import type { AnnotatedScreenshot, AnnotationRow } from './screenshot-annotate.js';
import { encodeImage, scaleScreenshot, type ScreenshotFormat } from './screenshot-scale.js';
import type { ScaledScreenshot } from './screenshot-scale.js';
import type { UiResult } from '../../../device/ui-dump/ui-types.js';
import { uiFail } from '../../../device/ui-dump/ui-types.js';
import type { UiTree } from '../../../device/ui-dump/ui-types.js';
import { contactSheet, layoutFindings, type SheetTile } from '../layout/layout-sheet.js';
import type { LayoutFinding } from '../layout/layout-findings.js';

// No capture is ever decoded twice: libvips' operation cache (50 MB by default, process-wide) would
// only hold on to the last captures' pixels.
sharp.cache(false);
// One libvips thread per task: the pool runs screenshots of several devices in parallel already, and
// libvips' own threads on top of them only contend for the same cores.
sharp.concurrency(1);

/** A screenshot job for the image pool: scaling (area average) costs tens of ms of CPU. */
export type ScreenshotTask =
  | { op: 'scale'; png: Uint8Array; max_dimension?: number; full_size?: boolean; format?: ScreenshotFormat }
  | { op: 'annotate'; png: Uint8Array; rows: AnnotationRow[]; scale: number }
  | { op: 'encode'; png: Uint8Array; format: 'jpeg' | 'webp' }
  | { op: 'layout'; png: Uint8Array; tree: UiTree; density: number; baseline: UiTree | null }
  | { op: 'sheet'; tiles: SheetTile[] };

/** What each op of the image pool answers. */
export interface ScreenshotResults {
  scale: UiResult<ScaledScreenshot>;
  annotate: UiResult<AnnotatedScreenshot>;
  encode: UiResult<Uint8Array>;
  layout: UiResult<LayoutFinding[]>;
  sheet: UiResult<Uint8Array>;
}

/** Runs image work, its failure an answer (the pool's results cross a thread). */
async function attempt<T>(what: string, work: () => Promise<T>): Promise<UiResult<T>> {
  try {
    return { ok: true, value: await work() };
  } catch (e) {
    return uiFail('IMAGE_FAILED', `${what}: ${String(e)}`);
  }
}

/** An annotated PNG again as JPEG or WebP (the `format` option, when the image was drawn on). */
async function encode(png: Uint8Array, format: 'jpeg' | 'webp'): Promise<UiResult<Uint8Array>> {
  try {
    return { ok: true, value: await encodeImage(sharp(png), format) };
  } catch (e) {
    return uiFail('IMAGE_FAILED', `the image could not be encoded as ${format}: ${String(e)}`);
  }
}

/** The pool's task function (see src/actors/pool.ts). */
const run: TaskFunction<ScreenshotTask, ScreenshotResults> = async (task) => {
  switch (task.op) {
    case 'scale':
      return scaleScreenshot(task.png, {
        ...(task.max_dimension !== undefined ? { max_dimension: task.max_dimension } : {}),
        ...(task.full_size !== undefined ? { full_size: task.full_size } : {}),
        ...(task.format !== undefined ? { format: task.format } : {}),
      });
    case 'annotate':
      return annotateScreenshot(task.png, task.rows, task.scale);
    case 'encode':
      return encode(task.png, task.format);
    case 'layout':
      return attempt('the screenshot could not be read', () =>
        layoutFindings(task.png, task.tree, task.density, task.baseline),
      );
    case 'sheet':
      return attempt('the contact sheet could not be drawn', () => contactSheet(task.tiles));
    default: {
      const never: never = task;
      throw new Error(`unknown screenshot task ${JSON.stringify(never)}`);
    }
  }
};
export default run;
