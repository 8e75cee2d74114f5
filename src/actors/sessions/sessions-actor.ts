import { defineActor } from '../actor.js';
import { SessionsService } from './sessions-service.js';

/**
 * The sessions actor (a singleton on the main thread group): debug sessions, one per install per
 * device and package. It listens to app installs, launches and stops, to the logcat actor's crashes
 * and stream states, and to devices coming and going; agents' device tool calls arrive as
 * `sessions.agent_action` requests (the mailbox is their bounded queue). It is started with the
 * actor system, so no install is missed; the session files are shared with every droidbus process.
 */
export default defineActor({
  kind: 'sessions',
  // Reads answer while writes wait for the lock; agent actions wait together for one batched write.
  concurrency: 64,
  stopTimeoutMs: 8_000,
  start(ctx) {
    const service = new SessionsService(ctx);
    void service
      .sweep()
      .catch((err: unknown) => ctx.log.warn('the first sweep failed', { error: String(err) }));
    return service;
  },
  async stop(service) {
    await service.shutdown();
  },
  events: {
    'app.installed': (record, service) => service.onInstalled(record),
    'app.launched': (e, service) => service.onLaunched(e),
    'app.stopped': (e, service) => service.onStopped(e),
    'network.exchange': (e, service) => service.onExchange(e),
    'logcat.crash': (e, service) => service.onCrash(e),
    'logcat.state': ({ serial, state }, service) => service.onLogcatState(serial, state),
    'device.state': ({ serial, state }, service) => service.onDeviceState(serial, state),
  },
  handlers: {
    'sessions.agent_action': (payload, service) => service.agentAction(payload),
    'sessions.list': (payload, service) => service.reads.list(payload),
    'sessions.get': (payload, service) => service.reads.get(payload),
    'sessions.export': (payload, service) => service.reads.export(payload),
    'sessions.compare': (payload, service) => service.reads.compare(payload),
  },
});
