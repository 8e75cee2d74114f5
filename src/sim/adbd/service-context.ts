import type { SimDevice } from '../device-api.js';
import type { Logger } from '../../util/log.js';
import type { CommandLog } from './command-log.js';

/** What every service handler of one device connection can use. */
export interface ServiceContext {
  device: SimDevice;
  commandLog: CommandLog | undefined;
  log: Logger;
}
