import { createHash, randomBytes } from 'node:crypto';

/** How long a login link may wait to be opened. */
export const LOGIN_LINK_TTL_MS = 60 * 60_000;
/** How long a logged-in browser stays logged in (the host forgets every login when it quits). */
export const PAGE_SESSION_TTL_MS = 24 * 3600_000;
/** At most this many links wait at once (the oldest goes first). */
const MAX_LINKS = 8;
/** At most this many logged-in browsers (the oldest goes first). */
const MAX_SESSIONS = 32;

const digest = (secret: string): string => createHash('sha256').update(secret).digest('base64url');
const secret = (): string => randomBytes(32).toString('base64url');

/**
 * The page's logins. A login link carries a one-time secret the host prints (and `droidbus ui`
 * asks for again); opening it trades the secret for a cookie session. Only SHA-256 digests are
 * kept, so a memory dump or a log never holds a usable secret, and a digest lookup leaks nothing
 * about how close a guess was.
 */
export class PageAuth {
  private readonly links = new Map<string, number>();
  private readonly sessions = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  /** A new one-time login secret and when it expires (epoch ms). */
  newLink(): { token: string; expiresAt: number } {
    this.sweep();
    while (this.links.size >= MAX_LINKS) {
      this.links.delete(this.links.keys().next().value as string);
    }
    const token = secret();
    const expiresAt = this.now() + LOGIN_LINK_TTL_MS;
    this.links.set(digest(token), expiresAt);
    return { token, expiresAt };
  }

  /** Burns a login secret; returns a new session id, or null when the secret is unknown or used. */
  redeem(token: string): string | null {
    this.sweep();
    const key = digest(token);
    if (!this.links.has(key)) {
      return null;
    }
    this.links.delete(key);
    while (this.sessions.size >= MAX_SESSIONS) {
      this.sessions.delete(this.sessions.keys().next().value as string);
    }
    const sid = secret();
    this.sessions.set(digest(sid), this.now() + PAGE_SESSION_TTL_MS);
    return sid;
  }

  /** True when the cookie's session id is a live session. */
  check(sid: string | undefined): boolean {
    if (!sid) {
      return false;
    }
    const expires = this.sessions.get(digest(sid));
    if (expires === undefined) {
      return false;
    }
    if (expires <= this.now()) {
      this.sessions.delete(digest(sid));
      return false;
    }
    return true;
  }

  /** Ends a session (the page's Log out). */
  end(sid: string | undefined): void {
    if (sid) {
      this.sessions.delete(digest(sid));
    }
  }

  private sweep(): void {
    const now = this.now();
    for (const [k, exp] of this.links) {
      if (exp <= now) {
        this.links.delete(k);
      }
    }
    for (const [k, exp] of this.sessions) {
      if (exp <= now) {
        this.sessions.delete(k);
      }
    }
  }
}

/** The cookie's name: per port, so two hosts on one machine do not log each other's browsers out. */
export function cookieName(port: number): string {
  return `droidbus_page_${port}`;
}

/** The Set-Cookie value for a session: HttpOnly, SameSite=Strict, only under /ui, Secure over TLS. */
export function sessionCookie(name: string, sid: string, secure: boolean): string {
  return [
    `${name}=${sid}`,
    'Path=/ui',
    `Max-Age=${Math.floor(PAGE_SESSION_TTL_MS / 1000)}`,
    'HttpOnly',
    'SameSite=Strict',
    ...(secure ? ['Secure'] : []),
  ].join('; ');
}

/** The Set-Cookie value that removes the session cookie. */
export function clearedCookie(name: string, secure: boolean): string {
  return [
    `${name}=`,
    'Path=/ui',
    'Max-Age=0',
    'HttpOnly',
    'SameSite=Strict',
    ...(secure ? ['Secure'] : []),
  ].join('; ');
}

/** One cookie's value from a Cookie header. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) {
    return undefined;
  }
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      return part.slice(eq + 1).trim();
    }
  }
  return undefined;
}
