import { Bus } from '../bus/bus.js';
import { LocalBusClient } from '../bus/local-client.js';
import type { Origin } from '../bus/origin.js';
import { Supervisor } from './supervisor.js';
import type { SupervisorOptions } from './supervisor.js';

/** A bus with its actors on worker threads: what a standalone frontend or the host runs. */
export interface ActorSystem {
  readonly bus: Bus;
  readonly supervisor: Supervisor;
  /** A bus client for code in this process, asking as `origin`. */
  client(origin: Origin): LocalBusClient;
  /** Fails what is in flight, stops every actor and worker. */
  shutdown(reason?: string): Promise<void>;
}

/** Starts the bus and the supervisor. Worker threads start lazily, with the first actor placed on them. */
export function startActorSystem(options: SupervisorOptions = {}): ActorSystem {
  const bus = new Bus();
  const supervisor = new Supervisor(bus, options);
  return {
    bus,
    supervisor,
    client: (origin) => new LocalBusClient(bus, origin),
    async shutdown(reason = 'droidbus is shutting down') {
      bus.close(reason);
      await supervisor.shutdown();
    },
  };
}
