/**
 * `--adb-server [NAME=]ADDR` (repeatable) and `--allow-remote-adb-server`, or `adb_servers` and
 * `allow_remote_adb_server` in settings: the adb servers this process serves devices from, handed to
 * every worker thread through DROIDBUS_ADB_SERVERS. Nothing given keeps the one local server.
 */
import {
  ADB_SERVERS_ENV,
  AdbServerSpecError,
  checkAdbServerSpecs,
  parseAdbServerSpec,
  refuseRemoteServers,
  serializeAdbServers,
} from '../adb/servers.js';
import { readSettings } from '../store/settings.js';
import { UsageError } from './command.js';

export const ADB_SERVER_USAGE = `  --adb-server [NAME=]ADDR
                   serve the devices of this adb server (repeatable): tcp:PORT, tcp:HOST:PORT or
                   localfilesystem:PATH, named NAME (devices are then NAME/serial). Without it, the
                   local adb server (ADB_SERVER_SOCKET, ANDROID_ADB_SERVER_PORT, else port 5037);
                   settings.json's adb_servers gives the same list to droidbus mcp
  --allow-remote-adb-server
                   accept a server on another machine: the adb protocol has no authentication,
                   so anyone on that network can drive its devices (prefer an SSH tunnel)`;

/** Applies the servers the flags (else settings) name; returns warnings for the person. */
export function applyAdbServers(flags: readonly string[] | undefined, allowRemoteFlag: boolean): string[] {
  const settings = flags === undefined || flags.length === 0 ? readSettings() : null;
  const texts = settings?.adb_servers ?? flags ?? [];
  if (texts.length === 0) {
    return [];
  }
  try {
    const specs = texts.map((t) => parseAdbServerSpec(t));
    checkAdbServerSpecs(specs);
    const warnings = refuseRemoteServers(
      specs,
      allowRemoteFlag || settings?.allow_remote_adb_server === true,
    );
    process.env[ADB_SERVERS_ENV] = serializeAdbServers(specs);
    return warnings;
  } catch (err) {
    if (err instanceof AdbServerSpecError) {
      throw new UsageError(`${settings ? 'settings.json adb_servers: ' : ''}${err.message}`);
    }
    throw err;
  }
}
