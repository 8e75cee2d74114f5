/**
 * Evidence: none — what the `sim` controls share (their error line, reading the device file a
 * control names); the controls are test and demo tools no phone has.
 */
import type { CommandContext } from '../shell/command.js';
import { absPath } from '../shell/command.js';
import type { Device } from '../device/device.js';
import { errnoText } from '../device/fs.js';

export async function fail(ctx: CommandContext<Device>, message: string): Promise<number> {
  await ctx.stderr.write(`sim: ${message}\n`);
  return 1;
}

/** The bytes of the device file a control names, or the exit status after saying why it could not be read. */
export async function readNamed(ctx: CommandContext<Device>, path: string): Promise<Uint8Array | number> {
  try {
    return ctx.fs.read(absPath(ctx, path));
  } catch (err) {
    return fail(ctx, `${path}: ${errnoText(err)}`);
  }
}
