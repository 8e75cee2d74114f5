import { AdbClient } from '../adb/client.js';

let client: AdbClient | undefined;

/** The adb client of this worker thread, shared by every actor the thread hosts. */
export function adbClient(): AdbClient {
  client ??= new AdbClient();
  return client;
}
