import os from 'node:os';
import { formatHostPort, isLoopbackAddress, isWildcardAddress } from './listen-address.js';
import type { ListenAddress } from './listen-address.js';

/** What the user configured beyond the built-in names (settings `http.*`, read fresh). */
export interface ConfiguredNames {
  /** `name` (any port: a proxy's) or `name:port`. */
  allowedHosts: readonly string[];
  /** Full origins, `https://app.example`. */
  allowedOrigins: readonly string[];
  /** The public base URL a proxy or tunnel serves the host at, or null. */
  publicUrl: string | null;
}

/** How long the list of this machine's interface addresses is reused (DHCP may change it). */
const INTERFACES_TTL_MS = 30_000;

/** Splits a Host header value into a lowercase hostname and a port ('' when it names none). */
export function splitHostHeader(value: string): { hostname: string; port: string } | null {
  const v = value.trim().toLowerCase();
  const m = /^(\[[0-9a-f:.]+\]|[^:[\]]+)(?::(\d{1,5}))?$/.exec(v);
  if (!m) {
    return null;
  }
  return { hostname: m[1]!, port: m[2] ?? '' };
}

/**
 * DNS-rebinding protection: the Host names and browser origins the HTTP frontend answers. A page
 * on another site that rebinds its name to 127.0.0.1 still sends its own name as Host, so any
 * request whose Host is not one of ours is refused before anything else runs. Ours are: the bound
 * address; the loopback spellings when bound to loopback or to every interface; this machine's
 * interface addresses and host name when bound to every interface; and the configured names.
 */
export class HostPolicy {
  private interfaces: { at: number; names: string[] } | undefined;

  constructor(
    private readonly bound: ListenAddress,
    private readonly tls: boolean,
    private readonly configured: () => ConfiguredNames,
  ) {}

  /** The scheme clients use. */
  get scheme(): 'http' | 'https' {
    return this.tls ? 'https' : 'http';
  }

  /** The built-in `hostname:port` names (lowercase, IPv6 bracketed). */
  builtInHosts(): string[] {
    const port = this.bound.port;
    const names = new Set<string>();
    const add = (host: string): void => {
      names.add(formatHostPort(host, port).toLowerCase());
    };
    const loopback = (): void => {
      add('127.0.0.1');
      add('::1');
      add('localhost');
    };
    if (isWildcardAddress(this.bound.host)) {
      loopback();
      for (const name of this.interfaceNames()) {
        add(name);
      }
    } else {
      add(this.bound.host);
      if (isLoopbackAddress(this.bound.host)) {
        loopback();
      }
    }
    return [...names];
  }

  /** True when a request's Host header names this server. */
  hostAllowed(header: string | undefined): boolean {
    if (!header) {
      return false;
    }
    const split = splitHostHeader(header);
    if (!split) {
      return false;
    }
    const defaultPort = this.tls ? '443' : '80';
    const port = split.port === '' ? defaultPort : split.port;
    if (this.builtInHosts().includes(`${split.hostname}:${port}`)) {
      return true;
    }
    const configured = this.configured();
    for (const entry of configured.allowedHosts) {
      const allowed = splitHostHeader(entry);
      if (allowed && allowed.hostname === split.hostname && (allowed.port === '' || allowed.port === port)) {
        return true;
      }
    }
    // A proxy in front keeps the public name but may change the port (TLS ends at the proxy).
    return publicHostname(configured.publicUrl) === split.hostname;
  }

  /**
   * True when a browser Origin may call /mcp: no Origin (not a browser, or same-origin GET), one
   * of this server's own origins, the public URL's, or a configured one. `null` is refused.
   */
  originAllowed(header: string | undefined): boolean {
    if (header === undefined) {
      return true;
    }
    let origin: URL;
    try {
      origin = new URL(header);
    } catch {
      return false;
    }
    if (origin.origin === 'null' || (origin.protocol !== 'http:' && origin.protocol !== 'https:')) {
      return false;
    }
    const configured = this.configured();
    if (configured.allowedOrigins.some((o) => sameOrigin(o, origin))) {
      return true;
    }
    if (configured.publicUrl !== null && sameOrigin(configured.publicUrl, origin)) {
      return true;
    }
    return origin.protocol === `${this.scheme}:` && this.hostAllowed(origin.host);
  }

  private interfaceNames(): string[] {
    const now = Date.now();
    if (this.interfaces && now - this.interfaces.at < INTERFACES_TTL_MS) {
      return this.interfaces.names;
    }
    const names: string[] = [];
    for (const list of Object.values(os.networkInterfaces())) {
      for (const info of list ?? []) {
        // Link-local IPv6 needs a zone id in a URL; browsers and clients do not use it as a Host.
        if (!info.address.toLowerCase().startsWith('fe80:')) {
          names.push(info.address);
        }
      }
    }
    const hostname = os.hostname().toLowerCase();
    if (hostname) {
      names.push(hostname);
      if (!hostname.includes('.')) {
        names.push(`${hostname}.local`);
      }
    }
    this.interfaces = { at: now, names };
    return names;
  }
}

function sameOrigin(configured: string, origin: URL): boolean {
  try {
    return new URL(configured).origin === origin.origin;
  } catch {
    return false;
  }
}

function publicHostname(publicUrl: string | null): string | null {
  if (publicUrl === null) {
    return null;
  }
  try {
    return new URL(publicUrl).hostname.toLowerCase();
  } catch {
    return null;
  }
}
