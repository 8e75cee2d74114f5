/**
 * The adb servers droidbus serves devices from. One (the local server, found as the adb client finds
 * it) unless the person named several (`droidbus host --adb-server [NAME=]ADDR …`, or `adb_servers` in
 * settings for `droidbus mcp`); the choice reaches every worker thread through DROIDBUS_ADB_SERVERS.
 *
 * A device's identity is (server, serial). With one server it is written as the serial alone, as
 * before; with several, as `LABEL/serial` everywhere (tool answers, lock files, logcat streams, debug
 * sessions, install records), and tools accept the plain serial when only one server has it.
 */
import path from 'node:path';
import { describeAdbServer, resolveAdbServer, type AdbServerAddress } from './server-address.js';

export interface AdbServerSpec {
  /** How the person named it (`lab`), or one made from its address (`adb15037`). */
  label: string;
  address: AdbServerAddress;
}

/** The variable that carries the servers to workers and child processes: `NAME=ADDR,NAME=ADDR`. */
export const ADB_SERVERS_ENV = 'DROIDBUS_ADB_SERVERS';

const LABEL = /^[A-Za-z][A-Za-z0-9_-]{0,31}$/;

export class AdbServerSpecError extends Error {}

/** `tcp:PORT`, `tcp:HOST:PORT` or `localfilesystem:PATH`, as ADB_SERVER_SOCKET takes them. */
export function parseAdbServerAddress(text: string): AdbServerAddress {
  if (!/^(?:tcp:|localfilesystem:)/.test(text)) {
    throw new AdbServerSpecError(
      `'${text}' is not an adb server address: use tcp:PORT, tcp:HOST:PORT or localfilesystem:PATH`,
    );
  }
  try {
    return { ...resolveAdbServer({ ADB_SERVER_SOCKET: text }), source: '--adb-server' };
  } catch (err) {
    throw new AdbServerSpecError((err as Error).message.replace('ADB_SERVER_SOCKET', `'${text}'`));
  }
}

/** A label for an unnamed server: `adb15037` for a local TCP port, `host-15037` for another host. */
export function defaultLabel(address: AdbServerAddress): string {
  if (address.kind === 'unix') {
    return `adb-${path.basename(address.path).replace(/[^A-Za-z0-9_-]/g, '_')}`.slice(0, 32);
  }
  const local = isLoopbackAddress(address);
  return (local ? `adb${address.port}` : `${address.host}-${address.port}`.replace(/[^A-Za-z0-9_-]/g, '_'))
    .replace(/^[^A-Za-z]/, 'a$&')
    .slice(0, 32);
}

/** One `--adb-server` value: `[NAME=]ADDR`. */
export function parseAdbServerSpec(text: string): AdbServerSpec {
  const eq = text.indexOf('=');
  const named = eq > 0 && !text.slice(0, eq).includes(':');
  const address = parseAdbServerAddress(named ? text.slice(eq + 1) : text);
  const label = named ? text.slice(0, eq) : defaultLabel(address);
  if (!LABEL.test(label)) {
    throw new AdbServerSpecError(
      `'${label}' cannot name an adb server: a letter, then up to 31 letters, digits, _ or -`,
    );
  }
  return { label, address };
}

/**
 * Where a server is, whatever it was called: `tcp:5201`, `tcp:localhost:5201` and `tcp:127.0.0.1:5201`
 * are one server (the adb server listens on the loopback interface), a unix socket its resolved path.
 */
export function serverPlace(address: AdbServerAddress): string {
  if (address.kind === 'unix') {
    return path.resolve(address.path);
  }
  return `${isLoopbackAddress(address) ? '127.0.0.1' : address.host.toLowerCase()}:${address.port}`;
}

/** Several specs: labels unique, addresses distinct (however each is written). */
export function checkAdbServerSpecs(specs: readonly AdbServerSpec[]): void {
  const labels = new Set<string>();
  const addresses = new Set<string>();
  for (const s of specs) {
    if (labels.has(s.label)) {
      throw new AdbServerSpecError(`two adb servers are named '${s.label}': give each its own NAME=`);
    }
    const place = serverPlace(s.address);
    if (addresses.has(place)) {
      throw new AdbServerSpecError(
        `the adb server ${describeAdbServer(s.address)} is named twice (as '${s.label}' and before it): each server once`,
      );
    }
    labels.add(s.label);
    addresses.add(place);
  }
}

/** True for an address only this machine can reach (a loopback host or a unix socket). */
export function isLoopbackAddress(address: AdbServerAddress): boolean {
  if (address.kind === 'unix') {
    return true;
  }
  const host = address.host.toLowerCase();
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/**
 * The adb server protocol has no authentication: refuses a server on another machine unless the
 * person said they accept that (`--allow-remote-adb-server`).
 */
export function refuseRemoteServers(specs: readonly AdbServerSpec[], allowRemote: boolean): string[] {
  const remote = specs.filter((s) => !isLoopbackAddress(s.address));
  if (remote.length > 0 && !allowRemote) {
    throw new AdbServerSpecError(
      `${remote.map((s) => `${s.label}=${describeAdbServer(s.address)}`).join(', ')} is not on this machine. ` +
        'The adb server protocol has no authentication: anyone who can reach that port can install apps on, read ' +
        'and drive every device behind it. Reach it through an SSH tunnel (ssh -N -L 15037:localhost:5037 HOST, ' +
        'then --adb-server NAME=tcp:15037), or pass --allow-remote-adb-server if that network is yours alone.',
    );
  }
  return remote.map(
    (s) =>
      `warning: the adb server ${s.label} (${describeAdbServer(s.address)}) is reached over the network without authentication; anyone on that network can drive its devices`,
  );
}

/** The DROIDBUS_ADB_SERVERS value for specs. */
export function serializeAdbServers(specs: readonly AdbServerSpec[]): string {
  return specs
    .map(
      (s) =>
        `${s.label}=${s.address.kind === 'tcp' ? `tcp:${s.address.host}:${s.address.port}` : `localfilesystem:${s.address.path}`}`,
    )
    .join(',');
}

/** The configured servers: DROIDBUS_ADB_SERVERS, else the one local server the adb client would use. */
export function adbServersFromEnv(env: NodeJS.ProcessEnv = process.env): AdbServerSpec[] {
  const value = env[ADB_SERVERS_ENV];
  if (value === undefined || value.trim() === '') {
    return [{ label: 'local', address: resolveAdbServer(env) }];
  }
  const specs = value
    .split(',')
    .filter((part) => part.trim() !== '')
    .map((part) => parseAdbServerSpec(part.trim()));
  checkAdbServerSpecs(specs);
  return specs;
}

/**
 * The servers of this process and how devices are named on them. With one server a device id is its
 * serial; with several it is `LABEL/serial`.
 */
export class AdbServers {
  readonly multi: boolean;

  constructor(readonly list: readonly AdbServerSpec[]) {
    if (list.length === 0) {
      throw new AdbServerSpecError('no adb server');
    }
    this.multi = list.length > 1;
  }

  get primary(): AdbServerSpec {
    return this.list[0] as AdbServerSpec;
  }

  /** The id of the device `serial` on server `label`. */
  idOf(label: string, serial: string): string {
    return this.multi ? `${label}/${serial}` : serial;
  }

  /** The server and adb serial a device id stands for; null when it names no configured server. */
  route(id: string): { server: AdbServerSpec; serial: string } | null {
    if (!this.multi) {
      return { server: this.primary, serial: id };
    }
    const slash = id.indexOf('/');
    if (slash <= 0) {
      return null;
    }
    const label = id.slice(0, slash);
    const server = this.list.find((s) => s.label === label);
    return server === undefined ? null : { server, serial: id.slice(slash + 1) };
  }

  /**
   * The key of the physical device behind an id across droidbus processes that may name its server
   * differently (the UI Automator lock): the server's address and the serial.
   */
  lockKeyOf(id: string): string {
    const r = this.route(id);
    if (r === null) {
      return id;
    }
    return `${serverPlace(r.server.address)}/${r.serial}`;
  }
}

let current: AdbServers | undefined;

/** This process's (or worker thread's) servers, from its environment. */
export function configuredAdbServers(): AdbServers {
  current ??= new AdbServers(adbServersFromEnv());
  return current;
}
