import { createHash, randomBytes } from 'node:crypto';
import { AUTH_CODE_TTL_MS } from './oauth-policy.js';

/** What an authorization code stands for. */
export interface CodeGrant {
  clientId: string;
  /** The redirect URI the authorization request named (the token request must repeat it). */
  redirectUri: string;
  /** Whether the authorization request named the redirect URI itself. */
  redirectUriGiven: boolean;
  codeChallenge: string;
  /** The resource the authorization request asked for (always this server's /mcp). */
  resource: string;
}

/** The outcome of redeeming a code. */
export type Redeemed =
  | { ok: true; grant: CodeGrant }
  | { ok: false; reason: 'unknown' | 'expired' }
  | { ok: false; reason: 'replayed'; gid: string | null; clientId: string };

function hashOf(code: string): string {
  return createHash('sha256').update(code, 'utf8').digest('base64url');
}

/**
 * Single-use authorization codes, valid AUTH_CODE_TTL_MS, kept in the host's memory by their hash.
 * A redeemed code is remembered for a while: a second use is a replay, and the grant the first
 * use created is revoked (RFC 6749 section 4.1.2: a code used twice may have leaked).
 */
export class AuthCodeStore {
  private readonly live = new Map<string, { grant: CodeGrant; expires: number }>();
  private readonly used = new Map<string, { gid: string | null; clientId: string; forgetAt: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Issues a code for a grant. */
  issue(grant: CodeGrant): string {
    this.sweep();
    const code = randomBytes(32).toString('base64url');
    this.live.set(hashOf(code), { grant, expires: this.now() + AUTH_CODE_TTL_MS });
    return code;
  }

  /** Redeems a code: it works once, within its lifetime. */
  redeem(code: string): Redeemed {
    this.sweep();
    const key = hashOf(code);
    const used = this.used.get(key);
    if (used) {
      return { ok: false, reason: 'replayed', gid: used.gid, clientId: used.clientId };
    }
    const entry = this.live.get(key);
    if (!entry) {
      return { ok: false, reason: 'unknown' };
    }
    this.live.delete(key);
    this.used.set(key, {
      gid: null,
      clientId: entry.grant.clientId,
      forgetAt: this.now() + 10 * AUTH_CODE_TTL_MS,
    });
    if (entry.expires <= this.now()) {
      return { ok: false, reason: 'expired' };
    }
    return { ok: true, grant: entry.grant };
  }

  /** Records the grant a redeemed code created, so a replay can revoke it. */
  recordGrant(code: string, gid: string): void {
    const used = this.used.get(hashOf(code));
    if (used) {
      used.gid = gid;
    }
  }

  private sweep(): void {
    const now = this.now();
    for (const [key, entry] of this.live) {
      if (entry.expires <= now) {
        this.live.delete(key);
      }
    }
    for (const [key, entry] of this.used) {
      if (entry.forgetAt <= now) {
        this.used.delete(key);
      }
    }
  }
}
