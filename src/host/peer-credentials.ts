import { createRequire } from 'node:module';
import type net from 'node:net';
import { fileURLToPath } from 'node:url';

/**
 * The peer-uid check of the host's socket. Node has no API for SO_PEERCRED / getpeereid, so a tiny
 * native helper (native/peercred.c, built into dist/native by the build) reads it. When the helper
 * is missing or does not load, the host says so once and relies on the socket's 0600 mode in the
 * 0700 data directory.
 */

interface PeerCredModule {
  peerUid(fd: number): number;
}

const HELPER = new URL('../native/peercred.node', import.meta.url);
let loaded: { module: PeerCredModule | null; problem: string | null } | undefined;

function load(): { module: PeerCredModule | null; problem: string | null } {
  if (loaded) {
    return loaded;
  }
  if (process.platform === 'win32' || typeof process.getuid !== 'function') {
    loaded = { module: null, problem: 'this platform has no unix peer credentials' };
    return loaded;
  }
  try {
    const require = createRequire(import.meta.url);
    loaded = { module: require(fileURLToPath(HELPER)) as PeerCredModule, problem: null };
  } catch (err) {
    loaded = {
      module: null,
      problem: `the native helper ${fileURLToPath(HELPER)} did not load (${(err as Error).message.split('\n')[0]}); rebuild with \`npm run build\` (it needs a C compiler)`,
    };
  }
  return loaded;
}

/** Whether connections can be checked by uid; when not, why. */
export function peerCheckAvailability(): { available: boolean; problem: string | null } {
  const { module, problem } = load();
  return { available: module !== null, problem };
}

/**
 * The uid of the process at the other end of an accepted unix socket; null when it cannot be
 * told (no helper, or no file descriptor — Node keeps it on the socket's internal handle).
 */
export function peerUidOf(socket: net.Socket): number | null {
  const { module } = load();
  if (!module) {
    return null;
  }
  const fd = (socket as unknown as { _handle?: { fd?: unknown } })._handle?.fd;
  if (typeof fd !== 'number' || fd < 0) {
    return null;
  }
  try {
    return module.peerUid(fd);
  } catch {
    return null;
  }
}
