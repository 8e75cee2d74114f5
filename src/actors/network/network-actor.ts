/**
 * The network actor (issue 72): a capture per device — an intercepting proxy here (capture-proxy.ts,
 * loopback only), the device routed to it by its device actor (`adb reverse` and the global proxy
 * setting, `device.proxy_route`), the setting it had recorded on disk before anything changes
 * (store/network-routes.ts) and given back at stop, at shutdown, or by the next droidbus when this
 * one died. The requests stay readable after a capture stops, until the next one on that device.
 */
import { fail } from '../../bus/errors.js';
import type { PayloadOf, ResponseOf } from '../../bus/registry.js';
import type { Origin } from '../../bus/origin.js';
import { networkCa } from '../../store/network-ca.js';
import { recordNetworkRoute } from '../../store/network-routes.js';
import { defineActor, type ActorContext, type HandlerContext } from '../actor.js';
import { startCaptureProxy, type CaptureLog } from './capture-proxy.js';
import { giveBack } from './give-back.js';
import { exchangeMatcher, shownBody, shownHeaders, summaryOf } from './exchanges.js';
import type { Mockttp } from 'mockttp';

interface Capture {
  mock: Mockttp;
  port: number;
  previous: string | null;
  startedAt: string;
  by: Origin;
}

interface NetworkState {
  captures: Map<string, Capture>;
  logs: Map<string, CaptureLog>;
  /** Captures ended while their device was away: its setting is given back when it is online. */
  owed: Map<string, Capture>;
}

function sameOrigin(a: Origin, b: Origin): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

async function start(
  p: PayloadOf<'network.start'>,
  state: NetworkState,
  ctx: HandlerContext,
): Promise<ResponseOf<'network.start'>> {
  const running = state.captures.get(p.serial);
  if (running !== undefined) {
    if (sameOrigin(running.by, ctx.origin)) {
      return {
        serial: p.serial,
        port: running.port,
        previous_proxy: running.previous,
        started_at: running.startedAt,
        https: await httpsAdvice(p, ctx),
      };
    }
    throw fail.busy(
      `another session captures the network of ${p.serial} (since ${running.startedAt}); it stops its capture first`,
    );
  }
  const log: CaptureLog = { exchanges: [], byId: new Map(), lastLaunch: null };
  const mock = await startCaptureProxy(log, await networkCa());
  try {
    const route = await ctx.bus.request(
      'device.proxy_route',
      { serial: p.serial, port: mock.port },
      { signal: ctx.signal },
    );
    const capture: Capture = {
      mock,
      port: mock.port,
      previous: route.previous,
      startedAt: new Date().toISOString(),
      by: ctx.origin,
    };
    try {
      await recordNetworkRoute({
        serial: p.serial,
        port: capture.port,
        previous: capture.previous,
        pid: process.pid,
        at: capture.startedAt,
      });
    } catch (err) {
      // Unrecorded, a crash could not be undone: the device is not left routed.
      await giveBack(ctx.bus, { serial: p.serial, port: capture.port, previous: capture.previous });
      throw err;
    }
    state.captures.set(p.serial, capture);
    state.logs.set(p.serial, log);
    return {
      serial: p.serial,
      port: capture.port,
      previous_proxy: capture.previous,
      started_at: capture.startedAt,
      https: await httpsAdvice(p, ctx),
    };
  } catch (err) {
    await mock.stop().catch(() => undefined);
    throw err;
  }
}

/**
 * Whether the app's HTTPS can be read through the capture, from what the device says of it
 * (`dumpsys package`): apps targeting API 23 and lower trust user-added CAs; from API 24 an app
 * trusts system CAs only unless its network security config says otherwise (a debug build's
 * `<debug-overrides>` trusting user certificates is the usual way).
 */
async function httpsAdvice(
  p: PayloadOf<'network.start'>,
  ctx: HandlerContext,
): Promise<ResponseOf<'network.start'>['https']> {
  if (p.package === null) {
    return null;
  }
  const ca = await networkCa();
  const { info } = await ctx.bus.request(
    'logcat.package_info',
    { serial: p.serial, package: p.package },
    { signal: ctx.signal },
  );
  const installHint = `install droidbus's CA (${ca.certPath}) on the device as a user CA (push it, then Settings › Security › Encryption & credentials › Install a certificate › CA certificate)`;
  if (info === null) {
    return {
      readable: 'not_installed',
      why: `${p.package} is not installed on ${p.serial}`,
      ca_path: ca.certPath,
    };
  }
  const target = info.target_sdk;
  if (target !== null && target < 24) {
    return {
      readable: 'if_ca_installed',
      why: `${p.package} targets API ${target}, so it trusts user-added CAs: ${installHint}`,
      ca_path: ca.certPath,
    };
  }
  if (info.flags.includes('DEBUGGABLE')) {
    return {
      readable: 'if_ca_installed',
      why: `${p.package} is a debug build targeting API ${target ?? '?'}: its HTTPS is read if its network security config trusts user certificates (<debug-overrides><trust-anchors><certificates src="user"/>) and you ${installHint}; otherwise the capture records each HTTPS host, its timing and the refused handshake`,
      ca_path: ca.certPath,
    };
  }
  return {
    readable: 'no',
    why: `${p.package} is a release build targeting API ${target ?? '?'}: it trusts system CAs only, so the capture records each HTTPS host, its timing and the refused handshake, not the content (read it with a debug build, or on an emulator or rooted device with droidbus's CA in the system store)`,
    ca_path: ca.certPath,
  };
}

/** A device that could not be reached is owed its setting: given back when it is online again. */
function owe(state: NetworkState, serial: string, capture: Capture, ctx: ActorContext, err: unknown): void {
  state.owed.set(serial, capture);
  ctx.log.warn(`could not give ${serial} its proxy setting back yet; owed until it is online`, {
    error: String(err),
  });
}

/** The device's setting given back, the route forgotten, the proxy stopped. */
async function end(serial: string, capture: Capture, bus: ActorContext['bus']) {
  try {
    return await giveBack(bus, { serial, port: capture.port, previous: capture.previous });
  } finally {
    await capture.mock.stop().catch(() => undefined);
  }
}

async function stop(
  p: PayloadOf<'network.stop'>,
  state: NetworkState,
  ctx: HandlerContext,
): Promise<ResponseOf<'network.stop'>> {
  const capture = state.captures.get(p.serial);
  if (capture === undefined) {
    throw fail.invalid(`no network capture runs on ${p.serial}`);
  }
  state.captures.delete(p.serial);
  let r;
  try {
    r = await end(p.serial, capture, ctx.bus);
  } catch (err) {
    owe(state, p.serial, capture, ctx, err);
    throw fail.unavailable(
      `the capture of ${p.serial} stopped, but the device could not be reached to give back its proxy setting (${err instanceof Error ? err.message : String(err)}); droidbus gives it back when the device is online again`,
    );
  }
  return {
    serial: p.serial,
    requests: state.logs.get(p.serial)?.exchanges.length ?? 0,
    restored: r.restored,
    proxy_now: r.current,
  };
}

function logOf(serial: string, state: NetworkState): CaptureLog {
  const log = state.logs.get(serial);
  if (log === undefined) {
    throw fail.invalid(`no network capture has run on ${serial}; start one with start_network_capture`);
  }
  return log;
}

function list(p: PayloadOf<'network.log'>, state: NetworkState): ResponseOf<'network.log'> {
  const log = logOf(p.serial, state);
  let matches;
  try {
    matches = exchangeMatcher(p);
  } catch (err) {
    throw fail.invalid(err instanceof Error ? err.message : String(err));
  }
  const found = log.exchanges.filter(matches);
  return {
    serial: p.serial,
    capturing: state.captures.has(p.serial),
    total: log.exchanges.length,
    matched: found.length,
    requests: found.slice(-p.limit).reverse().map(summaryOf),
  };
}

function entry(p: PayloadOf<'network.entry'>, state: NetworkState): ResponseOf<'network.entry'> {
  const e = logOf(p.serial, state).byId.get(p.id);
  if (e === undefined) {
    throw fail.notFound(`no request ${p.id} in the capture of ${p.serial} (get_network_log lists them)`);
  }
  const reqHeaders = shownHeaders(e.requestHeaders, p.unmask);
  const resHeaders = e.responseHeaders === null ? null : shownHeaders(e.responseHeaders, p.unmask);
  const { masked: reqMasked, ...requestBody } = shownBody(
    e.requestBody,
    e.requestHeaders,
    p.body_budget,
    p.unmask,
  );
  const response =
    e.responseBody === null || e.responseHeaders === null
      ? null
      : shownBody(e.responseBody, e.responseHeaders, p.body_budget, p.unmask);
  return {
    ...summaryOf(e),
    request_headers: reqHeaders.headers,
    response_headers: resHeaders?.headers ?? null,
    request_body: requestBody,
    response_body: response === null ? null : (({ masked: _m, ...body }) => body)(response),
    masked: reqHeaders.masked + (resHeaders?.masked ?? 0) + reqMasked + (response?.masked ?? 0),
  };
}

export default defineActor<'network', NetworkState>({
  kind: 'network',
  concurrency: 8,
  stopTimeoutMs: 15_000,
  start: (): NetworkState => ({ captures: new Map(), logs: new Map(), owed: new Map() }),
  async stop(state, ctx) {
    // Shutting down: every device routed through this process gets its setting back.
    await Promise.all(
      [...state.captures].map(async ([serial, capture]) => {
        // Unreachable now: its record stays, and the next droidbus gives the setting back.
        await end(serial, capture, ctx.bus).catch((err: unknown) =>
          ctx.log.warn(`could not give ${serial} its proxy setting back`, { error: String(err) }),
        );
      }),
    );
    state.captures.clear();
  },
  handlers: {
    'network.start': (p, state, ctx) => start(p, state, ctx),
    'network.stop': (p, state, ctx) => stop(p, state, ctx),
    'network.log': (p, state) => list(p, state),
    'network.entry': (p, state) => entry(p, state),
  },
  events: {
    // A session attached to the host (or an HTTP one) that ends takes its captures with it; a
    // standalone session's end with its process (the shutdown stops them).
    'host.sessions': ({ sessions }, state, ctx) => {
      const live = new Set(sessions.map((s) => s.session_id));
      for (const [serial, capture] of state.captures) {
        const by = capture.by;
        if (by.kind !== 'agent' || by.standalone || live.has(by.session_id)) {
          continue;
        }
        state.captures.delete(serial);
        void end(serial, capture, ctx.bus).then(
          () => ctx.log.info(`stopped the network capture of ${serial}: its session ${by.session_id} ended`),
          (err: unknown) => owe(state, serial, capture, ctx, err),
        );
      }
    },
    'app.launched': (e, state) => {
      const log = state.logs.get(e.device);
      if (log !== undefined) {
        log.lastLaunch = { text: `launched ${e.package}`, at: Date.parse(e.at) };
      }
    },
    'device.state': ({ serial, state: adbState }, state, ctx) => {
      const owed = state.owed.get(serial);
      if (owed !== undefined && adbState === 'device') {
        state.owed.delete(serial);
        void giveBack(ctx.bus, { serial, port: owed.port, previous: owed.previous }).catch((err: unknown) =>
          owe(state, serial, owed, ctx, err),
        );
        return;
      }
      const capture = state.captures.get(serial);
      if (capture === undefined || adbState !== 'device') {
        return;
      }
      // Back after a disconnect: its reverse forward went with the transport; the setting stayed.
      void ctx.bus
        .request('device.proxy_route', { serial, port: capture.port })
        .catch((err: unknown) => ctx.log.warn(`could not route ${serial} again`, { error: String(err) }));
    },
  },
});
