import { AdbClient } from '../adb/client.js';
import { MultiAdbClient } from '../adb/multi-client.js';
import { configuredAdbServers } from '../adb/servers.js';

let client: AdbClient | undefined;

/**
 * The adb client of this worker thread, shared by every actor the thread hosts: on the one adb server,
 * or over the several the person named (devices then named `LABEL/serial`).
 */
export function adbClient(): AdbClient {
  if (client === undefined) {
    const servers = configuredAdbServers();
    client = servers.multi ? new MultiAdbClient(servers) : new AdbClient(servers.primary.address);
  }
  return client;
}
