/**
 * The headline of a deobfuscated Java trace: its root cause (the last `Caused by:`, else the thrown
 * exception) and the first frame of the app's own code, so the first line an agent reads after a
 * retrace names real classes — the crash's own summary was made from the obfuscated trace.
 */

/** The frame text of an `at …` line (R8's `<OR> at` alternatives are not the frame that ran). */
function frameOf(line: string): string | null {
  const m = /^\s*at\s+(\S.*)$/.exec(line);
  return m ? m[1]!.trim() : null;
}

/**
 * `Root cause: EXCEPTION: message — at FRAME` from a retraced trace, or null when the text holds no
 * Java exception. FRAME is the first frame of `pkg` (its package or a sub-package) among the root
 * cause's frames, else anywhere in the trace, else the root cause's first frame.
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
  const ownIn = (from: string[]): string | undefined =>
    pkg === null
      ? undefined
      : from.map(frameOf).find((f): f is string => f !== null && f.startsWith(`${pkg}.`));
  // The app's frame nearest the root cause: in the cause's own frames, else where the app called in.
  const own = ownIn(lines.slice(root + 1)) ?? ownIn(lines);
  const first = lines
    .slice(root + 1)
    .map(frameOf)
    .find((f) => f !== null);
  const where = own ?? first;
  return `Root cause: ${cause.slice(0, 300)}${where ? ` — at ${where}` : ''}`;
}

/** Frames of the platform and the libraries every app ships, collapsed in a short trace. */
const PLATFORM_FRAME =
  /^(?:android|androidx|java|javax|jdk|sun|kotlin|kotlinx|dalvik|libcore|com\.android|com\.google\.android|org\.apache|org\.json|org\.chromium)\./;

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
    if (throwSite || !PLATFORM_FRAME.test(frame)) {
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

/**
 * Crashes (newest first) with each group's newest crash first, then the repeats, each part newest
 * first: an answer cut to its budget keeps one crash of every group before any repeat, so one
 * group's repeats never crowd another group (another app, another device) out.
 */
export function groupLeadsFirst<C extends { group_id: string | null; seq: number }>(
  crashes: readonly C[],
): C[] {
  const seen = new Set<string>();
  const leads: C[] = [];
  const repeats: C[] = [];
  for (const c of crashes) {
    const key = c.group_id ?? `seq-${c.seq}`;
    (seen.has(key) ? repeats : leads).push(c);
    seen.add(key);
  }
  return [...leads, ...repeats];
}
