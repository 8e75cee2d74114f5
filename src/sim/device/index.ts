/**
 * Evidence: none — assembles the model and the parts beside it.
 */
import type { SimDevice, SimDeviceOptions } from '../device-api.js';
import type { CommandFn } from '../shell/command.js';
import { DEVICE_COMMANDS } from './commands/index.js';
import { Device } from './device.js';
import { LogGenerator } from './log/log-generator.js';
import { ProfileReplay, seedFromProfile } from './profile-replay.js';

export { Device } from './device.js';

/**
 * Creates the model of one simulated Android device (its shell, file system, apps, screen and log):
 * a profile device's recording wraps the command table and seeds the model before its log starts.
 * `controls` are commands no phone has, added beside the device's own (the `sim` test controls,
 * src/sim/control): the model does not know them and the recording does not answer them.
 */
export function createSimDevice(
  opts: SimDeviceOptions,
  controls: ReadonlyMap<string, CommandFn<Device>> = new Map(),
): SimDevice {
  const replay = opts.profile === undefined ? null : new ProfileReplay(opts.profile);
  const own = replay === null ? DEVICE_COMMANDS : replay.wrap(DEVICE_COMMANDS);
  const dev = new Device(opts, new Map([...own, ...controls]), replay);
  if (opts.profile !== undefined) {
    seedFromProfile(dev, opts.profile);
  }
  dev.startLog(
    new LogGenerator(dev, opts.logcatRate ?? 5, opts.crashesPerMinute ?? 0, opts.anrsPerMinute ?? 0),
  );
  return dev;
}
