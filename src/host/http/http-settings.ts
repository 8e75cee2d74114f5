import { readSettings, settingsPath, updateSettings } from '../../store/settings.js';
import type { Settings } from '../../store/settings.js';
import { generateBearerToken } from './bearer-token.js';
import { fileVersionKey } from './file-version.js';

/** The `http` block of settings.json. */
export type HttpSettings = Settings['http'];

/**
 * Reads settings.json's `http` block fresh, but parses it again only when the file changed (its
 * inode, size or mtime: every write is a rename, so a new file is a new inode). A rotated token
 * or a toggled method takes effect on the next request without restarting the host.
 */
export class HttpSettingsReader {
  private readonly file = settingsPath();
  private cached: { key: string; value: HttpSettings } | undefined;

  read(): HttpSettings {
    let key = 'missing';
    try {
      key = fileVersionKey(this.file);
    } catch {
      // No settings file: the defaults.
    }
    if (this.cached?.key !== key) {
      this.cached = { key, value: readSettings().http };
    }
    return this.cached.value;
  }
}

/**
 * The bearer token, generated and saved the first time it is needed (null in settings means "never
 * generated"). An empty string is the user's own value and stays empty: bearer auth then refuses
 * every request.
 */
export async function ensureBearerToken(): Promise<string> {
  const current = readSettings().http.bearer_token;
  if (current !== null) {
    return current;
  }
  const saved = await updateSettings((s) => {
    if (s.http.bearer_token === null) {
      s.http.bearer_token = generateBearerToken();
    }
  });
  return saved.http.bearer_token ?? '';
}

/** Replaces the bearer token with a new one and returns it. */
export async function rotateBearerToken(): Promise<string> {
  const token = generateBearerToken();
  await updateSettings((s) => {
    s.http.bearer_token = token;
  });
  return token;
}
