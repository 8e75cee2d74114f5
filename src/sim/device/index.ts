import type { SimDevice, SimDeviceOptions } from '../device-api.js';
import { DEVICE_COMMANDS } from './commands/index.js';
import { Device } from './device.js';

export { Device } from './device.js';

/** Creates the model of one simulated Android device (its shell, file system, apps, screen and log). */
export function createSimDevice(opts: SimDeviceOptions): SimDevice {
  return new Device(opts, DEVICE_COMMANDS);
}
