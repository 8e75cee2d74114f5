import type { HttpFrontend } from '../http/http-frontend.js';
import { cookieName } from './page-auth.js';
import type { PageHandler } from './page-handler.js';
import { listenPage } from './page-server.js';
import type { PageOptions } from './page-server.js';
import { PageStartError } from './page-server.js';

/** The page a running host serves. */
export interface HostPage {
  /** `http://127.0.0.1:8766/ui/` */
  readonly url: string;
  /** What the host's person must know (the page bound beyond loopback). */
  readonly warnings: string[];
  /** A fresh one-time login link. */
  newLoginLink(): { url: string; expires_at: string };
  close(): Promise<void>;
}

/**
 * Puts the page where the options say: on its own listener, or under /ui of the HTTP frontend
 * (which already routes /ui to the handler; here it only learns its URL).
 */
export async function startHostPage(
  handler: PageHandler,
  options: PageOptions,
  http: HttpFrontend | null,
): Promise<HostPage> {
  if (options.mode === 'http') {
    if (!http) {
      throw new PageStartError('the page can be served under /ui only when the host serves HTTP (--http)');
    }
    handler.setBase(http.url, cookieName(http.address.port));
    return {
      url: handler.url,
      warnings: [],
      newLoginLink: () => handler.newLoginLink(),
      close: () => Promise.resolve(),
    };
  }
  const listener = await listenPage(handler, options);
  return {
    url: handler.url,
    warnings: listener.warnings,
    newLoginLink: () => handler.newLoginLink(),
    close: () => listener.close(),
  };
}
