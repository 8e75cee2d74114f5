/**
 * The screen controls: `sim screen load` makes a recorded uiautomator dump (or a UiAutomator2 page
 * source) the current screen, with `--on-tap` the screens taps show next (a test's stand-in for
 * views that change when clicked, as Maestro's FakeDriver elements do with onClick); `sim screencap
 * load` answers `screencap` with a real phone's pixels. Evidence: the recordings themselves (real
 * captures under tests/fixtures/ui), and frameworks/base/cmds/screencap/screencap.cpp for how a
 * screenshot is encoded; the controls model nothing a phone does beyond showing them.
 */
import sharp from 'sharp';
import type { CommandContext } from '../shell/command.js';
import { decodeDumpBytes } from '../../util/dump-decode.js';
import type { Device } from '../device/device.js';
import { parseHierarchy, serializeHierarchy } from '../device/ui/uiautomator-xml.js';
import type { LoadedScreen } from '../device/ui/ui-state.js';
import { fail, readNamed } from './control-io.js';

export async function simScreen(ctx: CommandContext<Device>, dev: Device, args: string[]): Promise<number> {
  if (args[0] === 'reset') {
    dev.ui.loaded = null;
    return 0;
  }
  if (args[0] === 'busy' && (args[1] === 'on' || args[1] === 'off')) {
    dev.ui.busy = args[1] === 'on';
    return 0;
  }
  if (args[0] !== 'load' || args[1] === undefined) {
    return fail(ctx, SCREEN_USAGE);
  }
  const first = await loadScreen(ctx, args[1]);
  if (typeof first === 'number') {
    return first;
  }
  // --on-tap L,T,R,B=PATH: the screens taps show next, in order (a test's stand-in for an app whose
  // views change when clicked, as Maestro's FakeDriver elements do with onClick).
  const onTap: NonNullable<LoadedScreen['onTap']> = [];
  for (let i = 2; i < args.length; i += 2) {
    const m = /^(-?\d+),(-?\d+),(-?\d+),(-?\d+)=(.+)$/.exec(args[i + 1] ?? '');
    if (args[i] !== '--on-tap' || m === null) {
      return fail(ctx, SCREEN_USAGE);
    }
    const next = await loadScreen(ctx, m[5]!);
    if (typeof next === 'number') {
      return next;
    }
    onTap.push({ bounds: [Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4])], screen: next });
  }
  dev.ui.loaded = onTap.length > 0 ? { ...first, onTap } : first;
  dev.ui.imeShown = false;
  return 0;
}

const SCREEN_USAGE =
  'usage: sim screen load PATH [--on-tap L,T,R,B=NEXT]… | sim screen reset | sim screen busy on|off';

/** A recorded screen read from the device's files; the exit status when it cannot be. */
async function loadScreen(ctx: CommandContext<Device>, file: string): Promise<LoadedScreen | number> {
  const bytes = await readNamed(ctx, file);
  if (typeof bytes === 'number') {
    return bytes;
  }
  // Decoded as droidbus's reader decodes a dump: UTF-16 by its mark, else UTF-8, else the East Asian
  // code page (CP949, GBK, Shift_JIS, Big5) a console saved it in.
  const xml = decodeDumpBytes(bytes).text;
  try {
    const parsed = parseHierarchy(xml);
    // A page source is not what `uiautomator dump` prints: the device dumps the same views
    // as <node> elements. A recorded dump is printed back as it was.
    const dumped = parsed.format === 'page-source' ? serializeHierarchy(parsed.root, parsed.rotation) : xml;
    return { xml: dumped, parsed };
  } catch (err) {
    return fail(
      ctx,
      `${file}: not a uiautomator dump or page source (${err instanceof Error ? err.message : String(err)})`,
    );
  }
}

/**
 * `sim screencap load PATH`: `screencap` answers with the pixels of a real phone's screenshot (a file
 * pushed to the device; PNG or JPEG, encoded once here as screencap encodes) until `sim screencap reset`. The tree the
 * dump shows stays the model's.
 */
export async function simScreencap(
  ctx: CommandContext<Device>,
  dev: Device,
  args: string[],
): Promise<number> {
  if (args[0] === 'reset') {
    dev.ui.capture = null;
    return 0;
  }
  if (args[0] !== 'load' || args[1] === undefined) {
    return fail(ctx, 'usage: sim screencap load PATH | sim screencap reset');
  }
  const file = await readNamed(ctx, args[1]);
  if (typeof file === 'number') {
    return file;
  }
  try {
    const { data, info } = await sharp(file).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    // As `screencap -p` writes one: RGBA, 8 bits, zlib level 6 (frameworks/base/cmds/screencap/
    // screencap.cpp compresses the RGBA_8888 buffer as a PNG through Skia, whose SkPngEncoder
    // defaults to zlib level 6).
    const png = new Uint8Array(
      await sharp(data, { raw: { width: info.width, height: info.height, channels: 4 } })
        .png({ compressionLevel: 6 })
        .toBuffer(),
    );
    dev.ui.capture = { png, rgba: new Uint8Array(data), width: info.width, height: info.height };
  } catch (err) {
    return fail(
      ctx,
      `${args[1]}: not an image sharp can read (${err instanceof Error ? err.message : String(err)})`,
    );
  }
  return 0;
}
