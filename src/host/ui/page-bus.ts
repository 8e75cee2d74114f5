import type { BusClient } from '../../bus/client.js';
import { BusError } from '../../bus/errors.js';
import { EVENTS, REQUESTS, isEventTopic, isRequestType } from '../../bus/registry.js';
import type { EventTopic, RequestType } from '../../bus/registry.js';

/**
 * What the page may ask the bus. The page is one more client of the host's bus, asking as the
 * host's person (origin `host`); this list keeps it to what its views need — no bare `build.run`,
 * no device input, nothing that runs an agent's tool on its behalf. `run.configuration` is the
 * person's Run button: the build, install and launch of a configuration, under the same rules.
 */
const PAGE_REQUEST_TYPES: readonly RequestType[] = [
  'host.info',
  'host.projects',
  'host.trust',
  'host.untrust',
  'host.storage',
  'host.storage_allow',
  'host.storage_revoke',
  'device.helper',
  'device.helper_install',
  'device.helper_remove',
  'host.activity',
  'host.standalone_sessions',
  'host.runtime',
  'host.oauth_pending',
  'host.oauth_decide',
  'devices.list',
  'device.info',
  'build.status',
  'build.log',
  'build.errors',
  'build.history',
  'build.cancel',
  'logcat.start',
  'logcat.stop',
  'logcat.clear',
  'logcat.entries',
  'logcat.stats',
  'logcat.crashes',
  'logcat.crash_trace',
  'project.describe',
  'project.scope',
  'project.run_configurations',
  'run.configuration',
  'sessions.list',
  'sessions.get',
  'sessions.compare',
  'sessions.export',
];

/** The event topics the page's live stream carries. */
const PAGE_TOPIC_PATTERN = /^(devices\.|device\.state$|host\.|build\.|logcat\.|app\.|sessions?\.)/;

/** Every request type the page may send. */
export function pageRequestTypes(): string[] {
  return [...PAGE_REQUEST_TYPES];
}

/** Every event topic the page's stream forwards. */
export function pageTopics(): EventTopic[] {
  return Object.keys(EVENTS).filter((t): t is EventTopic => isEventTopic(t) && PAGE_TOPIC_PATTERN.test(t));
}

/** The longest the page waits for one answer … */
const PAGE_REQUEST_MAX_MS = 60_000;
/** … but for a run, which lasts as long as its build (it shows in Running build meanwhile). */
const PAGE_LONG_REQUESTS: ReadonlySet<RequestType> = new Set(['run.configuration']);

/** A bus outcome as the page's API answers it. */
export type PageBusAnswer =
  { ok: true; value: unknown } | { ok: false; error: { code: string; message: string } };

/** Sends one of the page's requests over the host's bus; refusals and failures become answers. */
export async function pageRequest(
  bus: BusClient,
  allowed: ReadonlySet<string>,
  type: unknown,
  payload: unknown,
  signal?: AbortSignal,
): Promise<PageBusAnswer> {
  if (typeof type !== 'string' || !isRequestType(type) || !allowed.has(type)) {
    return {
      ok: false,
      error: { code: 'INVALID', message: `the page may not send ${String(type).slice(0, 80)}` },
    };
  }
  try {
    const value = await bus.request(type, (payload ?? {}) as never, {
      timeoutMs: PAGE_LONG_REQUESTS.has(type)
        ? REQUESTS[type].timeoutMs
        : Math.min(REQUESTS[type].timeoutMs, PAGE_REQUEST_MAX_MS),
      ...(signal ? { signal } : {}),
    });
    return { ok: true, value };
  } catch (err) {
    if (err instanceof BusError) {
      return { ok: false, error: { code: err.code, message: err.message } };
    }
    throw err;
  }
}
