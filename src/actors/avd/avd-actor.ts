/**
 * The avd actor: the SDK's AVDs and their emulators. `avd.list` runs `emulator -list-avds` and names
 * the running emulators' AVDs (their consoles answer `avd name`); `avd.launch` starts `emulator -avd
 * NAME` and waits until adb lists the emulator whose AVD name matches — online and booted — even when
 * other emulators start at the same time; `avd.stop` sends `kill` to an emulator's console and waits
 * until adb no longer lists it.
 */
import { READS } from '../../device/reads.js';
import type { ChildProcess } from 'node:child_process';
import { EmulatorConsoleError, emulatorAvdName, withEmulatorConsole } from '../../adb/emulator-console.js';
import { BusError } from '../../bus/errors.js';
import type { PayloadOf, ResponseOf } from '../../bus/registry.js';
import { emulatorConsolePortOf } from '../../util/app-args.js';
import { defineActor } from '../actor.js';
import type { HandlerContext } from '../actor.js';
import { deviceOf, listAdbDevices } from '../../device/adb-instance.js';
import { findEmulator, killEmulator, listAvds, logTail, startEmulator } from './emulator-binary.js';

/** How long launch_avd waits for the emulator (the reference's 60 s). */
export const LAUNCH_TIMEOUT_MS = 60_000;
/** How long stop_avd waits for adb to stop listing it. */
export const STOP_TIMEOUT_MS = 30_000;
const POLL_MS = 500;
const CONSOLE_TIMEOUT_MS = 3_000;

type LaunchOutcome = ResponseOf<'avd.launch'>;

interface AvdState {
  /** Launches in flight, by AVD name: a second request waits for the first. */
  launching: Map<string, Promise<LaunchOutcome>>;
  /** Emulator processes this droidbus started, by AVD name. */
  children: Map<string, ChildProcess>;
  /** AVD names consoles answered, by serial (dropped when adb stops listing the serial). */
  names: Map<string, string>;
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

/** The emulators adb lists now, with their AVD names (asked once per serial). */
async function runningEmulators(
  state: AvdState,
  signal: AbortSignal,
): Promise<{ serial: string; avd_name: string | null; state: string }[]> {
  const devices = await listAdbDevices({ signal, timeoutMs: 5_000 });
  const emulators = devices.filter((d) => emulatorConsolePortOf(d.serial) !== null);
  for (const serial of [...state.names.keys()]) {
    if (!emulators.some((d) => d.serial === serial)) {
      state.names.delete(serial);
    }
  }
  return Promise.all(
    emulators.map(async (d) => {
      let name = state.names.get(d.serial) ?? null;
      if (name === null) {
        name = await emulatorAvdName(emulatorConsolePortOf(d.serial)!, {
          signal,
          timeoutMs: CONSOLE_TIMEOUT_MS,
        }).catch(() => null);
        if (name !== null) {
          state.names.set(d.serial, name);
        }
      }
      return { serial: d.serial, avd_name: name, state: d.state };
    }),
  );
}

async function booted(serial: string, signal: AbortSignal): Promise<boolean> {
  try {
    const r = await deviceOf(serial).read(READS.bootCompleted, {}, { signal, timeoutMs: 5_000 });
    return r.stdout.trim() === '1';
  } catch {
    return false;
  }
}

/** The emulator binary, or the tool error saying how to get one. */
function requireEmulator(root: string | null): string {
  const found = findEmulator(root);
  if (found.emulator === null) {
    throw new BusError('FAILED', found.hint ?? 'no emulator binary was found');
  }
  return found.emulator;
}

async function launch(
  state: AvdState,
  p: PayloadOf<'avd.launch'>,
  ctx: HandlerContext,
): Promise<LaunchOutcome> {
  const started = Date.now();
  const emulator = requireEmulator(p.root);
  const { avds, error } = await listAvds(emulator, ctx.signal);
  if (!avds.includes(p.name)) {
    if (error !== null && avds.length === 0) {
      throw new BusError('FAILED', error);
    }
    throw new BusError(
      'INVALID',
      `there is no AVD named ${p.name} (the SDK's AVDs: ${avds.join(', ') || 'none'}); call list_avds`,
    );
  }
  const pending = state.launching.get(p.name);
  if (pending !== undefined) {
    const first = await pending;
    return { ...first, already_running: true, pid: null, elapsed_ms: Date.now() - started };
  }
  // Registered before the first await, so a second request for the same AVD waits for this one.
  const run = (async (): Promise<LaunchOutcome> => {
    // An emulator of this AVD that adb lists already (booting, or started by someone else) is waited for, not started twice.
    const listed = (await runningEmulators(state, ctx.signal)).some((e) => e.avd_name === p.name);
    return listed
      ? waitOnline(state, p.name, null, started, ctx)
      : startAndWait(state, emulator, p.name, started, ctx);
  })();
  state.launching.set(p.name, run);
  try {
    return await run;
  } finally {
    state.launching.delete(p.name);
  }
}

function startAndWait(
  state: AvdState,
  emulator: string,
  name: string,
  started: number,
  ctx: HandlerContext,
): Promise<LaunchOutcome> {
  let child: ChildProcess;
  try {
    child = startEmulator(emulator, name);
  } catch (err) {
    throw new BusError(
      'FAILED',
      `could not start ${emulator}: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  state.children.set(name, child);
  child.once('exit', () => {
    if (state.children.get(name) === child) {
      state.children.delete(name);
    }
  });
  return waitOnline(state, name, child, started, ctx);
}

/**
 * Polls adb until the emulator whose console names `name` is online and booted. `child` is the
 * emulator process this request started (null when it waits for one that was already there).
 */
async function waitOnline(
  state: AvdState,
  name: string,
  child: ChildProcess | null,
  started: number,
  ctx: HandlerContext,
): Promise<LaunchOutcome> {
  let exit: string | null = null;
  let spawnError: string | null = null;
  child?.once('error', (err) => {
    spawnError = err.message;
  });
  child?.once('exit', (code, signal) => {
    exit = code !== null ? `exit status ${code}` : `signal ${signal ?? '?'}`;
  });
  const deadline = Math.min(started + LAUNCH_TIMEOUT_MS, ctx.deadline - 1_000);
  const total = LAUNCH_TIMEOUT_MS / 1000;
  for (;;) {
    if (ctx.signal.aborted) {
      if (child !== null) {
        killEmulator(child);
      }
      throw new BusError(
        'CANCELLED',
        `launching ${name} was cancelled${child !== null ? '; the emulator it started was stopped' : ''}`,
      );
    }
    if (spawnError !== null || exit !== null) {
      const tail = logTail(name);
      throw new BusError(
        'FAILED',
        `the emulator for ${name} ${spawnError !== null ? `could not start (${spawnError})` : `exited (${exit})`} before it was online${tail ? `; its last output:\n${tail}` : ''}`,
      );
    }
    const mine = (await runningEmulators(state, ctx.signal)).find((e) => e.avd_name === name);
    const elapsed = Date.now() - started;
    if (mine !== undefined && mine.state === 'device' && (await booted(mine.serial, ctx.signal))) {
      ctx.progress({
        progress: Math.round(elapsed / 1000),
        total,
        message: `${name} is online as ${mine.serial}`,
      });
      return {
        serial: mine.serial,
        avd_name: name,
        already_running: child === null,
        pid: child?.pid ?? null,
        elapsed_ms: elapsed,
      };
    }
    ctx.progress({
      progress: Math.round(elapsed / 1000),
      total,
      message:
        mine === undefined
          ? `waiting for adb to list ${name}'s emulator`
          : `${name} is ${mine.serial} (${mine.state}); waiting for it to finish booting`,
    });
    if (Date.now() + POLL_MS > deadline) {
      throw new BusError(
        'TIMEOUT',
        `${name} did not come online within ${total} s${child !== null ? `; its emulator (pid ${child.pid ?? '?'}) keeps starting` : ''} — list_devices shows it once it is online, stop_avd stops it`,
      );
    }
    await pause(POLL_MS, ctx.signal);
  }
}

async function stop(
  state: AvdState,
  p: PayloadOf<'avd.stop'>,
  ctx: HandlerContext,
): Promise<ResponseOf<'avd.stop'>> {
  const started = Date.now();
  const port = emulatorConsolePortOf(p.serial);
  if (port === null) {
    throw new BusError('INVALID', `${p.serial} is not an emulator serial (emulator-N)`);
  }
  const listed = await runningEmulators(state, ctx.signal);
  const entry = listed.find((e) => e.serial === p.serial);
  if (entry === undefined) {
    throw new BusError(
      'FAILED',
      `adb does not list ${p.serial} (running emulators: ${listed.map((e) => e.serial).join(', ') || 'none'}); call list_devices`,
    );
  }
  try {
    const answer = await withEmulatorConsole(port, (session) => session.send('kill'), {
      signal: ctx.signal,
      timeoutMs: 10_000,
    });
    if (!answer.ok) {
      throw new BusError('FAILED', `the console of ${p.serial} refused kill: ${answer.line}`);
    }
  } catch (err) {
    if (err instanceof BusError) {
      throw err;
    }
    // The console may close the connection right after its answer; only a refusal before it counts.
    if (!(err instanceof EmulatorConsoleError && err.kind === 'closed')) {
      throw new BusError(
        err instanceof EmulatorConsoleError && err.kind === 'cancelled' ? 'CANCELLED' : 'FAILED',
        `could not send kill to the console of ${p.serial}: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
  }
  const deadline = started + STOP_TIMEOUT_MS;
  for (;;) {
    const devices = await listAdbDevices({ signal: ctx.signal, timeoutMs: 5_000 });
    if (!devices.some((d) => d.serial === p.serial)) {
      state.names.delete(p.serial);
      return { serial: p.serial, avd_name: entry.avd_name, elapsed_ms: Date.now() - started };
    }
    if (ctx.signal.aborted) {
      throw new BusError('CANCELLED', `stopping ${p.serial} was cancelled after kill was sent`);
    }
    if (Date.now() + 250 > deadline) {
      throw new BusError(
        'TIMEOUT',
        `${p.serial} accepted kill but adb still lists it after ${STOP_TIMEOUT_MS / 1000} s; check it with list_devices`,
      );
    }
    await pause(250, ctx.signal);
  }
}

export default defineActor({
  kind: 'avd',
  concurrency: 8,
  start: (): AvdState => ({ launching: new Map(), children: new Map(), names: new Map() }),
  handlers: {
    'avd.list': async (p, state, ctx) => {
      const found = findEmulator(p.root);
      const listed = found.emulator !== null ? await listAvds(found.emulator, ctx.signal) : null;
      const running = await runningEmulators(state, ctx.signal).catch(() => []);
      return {
        emulator: found.emulator,
        sdk: found.sdk,
        avds: listed?.avds ?? [],
        running,
        hint: found.hint ?? listed?.error ?? null,
      };
    },
    'avd.launch': (p, state, ctx) => launch(state, p, ctx),
    'avd.stop': (p, state, ctx) => stop(state, p, ctx),
  },
});
