/**
 * `stop_app` and the runtime permissions on the device: `am force-stop`, `pm grant` / `pm revoke`,
 * each answer checked (the package manager prints its refusals with exit status 0 on some versions).
 */
import { READS, readCommand } from '../../../device/reads.js';
import type { Device } from '../../../device/device.js';
import { sh } from '../../../adb/shell-command.js';
import { BusError } from '../../../bus/errors.js';
import type { PayloadOf, ResponseOf } from '../../../bus/registry.js';
import type { HandlerContext } from '../../actor.js';
import { pmFailure } from '../../../device/parsers/am-start.js';
import { isRunning } from './app-launch.js';
import { deviceShell, outputOf } from '../../../device/device-shell.js';

/** `device.stop_app`: force-stops (or `am kill`s) the package; publishes `app.stopped` when it stopped. */
export async function stopApp(
  device: Device,
  p: PayloadOf<'device.stop_app'>,
  ctx: HandlerContext,
): Promise<ResponseOf<'device.stop_app'>> {
  const { serial } = device;
  const shell = deviceShell(device, ctx.signal);
  const installed = await shell(readCommand(READS.apkPaths, { package: p.package }));
  const isInstalled = installed.stdout.includes('package:');
  const wasRunning = await isRunning(shell, p.package);
  const how = p.how ?? 'force-stop';
  const r = await shell(how === 'kill' ? sh`am kill ${p.package}` : sh`am force-stop ${p.package}`);
  const failure = pmFailure(outputOf(r), r.exitCode);
  if (failure !== null) {
    throw new BusError('FAILED', `am ${how} ${p.package} failed on ${serial}: ${failure}`);
  }
  // `am kill` spares an app in front: it stopped only if its process is gone.
  const stopped = how === 'kill' ? wasRunning && !(await isRunning(shell, p.package)) : isInstalled;
  if (stopped) {
    ctx.emit('app.stopped', {
      device: serial,
      package: p.package,
      clear_data: false,
      by: ctx.origin,
      at: new Date().toISOString(),
    });
  }
  return { package: p.package, was_running: wasRunning, installed: isInstalled };
}

/** `device.set_permission`: `pm grant` or `pm revoke` of one runtime permission. */
export async function changePermission(
  device: Device,
  p: PayloadOf<'device.set_permission'>,
  ctx: HandlerContext,
): Promise<ResponseOf<'device.set_permission'>> {
  const { serial } = device;
  const shell = deviceShell(device, ctx.signal);
  const verb = p.grant ? 'grant' : 'revoke';
  const before = p.grant ? false : await isRunning(shell, p.package);
  const r = await shell(
    p.grant ? sh`pm grant ${p.package} ${p.permission}` : sh`pm revoke ${p.package} ${p.permission}`,
  );
  const failure = pmFailure(outputOf(r), r.exitCode);
  if (failure !== null) {
    throw new BusError('FAILED', `pm ${verb} ${p.package} ${p.permission} failed on ${serial}: ${failure}`);
  }
  const killed = before && !(await isRunning(shell, p.package));
  return { package: p.package, permission: p.permission, granted: p.grant, process_killed: killed };
}
