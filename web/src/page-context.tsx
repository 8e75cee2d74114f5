/** What every view reads from the page: the host's info, the page's meta, the route. Views import it; app.tsx provides it. */
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { PageMeta, ResponseOf } from './api';

export type HostInfo = ResponseOf<'host.info'>;

/** What every view may read: the host's info (kept live) and the page's meta. */
export interface PageContext {
  info: HostInfo | null;
  meta: PageMeta | null;
  /** Switches view (and its query), like following a link. */
  go: (route: string) => void;
}

export const Page = createContext<PageContext>({ info: null, meta: null, go: () => undefined });

/** The page's context. */
export function usePage(): PageContext {
  return useContext(Page);
}

/** The query of the hash route (`#/logcat?serial=…`). */
export function routeQuery(): URLSearchParams {
  const q = location.hash.indexOf('?');
  return new URLSearchParams(q >= 0 ? location.hash.slice(q + 1) : '');
}
