/**
 * `device.screenshot`: `screencap -p` through the device's handle, scaled (and annotated with the
 * capture's numbered elements when asked) in an image pool beside the device actors.
 */
import os from 'node:os';
import { BusError } from '../../../bus/errors.js';
import type { PayloadOf, ResponseOf } from '../../../bus/registry.js';
import { READS, readCommand } from '../../../device/reads.js';
import type { UiResult } from '../../../device/ui-dump/ui-types.js';
import type { HandlerContext } from '../../actor.js';
import { DEFAULT_GROUPS } from '../../kinds.js';
import { createPool, type TaskPool } from '../../pool.js';
import { capture, type DeviceState } from '../device-state.js';
import { interactiveRows } from '../ui/ui-query.js';
import { answerFormat } from './screenshot-format.js';
import type { ScreenshotResults, ScreenshotTask } from './screenshot-task.js';

let imagePool: TaskPool<ScreenshotTask, ScreenshotResults> | undefined;
/**
 * One image pool per device thread, started on the first screenshot; together the pools have about
 * one scaling thread per core (at most 4 per device thread). Scaling streams the capture, so a
 * thread holds little memory.
 */
export function screenshots(): TaskPool<ScreenshotTask, ScreenshotResults> {
  imagePool ??= createPool<ScreenshotTask, ScreenshotResults>({
    module: new URL('./screenshot-task.js', import.meta.url),
    name: 'screenshots',
    maxThreads: Math.min(4, Math.max(1, Math.floor(os.availableParallelism() / DEFAULT_GROUPS.devices!))),
    idleTimeoutMs: 60_000,
  });
  return imagePool;
}

function unwrapImage<T>(result: UiResult<T>): T {
  if (!result.ok) {
    throw new BusError(result.error.code === 'INVALID_ARGUMENT' ? 'INVALID' : 'FAILED', result.error.message);
  }
  return result.value;
}

export async function screenshot(
  state: DeviceState,
  payload: PayloadOf<'device.screenshot'>,
  ctx: HandlerContext,
): Promise<ResponseOf<'device.screenshot'>> {
  const format = answerFormat(payload);
  if (payload.full_size === true && format !== 'png') {
    throw new BusError(
      'INVALID',
      'full_size returns the capture byte for byte, which is a PNG: leave out format',
    );
  }
  const raw = await state.device.exec(readCommand(READS.screencap), {
    signal: ctx.signal,
    timeoutMs: 30_000,
    maxBytes: 33 * 1024 * 1024,
  });
  const png = new Uint8Array(raw.buffer, raw.byteOffset, raw.byteLength);
  const scaleTask = {
    op: 'scale' as const,
    png,
    ...(payload.max_dimension !== undefined ? { max_dimension: payload.max_dimension } : {}),
    ...(payload.full_size !== undefined ? { full_size: payload.full_size } : {}),
    // Encoded once from the averaged pixels; an annotated image is drawn on a PNG, then encoded.
    format: payload.annotate ? 'png' : format,
  } satisfies ScreenshotTask;
  const scaled = unwrapImage(await screenshots().run(scaleTask, { signal: ctx.signal }));
  let image = scaled.image;
  let legend: ResponseOf<'device.screenshot'>['legend'] = null;
  if (payload.annotate) {
    const cap = await capture(state, ctx);
    const rows = interactiveRows(cap.tree, 500).rows.map((r) => ({
      n: r.n,
      tree_path: r.tree_path,
      label: r.label,
      bounds: r.bounds,
    }));
    const annotated = unwrapImage(
      await screenshots().run(
        { op: 'annotate', png: image, rows, scale: scaled.scale },
        { signal: ctx.signal },
      ),
    );
    image = annotated.png;
    legend = annotated.legend;
  }
  if (payload.annotate && format !== 'png') {
    image = unwrapImage(
      await screenshots().run({ op: 'encode', png: image, format }, { signal: ctx.signal }),
    );
  }
  return {
    png: image as Uint8Array<ArrayBuffer>,
    mime: `image/${format}`,
    deviceWidth: scaled.deviceWidth,
    deviceHeight: scaled.deviceHeight,
    imageWidth: scaled.imageWidth,
    imageHeight: scaled.imageHeight,
    scale: scaled.scale,
    resized: scaled.resized,
    hint: scaled.hint,
    legend,
    capture_bytes: raw.byteLength,
  };
}
