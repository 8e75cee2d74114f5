import { createHash } from 'node:crypto';
import path from 'node:path';
import { dataDirPath } from './data-dir.js';

/** The host socket's file name in the data directory. */
export const HOST_SOCKET_FILE = 'host.sock';

/**
 * The longest socket path accepted, in bytes. sun_path holds 104 bytes on macOS and 108 on Linux,
 * the terminating NUL included; 103 fits both.
 */
export const MAX_SOCKET_PATH_BYTES = 103;

/**
 * Where `droidbus host` listens: `<data dir>/host.sock`; on Windows a named pipe named after the
 * data directory (pipes live in their own namespace, not in the file system).
 */
export function hostSocketPath(dataDir: string = dataDirPath()): string {
  if (process.platform === 'win32') {
    const id = createHash('sha256').update(path.resolve(dataDir).toLowerCase()).digest('hex').slice(0, 16);
    return `\\\\.\\pipe\\droidbus-${id}`;
  }
  return path.join(dataDir, HOST_SOCKET_FILE);
}

/** Why a socket path cannot be used, or null when it can. */
export function socketPathProblem(socketPath: string): string | null {
  if (process.platform === 'win32') {
    return null;
  }
  const bytes = Buffer.byteLength(socketPath, 'utf8');
  if (bytes > MAX_SOCKET_PATH_BYTES) {
    return `the host socket path ${socketPath} is ${bytes} bytes, over the ${MAX_SOCKET_PATH_BYTES}-byte limit of unix socket paths; set DROIDBUS_HOME to a shorter folder`;
  }
  return null;
}
