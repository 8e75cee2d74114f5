import { defineActor } from '../actor.js';
import type { ActorContext } from '../actor.js';
import { AdbClient } from '../../adb/client.js';
import { stateHint } from '../../adb/device-list.js';
import type { AdbDeviceEntry } from '../../adb/device-list.js';
import { describeAdbServer } from '../../adb/server-address.js';
import { DeviceTracker } from '../../adb/tracker.js';
import { fail } from '../../bus/errors.js';
import type { DeviceEntry } from '../../bus/messages/devices.js';

/** How a device is attached, from its serial's shape. */
export function connectionOf(serial: string): DeviceEntry['connection'] {
  if (/^emulator-\d+$/.test(serial)) {
    return 'emulator';
  }
  if (/:\d+$/.test(serial) || serial.includes('._adb-tls-connect._tcp') || serial.includes('._adb._tcp')) {
    return 'tcp';
  }
  return 'usb';
}

function toEntry(d: AdbDeviceEntry): DeviceEntry {
  return {
    serial: d.serial,
    state: d.state,
    connection: connectionOf(d.serial),
    model: d.model,
    product: d.product,
    device: d.device,
    transport_id: d.transportId,
    hint: stateHint(d.state),
  };
}

interface State {
  tracker: DeviceTracker;
  devices: DeviceEntry[];
  server: { address: string; up: boolean; message: string };
}

function onList(state: State, ctx: ActorContext, list: AdbDeviceEntry[]): void {
  const before = new Map(state.devices.map((d) => [d.serial, d.state]));
  state.devices = list.map(toEntry);
  const after = new Map(state.devices.map((d) => [d.serial, d.state]));
  ctx.emit('devices.changed', { devices: state.devices });
  for (const [serial, now] of after) {
    const previous = before.get(serial) ?? null;
    if (previous !== now) {
      ctx.emit('device.state', { serial, state: now, previous });
    }
  }
  for (const [serial, previous] of before) {
    if (!after.has(serial)) {
      ctx.emit('device.state', { serial, state: 'gone', previous });
    }
  }
}

/**
 * The devices actor: follows the adb server's device list live and tells the rest of droidbus
 * when a device comes and goes (`device.state`), so device actors start and stop with devices.
 */
export default defineActor({
  kind: 'devices',
  concurrency: 16,
  startTimeoutMs: 40_000,
  async start(ctx) {
    const client = new AdbClient();
    const state: State = {
      tracker: undefined as never,
      devices: [],
      server: { address: describeAdbServer(client.address), up: false, message: 'connecting' },
    };
    state.tracker = new DeviceTracker(client, {
      onList: (list) => onList(state, ctx, list),
      onServer: (up, message) => {
        state.server = { address: state.server.address, up: up === 'up', message };
      },
    });
    await state.tracker.start();
    return state;
  },
  stop(state) {
    state.tracker.stop();
  },
  handlers: {
    'devices.list': (_payload, state) => ({ server: state.server, devices: state.devices }),
    'devices.require': ({ serial }, state) => {
      const entry = state.devices.find((d) => d.serial === serial);
      if (!entry) {
        const online = state.devices.filter((d) => d.state === 'device').map((d) => d.serial);
        throw fail.offline(
          `device '${serial}' is not connected${state.server.up ? '' : ` (adb server: ${state.server.message})`}; online: ${online.length ? online.join(', ') : 'none'}`,
        );
      }
      if (entry.state !== 'device') {
        throw fail.offline(`device '${serial}' is ${entry.state}. ${entry.hint ?? ''}`.trim());
      }
      return entry;
    },
  },
});
