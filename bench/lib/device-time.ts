/**
 * The device's side of a call, from the sim's command log (`droidbus sim --command-log FILE`: one JSON
 * line per command with its start and end, epoch ms): host time = a call's time minus the time its
 * device was busy within it.
 */
import { readFileSync } from 'node:fs';

/** Epoch ms with a fraction, the clock the sim's log uses. */
export const now = (): number => performance.timeOrigin + performance.now();

export interface LoggedCommand {
  t0: number;
  t1: number;
  dev: string;
}

/** The device's busy time within [a, b] (the union of its commands' spans) and how many commands ran. */
export function deviceTime(
  log: LoggedCommand[],
  serial: string,
  a: number,
  b: number,
): { busy: number; commands: number } {
  const spans = log
    .filter((e) => e.dev === serial && e.t1 >= a && e.t0 <= b)
    .map((e) => [Math.max(a, e.t0), Math.min(b, e.t1)] as const)
    .sort((x, y) => x[0] - y[0]);
  let busy = 0;
  let end = -Infinity;
  for (const [s, e] of spans) {
    if (s > end) {
      busy += e - s;
      end = e;
    } else if (e > end) {
      busy += e - end;
      end = e;
    }
  }
  return { busy, commands: spans.length };
}

/** The log's commands so far (none when it is not there yet). */
export function readLog(file: string): LoggedCommand[] {
  try {
    return readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as LoggedCommand);
  } catch {
    return [];
  }
}
