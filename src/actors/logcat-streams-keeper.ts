import type { Bus } from '../bus/bus.js';
import { LocalBusClient } from '../bus/local-client.js';
import { logger } from '../util/log.js';

const log = logger('logcat-keeper');

/**
 * Keeps the logcat streams going across a crash of the logcat actor's worker: it follows which
 * devices stream (`logcat.state`) and, when the supervisor reports the logcat actor crashed (it
 * restarts it), asks the new one to stream those devices again. The store starts over empty — what
 * the crashed worker held is gone — and the streams restart from now, so no crash is read twice.
 * A stream stopped because its device went away (unplugged, the adb server restarted) is resumed,
 * from now, when adb lists that device online again; one stopped on request stays stopped.
 */
export function keepLogcatStreams(bus: Bus): () => void {
  const streaming = new Set<string>();
  /** Devices whose stream stopped because they left: resumed when they come back. */
  const away = new Set<string>();
  const client = new LocalBusClient(bus, { kind: 'actor', address: 'logcat-keeper' });
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
  });
  const offDevice = bus.subscribe('device.state', ({ serial, state }) => {
    if (state !== 'device' || !away.has(serial)) {
      return;
    }
    away.delete(serial);
    log.info(`${serial} is back; streaming its logcat again`);
    client
      .request('logcat.start', { serial, from_now: true })
      .catch((err: unknown) => log.warn(`could not stream ${serial} again`, { error: String(err) }));
  });
  const offActor = bus.subscribe('actor.state', (payload) => {
    const { address, state } = payload;
    if (address !== 'logcat' || state !== 'crashed') {
      return;
    }
    // After the supervisor has placed the actor again (it does so right after this event).
    setImmediate(() => {
      for (const serial of streaming) {
        log.warn(`the logcat actor crashed; streaming ${serial} again`);
        client
          .request('logcat.start', { serial, from_now: true })
          .catch((err: unknown) => log.warn(`could not stream ${serial} again`, { error: String(err) }));
      }
    });
  });
  return () => {
    offState();
    offDevice();
    offActor();
    void client.close();
  };
}
