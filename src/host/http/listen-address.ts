import net from 'node:net';

/** Where `droidbus host --http` listens when no address is given. */
export const DEFAULT_HTTP_HOST = '127.0.0.1';
export const DEFAULT_HTTP_PORT = 8765;

/** An address the HTTP frontend binds to. `host` is an IP literal (IPv6 without brackets). */
export interface ListenAddress {
  host: string;
  port: number;
}

/** Thrown for an `--http` value that is not `ADDR:PORT`, `PORT` or `ADDR`. */
export class ListenAddressError extends Error {}

/**
 * Parses the value of `--http`: `127.0.0.1:8765`, `0.0.0.0:0`, `[::1]:8765`, `8765` (loopback),
 * `localhost:8765` (127.0.0.1), or an address alone (port 8765). Only IP literals and `localhost`:
 * a name that resolves to several addresses would make the exposure unclear.
 */
export function parseListenAddress(value: string | undefined): ListenAddress {
  if (value === undefined || value === '') {
    return { host: DEFAULT_HTTP_HOST, port: DEFAULT_HTTP_PORT };
  }
  let host: string;
  let portText: string | undefined;
  const bracketed = /^\[([^\]]+)\](?::(.*))?$/.exec(value);
  if (bracketed) {
    host = bracketed[1]!;
    portText = bracketed[2];
  } else if (/^\d+$/.test(value)) {
    host = DEFAULT_HTTP_HOST;
    portText = value;
  } else if (net.isIPv6(value)) {
    host = value;
  } else {
    const colon = value.lastIndexOf(':');
    host = colon >= 0 ? value.slice(0, colon) : value;
    portText = colon >= 0 ? value.slice(colon + 1) : undefined;
  }
  if (host === 'localhost') {
    host = DEFAULT_HTTP_HOST;
  }
  if (net.isIP(host) === 0) {
    throw new ListenAddressError(
      `--http takes ADDR:PORT with an IP address (127.0.0.1:8765, 0.0.0.0:8765, [::1]:8765) or a port; '${value.slice(0, 100)}' is not one`,
    );
  }
  let port = DEFAULT_HTTP_PORT;
  if (portText !== undefined) {
    if (!/^\d{1,5}$/.test(portText) || Number(portText) > 65_535) {
      throw new ListenAddressError(`--http: '${portText.slice(0, 20)}' is not a port (0-65535)`);
    }
    port = Number(portText);
  }
  return { host, port };
}

/** True for an address only this machine can reach (127.0.0.0/8, ::1, ::ffff:127.x). */
export function isLoopbackAddress(host: string): boolean {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  if (net.isIPv4(bare)) {
    return bare.startsWith('127.');
  }
  if (net.isIPv6(bare)) {
    const lower = bare.toLowerCase();
    return lower === '::1' || lower === '0:0:0:0:0:0:0:1' || /^::ffff:127\./.test(lower);
  }
  return bare === 'localhost';
}

/** True for the any-address (0.0.0.0, ::): every interface. */
export function isWildcardAddress(host: string): boolean {
  return host === '0.0.0.0' || host === '::' || host === '0:0:0:0:0:0:0:0';
}

/** `host:port` as it appears in a URL or a Host header (IPv6 in brackets). */
export function formatHostPort(host: string, port: number): string {
  return `${net.isIPv6(host) ? `[${host}]` : host}:${port}`;
}
