/**
 * `logcat.wait`: a line matching a query, logged after the request arrived — what wait_for_log asks,
 * answered inside the logcat actor from its own store (no bus round trip per look). The query is
 * checked first (a bad one is refused before anything starts); a device that does not stream yet is
 * started from now.
 */
import { fail } from '../../bus/errors.js';
import type { PayloadOf, ResponseOf } from '../../bus/registry.js';
import { sleep } from '../../util/sleep.js';
import type { HandlerContext } from '../actor.js';
import type { LogcatService } from './logcat-service.js';
import { sessionOf } from './fair-slices.js';

/** How often the store's new lines are looked at while waiting. */
const LOOK_MS = 150;

/** The devices to watch: the one asked for, else every streaming one, else the only online one. */
async function watched(
  service: LogcatService,
  serial: string | undefined,
  ctx: HandlerContext,
): Promise<string[]> {
  const live = service
    .stats()
    .streams.filter((s) => s.state === 'streaming' || s.state === 'starting')
    .map((s) => s.serial);
  if (serial !== undefined ? live.includes(serial) : live.length > 0) {
    return serial !== undefined ? [serial] : live;
  }
  let target = serial;
  if (target === undefined) {
    const { devices } = await ctx.bus.request('devices.list', {}, { signal: ctx.signal });
    const online = devices.filter((d) => d.state === 'device').map((d) => d.serial);
    if (online.length === 0) {
      const others = devices.map((d) => `${d.serial} (${d.state})`);
      throw fail.unavailable(
        `No device is online${others.length ? `; adb lists ${others.join(', ')}` : ''}. Connect a device or start an emulator (launch_avd), then call list_devices.`,
      );
    }
    if (online.length > 1) {
      throw fail.invalid(
        `Several devices are online (${online.join(', ')}): pass device_serial to choose one.`,
      );
    }
    target = online[0]!;
  }
  const device = target;
  await service.start(device, 'now', ctx.signal, () =>
    ctx.bus.request('devices.require', { serial: device }, { signal: ctx.signal }),
  );
  return [device];
}

export async function waitForLine(
  service: LogcatService,
  p: PayloadOf<'logcat.wait'>,
  ctx: HandlerContext,
): Promise<ResponseOf<'logcat.wait'>> {
  const started = Date.now();
  const session = sessionOf(ctx.origin);
  const base = {
    query: p.query,
    ...(p.serial !== undefined ? { serial: p.serial } : {}),
    ...(p.mine ? { mine: p.mine } : {}),
  };
  // A bad query is refused (INVALID) before a stream starts.
  await service.entries({ ...base, count: 1, since_seq: Number.MAX_SAFE_INTEGER }, session);
  const devices = await watched(service, p.serial, ctx);
  // "Logged after the request arrived": the store's newest line now is the start.
  let since = (await service.entries({ count: 1 }, session)).entries.at(-1)?.seq ?? 0;
  for (let looks = 0; ; looks++) {
    const r = await service.entries({ ...base, count: 1000, since_seq: since }, session);
    const elapsed = Date.now() - started;
    const match = r.entries[0];
    if (match) {
      return { found: true, entry: match, elapsed_ms: elapsed, devices };
    }
    if (r.entries.length === 0 && r.scanned > 0) {
      since += r.scanned;
    }
    if (elapsed >= p.timeout_ms) {
      return { found: false, entry: null, elapsed_ms: elapsed, devices };
    }
    if (looks % 4 === 0) {
      ctx.progress({ progress: elapsed, total: p.timeout_ms, message: `waiting for ${p.query}` });
    }
    await sleep(Math.min(LOOK_MS, p.timeout_ms - elapsed), ctx.signal);
    if (ctx.signal.aborted) {
      throw fail.cancelled('the wait for a log line was cancelled');
    }
  }
}
