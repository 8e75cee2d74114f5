import { fail } from '../../bus/errors.js';
import { defineActor } from '../actor.js';
import { deviceOf } from '../../device/adb-instance.js';
import {
  readExitInfo,
  readFrameStats,
  readMeminfo,
  readPackageInfo,
  readRuntimeState,
  readScopePackages,
} from './app-dumps.js';
import { readLaunchTime } from './launch-time.js';
import { crashContext } from './crash-context.js';
import { waitForLine } from './log-wait.js';
import { withRetrace, withRetracedGroups } from './crash-retrace.js';
import { withAnrStacks } from './anr-stacks.js';
import { LogcatService } from './logcat-service.js';
import { JOURNAL_CAP_BYTES, LogJournal } from './log-journal.js';
import { ensureDataDir } from '../../store/data-dir.js';
import path from 'node:path';
import { sessionOf } from './fair-slices.js';

/**
 * The logcat actor (a singleton on its own `logcat` worker thread): one logcat stream per started
 * device parsed into one bounded store and one crash-group table, the queries over them, and the
 * app dumps (exit-info, dumpsys package and meminfo) parsed here rather than on the JSON-RPC loop.
 * A device that leaves (`device.state`) stops its stream with a clear reason.
 */
export default defineActor({
  kind: 'logcat',
  concurrency: 16,
  stopTimeoutMs: 8_000,
  start(ctx) {
    // The store outlives a replaced worker: what it took in is journaled, and replayed here.
    const journal = LogJournal.open(path.join(ensureDataDir(), 'logcat-journal'), JOURNAL_CAP_BYTES);
    return new LogcatService(ctx, deviceOf, { journal });
  },
  async stop(service) {
    await service.shutdown();
  },
  events: {
    'device.state': ({ serial, state }, service) => service.onDeviceState(serial, state),
    'network.exchange': (e, service) => service.requests.add(e),
  },
  handlers: {
    // Only an online device streams; the check also starts the devices actor, whose device.state
    // events stop the stream when the device leaves.
    'logcat.start': ({ serial, from_now, resume }, service, ctx) =>
      service.start(serial, resume ? 'resume' : from_now ? 'now' : 'buffer', ctx.signal, () =>
        ctx.bus.request('devices.require', { serial }, { signal: ctx.signal }),
      ),
    'logcat.stop': async ({ serial }, service) => {
      const stopped = await service.stop(serial, 'stopped by stop_logcat');
      if (serial !== undefined && stopped.length === 0) {
        throw fail.notFound(`logcat is not streaming from ${serial}`);
      }
      return { stopped };
    },
    'logcat.clear': ({ serial }, service) => service.clear(serial),
    'logcat.entries': (payload, service, ctx) => service.entries(payload, sessionOf(ctx.origin)),
    'logcat.stats': (_payload, service) => service.stats(),
    'logcat.wait': (payload, service, ctx) => waitForLine(service, payload, ctx),
    // An ANR's threads are read from the report the device kept, then retraced with the rest.
    'logcat.crashes': async (payload, service, ctx) => {
      const r = await service.crashes(payload);
      const crashes = await withAnrStacks(r.crashes, service.anrStacks, deviceOf, ctx.signal);
      return withRetracedGroups(
        { ...r, crashes: crashes.map((c) => service.requests.beside(c)) },
        payload.retrace,
        ctx,
      );
    },
    'logcat.crash_trace': async (payload, service, ctx) => {
      const r = await service.crashTrace(payload);
      const [crash] = await withAnrStacks([r.crash], service.anrStacks, deviceOf, ctx.signal);
      return withRetrace({ ...r, crash: service.requests.beside(crash ?? r.crash) }, payload.retrace, ctx);
    },
    'logcat.exit_info': ({ serial, package: pkg, limit }, _service, ctx) =>
      readExitInfo(deviceOf(serial), pkg, limit, ctx.signal),
    'logcat.package_info': ({ serial, package: pkg }, _service, ctx) =>
      readPackageInfo(deviceOf(serial), pkg, ctx.signal),
    'logcat.meminfo': ({ serial, package: pkg }, _service, ctx) =>
      readMeminfo(deviceOf(serial), pkg, ctx.signal),
    'logcat.frame_stats': ({ serial, package: pkg, reset }, _service, ctx) =>
      readFrameStats(deviceOf(serial), pkg, reset, ctx.signal),
    'logcat.runtime_state': ({ serial, package: pkg }, service, ctx) =>
      readRuntimeState(deviceOf(serial), pkg, ctx.signal, service.crashCountOf(pkg)),
    'logcat.scope_packages': ({ serial, scope }, _service, ctx) =>
      readScopePackages(deviceOf(serial), scope, ctx.signal),
    'logcat.launch_time': (p, _service, ctx) =>
      readLaunchTime(deviceOf(p.serial), p.package, p.since_s, p.timeout_ms, ctx.signal),
    'logcat.crash_context': (payload, service) => crashContext(service.store, service.groups, payload),
  },
});
