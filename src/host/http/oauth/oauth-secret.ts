import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../../../store/atomic.js';
import { ensureDataDir } from '../../../store/data-dir.js';
import { withDataLock } from '../../../store/lock.js';

/** The file that holds the HS256 secret of OAuth tokens, in the data directory (mode 0600). */
export const OAUTH_SECRET_FILE = 'oauth-secret.key';

/** The secret file's path. */
export function oauthSecretPath(): string {
  return path.join(ensureDataDir(), OAUTH_SECRET_FILE);
}

function parse(text: string): Buffer | null {
  const bytes = Buffer.from(text.trim(), 'base64url');
  return bytes.length >= 32 ? bytes : null;
}

/**
 * The host-held secret that signs access and refresh tokens: 32 bytes from the CSPRNG, made once
 * (under the data lock, so two hosts starting together agree) and kept as base64url text. Deleting
 * the file makes every issued token invalid at the next host start.
 */
export async function loadOrCreateOAuthSecret(): Promise<Buffer> {
  const file = oauthSecretPath();
  return withDataLock(() => {
    try {
      const existing = parse(readFileSync(file, 'utf8'));
      if (existing) {
        return existing;
      }
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') {
        throw err;
      }
    }
    const secret = randomBytes(32);
    writeFileAtomic(file, secret.toString('base64url') + '\n', 0o600);
    return secret;
  });
}
