import type { CommandContext } from '../../shell/command.js';
import type { Device } from '../device.js';

/** A `pm` / `cmd package` command's context. */
export type PmContext = CommandContext<Device>;

/** How PackageManagerShellCommand reports an exception: the trace on stderr, exit status 255. */
export async function exception(ctx: PmContext, sub: string, message: string): Promise<number> {
  await ctx.stderr.write(
    `Exception occurred while executing '${sub}':\n${message}\n\tat com.android.server.pm.PackageManagerShellCommand.onCommand(PackageManagerShellCommand.java:228)\n\tat com.android.modules.utils.BasicShellCommandHandler.exec(BasicShellCommandHandler.java:97)\n\tat android.os.ShellCommand.exec(ShellCommand.java:38)\n`,
  );
  return 255;
}
