/**
 * The simulator's test and demo controls, outside the device model: the `sim` command (stats, a
 * recorded screen or log, a crash now, latencies, notifications, dialogs, toasts, a location, a
 * locale) that no real device has. A farm's devices carry it; droidbus never runs it (the device-reads
 * guard refuses a command literal outside the catalogue).
 *
 * Evidence: none — these are controls, not behaviour a phone has; what each one makes the
 * model do is cited where the model does it.
 */
import type { SimDevice, SimDeviceOptions } from '../device-api.js';
import type { Device } from '../device/device.js';
import { createSimDevice as createModel } from '../device/index.js';
import type { CommandFn } from '../shell/command.js';
import { sim } from './sim-command.js';

export const SIM_CONTROLS: ReadonlyMap<string, CommandFn<Device>> = new Map([['sim', sim]]);

/** A simulated device with the `sim` controls beside its own commands. */
export function createSimDevice(opts: SimDeviceOptions): SimDevice {
  return createModel(opts, SIM_CONTROLS);
}
