/**
 * The display a capture is on (issue 51): `wm size` — its override when one is set, as the window
 * manager lays out with it — turned to the capture's rotation. A capture's own bounds are only the
 * windows it read: a dialog's capture on a 1080×2400 phone is the dialog's 954×578.
 */
import { READS, readCommand } from '../../../device/reads.js';
import type { Device } from '../../../device/device.js';
import { parseWm } from '../../../device/parsers/device-facts.js';
import type { UiBounds, UiTree } from '../../../device/ui-dump/ui-types.js';

export interface DisplaySize {
  width: number;
  height: number;
}

/** The display's size in its natural orientation, or null when `wm size` does not say. */
export function displaySizeOf(wmSize: string): DisplaySize | null {
  const wm = parseWm(wmSize, '');
  if (wm === null) {
    return null;
  }
  const override = /^(\d+)x(\d+)$/.exec(wm.override ?? '');
  return override
    ? { width: Number(override[1]), height: Number(override[2]) }
    : { width: wm.width, height: wm.height };
}

/**
 * The display's bounds in a rotation (`rotation` of the dump: 1 and 3 are landscape on a portrait
 * phone). `wm size` gives the natural orientation whatever the rotation.
 */
export function displayBounds(size: DisplaySize, rotation: number | null): UiBounds {
  const turned = rotation === 1 || rotation === 3;
  return {
    left: 0,
    top: 0,
    right: turned ? size.height : size.width,
    bottom: turned ? size.width : size.height,
  };
}

async function readDisplaySize(device: Device, signal: AbortSignal): Promise<DisplaySize | null> {
  const out = await device.shell(readCommand(READS.wmSize), { signal, timeoutMs: 10_000 });
  return displaySizeOf(out.stdout);
}

/**
 * How long a display size read stays the one captures use: `wm size` changes (an override set to
 * try a layout at another size, issue 74), and a capture reads it again beside its dump, once this old.
 */
export const DISPLAY_MAX_AGE_MS = 5_000;

/** The display's size now; null when it cannot be read (a failed read counts as unknown). */
export function readDisplay(device: Device, signal: AbortSignal): Promise<DisplaySize | null> {
  return readDisplaySize(device, signal).catch((err: unknown) => {
    if (signal.aborted) {
      throw err;
    }
    return null;
  });
}

/** Sets a capture's display from the device's size (null: unknown). */
export function noteDisplay(tree: UiTree, size: DisplaySize | null): void {
  tree.display = size === null ? null : displayBounds(size, tree.rotation);
}
