/** Where the adb server listens, found the way the adb client finds it. */
export type AdbServerAddress =
  | { kind: 'tcp'; host: string; port: number; source: string }
  | { kind: 'unix'; path: string; source: string };

const DEFAULT_PORT = 5037;

function parsePort(value: string, what: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new Error(`${what} is not a valid port: ${value}`);
  }
  return port;
}

/**
 * `ADB_SERVER_SOCKET` (`tcp:PORT`, `tcp:HOST:PORT`, `localfilesystem:PATH`), else
 * `ANDROID_ADB_SERVER_ADDRESS` + `ANDROID_ADB_SERVER_PORT`, else localhost:5037.
 */
export function resolveAdbServer(env: NodeJS.ProcessEnv = process.env): AdbServerAddress {
  const socket = env['ADB_SERVER_SOCKET'];
  if (socket) {
    if (socket.startsWith('tcp:')) {
      const rest = socket.slice(4);
      const colon = rest.lastIndexOf(':');
      if (colon < 0) {
        return {
          kind: 'tcp',
          host: '127.0.0.1',
          port: parsePort(rest, 'ADB_SERVER_SOCKET'),
          source: 'ADB_SERVER_SOCKET',
        };
      }
      const host = rest.slice(0, colon).replace(/^\[|\]$/g, '');
      return {
        kind: 'tcp',
        host: host || '127.0.0.1',
        port: parsePort(rest.slice(colon + 1), 'ADB_SERVER_SOCKET'),
        source: 'ADB_SERVER_SOCKET',
      };
    }
    if (socket.startsWith('localfilesystem:')) {
      return { kind: 'unix', path: socket.slice('localfilesystem:'.length), source: 'ADB_SERVER_SOCKET' };
    }
    throw new Error(
      `ADB_SERVER_SOCKET has an unsupported form: ${socket} (use tcp:HOST:PORT or localfilesystem:PATH)`,
    );
  }
  const host = env['ANDROID_ADB_SERVER_ADDRESS'] || '127.0.0.1';
  const portText = env['ANDROID_ADB_SERVER_PORT'];
  if (portText) {
    return {
      kind: 'tcp',
      host,
      port: parsePort(portText, 'ANDROID_ADB_SERVER_PORT'),
      source: 'ANDROID_ADB_SERVER_PORT',
    };
  }
  return { kind: 'tcp', host, port: DEFAULT_PORT, source: 'default' };
}

/** The address in words, for messages. */
export function describeAdbServer(address: AdbServerAddress): string {
  return address.kind === 'tcp' ? `${address.host}:${address.port}` : address.path;
}
