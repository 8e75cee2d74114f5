/**
 * The `Displayed` launch time of one package, read from the device's log buffer rather than a
 * stream, so `restart_app` has it whether or not logcat streams: `logcat -d -t SECONDS.000` (only
 * lines since the launch began) with ActivityTaskManager and ActivityManager at Info, parsed by the
 * logcat parser, and the newest `Displayed` line whose component is exactly that package's. The line
 * is logged when the first frame is drawn, which can trail `am start -W` a little, so it is polled
 * for until `timeoutMs`.
 */
import { READS, readCommand } from '../../device/reads.js';
import type { Device } from '../../device/device.js';
import type { ResponseOf } from '../../bus/registry.js';
import { parseLaunchTime } from './logcat-enrich.js';
import { parseLogcat } from './logcat-parse.js';
import { formatLogTime } from './logcat-time.js';

type LaunchLine = NonNullable<ResponseOf<'logcat.launch_time'>['displayed']>;

const LAUNCH_TAGS = new Set(['ActivityTaskManager', 'ActivityManager']);
const POLL_MS = 200;

/**
 * The newest `Displayed` line of exactly `pkg` in threadtime text, and the newest `Fully drawn` one
 * (logged when the app calls reportFullyDrawn()); null for each that is not there.
 */
export function launchTimesOf(
  text: string,
  pkg: string,
): { displayed: LaunchLine | null; fully_drawn: LaunchLine | null } {
  const { entries } = parseLogcat(text);
  const found: { displayed: LaunchLine | null; fully_drawn: LaunchLine | null } = {
    displayed: null,
    fully_drawn: null,
  };
  for (const e of entries) {
    if (!LAUNCH_TAGS.has(e.tag)) {
      continue;
    }
    const launch = parseLaunchTime(e.message);
    if (launch === null || launch.package !== pkg) {
      continue;
    }
    found[launch.kind] = {
      ms: Math.round(launch.ms),
      total_ms: launch.total_ms === null ? null : Math.round(launch.total_ms),
      component: launch.component,
      tag: e.tag,
      time: formatLogTime(e.ts),
    };
  }
  return found;
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

/**
 * Polls the device's log for the `Displayed` line of `pkg` since `sinceS` (device epoch seconds);
 * a `Fully drawn` line comes along when it was logged by then (it is not waited for: most apps never
 * report one).
 */
export async function readLaunchTime(
  device: Device,
  pkg: string,
  sinceS: number,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<ResponseOf<'logcat.launch_time'>> {
  const deadline = Date.now() + timeoutMs;
  const command = readCommand(READS.launchLog, { since: `${sinceS}.000` });
  for (;;) {
    const out = await device.shell(command, { signal, timeoutMs: 15_000, maxBytes: 8 * 1024 * 1024 });
    const times = launchTimesOf(out.stdout, pkg);
    if (times.displayed !== null || Date.now() + POLL_MS > deadline || signal.aborted) {
      return times;
    }
    await pause(POLL_MS, signal);
  }
}
