/**
 * What a client made a simulated device do, read from the sim's `--command-log` file: the commands
 * and streams, and those a phone would not have served — a shell command the device lacks (the
 * shell's exit 127, "not found") and a stream it refused (other than `tcp:PORT` before something
 * listens there, which a phone refuses too).
 */
import { existsSync, readFileSync } from 'node:fs';
import type { CommandLogEntry } from '../../src/sim/index.js';
import { until } from './until.js';

export interface CommandLogSummary {
  entries: CommandLogEntry[];
  /** Shell and exec command lines that exited 127, but for the allowed programs. */
  missing: string[];
  /** Services refused, but for `tcp:PORT`. */
  refused: string[];
  /** The distinct programs run, sorted. */
  programs: string[];
}

/** Reads the log once it holds lines; `absentOnPhones` are programs a phone lacks too (`su`). */
export async function readCommandLog(
  file: string,
  absentOnPhones: readonly string[] = [],
): Promise<CommandLogSummary> {
  const text = await until('the command log', () => {
    const t = existsSync(file) ? readFileSync(file, 'utf8') : '';
    return t.includes('"kind"') ? t : undefined;
  });
  const entries = text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as CommandLogEntry);
  const program = (e: CommandLogEntry): string => e.cmd.split(' ')[0] ?? '';
  return {
    entries,
    missing: entries
      .filter((e) => (e.kind === 'shell' || e.kind === 'exec') && e.code === 127)
      .filter((e) => !absentOnPhones.includes(program(e)))
      .map((e) => e.cmd),
    refused: entries
      .filter((e) => e.kind === 'open' && e.code === -1 && !/^tcp:\d+$/.test(e.cmd))
      .map((e) => e.cmd),
    programs: [...new Set(entries.filter((e) => e.kind !== 'open').map(program))].sort(),
  };
}
