/**
 * Evidence: none — what the service handlers share; each service cites its own.
 */
import type { SimDevice } from '../device-api.js';
import type { Logger } from '../../util/log.js';
import type { CommandLog } from './command-log.js';
import type { ReverseListeners } from './reverse-service.js';

/** What every service handler of one device connection can use. */
export interface ServiceContext {
  device: SimDevice;
  commandLog: CommandLog | undefined;
  log: Logger;
  /** This transport's `adb reverse` listeners (they end with the connection, as adbd's do). */
  reverses: ReverseListeners;
  /** Drops this transport, as adbd restarting does. */
  restart(): void;
}
