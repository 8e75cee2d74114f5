/**
 * The frames an app's processes render, as hwui's JankTracker counts them, and `dumpsys gfxinfo
 * PKG [reset]` printed as ProfileData::dump prints them (AOSP frameworks/base
 * libs/hwui/ProfileData.cpp): the frame-time histogram in its buckets (1 ms up to 32 ms, 2 ms up to
 * 48 ms, then 4 ms, then 50 ms "slow" buckets from 150 ms), the percentiles found from the top of
 * that histogram, one `Number <reason>` line per jank reason, and the GPU histogram (1–25 ms, then
 * 4950). `Janky frames (legacy)` and the deadline reasons exist from Android 12 (API 31), the GPU
 * lines from Android 10 (API 29). `reset` dumps first and then clears (JankTracker::reset).
 *
 * What the frames take is a model: each input renders frames (a tap's ripple, a swipe's scroll and
 * fling, a launch's first frames) whose durations cycle through a fixed pattern — most well inside
 * a 60 Hz frame, one in ten a slow UI-thread frame of 24 ms — so a test can predict every figure.
 */
import { since } from './android-versions.js';

/** Milliseconds each frame takes, in turn. */
const PATTERN_MS = [6, 7, 5, 8, 6, 9, 6, 7, 11, 24];
/** The GPU's share of each frame, ms. */
const GPU_PATTERN_MS = [3, 3, 2, 4, 3, 4, 3, 3, 5, 9];
const FRAME_INTERVAL_MS = 1000 / 60;
/**
 * Frames an input renders. Model values, not measured on a phone (no public capture gives them):
 * enough frames per input that a test's few inputs produce janky frames to count.
 */
export const FRAMES_PER = { tap: 8, key: 2, text: 2, swipe: 30, launch: 24 } as const;
export type FrameCause = keyof typeof FRAMES_PER;

const NORMAL_BUCKETS = 57;
const SLOW_BUCKETS = 97;
const GPU_BUCKETS = 26;

/** ProfileData::frameTimeForFrameCountIndex. */
function bucketMs(index: number): number {
  let i = index + 5;
  if (i > 32) {
    i += i - 32;
  }
  if (i > 48) {
    i += i - 48 + 1;
  }
  return i;
}

/** ProfileData's normal bucket of a frame time (the model's frames never reach the 150 ms slow buckets). */
function bucketOf(ms: number): number {
  if (ms <= 5) {
    return 0;
  }
  for (let i = NORMAL_BUCKETS - 1; i >= 0; i--) {
    if (ms >= bucketMs(i)) {
      return i;
    }
  }
  return 0;
}

interface Counters {
  since: number;
  frames: number;
  next: number;
  janky: number;
  slowUi: number;
  buckets: number[];
  slow: number[];
  gpu: number[];
}

function fresh(sinceNs: number): Counters {
  return {
    since: sinceNs,
    frames: 0,
    next: 0,
    janky: 0,
    slowUi: 0,
    buckets: new Array<number>(NORMAL_BUCKETS).fill(0),
    slow: new Array<number>(SLOW_BUCKETS).fill(0),
    gpu: new Array<number>(GPU_BUCKETS).fill(0),
  };
}

/** ProfileData::findPercentile over the normal and slow buckets. */
function percentile(c: Counters, p: number): number {
  let remaining = c.frames - Math.floor((p * c.frames) / 100);
  for (let i = SLOW_BUCKETS - 1; i >= 0; i--) {
    remaining -= c.slow[i]!;
    if (remaining <= 0) {
      return 150 + i * 50;
    }
  }
  for (let i = NORMAL_BUCKETS - 1; i >= 0; i--) {
    remaining -= c.buckets[i]!;
    if (remaining <= 0) {
      return bucketMs(i);
    }
  }
  return 0;
}

const gpuMs = (i: number): number => (i !== 25 ? i + 1 : 4950);

function gpuPercentile(c: Counters, p: number): number {
  const total = c.gpu.reduce((a, b) => a + b, 0);
  let remaining = total - Math.floor((p * total) / 100);
  for (let i = GPU_BUCKETS - 1; i >= 0; i--) {
    remaining -= c.gpu[i]!;
    if (remaining <= 0) {
      return gpuMs(i);
    }
  }
  return 0;
}

const pct = (n: number, of: number): string => (of === 0 ? 0 : (n / of) * 100).toFixed(2);

/** Every app process's frame counters, by pid. */
export class FrameStatsModel {
  private readonly byPid = new Map<number, Counters>();

  constructor(private readonly nowNs: () => number) {}

  /** The process renders the frames `cause` makes. */
  render(pid: number, cause: FrameCause): void {
    const c = this.countersOf(pid);
    for (let n = 0; n < FRAMES_PER[cause]; n++) {
      const k = c.next++ % PATTERN_MS.length;
      const ms = PATTERN_MS[k]!;
      c.frames++;
      c.buckets[bucketOf(ms)]!++;
      c.gpu[Math.min(25, GPU_PATTERN_MS[k]! - 1)]!++;
      if (ms > FRAME_INTERVAL_MS) {
        c.janky++;
        c.slowUi++;
      }
    }
  }

  /** `dumpsys gfxinfo PKG` for the process `pid`; with `reset`, its counters start over after. */
  dump(pid: number, name: string, sdk: number, reset: boolean): string {
    const c = this.countersOf(pid);
    const lines = [
      'Applications Graphics Acceleration Info:',
      `Uptime: ${Math.floor(this.nowNs() / 1e6)} Realtime: ${Math.floor(this.nowNs() / 1e6)}`,
      '',
      `** Graphics info for pid ${pid} [${name}] **`,
      '',
      `Stats since: ${c.since}ns`,
      `Total frames rendered: ${c.frames}`,
      `Janky frames: ${c.janky} (${pct(c.janky, c.frames)}%)`,
      ...(since(sdk, 'jankLegacy') ? [`Janky frames (legacy): ${c.janky} (${pct(c.janky, c.frames)}%)`] : []),
      ...[50, 90, 95, 99].map((p) => `${p}th percentile: ${percentile(c, p)}ms`),
      'Number Missed Vsync: 0',
      'Number High input latency: 0',
      `Number Slow UI thread: ${c.slowUi}`,
      'Number Slow bitmap uploads: 0',
      'Number Slow issue draw commands: 0',
      ...(since(sdk, 'jankLegacy')
        ? [`Number Frame deadline missed: ${c.janky}`, `Number Frame deadline missed (legacy): ${c.janky}`]
        : []),
      `HISTOGRAM:${c.buckets.map((n, i) => ` ${bucketMs(i)}ms=${n}`).join('')}${c.slow.map((n, i) => ` ${150 + i * 50}ms=${n}`).join('')}`,
      ...(since(sdk, 'gpuStats')
        ? [
            ...[50, 90, 95, 99].map((p) => `${p}th gpu percentile: ${gpuPercentile(c, p)}ms`),
            `GPU HISTOGRAM:${c.gpu.map((n, i) => ` ${gpuMs(i)}ms=${n}`).join('')}`,
            'Pipeline=Skia (OpenGL)',
          ]
        : []),
      '',
    ];
    if (reset) {
      this.byPid.set(pid, fresh(this.nowNs()));
    }
    return lines.join('\n');
  }

  private countersOf(pid: number): Counters {
    let c = this.byPid.get(pid);
    if (!c) {
      c = fresh(this.nowNs());
      this.byPid.set(pid, c);
    }
    return c;
  }
}
