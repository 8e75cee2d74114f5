/**
 * The device actor's file handlers: list, pull and push inside the folders the person allowed
 * (extras/device-files.ts checks every path after resolving it on the device).
 */
import type { DeviceHandlers } from '../device-state.js';
import { listDeviceFiles, pullDeviceFile, pushDeviceFile } from '../extras/device-files.js';

export const fileHandlers = {
  'device.list_files': (p, state, ctx) => listDeviceFiles(state.device, p, ctx),
  'device.pull_file': (p, state, ctx) => pullDeviceFile(state.device, p, ctx),
  'device.push_file': (p, state, ctx) => pushDeviceFile(state.device, p, ctx),
} satisfies Partial<DeviceHandlers>;
