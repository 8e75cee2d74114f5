import { defineActor } from '../actor.js';
import type { ActorContext } from '../actor.js';
import { AdbClient } from '../../adb/client.js';
import { stateHint } from '../../adb/device-list.js';
import type { AdbDeviceEntry } from '../../adb/device-list.js';
import { describeAdbServer } from '../../adb/server-address.js';
import { configuredAdbServers, type AdbServers, type AdbServerSpec } from '../../adb/servers.js';
import { DeviceTracker } from '../../adb/tracker.js';
import { fail } from '../../bus/errors.js';
import type { AdbServerState, DeviceEntry } from '../../bus/messages/devices.js';

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

function toEntry(servers: AdbServers, label: string, d: AdbDeviceEntry): DeviceEntry {
  return {
    serial: servers.idOf(label, d.serial),
    server: servers.multi ? label : null,
    state: d.state,
    connection: connectionOf(d.serial),
    model: d.model,
    product: d.product,
    device: d.device,
    transport_id: d.transportId,
    hint: stateHint(d.state),
  };
}

/** One adb server followed on its own: its tracker, whether it answers, its last list. */
interface Server {
  spec: AdbServerSpec;
  client: AdbClient;
  tracker: DeviceTracker;
  up: boolean;
  message: string;
  version: number | null;
  list: AdbDeviceEntry[];
}

interface State {
  servers: AdbServers;
  tracked: Server[];
  devices: DeviceEntry[];
}

function serverState(s: Server): AdbServerState {
  return {
    label: s.spec.label,
    address: describeAdbServer(s.spec.address),
    up: s.up,
    message: s.message,
    version: s.version,
    devices: s.list.length,
  };
}

/** Rebuilds the merged list from every server's and tells who changed. */
function publish(state: State, ctx: ActorContext): void {
  const before = new Map(state.devices.map((d) => [d.serial, d.state]));
  const serverOf = new Map(state.devices.map((d) => [d.serial, d.server]));
  state.devices = state.tracked.flatMap((s) => s.list.map((d) => toEntry(state.servers, s.spec.label, d)));
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
      // Its server went away with it: say so, so a call to it names the server, not the device.
      const down = state.tracked.find((s) => s.spec.label === serverOf.get(serial) && !s.up);
      ctx.emit('device.state', {
        serial,
        state: 'gone',
        previous,
        ...(down !== undefined
          ? { reason: `adb server ${down.spec.label} is unreachable (${down.message ?? 'down'})` }
          : {}),
      });
    }
  }
}

/**
 * adb's tracking stream is not told every state change (a device that turns `unauthorized` after
 * `offline` can stay `offline` there): while any device of a server is in such a passing state, or a
 * device asked for is missing, a direct `host:devices-l` query settles that server's list.
 */
async function refreshIfUnsettled(state: State, ctx: ActorContext, wanted: string | null): Promise<void> {
  const missing = wanted !== null && !state.devices.some((d) => d.serial === wanted);
  let changed = false;
  await Promise.all(
    state.tracked.map(async (s) => {
      if (!s.up || !(missing || s.list.some((d) => d.state !== 'device'))) {
        return;
      }
      try {
        const fresh = await s.client.devices({ timeoutMs: 5_000 });
        const key = (list: { serial: string; state: string }[]) =>
          list
            .map((d) => `${d.serial}=${d.state}`)
            .sort()
            .join(',');
        if (key(fresh) !== key(s.list)) {
          s.list = fresh;
          changed = true;
        }
      } catch {
        // The tracker reports the server's troubles; the list stays as it was.
      }
    }),
  );
  if (changed) {
    publish(state, ctx);
  }
}

/** Why a device is not usable, naming its server when several are served. */
function notConnected(state: State, serial: string): Error {
  const route = state.servers.route(serial);
  const server = route === null ? undefined : state.tracked.find((s) => s.spec === route.server);
  const online = state.devices.filter((d) => d.state === 'device').map((d) => d.serial);
  const down = server !== undefined && !server.up;
  const where = state.servers.multi && server ? ` on adb server ${server.spec.label}` : '';
  return fail.offline(
    `device '${serial}' is not connected${where}${down ? ` (adb server ${state.servers.multi ? `${server.spec.label} ` : ''}unreachable: ${server.message})` : ''}; online: ${online.length ? online.join(', ') : 'none'}`,
  );
}

/**
 * The devices actor: follows every adb server's device list live (one tracker each, reconnecting on
 * its own with backoff) and tells the rest of droidbus when a device comes and goes (`device.state`),
 * so device actors start and stop with devices. Losing one server takes only its devices away.
 */
export default defineActor({
  kind: 'devices',
  concurrency: 16,
  startTimeoutMs: 40_000,
  async start(ctx) {
    const servers = configuredAdbServers();
    const state: State = { servers, tracked: [], devices: [] };
    for (const spec of servers.list) {
      const client = new AdbClient(spec.address);
      const server: Server = {
        spec,
        client,
        tracker: undefined as never,
        up: false,
        message: 'connecting',
        version: null,
        list: [],
      };
      server.tracker = new DeviceTracker(
        client,
        {
          onList: (list) => {
            server.list = list;
            publish(state, ctx);
          },
          onServer: (up, message, version) => {
            server.up = up === 'up';
            server.message = message;
            server.version = version ?? server.version;
          },
        },
        spec.address.source !== '--adb-server',
      );
      state.tracked.push(server);
    }
    // Only the implicit local server is started when absent (never a named one, which may be a tunnel);
    // each tracker's first attempt is awaited.
    await Promise.all(state.tracked.map((s) => s.tracker.start()));
    return state;
  },
  stop(state) {
    for (const s of state.tracked) {
      s.tracker.stop();
    }
  },
  handlers: {
    'devices.list': async (_payload, state, ctx) => {
      await refreshIfUnsettled(state, ctx, null);
      const servers = state.tracked.map(serverState);
      const first = servers[0] as AdbServerState;
      return {
        server: { address: first.address, up: first.up, message: first.message },
        servers,
        devices: state.devices,
      };
    },
    'devices.resolve': async ({ serial }, state, ctx) => {
      if (!state.servers.multi || serial.includes('/')) {
        return { serial, fixed: true };
      }
      await refreshIfUnsettled(state, ctx, serial);
      const ids = state.tracked
        .filter((s) => s.list.some((d) => d.serial === serial))
        .map((s) => state.servers.idOf(s.spec.label, serial));
      if (ids.length > 1) {
        throw fail.invalid(`serial '${serial}' is on several adb servers: pass one of ${ids.join(', ')}`);
      }
      // Another server may list it later (ambiguous then): not fixed.
      return { serial: ids[0] ?? serial, fixed: false };
    },
    'devices.require': async ({ serial }, state, ctx) => {
      await refreshIfUnsettled(state, ctx, serial);
      const entry = state.devices.find((d) => d.serial === serial);
      if (!entry) {
        throw notConnected(state, serial);
      }
      if (entry.state !== 'device') {
        throw fail.offline(`device '${serial}' is ${entry.state}. ${entry.hint ?? ''}`.trim());
      }
      return entry;
    },
  },
});
