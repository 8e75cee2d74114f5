import type { Bus } from '../bus/bus.js';
import { LocalBusClient } from '../bus/local-client.js';
import { logger } from '../util/log.js';

const log = logger('logcat-keeper');

/** Where a host keeps the devices it streams, so the next host (after a kill) streams them again. */
export interface StreamedDevicesRecord {
  /** The devices the previous host streamed when it ended without quitting. */
  initial: readonly string[];
  save(serials: readonly string[]): Promise<void>;
}

/**
 * Keeps the logcat streams going when what carries them goes away, and loses no line the device
 * still has: every stream it restarts resumes after the newest line the store holds of its device
 * (`logcat.start` with `resume`), or reads the device's whole buffer when the store holds none.
 *  - A stream stopped because its device went away (unplugged, the adb server restarted) resumes
 *    when adb lists the device online again; one stopped on request stays stopped.
 *  - When the supervisor reports the logcat actor crashed (it restarts it), the new actor streams
 *    the same devices again; its store starts empty, so it reads their buffers whole. Crashes read
 *    again are the same crashes (a debug session keys them by pid, group and time).
 *  - With `record` (the host), the streamed devices are written down, and the devices a killed host
 *    streamed are streamed again as they come online.
 */
export function keepLogcatStreams(bus: Bus, record?: StreamedDevicesRecord): () => Promise<void> {
  const streaming = new Set<string>();
  /** Devices whose stream stopped because they left: resumed when they come back. */
  const away = new Set<string>(record?.initial ?? []);
  const client = new LocalBusClient(bus, { kind: 'actor', address: 'logcat-keeper' });
  let saved = [...away].sort().join('\n');
  let saving = Promise.resolve();
  let stopped = false;
  const save = (): void => {
    if (!record || stopped) {
      return;
    }
    const wanted = [...new Set([...streaming, ...away])].sort();
    if (wanted.join('\n') === saved) {
      return;
    }
    saved = wanted.join('\n');
    saving = saving
      .then(() => record.save(wanted))
      .catch((err: unknown) => log.warn('could not record the streamed devices', { error: String(err) }));
  };
  const resume = (serial: string, why: string): void => {
    log.info(`${why}; streaming the logcat of ${serial} again`);
    client
      .request('logcat.start', { serial, resume: true })
      .catch((err: unknown) => log.warn(`could not stream ${serial} again`, { error: String(err) }));
  };
  const offState = bus.subscribe('logcat.state', (payload) => {
    const { serial, state, reason } = payload;
    if (state === 'stopped') {
      streaming.delete(serial);
      if (reason?.startsWith('device disconnected')) {
        away.add(serial);
      } else {
        away.delete(serial);
      }
    } else {
      streaming.add(serial);
      away.delete(serial);
    }
    save();
  });
  const offDevice = bus.subscribe('device.state', ({ serial, state }) => {
    if (state !== 'device' || !away.has(serial)) {
      return;
    }
    away.delete(serial);
    resume(serial, `${serial} is back`);
  });
  const offActor = bus.subscribe('actor.state', (payload) => {
    const { address, state } = payload;
    if (address !== 'logcat' || state !== 'crashed') {
      return;
    }
    // After the supervisor has placed the actor again (it does so right after this event).
    setImmediate(() => {
      for (const serial of streaming) {
        resume(serial, 'the logcat actor crashed');
      }
    });
  });
  // The devices a killed host streamed: those online now stream at once (starting the device
  // tracker); the others stay away until adb lists them.
  for (const serial of record?.initial ?? []) {
    client
      .request('logcat.start', { serial, resume: true })
      .then(() => log.info(`streaming the logcat of ${serial} again, as the previous host did`))
      .catch((err: unknown) =>
        log.debug(`${serial} is not streaming yet; waiting for it to come online`, { error: String(err) }),
      );
  }
  /** Stops keeping (and recording): resolves once the last record is written. */
  return async () => {
    stopped = true;
    offState();
    offDevice();
    offActor();
    void client.close();
    await saving;
  };
}
