/**
 * The headline of a deobfuscated Java trace: its root cause (the last `Caused by:`, else the thrown
 * exception) and the first frame of the app's own code, so the first line an agent reads after a
 * retrace names real classes — the crash's own summary was made from the obfuscated trace.
 */
import { isPlatformFrame, rootCauseFrame } from '../../util/java-frames.js';

/** The frame text of an `at …` line (R8's `<OR> at` alternatives are not the frame that ran). */
function frameOf(line: string): string | null {
  const m = /^\s*at\s+(\S.*)$/.exec(line);
  return m ? m[1]!.trim() : null;
}

/**
 * `Root cause: EXCEPTION: message — at FRAME` from a retraced trace, or null when the text holds no
 * Java exception. FRAME is the root cause's first frame of `pkg` (its package or a sub-package), else
 * its first frame outside the platform (util/java-frames.ts rootCauseFrame).
 */
export function retracedHeadline(trace: string, pkg: string | null): string | null {
  const lines = trace.split('\n').map((l) => l.replace(/\r$/, ''));
  const exceptionLine = (l: string): boolean =>
    /^(?:Caused by: )?[\w$.]+(?:Exception|Error|Throwable)\b/.test(l.trim());
  let root = -1;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!.trim();
    if (l.startsWith('Caused by: ') || (root < 0 && exceptionLine(l))) {
      root = i;
    }
  }
  if (root < 0) {
    return null;
  }
  const cause = lines[root]!.trim().replace(/^Caused by: /, '');
  // The frames of each throwable, outermost first (the root cause's last): the headline's frame is
  // the root cause's own — the app's, else outside the platform — and outward only when it has none.
  const throwables: string[][] = [[]];
  for (const [i, line] of lines.entries()) {
    const f = frameOf(line);
    if (f !== null) {
      throwables.at(-1)!.push(f);
    } else if (i > 0 && line.trim().startsWith('Caused by: ')) {
      throwables.push([]);
    }
  }
  const where = rootCauseFrame(throwables, (f) => pkg !== null && f.startsWith(`${pkg}.`));
  return `Root cause: ${cause.slice(0, 300)}${where ? ` — at ${where}` : ''}`;
}

/**
 * The headline of an ANR whose threads were read (its trace ends with the main thread's and the
 * holder's frames, logcat-actor anr-stacks.ts; retraced or not): `Main thread Blocked at FRAME —
 * waiting for "Holder" (tid N, State) at FRAME`, each FRAME the thread's first outside the platform
 * (where it is stuck in the app's code), or null when the trace has no threads.
 */
export function anrHeadline(trace: string, pkg: string | null): string | null {
  const lines = trace.split('\n').map((l) => l.replace(/\r$/, ''));
  const framesAfter = (i: number): string[] => {
    const out: string[] = [];
    for (const l of lines.slice(i + 1)) {
      const f = frameOf(l);
      if (f === null) {
        break;
      }
      out.push(f);
    }
    return out;
  };
  const own = (f: string): boolean => pkg !== null && f.startsWith(`${pkg}.`);
  const main = lines.findIndex((l) => /^"[^"]*" tid=1 \w+/.test(l));
  if (main < 0) {
    return null;
  }
  const state = /^"[^"]*" tid=1 (\w+)/.exec(lines[main]!)![1];
  const mainFrame = rootCauseFrame([framesAfter(main)], own);
  const holderAt = lines.findIndex((l, i) => i > main && /^"[^"]*" tid=\d+ \w+ — holds /.test(l));
  const holder = holderAt < 0 ? null : /^"([^"]*)" tid=(\d+) (\w+)/.exec(lines[holderAt]!);
  const holderFrame = holderAt < 0 ? null : rootCauseFrame([framesAfter(holderAt)], own);
  return `Main thread ${state}${mainFrame ? ` at ${mainFrame}` : ''}${
    holder
      ? ` — waiting for "${holder[1]}" (tid ${holder[2]}, ${holder[3]})${holderFrame ? ` at ${holderFrame}` : ''}`
      : ''
  }${/ — a deadlock$/.test(lines[main]!) ? ' — a deadlock' : ''}`;
}

/**
 * A Java trace as an agent needs it first: every exception and `Caused by:` line, the frame each
 * was thrown at, and the app's frames; each run of other platform frames becomes one
 * `… N framework frames` line. `hidden` counts the frames left out (0: the trace is whole).
 */
export function shortTrace(trace: string): { text: string; hidden: number } {
  const out: string[] = [];
  let run = 0;
  let hidden = 0;
  let indent = '\t';
  let throwSite = false;
  const flush = (): void => {
    if (run > 0) {
      out.push(`${indent}… ${run} framework frame${run > 1 ? 's' : ''}`);
      hidden += run;
      run = 0;
    }
  };
  for (const line of trace.split('\n')) {
    const frame = frameOf(line);
    if (frame === null) {
      flush();
      out.push(line);
      throwSite = true;
      continue;
    }
    if (throwSite || !isPlatformFrame(frame)) {
      flush();
      out.push(line);
    } else {
      indent = /^\s*/.exec(line)![0];
      run++;
    }
    throwSite = false;
  }
  flush();
  return { text: out.join('\n'), hidden };
}
