import type { SimDevice, SimDeviceOptions } from '../device-api.js';
import { DEVICE_COMMANDS } from './commands/index.js';
import { Device } from './device.js';
import { LogGenerator } from './log/log-generator.js';
import { ProfileReplay, seedFromProfile } from './profile-replay.js';

export { Device } from './device.js';

/**
 * Creates the model of one simulated Android device (its shell, file system, apps, screen and log):
 * a profile device's recording wraps the command table and seeds the model before its log starts.
 */
export function createSimDevice(opts: SimDeviceOptions): SimDevice {
  const replay = opts.profile === undefined ? null : new ProfileReplay(opts.profile);
  const dev = new Device(opts, replay === null ? DEVICE_COMMANDS : replay.wrap(DEVICE_COMMANDS), replay);
  if (opts.profile !== undefined) {
    seedFromProfile(dev, opts.profile);
  }
  dev.startLog(
    new LogGenerator(dev, opts.logcatRate ?? 5, opts.crashesPerMinute ?? 0, opts.anrsPerMinute ?? 0),
  );
  return dev;
}
