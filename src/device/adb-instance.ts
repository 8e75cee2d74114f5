import { AdbClient } from '../adb/client.js';
import type { AdbDeviceEntry } from '../adb/device-list.js';
import { MultiAdbClient } from '../adb/multi-client.js';
import { configuredAdbServers } from '../adb/servers.js';
import { withAdbErrors } from './adb-errors.js';
import { Device, type DeviceCallOptions } from './device.js';

let client: AdbClient | undefined;
const handles = new Map<string, Device>();

/**
 * The adb client of this thread, shared by every actor the thread hosts: on the one adb server, or
 * over the several the person named (devices then named `LABEL/serial`). Only src/device uses it.
 */
function adbClient(): AdbClient {
  if (client === undefined) {
    const servers = configuredAdbServers();
    client = servers.multi ? new MultiAdbClient(servers) : new AdbClient(servers.primary.address);
  }
  return client;
}

/** The handle of one device on this thread's adb client (one per serial, kept until `forgetDevice`). */
export function deviceOf(serial: string): Device {
  let device = handles.get(serial);
  if (device === undefined) {
    device = new Device(serial, adbClient());
    handles.set(serial, device);
  }
  return device;
}

/** Drops what this thread knows of a device that left. */
export function forgetDevice(serial: string): void {
  const device = handles.get(serial);
  handles.delete(serial);
  if (device) {
    device.forget();
  } else {
    client?.forget(serial);
  }
}

/** The devices adb lists now, in every state (the server's `host:devices-l`). */
export function listAdbDevices(options: DeviceCallOptions = {}): Promise<AdbDeviceEntry[]> {
  return withAdbErrors(() => adbClient().devices(options));
}
