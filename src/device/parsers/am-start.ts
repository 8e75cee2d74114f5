/**
 * What `am start -W` prints, read: the launch state and the times (`LaunchState: COLD`, `TotalTime:`,
 * `WaitTime:`; `ThisTime:` before Android 10), and the one-line summary the launch tools show; plus
 * the launcher activity `cmd package resolve-activity --brief` names.
 */

/** The times and state of one `am start -W`. */
export interface AmStartTiming {
  total_ms: number | null;
  wait_ms: number | null;
  /** `COLD`, `WARM`, `HOT`, `UNKNOWN (0)` … as printed; null when the device printed none. */
  launch_state: string | null;
  /** The `Activity:` line: the component that ended up in front. */
  activity: string | null;
  /** `Status: ok` (or `timeout`, …); null when absent. */
  status: string | null;
}

function field(output: string, name: string): string | null {
  const m = new RegExp(`^\\s*${name}:\\s*(.+?)\\s*$`, 'm').exec(output);
  return m?.[1] ?? null;
}

function millis(value: string | null): number | null {
  if (value === null) {
    return null;
  }
  const m = /^(\d+)(?:\s*ms)?$/.exec(value);
  return m ? Number(m[1]) : null;
}

/** Reads the `-W` block of `am start` output (any Android version). */
export function parseAmStartTiming(output: string): AmStartTiming {
  return {
    total_ms: millis(field(output, 'TotalTime')) ?? millis(field(output, 'ThisTime')),
    wait_ms: millis(field(output, 'WaitTime')),
    launch_state: field(output, 'LaunchState'),
    activity: field(output, 'Activity'),
    status: field(output, 'Status'),
  };
}

/** The launch states after which Android logs a `Displayed` line (a window was drawn for the start). */
export function drawsNewWindow(timing: AmStartTiming): boolean {
  if (timing.total_ms === null) {
    return false;
  }
  const state = timing.launch_state?.toUpperCase() ?? null;
  return state === null || state === 'COLD' || state === 'WARM' || state === 'RELAUNCH';
}

/** `Launch time: 812 ms (cold), wait 815 ms`, or what the device did not report. */
export function timingLine(timing: AmStartTiming): string {
  const state = timing.launch_state !== null ? ` (${timing.launch_state.toLowerCase()})` : '';
  const wait = timing.wait_ms !== null ? `, wait ${timing.wait_ms} ms` : '';
  if (timing.total_ms === null) {
    return `No launch time was reported${state}${wait}.`;
  }
  return `Launch time: ${timing.total_ms} ms${state}${wait}`;
}

/** The component `resolve-activity --brief` printed last (`pkg/.Main`), or null for "No activity found". */
export function parseResolvedActivity(output: string): string | null {
  const lines = output
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
  const last = lines[lines.length - 1];
  return last !== undefined && /^[A-Za-z][\w.]*\/[.\w$]+$/.test(last) ? last : null;
}

/** The package manager refused: `Failure [...]`, `Error: …`, an exception; null when it did not. */
export function pmFailure(output: string, exitCode: number | null): string | null {
  const lines = output
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
  const bad = lines.find(
    (l) =>
      /^Failure\b/.test(l) ||
      /^Error\b/.test(l) ||
      /^Security exception:/.test(l) ||
      /^(java|android)\.\S*(Exception|Error)\b/.test(l),
  );
  if (bad !== undefined) {
    return bad.slice(0, 500);
  }
  const exception = lines.findIndex((l) => l.startsWith('Exception occurred while executing'));
  if (exception >= 0) {
    return (lines[exception + 1] ?? lines[exception] ?? '').slice(0, 500);
  }
  if (exitCode !== null && exitCode !== 0) {
    return `exited with status ${exitCode}${lines.length ? `: ${lines.slice(-2).join(' ').slice(0, 400)}` : ''}`;
  }
  return null;
}
