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
import { X509Certificate } from 'node:crypto';
import type { HostTrustView } from '../../bus/messages/network.js';
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

/** A running capture as network.start answers it, with what the app's HTTPS allows. */
async function startedAnswer(
  p: PayloadOf<'network.start'>,
  capture: Capture,
  ctx: HandlerContext,
): Promise<ResponseOf<'network.start'>> {
  return {
    serial: p.serial,
    port: capture.port,
    previous_proxy: capture.previous,
    started_at: capture.startedAt,
    https: await httpsAdvice(p, ctx),
  };
}

async function start(
  p: PayloadOf<'network.start'>,
  state: NetworkState,
  ctx: HandlerContext,
): Promise<ResponseOf<'network.start'>> {
  const running = state.captures.get(p.serial);
  if (running !== undefined) {
    if (sameOrigin(running.by, ctx.origin)) {
      return startedAnswer(p, running, ctx);
    }
    throw fail.busy(
      `another session captures the network of ${p.serial} (since ${running.startedAt}); it stops its capture first`,
    );
  }
  const log: CaptureLog = {
    exchanges: [],
    byId: new Map(),
    lastLaunch: null,
    ended: (e) => ctx.emit('network.exchange', { device: p.serial, package: p.package, entry: summaryOf(e) }),
  };
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
    return await startedAnswer(p, capture, ctx);
  } catch (err) {
    await mock.stop().catch(() => undefined);
    throw err;
  }
}

/**
 * Whether the app's HTTPS can be read through the capture, from what its installed APK says
 * (`device.app_network_security`: its network security config decided with the platform's rules):
 * it is when the hosts it talks to trust droidbus's CA (a debug build's debug-overrides naming it),
 * could be when they trust user-added CAs (droidbus's CA installed as one), and is not otherwise.
 */
async function httpsAdvice(
  p: PayloadOf<'network.start'>,
  ctx: HandlerContext,
): Promise<ResponseOf<'network.start'>['https']> {
  if (p.package === null) {
    return null;
  }
  const ca = await networkCa();
  const ours = new X509Certificate(ca.cert).fingerprint256;
  const app = await ctx.bus.request(
    'device.app_network_security',
    { serial: p.serial, package: p.package },
    { signal: ctx.signal },
  );
  const answer = (
    readable: NonNullable<ResponseOf<'network.start'>['https']>['readable'],
    why: string,
    pinned: string[] = [],
  ) => ({
    readable,
    why,
    ca_path: ca.certPath,
    pinned_hosts: pinned,
  });
  if (app.apk === null) {
    return answer('not_installed', `${p.package} is not installed on ${p.serial}`);
  }
  if (app.unread !== null || app.default_trust === null) {
    return answer(
      'unknown',
      `droidbus could not read ${p.package}'s APK (${app.unread ?? 'no answer'}), so whether its HTTPS can be read is not known; a refused handshake is recorded as such`,
    );
  }
  const build = `${app.debuggable ? 'a debug' : 'a release'} build targeting API ${app.target_sdk ?? '?'}`;
  const droidbusAnchor = (t: HostTrustView) => t.anchors.find((a) => a.source === 'app' && a.sha256 === ours);
  const pinned = app.domains
    .filter((d) => d.trust.pinned && droidbusAnchor(d.trust)?.override_pins !== true)
    .flatMap((d) => d.domains);
  const pinNote =
    pinned.length > 0
      ? `; pinned hosts stay unreadable (${pinned.slice(0, 5).join(', ')}${pinned.length > 5 ? ', …' : ''})`
      : '';
  const trust = app.default_trust;
  const anchor = droidbusAnchor(trust);
  if (anchor !== undefined) {
    return answer(
      'yes',
      `${p.package} is ${build} whose network security config (${app.config}) trusts droidbus's CA (${anchor.file}): its HTTPS is read${pinNote}`,
      pinned,
    );
  }
  const fix = app.debuggable
    ? "add_network_security_config writes a debug-only config trusting droidbus's CA into the project; rebuild and reinstall"
    : "read it with a debug build (add_network_security_config prepares one), or on an emulator or rooted device with droidbus's CA in the system store";
  if (trust.anchors.some((a) => a.source === 'user')) {
    return answer(
      'if_ca_installed',
      `${p.package} is ${build} that trusts user-added CAs (${app.config ? `its config, ${app.config}` : 'apps targeting API 23 and lower do'}): its HTTPS is read once droidbus's CA (${ca.certPath}) is installed on the device as a user CA (Settings › Security › Encryption & credentials › Install a certificate › CA certificate), or when ${fix}${pinNote}`,
      pinned,
    );
  }
  const own = trust.anchors.find((a) => a.source === 'app');
  return answer(
    'no',
    `${p.package} is ${build}: it trusts system CAs only${own ? ` and ${own.file} (not this droidbus's CA)` : ''}, so the capture records each HTTPS host, its timing and the refused handshake, not the content — ${fix}${pinNote}`,
    pinned,
  );
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
