/**
 * The page's only ways to the host: bus requests (POST /ui/api/bus, answered by the host's bus as
 * the host's person) and one stream of bus events (GET /ui/api/events). Types come from the bus
 * contract itself, so a changed message breaks the page's build, not the page.
 */
import type { EventOf, EventTopic, RequestOf, RequestType, ResponseOf } from '../../src/bus/registry.js';

export type { EventOf, EventTopic, RequestOf, RequestType, ResponseOf };

/** A refusal or failure the bus answered (`INVALID`, `BUSY`, `DEVICE_OFFLINE`, …). */
export class BusError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'BusError';
  }
}

/** Listeners for "the session ended" (the host quit or forgot this browser). */
const loggedOutListeners = new Set<() => void>();

/** Calls `fn` when the host stops accepting this browser's cookie. */
export function onLoggedOut(fn: () => void): () => void {
  loggedOutListeners.add(fn);
  return () => loggedOutListeners.delete(fn);
}

function loggedOut(): void {
  for (const fn of loggedOutListeners) {
    fn();
  }
}

/** Sends one bus request and resolves with its answer; rejects with a BusError. */
export async function bus<T extends RequestType>(type: T, payload: RequestOf<T>): Promise<ResponseOf<T>> {
  let res: Response;
  try {
    res = await fetch('/ui/api/bus', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-droidbus-page': '1' },
      body: JSON.stringify({ type, payload }),
      credentials: 'same-origin',
    });
  } catch {
    throw new BusError('UNAVAILABLE', 'the droidbus host does not answer (has it quit?)');
  }
  if (res.status === 401) {
    loggedOut();
    throw new BusError('UNAUTHORIZED', 'this browser is no longer logged in: run droidbus ui for a new link');
  }
  if (!res.ok) {
    throw new BusError('HTTP', `the host answered ${res.status}`);
  }
  const answer = (await res.json()) as
    { ok: true; value: ResponseOf<T> } | { ok: false; error: { code: string; message: string } };
  if (!answer.ok) {
    throw new BusError(answer.error.code, answer.error.message);
  }
  return answer.value;
}

/** What the page's API says about this host: the request types and event topics it may use. */
export interface PageMeta {
  version: string;
  requests: string[];
  topics: string[];
}

/** Reads the page's meta: the request types the host lets it send and the topics of its event stream. */
export async function meta(): Promise<PageMeta> {
  const res = await fetch('/ui/api/meta', { credentials: 'same-origin' });
  if (res.status === 401) {
    loggedOut();
  }
  if (!res.ok) {
    throw new BusError('HTTP', `the host answered ${res.status}`);
  }
  return (await res.json()) as PageMeta;
}

type Listener = (payload: unknown) => void;
const listeners = new Map<string, Set<Listener>>();
const statusListeners = new Set<(live: boolean) => void>();
let source: EventSource | null = null;
let live = false;
let everOpened = false;

function setLive(next: boolean): void {
  live = next;
  for (const fn of statusListeners) {
    fn(next);
  }
}

function dispatch(topic: string, payload: unknown): void {
  for (const fn of listeners.get(topic) ?? []) {
    fn(payload);
  }
}

/** Opens the one event stream (idempotent). EventSource reconnects by itself. */
export function connectEvents(topics: readonly string[]): void {
  if (source) {
    return;
  }
  source = new EventSource('/ui/api/events', { withCredentials: true });
  source.onopen = () => {
    setLive(true);
    // After a break, views reload what they show: events sent meanwhile were not seen.
    if (everOpened) {
      dispatch('page.resync', {});
    }
    everOpened = true;
  };
  source.onerror = () => {
    setLive(false);
    // A stream refused with 401 is not retried by EventSource: find out why it stopped.
    void meta().catch(() => undefined);
  };
  for (const topic of topics) {
    source.addEventListener(topic, (e) => dispatch(topic, JSON.parse((e as MessageEvent<string>).data)));
  }
}

/** Listens to one bus event topic (or `page.resync`); returns the function that stops it. */
export function onEvent<E extends EventTopic>(
  topic: E | 'page.resync',
  fn: (payload: EventOf<E>) => void,
): () => void {
  const set = listeners.get(topic) ?? new Set<Listener>();
  set.add(fn as Listener);
  listeners.set(topic, set);
  return () => set.delete(fn as Listener);
}

/** Follows whether the event stream is connected. */
export function onLiveChange(fn: (live: boolean) => void): () => void {
  statusListeners.add(fn);
  fn(live);
  return () => statusListeners.delete(fn);
}

/** Ends this browser's session. */
export async function logout(): Promise<void> {
  await fetch('/ui/logout', {
    method: 'POST',
    headers: { 'x-droidbus-page': '1' },
    credentials: 'same-origin',
  });
  loggedOut();
}
