import sharp from 'sharp';
import type { TaskFunction } from '../../pool.js';
import { annotateScreenshot } from './screenshot-annotate.js';
import type { AnnotatedScreenshot, AnnotationRow } from './screenshot-annotate.js';
import { scaleScreenshot } from './screenshot-scale.js';
import type { ScaledScreenshot } from './screenshot-scale.js';
import type { UiResult } from '../ui/ui-types.js';

// No capture is ever decoded twice: libvips' operation cache (50 MB by default, process-wide) would
// only hold on to the last captures' pixels.
sharp.cache(false);

/** A screenshot job for the image pool: scaling (area average) costs tens of ms of CPU. */
export type ScreenshotTask =
  | { op: 'scale'; png: Uint8Array; max_dimension?: number; full_size?: boolean }
  | { op: 'annotate'; png: Uint8Array; rows: AnnotationRow[]; scale: number };

/** What each op of the image pool answers. */
export interface ScreenshotResults {
  scale: UiResult<ScaledScreenshot>;
  annotate: UiResult<AnnotatedScreenshot>;
}

/** The pool's task function (see src/actors/pool.ts). */
const run: TaskFunction<ScreenshotTask, ScreenshotResults> = async (task) => {
  switch (task.op) {
    case 'scale':
      return scaleScreenshot(task.png, {
        ...(task.max_dimension !== undefined ? { max_dimension: task.max_dimension } : {}),
        ...(task.full_size !== undefined ? { full_size: task.full_size } : {}),
      });
    case 'annotate':
      return annotateScreenshot(task.png, task.rows, task.scale);
    default: {
      const never: never = task;
      throw new Error(`unknown screenshot task ${JSON.stringify(never)}`);
    }
  }
};
export default run;
