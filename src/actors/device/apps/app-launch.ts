/**
 * `launch_app` and `restart_app` on the device: `am start -W -n PKG/ACTIVITY` (the launcher activity
 * from `cmd package resolve-activity` when none is named, the monkey when that finds none), the output
 * checked for errors whatever the exit status, the times read, the `Displayed` line of exactly this
 * package asked from the logcat actor, and `app.launched` published.
 */
import { READS, readCommand } from '../../../device/reads.js';
import type { Device } from '../../../device/device.js';
import { sh, shArgv } from '../../../adb/shell-command.js';
import { BusError } from '../../../bus/errors.js';
import type { LaunchResult } from '../../../bus/messages/admin.js';
import type { PayloadOf } from '../../../bus/registry.js';
import type { HandlerContext } from '../../actor.js';
import { amFailure } from './intent-command.js';
import {
  drawsNewWindow,
  parseAmStartTiming,
  parseResolvedActivity,
  pmFailure,
  timingLine,
} from '../../../device/parsers/am-start.js';
import { deviceShell, outputOf, type DeviceShell } from '../../../device/device-shell.js';

const MAX_OUTPUT = 4_000;

/** The device's clock in epoch seconds (`date +%s`), the lower bound for the `Displayed` line; null when unreadable. */
async function deviceEpochSeconds(shell: DeviceShell): Promise<number | null> {
  const r = await shell(readCommand(READS.clock), { timeoutMs: 10_000 });
  const s = Number(r.stdout.trim());
  return Number.isInteger(s) && s > 0 ? s : null;
}

/** The launcher activity of `pkg` as the package manager resolves it, or null. */
async function launcherComponent(shell: DeviceShell, pkg: string): Promise<string | null> {
  const r = await shell(readCommand(READS.launcherActivity, { package: pkg }));
  const component = parseResolvedActivity(r.stdout);
  // Only a component of this package: an app without a launcher activity may resolve to a chooser.
  return component !== null && component.startsWith(`${pkg}/`) ? component : null;
}

/** True when a process of `pkg` runs (`pidof`). */
export async function isRunning(shell: DeviceShell, pkg: string): Promise<boolean> {
  const r = await shell(readCommand(READS.pidOf, { package: pkg }), { timeoutMs: 10_000 });
  return (r.exitCode === 0 || r.exitCode === null) && /\d/.test(r.stdout);
}

async function monkeyLaunch(shell: DeviceShell, device: Device, pkg: string): Promise<LaunchResult> {
  const { serial } = device;
  const argv = ['monkey', '-p', pkg, '-c', 'android.intent.category.LAUNCHER', '1'];
  const r = await shell(shArgv(argv));
  const output = outputOf(r);
  if (
    /No activities found to run|monkey aborted/i.test(output) ||
    (r.exitCode !== null && r.exitCode !== 0)
  ) {
    throw new BusError(
      'FAILED',
      `${pkg} has no launcher activity on ${serial} (is it installed? install_apk installs it); pass activity to start a specific one`,
      undefined,
      { output: output.slice(0, 2000) },
    );
  }
  return {
    package: pkg,
    component: null,
    method: 'monkey',
    command: argv,
    output: output.slice(0, MAX_OUTPUT),
    total_ms: null,
    wait_ms: null,
    launch_state: null,
    displayed_ms: null,
    fully_drawn_ms: null,
    timing_line: 'Launched through the monkey (the launcher intent): no launch time was reported.',
  };
}

/**
 * Starts `component` (or the package's launcher activity) and reads its times. Fails when `am`
 * prints an error, whatever its exit status.
 */
async function startAndTime(
  device: Device,
  shell: DeviceShell,
  pkg: string,
  activity: string | undefined,
  wantDisplayed: boolean,
  ctx: HandlerContext,
): Promise<LaunchResult> {
  const { serial } = device;
  const component = activity !== undefined ? `${pkg}/${activity}` : await launcherComponent(shell, pkg);
  if (component === null) {
    return monkeyLaunch(shell, device, pkg);
  }
  const since = wantDisplayed ? await deviceEpochSeconds(shell) : null;
  const argv = ['am', 'start', '-W', '-n', component];
  const r = await shell(shArgv(argv), { timeoutMs: 45_000 });
  const output = outputOf(r);
  const failure = amFailure(output, r.exitCode);
  if (failure !== null) {
    throw new BusError('FAILED', `am start failed on ${serial}: ${failure}`, undefined, {
      output: output.slice(0, 2000),
    });
  }
  const timing = parseAmStartTiming(output);
  let displayed: number | null = null;
  let fullyDrawn: number | null = null;
  if (since !== null && drawsNewWindow(timing)) {
    const read = await ctx.bus.request(
      'logcat.launch_time',
      { serial, package: pkg, since_s: since, timeout_ms: 3_000 },
      { signal: ctx.signal },
    );
    displayed = read.displayed?.ms ?? null;
    fullyDrawn = read.fully_drawn?.ms ?? null;
  }
  let line = timingLine(timing);
  if (displayed !== null) {
    line += ` (Displayed +${displayed} ms${fullyDrawn !== null ? `, fully drawn +${fullyDrawn} ms` : ''})`;
  }
  return {
    package: pkg,
    component,
    method: 'am_start',
    command: argv,
    output: output.slice(0, MAX_OUTPUT),
    total_ms: timing.total_ms,
    wait_ms: timing.wait_ms,
    launch_state: timing.launch_state,
    displayed_ms: displayed,
    fully_drawn_ms: fullyDrawn,
    timing_line: line,
  };
}

function announce(ctx: HandlerContext, device: Device, result: LaunchResult, restart: boolean): void {
  const { serial } = device;
  ctx.emit('app.launched', {
    device: serial,
    package: result.package,
    activity: result.component,
    restart,
    total_ms: result.total_ms,
    wait_ms: result.wait_ms,
    launch_state: result.launch_state,
    displayed_ms: result.displayed_ms,
    by: ctx.origin,
    at: new Date().toISOString(),
  });
}

/** `device.launch_app`. */
export async function launchApp(
  device: Device,
  p: PayloadOf<'device.launch_app'>,
  ctx: HandlerContext,
): Promise<LaunchResult> {
  const shell = deviceShell(device, ctx.signal);
  const result = await startAndTime(device, shell, p.package, p.activity, p.displayed, ctx);
  announce(ctx, device, result, false);
  return result;
}

/** `device.restart_app`: force-stop, `pm clear` when asked, then the launcher activity with its times. */
export async function restartApp(
  device: Device,
  p: PayloadOf<'device.restart_app'>,
  ctx: HandlerContext,
): Promise<LaunchResult & { was_running: boolean; cleared: boolean }> {
  const { serial } = device;
  const shell = deviceShell(device, ctx.signal);
  const wasRunning = await isRunning(shell, p.package);
  const stop = await shell(sh`am force-stop ${p.package}`);
  const stopFailure = amFailure(outputOf(stop), stop.exitCode);
  if (stopFailure !== null) {
    throw new BusError('FAILED', `am force-stop failed on ${serial}: ${stopFailure}`);
  }
  if (p.clear_data) {
    const clear = await shell(sh`pm clear ${p.package}`, { timeoutMs: 60_000 });
    const out = outputOf(clear);
    const failure = pmFailure(out, clear.exitCode) ?? (/^Success\b/m.test(out) ? null : out || 'no answer');
    if (failure !== null) {
      // `pm clear` of a package the device does not have prints only "Failed": say which it is.
      const paths = await shell(readCommand(READS.apkPaths, { package: p.package }));
      if (!paths.stdout.includes('package:')) {
        throw new BusError(
          'NOT_FOUND',
          `${p.package} is not installed on ${serial}, so its data could not be cleared nor the app launched (install_apk installs it)`,
        );
      }
      throw new BusError('FAILED', `pm clear ${p.package} failed on ${serial}: ${failure.slice(0, 300)}`);
    }
  }
  ctx.emit('app.stopped', {
    device: serial,
    package: p.package,
    clear_data: p.clear_data,
    by: ctx.origin,
    at: new Date().toISOString(),
  });
  const result = await startAndTime(device, shell, p.package, undefined, true, ctx);
  announce(ctx, device, result, true);
  return { ...result, was_running: wasRunning, cleared: p.clear_data };
}
