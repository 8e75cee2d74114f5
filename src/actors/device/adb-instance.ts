import { AdbClient } from '../../adb/client.js';

let client: AdbClient | undefined;

/** The adb client of this worker thread: one for every device actor the thread hosts. */
export function adbClient(): AdbClient {
  client ??= new AdbClient();
  return client;
}
