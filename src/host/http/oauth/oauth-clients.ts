import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../../../store/atomic.js';
import { ensureDataDir } from '../../../store/data-dir.js';
import { withDataLock } from '../../../store/lock.js';
import { logger } from '../../../util/log.js';
import { fileVersionKey } from '../file-version.js';
import {
  MAX_CLIENTS,
  MAX_GRANTS_PER_CLIENT,
  REFRESH_TOKEN_TTL_S,
  UNUSED_CLIENT_GRACE_MS,
} from './oauth-policy.js';

const log = logger('oauth');

/** The registry's file in the data directory (mode 0600). */
export const OAUTH_CLIENTS_FILE = 'oauth-clients.json';

export const TOKEN_AUTH_METHODS = ['none', 'client_secret_post', 'client_secret_basic'] as const;
export type TokenAuthMethod = (typeof TOKEN_AUTH_METHODS)[number];

const grantSchema = z.object({
  /** The grant (one approval); tokens name it, revoking it ends them. */
  gid: z.string(),
  /** The one refresh token of the grant that may still be used (rotation). */
  refresh_jti: z.string(),
  created_at: z.number(),
  refreshed_at: z.number(),
});
export type OAuthGrant = z.infer<typeof grantSchema>;

const clientSchema = z.object({
  client_id: z.string(),
  client_name: z.string(),
  redirect_uris: z.array(z.string()),
  token_endpoint_auth_method: z.enum(TOKEN_AUTH_METHODS),
  /** SHA-256 (hex) of the client secret of a confidential client; the secret itself is not kept. */
  client_secret_sha256: z.string().nullable(),
  client_id_issued_at: z.number(),
  grant_types: z.array(z.string()),
  response_types: z.array(z.string()),
  grants: z.array(grantSchema),
});
export type OAuthClient = z.infer<typeof clientSchema>;

const fileSchema = z.object({ version: z.literal(1), clients: z.array(clientSchema) });

/** What registration stores (validated by the caller). */
export interface NewClient {
  client_name: string;
  redirect_uris: string[];
  token_endpoint_auth_method: TokenAuthMethod;
  grant_types: string[];
  response_types: string[];
}

/** Thrown when the registry is full of clients in use. */
export class ClientCapError extends Error {}

function sha256Hex(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

/**
 * The registered OAuth clients and their grants, in `oauth-clients.json`. Every change is a
 * read-modify-write under the data lock with an atomic rename; reads use a snapshot that is
 * parsed again whenever the file changed, so a client removed by `droidbus oauth --revoke-client`
 * (another process) loses access on its next request.
 */
export class OAuthClientStore {
  private readonly file: string;
  private cached: { key: string; clients: Map<string, OAuthClient> } | undefined;

  constructor(dataDir: string = ensureDataDir()) {
    this.file = path.join(dataDir, OAUTH_CLIENTS_FILE);
  }

  /** A client by id, from the current file. */
  get(clientId: string): OAuthClient | undefined {
    return this.snapshot().get(clientId);
  }

  /** Every client, oldest first. */
  list(): OAuthClient[] {
    return [...this.snapshot().values()];
  }

  /** True when the client exists and still holds the grant. */
  hasGrant(clientId: string, gid: string): boolean {
    return this.get(clientId)?.grants.some((g) => g.gid === gid) ?? false;
  }

  /** Checks a confidential client's secret (constant time); public clients have none to check. */
  secretMatches(client: OAuthClient, secret: string | undefined): boolean {
    if (client.token_endpoint_auth_method === 'none') {
      return secret === undefined;
    }
    if (secret === undefined || client.client_secret_sha256 === null) {
      return false;
    }
    return timingSafeEqual(
      Buffer.from(sha256Hex(secret), 'hex'),
      Buffer.from(client.client_secret_sha256, 'hex'),
    );
  }

  /**
   * Registers a client. At the cap, the oldest client that was never approved and is older than
   * UNUSED_CLIENT_GRACE_MS makes room; when there is none, ClientCapError. Returns the stored
   * client and, for a confidential one, its secret (shown once).
   */
  async register(meta: NewClient): Promise<{ client: OAuthClient; secret: string | null }> {
    const secret = meta.token_endpoint_auth_method === 'none' ? null : randomBytes(32).toString('base64url');
    const client: OAuthClient = {
      client_id: randomUUID(),
      client_name: meta.client_name,
      redirect_uris: meta.redirect_uris,
      token_endpoint_auth_method: meta.token_endpoint_auth_method,
      client_secret_sha256: secret === null ? null : sha256Hex(secret),
      client_id_issued_at: Math.floor(Date.now() / 1000),
      grant_types: meta.grant_types,
      response_types: meta.response_types,
      grants: [],
    };
    await this.change((clients) => {
      if (clients.length >= MAX_CLIENTS) {
        const now = Date.now();
        const idle = clients.findIndex(
          (c) => c.grants.length === 0 && now - c.client_id_issued_at * 1000 > UNUSED_CLIENT_GRACE_MS,
        );
        if (idle < 0) {
          throw new ClientCapError(
            `this droidbus host already has ${MAX_CLIENTS} registered OAuth clients; remove unused ones with droidbus oauth --revoke-client ID`,
          );
        }
        clients.splice(idle, 1);
      }
      clients.push(client);
    });
    return { client, secret };
  }

  /** Adds a grant (an approved authorization) with its first refresh token id. */
  async addGrant(clientId: string, refreshJti: string): Promise<string | null> {
    const gid = randomUUID();
    let added = false;
    await this.change((clients) => {
      const client = clients.find((c) => c.client_id === clientId);
      if (!client) {
        return;
      }
      const now = Date.now();
      client.grants = client.grants.filter((g) => now - g.refreshed_at < REFRESH_TOKEN_TTL_S * 1000);
      client.grants.push({ gid, refresh_jti: refreshJti, created_at: now, refreshed_at: now });
      if (client.grants.length > MAX_GRANTS_PER_CLIENT) {
        client.grants.splice(0, client.grants.length - MAX_GRANTS_PER_CLIENT);
      }
      added = true;
    });
    return added ? gid : null;
  }

  /**
   * Refresh-token rotation: when `oldJti` is the grant's current refresh token, it is replaced by
   * `newJti` ('rotated'). A refresh token used a second time means it leaked (or the client is
   * confused): the whole grant is revoked ('reused'), ending its access tokens too.
   */
  async rotateRefresh(
    clientId: string,
    gid: string,
    oldJti: string,
    newJti: string,
  ): Promise<'rotated' | 'reused' | 'unknown'> {
    let outcome: 'rotated' | 'reused' | 'unknown' = 'unknown';
    await this.change((clients) => {
      const client = clients.find((c) => c.client_id === clientId);
      const grant = client?.grants.find((g) => g.gid === gid);
      if (!client || !grant) {
        return;
      }
      if (grant.refresh_jti !== oldJti) {
        client.grants = client.grants.filter((g) => g.gid !== gid);
        outcome = 'reused';
        return;
      }
      grant.refresh_jti = newJti;
      grant.refreshed_at = Date.now();
      outcome = 'rotated';
    });
    return outcome;
  }

  /** Revokes one grant (its access and refresh tokens stop working). */
  async revokeGrant(clientId: string, gid: string): Promise<void> {
    await this.change((clients) => {
      const client = clients.find((c) => c.client_id === clientId);
      if (client) {
        client.grants = client.grants.filter((g) => g.gid !== gid);
      }
    });
  }

  /** Removes a client and everything it was granted; false when there was no such client. */
  async remove(clientId: string): Promise<boolean> {
    let removed = false;
    await this.change((clients) => {
      const i = clients.findIndex((c) => c.client_id === clientId);
      if (i >= 0) {
        clients.splice(i, 1);
        removed = true;
      }
    });
    return removed;
  }

  private read(): OAuthClient[] {
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(this.file, 'utf8'));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') {
        log.warn(`${OAUTH_CLIENTS_FILE} is unreadable; no OAuth client is accepted until it is fixed`, {
          error: (err as Error).message,
        });
      }
      return [];
    }
    const parsed = fileSchema.safeParse(raw);
    if (!parsed.success) {
      log.warn(`${OAUTH_CLIENTS_FILE} does not have the expected shape; no OAuth client is accepted`);
      return [];
    }
    return parsed.data.clients;
  }

  private snapshot(): Map<string, OAuthClient> {
    let key = 'missing';
    try {
      key = fileVersionKey(this.file);
    } catch {
      // No file: no clients.
    }
    if (this.cached?.key !== key) {
      this.cached = { key, clients: new Map(this.read().map((c) => [c.client_id, c])) };
    }
    return this.cached.clients;
  }

  private async change(mutate: (clients: OAuthClient[]) => void): Promise<void> {
    await withDataLock(() => {
      const clients = this.read();
      mutate(clients);
      writeFileAtomic(this.file, JSON.stringify({ version: 1, clients }, null, 2) + '\n', 0o600);
    });
    this.cached = undefined;
  }
}
