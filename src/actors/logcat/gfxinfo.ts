/**
 * `dumpsys gfxinfo PACKAGE`: an app's frame statistics as hwui's JankTracker keeps them. Each block
 * is ProfileData::dump's (AOSP frameworks/base libs/hwui/ProfileData.cpp): `Stats since`, `Total
 * frames rendered`, `Janky frames` (and, from Android 12, `Janky frames (legacy)`), the 50/90/95/99th
 * percentiles, one `Number <reason>: N` line per jank reason, the HISTOGRAM, and from Android 10
 * the GPU percentiles and GPU HISTOGRAM. The process's block comes first; JankTracker::dumpData
 * prints a block per window after a `Window: NAME` line (`Package: NAME` for a package's). After
 * the blocks: `Pipeline=`, caches, and the view roots (`Profile data in ms:` lists them with their
 * visibility, `View hierarchy:` with their views and render-node memory).
 */
import type {
  FrameStatsBlockWire as FrameStatsBlock,
  GfxInfoWire as GfxInfo,
} from '../../bus/messages/logcat.js';

type ViewRoot = GfxInfo['view_roots'][number];

const HEADER = /^\*\* Graphics info for pid (\d+) \[([^\]]+)\] \*\*/;

function emptyBlock(window: string | null): FrameStatsBlock {
  return {
    window,
    stats_since_ns: null,
    frames: 0,
    janky_frames: 0,
    janky_pct: 0,
    janky_legacy: null,
    percentiles_ms: {},
    gpu_percentiles_ms: null,
    reasons: {},
  };
}

/** `Missed Vsync` → `missed_vsync`, `Frame deadline missed (legacy)` → `frame_deadline_missed_legacy`. */
function reasonKey(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
}

/** A number printed in the device's locale (`594,63`). */
function localNumber(text: string): number | null {
  const n = Number(text.replace(',', '.'));
  return Number.isFinite(n) ? n : null;
}

/** Reads one line of a block into it; false when the line is not a block line. */
function readBlockLine(block: FrameStatsBlock, line: string): boolean {
  let m: RegExpExecArray | null;
  if ((m = /^Stats since: (\d+)ns/.exec(line))) {
    block.stats_since_ns = Number(m[1]);
  } else if ((m = /^Total frames rendered: (\d+)/.exec(line))) {
    block.frames = Number(m[1]);
  } else if ((m = /^Janky frames \(legacy\): (\d+) \(([\d.,]+)%\)/.exec(line))) {
    block.janky_legacy = { frames: Number(m[1]), pct: localNumber(m[2]!) ?? 0 };
  } else if ((m = /^Janky frames: (\d+) \(([\d.,]+)%\)/.exec(line))) {
    block.janky_frames = Number(m[1]);
    block.janky_pct = localNumber(m[2]!) ?? 0;
  } else if ((m = /^(50|90|95|99)th (gpu )?percentile: (\d+)ms/.exec(line))) {
    const key = `p${m[1]}`;
    if (m[2]) {
      block.gpu_percentiles_ms ??= {};
      block.gpu_percentiles_ms[key] = Number(m[3]);
    } else {
      block.percentiles_ms[key] = Number(m[3]);
    }
  } else if ((m = /^Number (.+?): (\d+)$/.exec(line))) {
    block.reasons[reasonKey(m[1]!)] = Number(m[2]);
  } else if (!/^(GPU )?HISTOGRAM:/.test(line) && !line.startsWith('Note: ')) {
    return false;
  }
  // The histograms (what the percentiles summarize) and notes belong to the block but are not kept.
  return true;
}

/** The view roots: `Profile data in ms` names them with their visibility, `View hierarchy` counts them. */
function readViewRoots(lines: readonly string[], from: number): ViewRoot[] {
  const roots = new Map<string, ViewRoot>();
  const rootOf = (name: string): ViewRoot => {
    let r = roots.get(name);
    if (!r) {
      r = { name, visible: null, views: null, render_nodes_kb: null };
      roots.set(name, r);
    }
    return r;
  };
  let section: 'profile' | 'hierarchy' | null = null;
  let last: ViewRoot | null = null;
  for (let i = from; i < lines.length; i++) {
    const raw = lines[i]!;
    const line = raw.trim();
    if (HEADER.test(line)) {
      break;
    }
    if (line === 'Profile data in ms:') {
      section = 'profile';
    } else if (line === 'View hierarchy:') {
      section = 'hierarchy';
    } else if (line.startsWith('Total ViewRootImpl') || line === '') {
      section = line === '' ? section : null;
    } else if (section === 'profile') {
      const m = /^(.+?) \(visibility=(\d+)\)$/.exec(line);
      if (m) {
        rootOf(m[1]!).visible = m[2] === '0';
      }
    } else if (section === 'hierarchy') {
      const counts = /^(\d+) views, ([\d.,]+) kB of render nodes$/.exec(line);
      if (counts && last) {
        last.views = Number(counts[1]);
        last.render_nodes_kb = localNumber(counts[2]!);
      } else if (!counts) {
        last = rootOf(line);
      }
    }
  }
  return [...roots.values()];
}

/** The sections of the dump: one per `** Graphics info for pid N [name] **` header. */
function sections(lines: readonly string[]): { pid: number; process: string; at: number }[] {
  const out: { pid: number; process: string; at: number }[] = [];
  lines.forEach((line, at) => {
    const m = HEADER.exec(line.trim());
    if (m) {
      out.push({ pid: Number(m[1]), process: m[2]!, at });
    }
  });
  return out;
}

/** One process's section: its blocks, pipeline and view roots. */
function readSection(lines: readonly string[], from: number, to: number) {
  const blocks: FrameStatsBlock[] = [];
  let current: FrameStatsBlock | null = null;
  /** The block has printed its `Total frames rendered` (a second one starts the next block). */
  let counted = false;
  let pendingWindow: string | null = null;
  let pipeline: string | null = null;
  for (let i = from + 1; i < to; i++) {
    const line = lines[i]!.trim();
    const window = /^(?:Window|Package): (.+)$/.exec(line);
    if (window) {
      pendingWindow = window[1]!;
      current = null;
      continue;
    }
    // A block begins with `Stats since` (or, where a device prints none, its `Total frames rendered`).
    const total = line.startsWith('Total frames rendered:');
    if (line.startsWith('Stats since:') || (total && (current === null || counted))) {
      current = emptyBlock(pendingWindow);
      counted = false;
      pendingWindow = null;
      blocks.push(current);
    }
    if (current !== null && readBlockLine(current, line)) {
      counted ||= total;
      continue;
    }
    const p = /^Pipeline=(.+)$/.exec(line);
    if (p) {
      pipeline = p[1]!;
    }
  }
  return { blocks, pipeline, viewRoots: readViewRoots(lines.slice(0, to), from + 1) };
}

/**
 * Parses `dumpsys gfxinfo PACKAGE`; null when the dump has no process section (the app is not
 * running: the device says `No process found for: PACKAGE`).
 */
export function parseGfxInfo(text: string, pkg: string): GfxInfo | null {
  const lines = text.split(/\r?\n/);
  const found = sections(lines);
  if (found.length === 0) {
    return null;
  }
  const main = found.find((s) => s.process === pkg) ?? found[0]!;
  const index = found.indexOf(main);
  const end = found[index + 1]?.at ?? lines.length;
  const { blocks, pipeline, viewRoots } = readSection(lines, main.at, end);
  return {
    pid: main.pid,
    blocks,
    view_roots: viewRoots,
    pipeline,
  };
}
