import { Bus } from '../bus/bus.js';
import { LocalBusClient } from '../bus/local-client.js';
import type { Origin } from '../bus/origin.js';
import { keepLogcatStreams, type StreamedDevicesRecord } from './logcat-streams-keeper.js';
import { restoreOrphanedRoutes } from './network-routes-keeper.js';
import { Supervisor } from './supervisor.js';
import type { SupervisorOptions } from './supervisor.js';
import { logger } from '../util/log.js';

const log = logger('runtime');

/** A bus with its actors on worker threads: what a standalone frontend or the host runs. */
export interface ActorSystem {
  readonly bus: Bus;
  readonly supervisor: Supervisor;
  /** A bus client for code in this process, asking as `origin`. */
  client(origin: Origin): LocalBusClient;
  /** Stops restarting logcat streams (and recording them); resolves once the last record is written. */
  stopKeepingStreams(): Promise<void>;
  /** Fails what is in flight, stops every actor and worker. */
  shutdown(reason?: string): Promise<void>;
}

/** True when DROIDBUS_INLINE asks for the actors on the main thread (`1`, `true`, `yes`). */
export function inlineRequested(env: NodeJS.ProcessEnv = process.env): boolean {
  return ['1', 'true', 'yes'].includes((env['DROIDBUS_INLINE'] ?? '').toLowerCase());
}

/**
 * Starts the bus and the supervisor. Worker threads start lazily, with the first actor placed on
 * them; with `inline` (default: DROIDBUS_INLINE) the actors run on this thread instead. With
 * `streams` (the host), the devices streaming logcat are written down and streamed again after a kill.
 */
export function startActorSystem(
  options: SupervisorOptions = {},
  streams?: StreamedDevicesRecord,
): ActorSystem {
  const bus = new Bus();
  const supervisor = new Supervisor(bus, { ...options, inline: options.inline ?? inlineRequested() });
  // Device actors live as long as their device: started when adb lists it as `device`, stopped
  // when it goes offline, unauthorized or away (their in-flight requests then fail UNAVAILABLE).
  bus.subscribe('device.state', (payload) => {
    const { serial, state, reason } = payload;
    const address = `device/${serial}`;
    if (state === 'device') {
      supervisor
        .spawn('device', serial)
        .catch((err: unknown) => log.debug(`could not start ${address}`, { error: String(err) }));
    } else {
      void supervisor.stopActor(address, {
        code: 'DEVICE_OFFLINE',
        message:
          state === 'gone'
            ? `device ${serial} is no longer connected${reason !== undefined ? `: its ${reason}` : ''}`
            : `device ${serial} went ${state}`,
      });
    }
  });
  const stopKeeping = keepLogcatStreams(bus, streams);
  const stopRestoring = restoreOrphanedRoutes(bus);
  return {
    bus,
    supervisor,
    client: (origin) => new LocalBusClient(bus, origin),
    stopKeepingStreams: stopKeeping,
    async shutdown(reason = 'droidbus is shutting down') {
      stopRestoring();
      // A network capture gives its devices their proxy setting back through their device actors:
      // stopped while the bus and those actors still run.
      await supervisor.stopActor('network', { code: 'UNAVAILABLE', message: reason }).catch(() => undefined);
      await stopKeeping();
      bus.close(reason);
      await supervisor.shutdown();
    },
  };
}
